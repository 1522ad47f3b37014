# dtype attributes and methods are constexprs (triton/language/core.py dtype).
import triton
import triton.language as tl


@triton.jit
def dtype_queries(X, Y, I8, Out):
    xd = X.dtype.element_ty
    yd = tl.load(Y).dtype
    bd = tl.load(I8).dtype
    vals = (
        xd.is_floating(), xd.is_fp32(), xd.is_fp16(), xd.is_int(), xd.primitive_bitwidth,
        xd.fp_mantissa_width, xd.exponent_bias, yd.is_int_signed(), yd.is_int_unsigned(), yd.int_bitwidth,
        bd.get_int_max_value(), bd.get_int_min_value(), tl.uint16.get_int_max_value(), X.dtype.is_ptr(),
        tl.bfloat16.is_standard_floating(), tl.int1.is_int_unsigned(), tl.float16.itemsize, xd.is_fp8(),
    )
    for i in tl.static_range(len(vals)):
        tl.store(Out + i, vals[i])


@triton.jit
def ptr_bitcast(X, Y):
    # semantic.py bitcast: with a pointer on either side it is a plain cast
    a = X.to(tl.int64, bitcast=True)
    b = (X + 1).to(tl.int64)
    tl.store(Y, b - a)    # one f32 element: 4 bytes
    tl.store(Y + 1, a.to(tl.pointer_type(tl.float32), bitcast=True).to(tl.int64) - a)


@triton.jit
def bf16_io(X, Y, N, BLOCK: tl.constexpr):
    # bf16 tensors read from and written to .npy files as ml_dtypes does ('<V2')
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N)
    tl.store(Y + offs, (x.to(tl.float32) * 3.0 + 0.25).to(tl.bfloat16), mask=offs < N)
