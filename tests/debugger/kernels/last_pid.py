# A racy kernel: every program stores its id to out[0], so the final value is
# the id of the program that ran last. The schedule golden test reads it.
import triton
import triton.language as tl

# tritium: --grid 64 --arg out_ptr=zeros:i32[1]


@triton.jit
def last_pid_kernel(out_ptr):
    tl.store(out_ptr, tl.program_id(0))
