/* sema_blockptr.c — block pointers (tl.make_block_ptr, tl.advance, and
 * tl.load / tl.store on them), lowered to ordinary pointer tiles and masks:
 * element i of the block is base + sum_d (offsets[d] + i_d) * strides[d], and
 * boundary_check=(d, ...) masks 0 <= offsets[d] + i_d < shape[d]
 * (semantics §2.6; semantic.py make_block_ptr / _load_block_pointer). The
 * address and masked load/store helpers here serve tensor descriptors too
 * (sema_tdesc.c). */
#include "front_int.h"

#include <math.h>
#include <string.h>

/* A descriptor's offsets are unused (constants 0), so only its base,
 * shapes and strides are runtime values. */
int sema_bp_tensors(const sval *bp) { return (bp->k == V_TDESC ? 2 : 3) * (int)bp->i + 1; }

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

sval sema_int_scalar(sema *S, src_pos p, sval v, tt_dtype dt, const char *fn, const char *what)
{
    if (v.k == V_TENSOR && (sv_shape(S, &v)->rank != 0 || !tt_dtype_is_int(v.dt)))
        sema_error(S, p, "%s: %s must be integer scalars, got %s", fn, what, sv_describe(S, &v));
    if (v.k != V_TENSOR && v.k != V_INT && v.k != V_BOOL)
        sema_error(S, p, "%s: %s must be integers, got %s", fn, what, sv_describe(S, &v));
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
        bp.items[1 + d] = sema_int_scalar(S, p, shape.items[d], TT_I64, "make_block_ptr", "shapes");
        bp.items[1 + rank + d] = sema_int_scalar(S, p, strides.items[d], TT_I64, "make_block_ptr", "strides");
        bp.items[1 + 2 * rank + d] = sema_int_scalar(S, p, offsets.items[d], TT_I32, "make_block_ptr", "offsets");
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
        if (deltas.items[d].k == V_INT && deltas.items[d].i == 0) continue;   /* the offset a loop carries unchanged */
        sval delta = sema_int_scalar(S, p, deltas.items[d], TT_I32, "advance", "offsets");
        bp = sema_bp_with(S, bp, 1 + 2 * rank + d, sema_binop(S, p, "+", off, delta));
    }
    return bp;
}

sval sema_bp_address(sema *S, src_pos p, sval bp, const sval *idx, unsigned checked, int rank,
                     const int64_t *shape, sval *mask)
{
    int brank = (int)bp.i;
    sval ptr = bp.items[0];
    *mask = sv_none();
    for (int d = 0; d < brank; d++) {
        sval off = sema_binop(S, p, "*", sema_cast(S, p, idx[d], TT_I64, 0, false), bp.items[1 + brank + d]);
        ptr = sema_binop(S, p, "+", ptr, off);
        if (checked & (1u << d)) {
            sval lo = sema_binop(S, p, ">=", idx[d], sv_int(0));
            sval hi = sema_binop(S, p, "<", sema_cast(S, p, idx[d], TT_I64, 0, false), bp.items[1 + d]);
            sval m = sema_binop(S, p, "&", lo, hi);
            *mask = mask->k == V_NONE ? m : sema_binop(S, p, "&", *mask, m);
        }
    }
    ptr = sema_broadcast_to(S, p, ptr, rank, shape);
    if (mask->k != V_NONE) *mask = sema_broadcast_to(S, p, *mask, rank, shape);
    return ptr;
}

sval sema_arange(sema *S, src_pos p, int64_t n)
{
    sval arange;
    if (!sema_module_attr(S, MOD_TL, "arange", &arange)) die("tl.arange missing");
    sval args[2] = { sv_int(0), sv_int(n) };
    sema_setloc(S, p);
    return sema_call_builtin(S, NULL, (int)arange.i, NULL, args, 2, NULL, NULL, 0);
}

