#! examples/oob_bug.py
# Find the planted out-of-bounds read: which program faults, and where.
set trace-commands on
run
info programs
break pid (3)
run
next
next
next
print offsets
print in_bounds
print tl.sum((offsets >= n_elements).to(tl.int32), axis=0)
print tl.min(tl.where(in_bounds, n_elements, offsets), axis=0)
next
backtrace
info programs
kill
