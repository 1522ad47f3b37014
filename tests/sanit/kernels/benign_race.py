"""A benign race: every program stores its program id to out[0] as scratch,
then the same flag. The scratch stores race (their values differ); the
report names both programs, and rerunning under the reverse schedule shows
the final value does not depend on the order. (Stores of one value by every
program alone are no race: the last writer stored the same bits.)"""
# tritium: --kernel flag_kernel --grid 4
# tritium: --arg out=zeros:f32[1]
import triton
import triton.language as tl


@triton.jit
def flag_kernel(out):
    tl.store(out, tl.program_id(0).to(tl.float32) + 2.0)
    tl.store(out, 1.0)
