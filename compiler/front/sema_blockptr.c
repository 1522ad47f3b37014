/* sema_blockptr.c — block pointers (tl.make_block_ptr, tl.advance, and
 * tl.load / tl.store on them) and device-side tensor descriptors
 * (tl.make_tensor_descriptor, desc.load / desc.store: a block pointer whose
 * every dimension is bounds-checked), lowered to ordinary pointer tiles and masks:
 * element i of the block is base + sum_d (offsets[d] + i_d) * strides[d], and
 * boundary_check=(d, ...) masks 0 <= offsets[d] + i_d < shape[d]
 * (semantics §2.6; semantic.py make_block_ptr / _load_block_pointer). */
#include "front_int.h"

#include <math.h>
#include <string.h>

int sema_bp_tensors(const sval *bp) { return 3 * (int)bp->i + 1; }

sval sema_bp_with(sema *S, sval bp, int k, sval t)
{
    int n = 4 * (int)bp.i + 1;
    sval *items = arena_alloc(S->a, sizeof(sval) * (size_t)n);
    memcpy(items, bp.items, sizeof(sval) * (size_t)n);
    items[k] = t;
    bp.items = items;
    return bp;
}

static void want_ints_or_tensors(sema *S, src_pos p, sval t, int rank, const char *what)
{
    if (t.k != V_TUPLE || t.n != rank)
        sema_error(S, p, "make_block_ptr: %s must be a tuple of %d values, got %s", what, rank, sv_describe(S, &t));
}

static sval scalar_int(sema *S, src_pos p, sval v, tt_dtype dt, const char *what)
{
    if (v.k == V_TENSOR && (sv_shape(S, &v)->rank != 0 || !tt_dtype_is_int(v.dt)))
        sema_error(S, p, "make_block_ptr: %s must be integer scalars, got %s", what, sv_describe(S, &v));
    if (v.k != V_TENSOR && v.k != V_INT && v.k != V_BOOL)
        sema_error(S, p, "make_block_ptr: %s must be integers, got %s", what, sv_describe(S, &v));
    return v.k == V_TENSOR ? sema_cast(S, p, v, dt, 0, false) : sema_const_as(S, p, v, dt);
}

sval sema_make_block_ptr(sema *S, src_pos p, sval base, sval shape, sval strides, sval offsets, sval block, sval order)
{
    if (base.k != V_TENSOR || base.dt != TT_PTR || sv_shape(S, &base)->rank != 0)
        sema_error(S, p, "make_block_ptr: base must be a scalar pointer, got %s", sv_describe(S, &base));
    if (block.k != V_TUPLE) sema_error(S, p, "make_block_ptr: block_shape must be a tuple of constexprs");
    int rank = block.n;
    if (rank < 1 || rank > IR_MAX_RANK) sema_error(S, p, "make_block_ptr: rank %d is not supported", rank);
    want_ints_or_tensors(S, p, shape, rank, "shape");
    want_ints_or_tensors(S, p, strides, rank, "strides");
    want_ints_or_tensors(S, p, offsets, rank, "offsets");
    if (order.k != V_TUPLE || order.n != rank) sema_error(S, p, "make_block_ptr: order must be a tuple of %d constexprs", rank);
    sval bp = { .k = V_BLOCKPTR, .i = rank, .v = -1 };
    bp.items = arena_alloc(S->a, sizeof(sval) * (size_t)(4 * rank + 1));
    bp.items[0] = base;
    for (int d = 0; d < rank; d++) {
        bp.items[1 + d] = scalar_int(S, p, shape.items[d], TT_I64, "shapes");
        bp.items[1 + rank + d] = scalar_int(S, p, strides.items[d], TT_I64, "strides");
        bp.items[1 + 2 * rank + d] = scalar_int(S, p, offsets.items[d], TT_I32, "offsets");
        sval b = block.items[d];
        if (b.k != V_INT || b.i <= 0 || (b.i & (b.i - 1)))
            sema_error(S, p, "make_block_ptr: block_shape dimensions must be constexpr powers of two");
        bp.items[1 + 3 * rank + d] = b;
    }
    return bp;
}

