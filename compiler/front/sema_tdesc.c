/* sema_tdesc.c — tensor descriptors: tl.make_tensor_descriptor and host
 * TensorDescriptor parameters, desc.load / store / atomic_* / gather /
 * scatter (Triton 3.6 semantic.py make_tensor_descriptor, descriptor_*, and
 * the verifiers of lib/Dialect/Triton/IR/Ops.cpp). Every access becomes a
 * pointer tile whose every dimension is bounds-checked
 * (0 <= index < shape), so a block that reaches outside the tensor reads the
 * padding and drops its stores, as TMA does, and both executors see ordinary
 * masked tt.load / tt.store / tt.atomic_rmw; a load also keeps the
 * descriptor's base and offsets, for the GPU path's TMA (ops.def, tt.load).
 * A descriptor is laid out as a
 * block pointer (front_int.h, V_TDESC) whose offsets are unused. */
#include "sema_builtin.h"

#include <string.h>

static int rank_of(const sval *d) { return (int)d->i; }
static tt_dtype elem_of(const sval *d) { return d->items[0].pt; }
static int64_t block_of(const sval *d, int k) { return d->items[1 + 3 * rank_of(d) + k].i; }

sval sema_make_tensor_desc(sema *S, src_pos p, sval base, sval shape, sval strides, sval block, sval padding)
{
    const char *fn = "make_tensor_descriptor";
    if (shape.k != V_TUPLE) sema_error(S, p, "%s: shape must be a list of integers, got %s", fn, sv_describe(S, &shape));
    int rank = shape.n;
    if (rank < 1 || rank > TT_MAX_DESC_RANK)
        sema_error(S, p, "%s: expected 1 <= ndim <= %d but got %d dimensions", fn, TT_MAX_DESC_RANK, rank);
    if (strides.k != V_TUPLE || strides.n != rank)
        sema_error(S, p, "%s: expected %d strides, got %s", fn, rank, sv_describe(S, &strides));
    if (block.k != V_TUPLE || block.n != rank)
        sema_error(S, p, "%s: expected block_shape to be a list of %d constexprs, got %s", fn, rank, sv_describe(S, &block));
    if (base.k != V_TENSOR || base.dt != TT_PTR || sv_shape(S, &base)->rank != 0)
        sema_error(S, p, "%s: base must be a scalar pointer, got %s", fn, sv_describe(S, &base));
    for (int d = 0; d < rank; d++) {
        sval b = block.items[d];
        if (b.k != V_INT) sema_error(S, p, "%s: block_shape[%d] must be a constexpr int, got %s", fn, d, sv_describe(S, &b));
        if (b.i <= 0 || (b.i & (b.i - 1))) sema_error(S, p, "%s: block_shape[%d] = %lld must be a power of 2", fn, d, (long long)b.i);
    }
    int64_t esize = tt_dtype_size(base.pt);
    if (block.items[rank - 1].i * esize < 16)
        sema_error(S, p, "Descriptor block shape must have at least 16 bytes in the last dimension, but got %lld * %lld = "
                   "%lld bytes", (long long)block.items[rank - 1].i, (long long)esize,
                   (long long)(block.items[rank - 1].i * esize));
    sval last = strides.items[rank - 1];
    if ((last.k == V_INT || last.k == V_BOOL) && last.i != 1)
        sema_error(S, p, "%s: the last stride must be 1, got %lld", fn, (long long)last.i);
    const char *pad = "zero";
    if (padding.k == V_STR) {
        if (strcmp(padding.s, "zero") && strcmp(padding.s, "nan"))
            sema_error(S, p, "%s: padding_option must be \"zero\" or \"nan\", got \"%s\"", fn, padding.s);
        pad = padding.s;
    } else if (padding.k != V_NONE) {
        sema_error(S, p, "%s: padding_option must be \"zero\" or \"nan\", got %s", fn, sv_describe(S, &padding));
    }
    if (!strcmp(pad, "nan") && !tt_dtype_is_float(base.pt))
        sema_error(S, p, "%s: padding option \"nan\" is not supported for integer blocks", fn);
    sval d = { .k = V_TDESC, .i = rank, .v = -1, .s = pad };
    d.items = arena_alloc(S->a, sizeof(sval) * (size_t)(4 * rank + 1));
    d.items[0] = base;
    for (int k = 0; k < rank; k++) {
        /* shapes are i32 and strides i64 (make_scalar in semantic.py); kept as i64 for the address arithmetic */
        sval sh = sema_int_scalar(S, p, shape.items[k], TT_I32, fn, "shapes");
        d.items[1 + k] = sema_cast(S, p, sh, TT_I64, 0, false);
        d.items[1 + rank + k] = sema_int_scalar(S, p, strides.items[k], TT_I64, fn, "strides");
        d.items[1 + 2 * rank + k] = sv_int(0);
        d.items[1 + 3 * rank + k] = block.items[k];
    }
    return d;
}

