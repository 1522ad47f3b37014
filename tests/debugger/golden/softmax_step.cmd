#! examples/softmax.py --grid 4 --arg input_ptr=randn:f32[6,5] --arg output_ptr=empty:f32[6,5] --const BLOCK_SIZE=8
# Step through the fused softmax loop of program 1 (rows 1 and 5).
set trace-commands on
break 38 pid (1)
run
display row
print x
print tl.max(x, axis=0)
next
print shifted
next
print e
next
print total
print e / total
print tl.sum(e / total, axis=0)
next
next
next
info locals
until
until
info programs
delete
continue
print output_ptr[1]
