#! tests/debugger/kernels/helpers.py
# Inlined helpers: frames, step into, finish, until, and launch changes.
set trace-commands on
break square
info breakpoints
run
backtrace
up
info locals
print x
down
next
info locals
print t
finish
finish
delete
tbreak 24 pid (2)
continue
step
step
step
backtrace
next
next
next
next
until
advance 30
set grid 2
set const BLOCK=32
set arg x_ptr=ones:f32[64]
info launch
break 29 if i == 1
run
print z
info breakpoints
help finish
frobnicate
print nosuch