void sema_desc_check_alignment(sema *S, src_pos p, sval d)
{
    int rank = rank_of(&d);
    int64_t esize = tt_dtype_size(elem_of(&d));
    sval addr = sema_cast(S, p, d.items[0], TT_I64, 0, true);
    sval ok = sema_binop(S, p, "==", sema_binop(S, p, "&", addr, sv_int(15)), sv_int(0));
    for (int k = 0; k < rank - 1; k++) {
        sval bytes = sema_binop(S, p, "*", d.items[1 + rank + k], sv_int(esize));
        ok = sema_binop(S, p, "&", ok, sema_binop(S, p, "==", sema_binop(S, p, "&", bytes, sv_int(15)), sv_int(0)));
    }
    sema_setloc(S, p);
    int at = ir_emit(&S->b, IR_ASSERT, 0, NULL, 1, &ok.v);
    ir_attr_set_str(S->fn, ir_op_at(S->fn, S->b.region, at), "message",
                    "make_tensor_descriptor: the base must be 16-byte aligned and every stride but the last a multiple "
                    "of 16 bytes");
}

/* offsets (a list of rank integers) as the i32 scalars of a copy of the
 * descriptor (descriptor_load: _convert_to_ir_values, require_i64=False) */
static sval at_offsets(sema *S, src_pos p, const char *fn, sval desc, sval offsets)
{
    int rank = rank_of(&desc);
    if (offsets.k != V_TUPLE || offsets.n != rank)
        sema_error(S, p, "%s: a tensor descriptor of rank %d needs %d offsets, got %s", fn, rank, rank, sv_describe(S, &offsets));
    for (int d = 0; d < rank; d++)
        desc = sema_bp_with(S, desc, 1 + 2 * rank + d, sema_int_scalar(S, p, offsets.items[d], TT_I32, fn, "offsets"));
    return desc;
}

/* The block's pointer tile and bounds mask at the offsets of bp (at_offsets). */
static sval block_ptrs_at(sema *S, src_pos p, sval bp, sval *mask)
{
    int rank = rank_of(&bp);
    int64_t shape[IR_MAX_RANK];
    for (int d = 0; d < rank; d++) shape[d] = block_of(&bp, d);
    sval idx[IR_MAX_RANK];
    sema_bp_indices(S, p, bp, idx);
    return sema_bp_address(S, p, bp, idx, (1u << rank) - 1, rank, shape, mask);
}

static sval block_ptrs(sema *S, src_pos p, const char *fn, sval desc, sval offsets, sval *mask)
{
    return block_ptrs_at(S, p, at_offsets(S, p, fn, desc, offsets), mask);
}

/* A value stored through the descriptor: a tensor of exactly the block's
 * shape (validate_store_like); cast to the descriptor's dtype when `cast`
 * (descriptor_store), else of that dtype already (atomics: "the shape and
 * types of src must match the descriptor", TritonOps.td). */
static sval block_value(sema *S, src_pos p, const char *fn, sval desc, sval v, bool cast)
{
    int rank = rank_of(&desc);
    int64_t shape[IR_MAX_RANK];
    for (int d = 0; d < rank; d++) shape[d] = block_of(&desc, d);
    const ir_type_info *t = v.k == V_TENSOR ? sv_shape(S, &v) : NULL;
    bool same = t && t->rank == rank;
    for (int d = 0; same && d < rank; d++) same = t->shape[d] == shape[d];
    if (!same)
        sema_error(S, p, "%s: the value must be a tensor of the descriptor's block shape %s, got %s", fn,
                   sema_shape_str(S, rank, shape), sv_describe(S, &v));
    if (cast) return sema_cast(S, p, v, elem_of(&desc), 0, false);
    tt_dtype et = elem_of(&desc);
    if (v.dt != et && tt_dtype_is_int(v.dt) && tt_dtype_is_int(et) && tt_dtype_bits(v.dt) == tt_dtype_bits(et))
        return sema_cast(S, p, v, et, 0, true);     /* int32 into a uint32 descriptor: MLIR's types are signless */
    if (v.dt != et)
        sema_error(S, p, "%s: the value is %s but the descriptor holds %s (Triton requires the same dtype)", fn,
                   sv_describe(S, &v), tt_dtype_triton_name(elem_of(&desc)));
    return v;
}