void sema_bp_indices(sema *S, src_pos p, sval bp, sval *idx)
{
    int rank = (int)bp.i;
    for (int d = 0; d < rank; d++) {
        sval i = sema_binop(S, p, "+", bp.items[1 + 2 * rank + d], sema_arange(S, p, bp.items[1 + 3 * rank + d].i));
        for (int e = 0; e < rank; e++) {                                        /* shape it along dim d */
            if (e < d) i = sema_expand_dims(S, p, i, 0);
            else if (e > d) i = sema_expand_dims(S, p, i, sv_shape(S, &i)->rank);
        }
        idx[d] = i;                                                             /* i32 */
    }
}

/* The pointer tile of a block pointer and, for the dims in `check`, its
 * mask; *checked_ (may be NULL): those dims, a bit each. */
static sval tile(sema *S, src_pos p, sval bp, sval check, sval *mask, unsigned *checked_)
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
    sval idx[IR_MAX_RANK];
    sema_bp_indices(S, p, bp, idx);
    if (checked_) *checked_ = checked;
    return sema_bp_address(S, p, bp, idx, checked, rank, shape, mask);
}

sval sema_masked_load(sema *S, src_pos p, sval ptr, sval mask, sval padding, const ir_value *desc, int ndesc)
{
    const ir_type_info *t = sv_shape(S, &ptr);
    ir_value ops[3 + 1 + 3 * IR_MAX_RANK] = { ptr.v, -1, -1 };
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
        for (int k = 0; k < ndesc && k <= 3 * IR_MAX_RANK; k++) ops[n++] = desc[k];
    }
    sema_setloc(S, p);
    return sv_tensor(ir_emit1(&S->b, IR_LOAD, sema_type(ptr.pt, 0, t->rank, t->shape), n, ops), ptr.pt, 0);
}

int sema_bp_desc(const sval *bp, ir_value *desc)
{
    int rank = (int)bp->i;
    desc[0] = bp->items[0].v;
    for (int d = 0; d < rank; d++) {
        desc[1 + d] = bp->items[1 + 2 * rank + d].v;
        desc[1 + rank + d] = bp->items[1 + d].v;
        desc[1 + 2 * rank + d] = bp->items[1 + rank + d].v;
    }
    return 1 + 3 * rank;
}

/* A block pointer's load keeps its descriptor (ops.def, tt.load), with the
 * dims it does not check unbounded: Triton reads outside the shape there. */
sval sema_bp_load(sema *S, src_pos p, sval bp, sval check, sval padding)
{
    sval mask;
    unsigned checked;
    sval ptr = tile(S, p, bp, check, &mask, &checked);
    ir_value desc[1 + 3 * IR_MAX_RANK];
    int n = sema_bp_desc(&bp, desc), rank = (int)bp.i;
    for (int d = 0; d < rank; d++)
        if (!(checked & 1u << d)) desc[1 + rank + d] = sema_const_tensor(S, p, 0, IR_DESC_UNBOUNDED, TT_I64, 0, NULL).v;
    if (mask.k == V_NONE) {
        const ir_type_info *t = sv_shape(S, &ptr);
        mask = sema_const_tensor(S, p, 0, 1, TT_BOOL, t->rank, t->shape);
    }
    return sema_masked_load(S, p, ptr, mask, padding, desc, n);
}

void sema_masked_store(sema *S, src_pos p, sval ptr, sval mask, sval value)
{
    ir_value ops[3] = { ptr.v, value.v, mask.k != V_NONE ? mask.v : -1 };
    sema_setloc(S, p);
    ir_emit(&S->b, IR_STORE, 0, NULL, mask.k != V_NONE ? 3 : 2, ops);
}

void sema_bp_store(sema *S, src_pos p, sval bp, sval value, sval check)
{
    sval mask;
    sval ptr = tile(S, p, bp, check, &mask, NULL);
    const ir_type_info *t = sv_shape(S, &ptr);
    int rank = t->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, t->shape, sizeof shape);
    value = sema_broadcast_to(S, p, sema_cast(S, p, value, ptr.pt, 0, false), rank, shape);
    sema_masked_store(S, p, ptr, mask, value);
}