sval sema_advance(sema *S, src_pos p, sval bp, sval deltas)
{
    if (bp.k != V_BLOCKPTR) sema_error(S, p, "advance: expected a block pointer, got %s", sv_describe(S, &bp));
    int rank = (int)bp.i;
    if (deltas.k != V_TUPLE || deltas.n != rank) sema_error(S, p, "advance: expected %d offsets", rank);
    for (int d = 0; d < rank; d++) {
        sval off = bp.items[1 + 2 * rank + d];
        sval delta = scalar_int(S, p, deltas.items[d], TT_I32, "offsets");
        bp = sema_bp_with(S, bp, 1 + 2 * rank + d, sema_binop(S, p, "+", off, delta));
    }
    return bp;
}

/* The pointer tile of a block pointer and, for the dims in `check`, its mask. */
static sval tile(sema *S, src_pos p, sval bp, sval check, sval *mask)
{
    int rank = (int)bp.i;
    int64_t shape[IR_MAX_RANK];
    for (int d = 0; d < rank; d++) shape[d] = bp.items[1 + 3 * rank + d].i;
    unsigned checked = 0;
    if (check.k == V_TUPLE) {
        for (int i = 0; i < check.n; i++) {
            if (check.items[i].k != V_INT || check.items[i].i < 0 || check.items[i].i >= rank)
                sema_error(S, p, "boundary_check must list dimensions between 0 and %d", rank - 1);
            checked |= 1u << check.items[i].i;
        }
    } else if (check.k == V_INT) {
        if (check.i < 0 || check.i >= rank) sema_error(S, p, "boundary_check must list dimensions between 0 and %d", rank - 1);
        checked = 1u << check.i;
    } else if (check.k != V_NONE) {
        sema_error(S, p, "boundary_check must be a tuple of dimensions");
    }
    sval ptr = bp.items[0];
    *mask = sv_none();
    sval arange;
    if (!sema_module_attr(S, MOD_TL, "arange", &arange)) die("tl.arange missing");
    for (int d = 0; d < rank; d++) {
        sval args[2] = { sv_int(0), sv_int(shape[d]) };
        sval idx = sema_call_builtin(S, NULL, (int)arange.i, NULL, args, 2, NULL, NULL, 0);
        idx = sema_binop(S, p, "+", bp.items[1 + 2 * rank + d], idx);          /* i32 */
        for (int e = 0; e < rank; e++) {                                      /* shape it along dim d */
            if (e < d) idx = sema_expand_dims(S, p, idx, 0);
            else if (e > d) idx = sema_expand_dims(S, p, idx, sv_shape(S, &idx)->rank);
        }
        sval off = sema_binop(S, p, "*", sema_cast(S, p, idx, TT_I64, 0, false), bp.items[1 + rank + d]);
        ptr = sema_binop(S, p, "+", ptr, off);
        if (checked & (1u << d)) {
            sval lo = sema_binop(S, p, ">=", idx, sv_int(0));
            sval hi = sema_binop(S, p, "<", sema_cast(S, p, idx, TT_I64, 0, false), bp.items[1 + d]);
            sval m = sema_binop(S, p, "&", lo, hi);
            *mask = mask->k == V_NONE ? m : sema_binop(S, p, "&", *mask, m);
        }
    }
    ptr = sema_broadcast_to(S, p, ptr, rank, shape);
    if (mask->k != V_NONE) *mask = sema_broadcast_to(S, p, *mask, rank, shape);
    return ptr;
}