/* What a load through a descriptor made with round_f32_to_tf32=True
 * (Triton 3.7+, V_TDESC's n) gives: x (fp32) rounded to tf32, nearest-even
 * at 10 mantissa bits, Inf and NaN unchanged, in integer ops on its bits, as
 * Triton 3.9's interpreter does it (runtime/interpreter.py
 * _round_f32_to_tf32; RewriteTensorDescriptorToPointer emits the same, and
 * TMA with a TFLOAT32 map rounds so):
 *   special = (bits & 0x7F800000) == 0x7F800000
 *   rounded = (bits + ((bits >> 13) & 1) + 0xFFF) & 0xFFFFE000
 * Other descriptors' loads are x itself. */
static sval tf32_rounded(sema *S, src_pos p, sval desc, sval x)
{
    if (!desc.n || x.k != V_TENSOR || x.dt != TT_F32) return x;
    sval bits = sema_cast(S, p, x, TT_U32, 0, true);
#define U32(c) sema_const_as(S, p, sv_int(c), TT_U32)
    sval special = sema_binop(S, p, "==", sema_binop(S, p, "&", bits, U32(0x7F800000)), U32(0x7F800000));
    sval bias = sema_binop(S, p, "+", sema_binop(S, p, "&", sema_binop(S, p, ">>", bits, U32(13)), U32(1)), U32(0xFFF));
    sval rounded = sema_binop(S, p, "&", sema_binop(S, p, "+", bits, bias), U32(0xFFFFE000));
#undef U32
    sema_setloc(S, p);
    ir_value ops[3] = { special.v, bits.v, rounded.v };
    sval r = sema_emit(S, IR_SELECT, ir_value_type(S->fn, bits.v), 3, ops, TT_U32, 0);
    return sema_cast(S, p, r, TT_F32, 0, true);
}

/* The load keeps the descriptor (ops.def, tt.load): the GPU path reads a
 * 2-D block with TMA from it. */
sval sema_desc_load(sema *S, src_pos p, sval desc, sval offsets)
{
    sval mask, at = at_offsets(S, p, "load", desc, offsets);
    sval ptr = block_ptrs_at(S, p, at, &mask);
    ir_value d[1 + 3 * IR_MAX_RANK];
    int n = sema_bp_desc(&at, d);
    return tf32_rounded(S, p, desc, sema_masked_load(S, p, ptr, mask, (sval){ .k = V_STR, .s = desc.s, .v = -1 }, d, n));
}

void sema_desc_store(sema *S, src_pos p, sval desc, sval offsets, sval value)
{
    value = block_value(S, p, "store", desc, value, true);
    sval mask;
    sval ptr = block_ptrs(S, p, "store", desc, offsets, &mask);
    sema_masked_store(S, p, ptr, mask, value);
}

/* The dtypes descriptor_atomic_* accepts (semantic.py); min/max of float16
 * and bfloat16 need native TMA there (_has_native_tma: sm_90+), which
 * tritium does not have. */
void sema_desc_atomic(sema *S, src_pos p, const char *op, sval desc, sval offsets, sval value)
{
    static const struct { const char *op; int id; } kinds[] = {
        { "add", B_ATOMIC_ADD }, { "min", B_ATOMIC_MIN }, { "max", B_ATOMIC_MAX },
        { "and", B_ATOMIC_AND }, { "or", B_ATOMIC_OR }, { "xor", B_ATOMIC_XOR },
    };
    int id = -1;
    for (size_t k = 0; k < TT_COUNTOF(kinds); k++)
        if (!strcmp(kinds[k].op, op)) id = kinds[k].id;
    if (id < 0) die("descriptor atomic '%s'", op);
    char fn[32];
    snprintf(fn, sizeof fn, "atomic_%s", op);
    tt_dtype et = elem_of(&desc);
    bool ok = et == TT_U32 || et == TT_I32 || et == TT_U64;
    bool minmax = id == B_ATOMIC_MIN || id == B_ATOMIC_MAX;
    if (id == B_ATOMIC_ADD) ok = ok || et == TT_F32 || et == TT_F16 || et == TT_BF16;
    else ok = ok || et == TT_I64;
    if (minmax && (et == TT_F16 || et == TT_BF16))
        sema_error(S, p, "tritium does not support desc.%s on %s yet (Triton 3.6 lowers it only to native TMA, sm_90+)", fn,
                   tt_dtype_triton_name(et));
    if (!ok)
        sema_error(S, p, "desc.%s: unsupported dtype %s (Triton 3.6 descriptor_%s takes %s)", fn, tt_dtype_triton_name(et), fn,
                   id == B_ATOMIC_ADD ? "uint32, int32, uint64, float32, float16, bfloat16"
                                      : "uint32, int32, uint64, int64");
    value = block_value(S, p, fn, desc, value, false);
    sval mask;
    sval ptr = block_ptrs(S, p, fn, desc, offsets, &mask);
    sval args[3] = { ptr, value, mask };
    sema_setloc(S, p);
    sema_call_builtin(S, NULL, id, NULL, args, mask.k == V_NONE ? 2 : 3, NULL, NULL, 0);
}

