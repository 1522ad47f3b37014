"""Tensor descriptors: desc.gather / desc.scatter of rows, desc.atomic_*,
descriptors reassigned in runtime loops and ifs, and host TensorDescriptor
arguments with a block of more than 256 elements in a dimension. The
descriptors' shapes are smaller than the buffers they view (shape [M, N] over
[MS, NS] storage), so an access that is not masked by the descriptor's
bounds would change elements the references keep. References: make_refs.py
tdesc() with numpy."""
import triton
import triton.language as tl


@triton.jit
def gather_rows(X, Idx, Y, y0, M, N, NS, BX: tl.constexpr, BY: tl.constexpr, PAD: tl.constexpr):
    desc = tl.make_tensor_descriptor(X, shape=[M, N], strides=[NS, 1], block_shape=[1, BY], padding_option=PAD)
    rows = tl.load(Idx + tl.arange(0, BX))
    v = desc.gather(rows, y0)
    tl.store(Y + tl.arange(0, BX)[:, None] * BY + tl.arange(0, BY)[None, :], v)


@triton.jit
def scatter_rows(X, Idx, Y, y0, M, N, NS, BX: tl.constexpr, BY: tl.constexpr):
    v = tl.load(X + tl.arange(0, BX)[:, None] * BY + tl.arange(0, BY)[None, :])
    rows = tl.load(Idx + tl.arange(0, BX))
    desc = tl.make_tensor_descriptor(Y, [M, N], [NS, 1], [1, BY])
    desc.scatter(v, rows, y0)


@triton.jit
def atomics(X, Out, M, N, NS, BM: tl.constexpr, BN: tl.constexpr, OP: tl.constexpr):
    # every program reduces its own block and then the block at (0, 0)
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    x = tl.load(X + (om + tl.arange(0, BM))[:, None] * BN * tl.num_programs(1) + (on + tl.arange(0, BN))[None, :])
    d = tl.make_tensor_descriptor(Out, [M, N], [NS, 1], [BM, BN])
    for at in tl.static_range(2):
        m = om if at == 0 else 0
        n = on if at == 0 else 0
        if OP == "add":
            d.atomic_add([m, n], x)
        elif OP == "min":
            d.atomic_min([m, n], x)
        elif OP == "max":
            d.atomic_max([m, n], x)
        elif OP == "and":
            d.atomic_and([m, n], x)
        elif OP == "or":
            d.atomic_or([m, n], x)
        else:
            d.atomic_xor([m, n], x)


@triton.jit
def carried(A, B, Out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # Out[rows of this program] = sum over column blocks j of (A if j % 3 == 0 else B)[..., block j],
    # the descriptor chosen in a runtime if inside a runtime loop, and again in a while loop
    om = tl.program_id(0) * BM
    d = tl.make_tensor_descriptor(A, [M, N], [N, 1], [BM, BN])
    acc = tl.zeros((BM, BN), tl.float32)
    for j in range(0, tl.cdiv(N, BN)):
        if j % 3 == 0:
            d = tl.make_tensor_descriptor(A, [M, N], [N, 1], [BM, BN])
        else:
            d = tl.make_tensor_descriptor(B, [M, N], [N, 1], [BM, BN])
        acc += d.load([om, j * BN])
    j = 0
    while j < tl.cdiv(N, BN):
        if j % 2 == 1:
            d = tl.make_tensor_descriptor(A, [M, N], [N, 1], [BM, BN])
        acc += d.load([om, j * BN])
        j += 1
    o = tl.make_tensor_descriptor(Out, [M, BN], [BN, 1], [BM, BN])
    o.store([om, 0], acc)


@triton.jit
def host_copy(D, E):
    # host TensorDescriptors D and E: copy the block at (pid, 0), downcasting to E's dtype
    BM: tl.constexpr = D.block_shape[0]
    v = D.load([tl.program_id(0) * BM, 0])
    E.store([tl.program_id(0) * BM, 0], v)
