"""Kernels of Triton 3.7-3.9's language (tests/gpu/lang39_gpu.sh): each
feature is lowered by the front end to IR ops the GPU path already has, so
`tritium diff` compares the GPU with the interpreter. Follows Triton 3.9
(TRITIUM_TRITON_VERSION=3.9)."""
import triton
import triton.language as tl


@triton.aggregate
class Affine:
    w: tl.tensor
    n: tl.constexpr
    shift: tl.constexpr = 4

    @triton.jit
    def apply(self, x):
        return x * self.w * self.n + self.shift


@triton.aggregate
class Biased(Affine):
    bias: tl.tuple = (1.0, 2.0)

    @triton.jit
    def apply(self, x):
        return Affine.apply(self, x) + self.bias[0] + self.bias[1]


@triton.jit
def scale(a, *, s):
    return a * s


@triton.jit
def total(first, *rest):
    acc = first
    for i in tl.static_range(len(rest)):
        acc = acc + rest[i]
    return acc


@triton.jit
def shapes(X, Y, Z, W):
    # squeeze/unsqueeze (3.7), order-keeping cat(dim=) (3.7), softmax keeping dims (3.9), topk(descending=) (3.8)
    r = tl.arange(0, 16)
    x = tl.load(X + r[:, None] * 16 + r[None, :])
    c = tl.cat(x, x * 2, dim=1)
    tl.store(Y + r[:, None] * 32 + tl.arange(0, 32)[None, :], c)
    s = tl.squeeze(tl.unsqueeze(tl.sum(x, 1), 0), 0)
    tl.store(Z + r, s + tl.topk(x, 4, descending=False).sum(1))
    tl.store(W + r[:, None] * 16 + r[None, :], tl.softmax(x, 1))


@triton.jit
def syntax(X, Y, N, *, S: tl.constexpr):
    # chained comparisons (3.9), walrus (3.8), keyword-only and *args helpers (3.9/3.8),
    # comprehension filters and tuple targets (3.9), logical_and
    r = tl.arange(0, 64)
    x = tl.load(X + r)
    m = (0 <= r < N).logical_and(x > -1)
    t = [a * b for a, b in ((1, 2), (3, 4), (5, 6)) if a > 1]
    y = tl.where(m, total(scale(x, s=S), x, t[0]), (w := x * 3) + w)
    j = 0
    while (j := j + 1) < N // 8:                   # a while condition's target reaches the body
        y += j
    tl.store(Y + r, y + t[1] + j)


@triton.jit
def numerics(X, I, Y, J, C, A):
    # -(+0.0) is -0.0 (3.8), int16 ^ literal stays int16, fdiv(approx=) (3.9),
    # bf16 cumsum stays bf16 and int8 cumprod widens (3.9), dot's out_dtype from acc (3.8)
    r = tl.arange(0, 16)
    x = tl.load(X + r[:, None] * 16 + r[None, :])
    y = -x + tl.fdiv(x, 3.0, approx=True)
    tl.store(Y + r[:, None] * 16 + r[None, :], y)
    b = tl.load(I + r)
    tl.store(J + r, (b ^ -32768).to(tl.float16, bitcast=True))
    cs = tl.cumsum(x.to(tl.bfloat16), 1).to(tl.float32) + tl.cumprod((x * 4).to(tl.int8), 1).to(tl.float32)
    tl.store(C + r[:, None] * 16 + r[None, :], cs)
    acc = tl.zeros((16, 16), tl.float16) + 1.0
    d = tl.dot(x.to(tl.float16), x.to(tl.float16), acc)
    tl.store(A + r[:, None] * 16 + r[None, :], d)


@triton.jit
def atomics(X, Y, N):
    # atomic_load / atomic_store (3.9) with masks
    r = tl.arange(0, 64)
    m = r < N
    x = tl.atomic_load(X + r, mask=m, sem="relaxed")
    tl.atomic_store(Y + r, tl.where(m, x, 0.0) * 2 + 1, mask=m)


@triton.jit
def narrow_atomics(B, S, H, BF, Q, E, YB, YS, YH, YBF, YQ, YE, N):
    # atomic_load / atomic_store (3.9) on 8- and 16-bit elements (int8, int16, fp16, bf16,
    # bool, fp8: a CAS loop or a word-wide atom on the GPU), masked, both sems and the
    # scopes. Program p does elements p, p + G, p + 2G, ...: the neighbouring bytes of a
    # word are stored by different programs at once. The tensors' sizes (61, 63) are not
    # multiples of 4: the last word of each reaches past its end.
    pid = tl.program_id(0)
    r = tl.arange(0, 64) * tl.num_programs(0) + pid
    m = r < N
    b = tl.atomic_load(B + r, mask=m, sem="acquire")
    tl.atomic_store(YB + r, tl.where(m, b, 0) * 3 - 7, mask=m, sem="release")
    s = tl.atomic_load(S + r, mask=m, sem="relaxed", scope="cta")
    tl.atomic_store(YS + r, tl.where(m, s, 0) * -5 + 1000, mask=m, sem="relaxed", scope="cta")
    h = tl.atomic_load(H + r, mask=m)
    tl.atomic_store(YH + r, tl.where(m, h, 0.0) * -2, mask=m)
    bf = tl.atomic_load(BF + r, mask=m, sem="relaxed", scope="sys")
    tl.atomic_store(YBF + r, tl.where(m, bf, 0.0) * 4, mask=m, sem="release", scope="sys")
    q = tl.atomic_load(Q + r, mask=m, sem="acquire")
    tl.atomic_store(YQ + r, tl.where(m, q ^ (b % 3 == 0), False), mask=m, sem="relaxed")
    e = tl.atomic_load(E + r, mask=m, sem="relaxed")
    tl.atomic_store(YE + r, e, mask=m)
    # scalars: every thread holds the element, one stores it; the loaded value is everyone's
    tl.atomic_store(YB + N + pid, tl.atomic_load(B + pid) + 1)
    tl.atomic_store(YS + N + pid, tl.atomic_load(S + pid, sem="relaxed") - 1, sem="relaxed")