/* gather / scatter: rows x_offsets[i] (a 1-D int32 tensor of at least 8
 * entries), columns y_offset + arange(block[1]) of a descriptor whose block
 * is [1, B] (verifyGatherScatterOp in Ops.cpp, descriptor_gather in
 * semantic.py). Returns the pointer tile [n, B] and its bounds mask. */
static sval rows_ptrs(sema *S, src_pos p, const char *fn, sval desc, sval x_offsets, sval y_offset, sval *mask)
{
    if (rank_of(&desc) != 2 || block_of(&desc, 0) != 1) {
        int64_t b[IR_MAX_RANK];
        for (int d = 0; d < rank_of(&desc); d++) b[d] = block_of(&desc, d);
        sema_error(S, p, "desc.%s: the descriptor's block must be 2-D with 1 row, got %s", fn, sema_shape_str(S, rank_of(&desc), b));
    }
    tt_dtype et = elem_of(&desc);
    if (tt_dtype_bits(et) > 32) sema_error(S, p, "desc.%s: TMA dtype cannot be greater than 32 bits, got %s", fn, tt_dtype_triton_name(et));
    int64_t cols = block_of(&desc, 1), min_cols = 32 / tt_dtype_bits(et) * 8;
    if (cols < min_cols)
        sema_error(S, p, "desc.%s of %s must have at least %lld columns, but got %lld", fn, tt_dtype_triton_name(et),
                   (long long)min_cols, (long long)cols);
    if (x_offsets.k != V_TENSOR || sv_shape(S, &x_offsets)->rank != 1)
        sema_error(S, p, "desc.%s: x offsets must be a 1-D tensor, got %s", fn, sv_describe(S, &x_offsets));
    if (x_offsets.dt != TT_I32 && x_offsets.dt != TT_U32)
        sema_error(S, p, "desc.%s: x offsets must be int32, got %s", fn, sv_describe(S, &x_offsets));
    int64_t rows = sv_shape(S, &x_offsets)->shape[0];
    if (rows < 8) sema_error(S, p, "desc.%s must have at least 8 rows, but got %lld", fn, (long long)rows);
    sval y = sema_int_scalar(S, p, y_offset, TT_I32, fn, "the y offset");
    sval idx[2];
    idx[0] = sema_expand_dims(S, p, sema_cast(S, p, x_offsets, TT_I32, 0, false), 1);    /* [n, 1] */
    idx[1] = sema_expand_dims(S, p, sema_binop(S, p, "+", y, sema_arange(S, p, cols)), 0);  /* [1, B] */
    int64_t shape[2] = { rows, cols };
    return sema_bp_address(S, p, desc, idx, 3u, 2, shape, mask);
}

sval sema_desc_gather(sema *S, src_pos p, sval desc, sval x_offsets, sval y_offset)
{
    sval mask;
    sval ptr = rows_ptrs(S, p, "gather", desc, x_offsets, y_offset, &mask);
    /* Triton 3.9's interpreter gathers row by row with create_descriptor_load: rounded too */
    return tf32_rounded(S, p, desc, sema_masked_load(S, p, ptr, mask, (sval){ .k = V_STR, .s = desc.s, .v = -1 }, NULL, 0));
}

void sema_desc_scatter(sema *S, src_pos p, sval desc, sval value, sval x_offsets, sval y_offset)
{
    sval mask;
    sval ptr = rows_ptrs(S, p, "scatter", desc, x_offsets, y_offset, &mask);
    const ir_type_info *t = sv_shape(S, &ptr);
    const ir_type_info *vt = value.k == V_TENSOR ? sv_shape(S, &value) : NULL;
    if (!vt || vt->rank != 2 || vt->shape[0] != t->shape[0] || vt->shape[1] != t->shape[1])
        sema_error(S, p, "desc.scatter: the value must be a tensor of shape %s (rows of x offsets, columns of the block), "
                   "got %s", sema_shape_str(S, 2, t->shape), sv_describe(S, &value));
    if (tt_dtype_bits(value.dt) != tt_dtype_bits(elem_of(&desc)) ||
        tt_dtype_is_float(value.dt) != tt_dtype_is_float(elem_of(&desc)) ||
        (tt_dtype_is_float(value.dt) && value.dt != elem_of(&desc)))
        sema_error(S, p, "desc.scatter: the value is %s but the descriptor holds %s (Triton requires the same element type)",
                   sv_describe(S, &value), tt_dtype_triton_name(elem_of(&desc)));
    if (value.dt != elem_of(&desc)) value = sema_cast(S, p, value, elem_of(&desc), 0, true);   /* int8 <-> uint8: signless */
    sema_masked_store(S, p, ptr, mask, value);
}
