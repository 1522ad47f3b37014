"""Found only through the program's own sys.path change at run time
(pattern 5): nothing on the default path leads here."""
import triton
import triton.language as tl

SCALE = tl.constexpr(2.5)


@triton.jit
def scaled(x):
    return x * SCALE