@triton.jit
def polls(F, C, X, OK, T):
    # atomic_poll (3.9): program p waits for program p - 1's flag (the CTAs run side by
    # side on the GPU, one after another in the interpreter); a tile with a timeout
    pid = tl.program_id(0)
    if pid > 0:
        seen = tl.atomic_poll(F + pid - 1, 1)
        tl.store(C + pid, seen.to(tl.int32) + tl.load(C + pid - 1))
    else:
        tl.store(C, 1)
    tl.atomic_xchg(F + pid, 1)
    r = tl.arange(0, 64)
    ok = tl.atomic_poll(X + r, r % 3, timeout_ns=T, sem="relaxed")
    tl.store(OK + pid * 64 + r, ok)


@triton.jit
def mx_bytes(X, rows: tl.constexpr, cols: tl.constexpr):
    # pseudo-random bytes from randn data
    x = tl.load(X + tl.arange(0, rows)[:, None] * cols + tl.arange(0, cols)[None, :])
    return ((x * 1000.0).to(tl.int32) & 255).to(tl.uint8)


@triton.jit
def mxdot(X, Y, Z, W, V):
    # tl.dot_scaled (3.6-3.9): e2m1 x e2m1 with E8M0 scales (byte 255: a NaN row), e4m3 x e5m2
    # with an accumulator, bf16 x e2m1 packed along N (rhs_k_pack=False) without lhs scales,
    # fp16 x e4m3 (float16 compute type) with scales over groups of 16
    r = tl.arange(0, 32)
    a = mx_bytes(X, 32, 32)
    b = mx_bytes(X + 1024, 32, 32)
    sa = 120 + mx_bytes(X + 2048, 32, 2) % 14
    sb = 121 + mx_bytes(X + 2112, 32, 2) % 12
    sa = tl.where((r[:, None] == 5) & (tl.arange(0, 2)[None, :] == 1), 255, sa).to(tl.uint8)
    tl.store(Y + r[:, None] * 32 + r[None, :], tl.dot_scaled(a, sa, "e2m1", b, sb, "e2m1"))
    e4 = mx_bytes(X + 2176, 32, 64)
    e4 = tl.where((e4 & 0x7F) == 0x7F, e4 ^ 1, e4)
    e5 = mx_bytes(X + 4224, 64, 32)
    e5 = tl.where((e5 & 0x7C) == 0x7C, e5 & 0xBB, e5).to(tl.float8e5, bitcast=True)
    acc = tl.load(X + r[:, None] * 32 + r[None, :])
    tl.store(Z + r[:, None] * 32 + r[None, :], tl.dot_scaled(e4, sa, "e4m3", e5, sb, "e5m2", acc=acc))
    h = (tl.load(X + 2048 + r[:, None] * 64 + tl.arange(0, 64)[None, :]) * 8.0).to(tl.bfloat16)
    p = mx_bytes(X + 3000, 64, 16)
    tl.store(W + r[:, None] * 32 + r[None, :], tl.dot_scaled(h, None, "bf16", p, sb, "e2m1", rhs_k_pack=False))
    s16 = 123 + mx_bytes(X + 5000, 32, 4) % 8
    f = tl.load(X + 6000 + r[:, None] * 64 + tl.arange(0, 64)[None, :]).to(tl.float16)
    tl.store(V + r[:, None] * 32 + r[None, :], tl.dot_scaled(f, s16, "fp16", e4.trans(), s16, "e4m3"))


@triton.jit
def aggregates(X, Y, N):
    # @triton.aggregate (3.8): generated __init__ with defaults, inheritance, jit methods,
    # a tuple field carried by a runtime loop through tl.aggregate_replace
    r = tl.arange(0, 64)
    x = tl.load(X + r)
    b = Biased(tl.load(X), 2, bias=(tl.load(X + 1), 0.5))
    for i in range(N):
        b = tl.aggregate_replace(b, w=b.w * 0.5, bias=(b.bias[0] + 1.0, b.bias[1]))
    tl.store(Y + r, b.apply(x) + Affine(tl.load(X + 2), 3).apply(x))
