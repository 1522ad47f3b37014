# Found through --path (tests/conformance/meson.build).
import triton
import triton.language as tl

OFFSET = tl.constexpr(0.5)


@triton.jit
def add_offset(x):
    return x + OFFSET
