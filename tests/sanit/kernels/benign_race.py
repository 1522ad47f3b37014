"""A benign race: every program stores the same flag to out[0]. The race
report names both programs; rerunning under the reverse schedule shows the
final value does not depend on the order."""
# tritium: --kernel flag_kernel --grid 4
# tritium: --arg out=zeros:f32[1]
import triton
import triton.language as tl


@triton.jit
def flag_kernel(out):
    tl.store(out, 1.0)
