#! examples/vector_add.py
# Break on one program of vector add: the default schedule runs it first.
set trace-commands on
break pid (5)
info breakpoints
run
info programs
next
next
next
info locals
print offsets
print offsets < n_elements
next
print x
print tl.sum(x, axis=0)
print/x pid
print $1[:, None] * 2
whatis $1[:, None]
backtrace
list
next
print output_ptr[5120:5124]
print x_ptr[5120:5124]
continue
info programs
