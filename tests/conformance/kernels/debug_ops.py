"""tl.device_print / print, tl.device_assert / assert, tl.inline_asm_elementwise
and tl.tuple (issue 8): kernels for tests/conformance/test_debug_ops.py and the
GPU half (tests/conformance/gpu.sh)."""
import triton
import triton.language as tl


@triton.jit
def print_values(X, I, N: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(X + tl.arange(0, N))
    i = tl.reshape(tl.load(I + tl.arange(0, N)), (2, N // 2))
    tl.device_print("x", x)
    print("pid", pid)
    tl.device_print("hello")
    tl.device_print("two ", i, (i < 0).to(tl.int8))
    tl.device_print("bits", x, hex=True)


@triton.jit
def print_u64(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.device_print(" u=", x)


@triton.jit
def assert_lanes(X, Y, N: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.device_assert(x < 5 + pid, "x must stay small", mask=offs != 7)
    tl.store(Y + pid * N + offs, x + 1)


@triton.jit(debug=True)
def assert_stmt(X, Y, N: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(X + pid)
    assert x >= 0, "negative input"
    tl.store(Y + pid, x * 2)


@triton.jit
def asm_shift(X, Y, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    y = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Y + tl.arange(0, N), y)


@triton.jit
def asm_pack4(A, B, C, D, BLOCK: tl.constexpr):
    # the example of core.py's inline_asm_elementwise docstring: u8 packed 4 to a register
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    (c, d) = tl.inline_asm_elementwise(
        asm="""
        {
            .reg .b8 tmp<4>;
            mov.b32 {tmp0, tmp1, tmp2, tmp3}, $8;
            cvt.u32.u8 $0, tmp0;
            cvt.u32.u8 $1, tmp1;
            cvt.u32.u8 $2, tmp2;
            cvt.u32.u8 $3, tmp3;
        }
        cvt.rn.f32.s32 $4, $0;
        cvt.rn.f32.s32 $5, $1;
        cvt.rn.f32.s32 $6, $2;
        cvt.rn.f32.s32 $7, $3;
        max.f32 $4, $4, $9;
        max.f32 $5, $5, $10;
        max.f32 $6, $6, $11;
        max.f32 $7, $7, $12;
        """,
        constraints=("=r,=r,=r,=r,=r,=r,=r,=r,"
                     "r,r,r,r,r"),
        args=[a, b],
        dtype=(tl.int32, tl.float32),
        is_pure=True,
        pack=4,
    )
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


@triton.jit
def pair(a, b):
    return a + b, a * b


@triton.jit
def diff_of(t):
    return t[0] - t[1]


@triton.jit
def tuples(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    t = tl.tuple((x, x + 1.0))
    s, p = pair(t[0], t[1])
    u = tl.tuple([s, p, 3.0])
    tl.static_assert(len(u) == 3)
    tl.store(Y + offs, diff_of(u) + u[2])
    a, b, c = u
    tl.store(Z + offs, a * c)


@triton.jit
def static_prints(X, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.static_print("N =", N, x, 0.5, 1e20, tl.float16, (1, "a"), True, None, sep="|")
    tl.static_assert(N == 4, "N must be 4")


@triton.jit
def tuple_args(T, Out, N: tl.constexpr):
    # T = (X pointer, scale, (Y pointer, None)): Triton 3.6 specializes tuple arguments element by element
    offs = tl.arange(0, N)
    x = tl.load(T[0] + offs)
    y = tl.load(T[2][0] + offs)
    r = x * T[1] + y
    if T[2][1] is not None:
        r = r + 1000.0
    tl.static_assert(len(T) == 3)
    tl.store(Out + offs, r)


@triton.jit
def tuple_loop(X, Y, N: tl.constexpr):
    # tuples (nested, with a block pointer) as loop-carried values
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    bp = tl.make_block_ptr(X, (4 * N, ), (1, ), (0, ), (N, ), (0, ))
    t = (x, (x * 2.0, bp))
    for i in range(3):
        t = (t[0] + 1.0, (t[1][0] + t[0] + tl.load(t[1][1]), tl.advance(t[1][1], (N, ))))
    k = 0
    while k < 2:
        t, k = (t[0] * 2.0, t[1]), k + 1
    tl.store(Y + offs, t[0] + t[1][0])


@triton.jit
def tuple_if(X, Y, flag, N: tl.constexpr):
    # a tuple (with a block pointer) assigned in both branches of a runtime if
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    bp = tl.make_block_ptr(X, (2 * N, ), (1, ), (0, ), (N, ), (0, ))
    t = (x, bp)
    if flag > 0:
        t = (x + 1.0, tl.advance(bp, (N, )))
    else:
        t = (x * 3.0, t[1])
    tl.store(Y + offs, t[0] + tl.load(t[1]))
