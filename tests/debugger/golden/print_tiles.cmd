#! examples/matmul.py
# Tiles in a blocked matmul: the loop body of program (3,0,0).
set trace-commands on
break 70 pid (3)
run
print kt
print k_left
whatis a
print a
print ks[None, :] < k_left
print tl.sum(a.to(tl.float32), axis=1)
print/x kt + 255
set print elements 8
print ks
set print elements 1000
print acc
continue 3
print kt
info breakpoints
ir
stepi
stepi
ir
delete
kill