sval sema_bp_load(sema *S, src_pos p, sval bp, sval check, sval padding)
{
    sval mask;
    sval ptr = tile(S, p, bp, check, &mask);
    const ir_type_info *t = sv_shape(S, &ptr);
    ir_value ops[3] = { ptr.v, -1, -1 };
    int n = 1;
    if (mask.k != V_NONE) {
        /* padding_option: "zero" (or unset: undefined, 0 in practice) or "nan" */
        bool nan = padding.k == V_STR && !strcmp(padding.s, "nan");
        if (padding.k == V_STR && !nan && strcmp(padding.s, "zero") && padding.s[0])
            sema_error(S, p, "padding_option must be \"zero\" or \"nan\"");
        if (nan && !tt_dtype_is_float(ptr.pt)) sema_error(S, p, "padding_option=\"nan\" needs a floating-point block");
        sval other = sema_const_tensor(S, p, nan ? NAN : 0.0, 0, ptr.pt, t->rank, t->shape);
        ops[n++] = mask.v;
        ops[n++] = other.v;
    }
    sema_setloc(S, p);
    return sv_tensor(ir_emit1(&S->b, IR_LOAD, sema_type(ptr.pt, 0, t->rank, t->shape), n, ops), ptr.pt, 0);
}

void sema_bp_store(sema *S, src_pos p, sval bp, sval value, sval check)
{
    sval mask;
    sval ptr = tile(S, p, bp, check, &mask);
    const ir_type_info *t = sv_shape(S, &ptr);
    int rank = t->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, t->shape, sizeof shape);
    value = sema_broadcast_to(S, p, sema_cast(S, p, value, ptr.pt, 0, false), rank, shape);
    ir_value ops[3] = { ptr.v, value.v, mask.k != V_NONE ? mask.v : -1 };
    sema_setloc(S, p);
    ir_emit(&S->b, IR_STORE, 0, NULL, mask.k != V_NONE ? 3 : 2, ops);
}

sval sema_make_tensor_desc(sema *S, src_pos p, sval base, sval shape, sval strides, sval block, sval padding)
{
    if (block.k != V_TUPLE) sema_error(S, p, "make_tensor_descriptor: block_shape must be a tuple of constexprs");
    int rank = block.n;
    sval zeros = { .k = V_TUPLE, .n = rank, .v = -1 };
    zeros.items = arena_alloc(S->a, sizeof(sval) * (size_t)(rank + 1));
    for (int d = 0; d < rank; d++) zeros.items[d] = sv_int(0);
    if (strides.k == V_TUPLE && strides.n == rank && strides.items[rank - 1].k == V_INT && strides.items[rank - 1].i != 1)
        sema_error(S, p, "make_tensor_descriptor: the last stride must be 1");
    sval d = sema_make_block_ptr(S, p, base, shape, strides, zeros, block, zeros);
    d.k = V_TDESC;
    d.s = "zero";
    if (padding.k == V_STR) {
        if (strcmp(padding.s, "zero") && strcmp(padding.s, "nan"))
            sema_error(S, p, "make_tensor_descriptor: padding_option must be \"zero\" or \"nan\"");
        d.s = padding.s;
    }
    return d;
}

static sval at_offsets(sema *S, src_pos p, sval desc, sval offsets, sval *all)
{
    int rank = (int)desc.i;
    if (offsets.k != V_TUPLE || offsets.n != rank)
        sema_error(S, p, "a tensor descriptor of rank %d needs %d offsets, got %s", rank, rank, sv_describe(S, &offsets));
    sval bp = desc;
    bp.k = V_BLOCKPTR;
    for (int d = 0; d < rank; d++)
        bp = sema_bp_with(S, bp, 1 + 2 * rank + d, scalar_int(S, p, offsets.items[d], TT_I32, "offsets"));
    *all = (sval){ .k = V_TUPLE, .n = rank, .v = -1 };
    all->items = arena_alloc(S->a, sizeof(sval) * (size_t)rank);
    for (int d = 0; d < rank; d++) all->items[d] = sv_int(d);
    return bp;
}

sval sema_desc_load(sema *S, src_pos p, sval desc, sval offsets)
{
    sval all;
    sval bp = at_offsets(S, p, desc, offsets, &all);
    return sema_bp_load(S, p, bp, all, (sval){ .k = V_STR, .s = desc.s, .v = -1 });
}

void sema_desc_store(sema *S, src_pos p, sval desc, sval offsets, sval value)
{
    sval all;
    sval bp = at_offsets(S, p, desc, offsets, &all);
    sema_bp_store(S, p, bp, value, all);
}
