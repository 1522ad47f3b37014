#! examples/vector_add.py --arg output_ptr=zeros:f32[98432]
# Who writes output_ptr[1030]? Program 1, at the store on line 31.
set trace-commands on
watch output_ptr[1030]
rwatch x_ptr[1030]
info watchpoints
run
continue
print output_ptr[1030]
print x_ptr[1030]
print y_ptr[1030]
print x + y
continue
info watchpoints
