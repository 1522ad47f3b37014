/* sema_reduce.c — reductions: tl.sum, xor_sum, max, min, argmax, argmin
 * with Triton 3.6's dtype promotion (standard.py, core.py reduce). */
#include "sema_builtin.h"

#include <string.h>

/* Reduce x along axis (or all axes when !has_axis). kind: RED_*. */
static sval reduce(sema *S, src_pos p, sval x, bool has_axis, int64_t axis, bool keep, int kind, tt_dtype rdt)
{
    x = sema_want_tensor(S, p, x, "the input");
    const ir_type_info *t = sv_shape(S, &x);
    int rank0 = t->rank;
    if (rank0 == 0) sema_error(S, p, "cannot reduce a scalar");
    if (!has_axis) {
        if (rank0 > 1) {
            int64_t n = ir_type_numel(ir_value_type(S->fn, x.v));
            x = sema_reshape(S, p, x, 1, &n);
        }
        axis = 0;
    } else {
        if (axis < 0) axis += rank0;
        if (axis < 0 || axis >= rank0) sema_error(S, p, "reduction axis %lld out of range for rank %d", (long long)axis, rank0);
    }
    t = sv_shape(S, &x);
    int64_t shape[IR_MAX_RANK];
    int r = 0;
    for (int i = 0; i < t->rank; i++)
        if (i != axis) shape[r++] = t->shape[i];
    sema_setloc(S, p);
    sval res = sema_emit(S, IR_REDUCE, sema_type(rdt, 0, r, shape), 1, &x.v, rdt, 0);
    ir_op *op = ir_def(S->fn, res.v);
    ir_attr_set(op, "axis", axis);
    ir_attr_set(op, "kind", kind);
    if (keep) {
        if (!has_axis) {
            int64_t ones[IR_MAX_RANK] = { 1, 1, 1, 1 };
            return sema_reshape(S, p, res, rank0, ones);
        }
        return sema_expand_dims(S, p, res, (int)axis);
    }
    return res;
}

static sval reduce_minmax(sema *S, src_pos p, const bargs *B, bool is_max, bool arg_only)
{
    sval x = sema_want_tensor(S, p, sema_arg_req(S, p, B, "input"), "the input");
    bool has_axis = sema_arg_has(B, "axis");
    int64_t axis = has_axis ? sema_want_int(S, p, sema_arg(B, "axis"), "axis") : 0;
    bool keep = sema_arg_bool(S, p, B, "keep_dims", false);
    bool want_idx = arg_only || sema_arg_bool(S, p, B, "return_indices", false);
    if (x.dt == TT_PTR) sema_error(S, p, "cannot reduce pointers");
    /* sub-32-bit floats go to fp32, small ints to (u)int32 (standard.py max/min) */
    /* with return_indices only bf16 is promoted; ints below 32 bits become int32 */
    if (want_idx ? x.dt == TT_BF16 : (tt_dtype_is_float(x.dt) && tt_dtype_bits(x.dt) < 32)) x = sema_cast(S, p, x, TT_F32, 0, false);
    else if (tt_dtype_is_int(x.dt) && tt_dtype_bits(x.dt) < 32) x = sema_cast(S, p, x, TT_I32, 0, false);
    bool u = tt_dtype_is_int(x.dt) && !tt_dtype_is_signed(x.dt);
    int vk = is_max ? (u ? RED_UMAX : RED_MAX) : (u ? RED_UMIN : RED_MIN);
    int ik = is_max ? (u ? RED_UARGMAX : RED_ARGMAX) : (u ? RED_UARGMIN : RED_ARGMIN);
    sval idx = {0};
    if (want_idx) idx = reduce(S, p, x, has_axis, axis, keep, ik, TT_I32);
    if (arg_only) return idx;
    sval val = reduce(S, p, x, has_axis, axis, keep, vk, x.dt);
    if (!want_idx) return val;
    sval tup = { .k = V_TUPLE, .n = 2, .v = -1 };
    tup.items = arena_alloc(S->a, sizeof(sval) * 2);
    tup.items[0] = val;
    tup.items[1] = idx;
    return tup;
}

/* tl.sum, tl.xor_sum, tl.max, tl.min, tl.argmax, tl.argmin (standard.py,
 * core.py reduce) */
sval sema_builtin_reduce(sema *S, src_pos p, int id, const bargs *B)
{
    switch (id) {
    case B_MAX: return reduce_minmax(S, p, B, true, false);
    case B_MIN: return reduce_minmax(S, p, B, false, false);
    case B_ARGMAX: return reduce_minmax(S, p, B, true, true);
    case B_ARGMIN: return reduce_minmax(S, p, B, false, true);
    default: break;
    }
    sval x = sema_want_tensor(S, p, sema_arg_req(S, p, B, "input"), "the input");
    if (x.dt == TT_PTR) sema_error(S, p, "cannot reduce pointers");
    if (id == B_SUM && sema_arg_has(B, "dtype")) x = sema_cast(S, p, x, sema_want_dtype(S, p, sema_arg(B, "dtype"), NULL), 0, false);
    else if (tt_dtype_is_int(x.dt) && tt_dtype_bits(x.dt) < 32)
        x = sema_cast(S, p, x, tt_dtype_is_signed(x.dt) ? TT_I32 : TT_U32, 0, false);
    if (id == B_XOR_SUM && !tt_dtype_is_int(x.dt)) sema_error(S, p, "xor_sum requires integers");
    bool has_axis = sema_arg_has(B, "axis");
    int64_t axis = has_axis ? sema_want_int(S, p, sema_arg(B, "axis"), "axis") : 0;
    return reduce(S, p, x, has_axis, axis, sema_arg_bool(S, p, B, "keep_dims", false), id == B_SUM ? RED_ADD : RED_XOR, x.dt);
}
