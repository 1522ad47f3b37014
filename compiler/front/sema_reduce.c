/* sema_reduce.c — reductions and scans: tl.sum, xor_sum, max, min, argmax,
 * argmin (the named-combiner tt.reduce) and tl.reduce, tl.associative_scan,
 * tl.cumsum, tl.cumprod (tt.reduce_region / tt.scan with a combine region,
 * a user @triton.jit combine_fn inlined into it), with Triton 3.6's dtype
 * promotion (standard.py, core.py reduce and associative_scan). */
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
            int64_t ones[IR_MAX_RANK];
            for (int d = 0; d < rank0; d++) ones[d] = 1;
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
    /* with indices fp8 stays fp8, whose comparisons Triton 3.6 cannot compile
     * (ConvertTritonGPUToLLVM fails on arith.cmpf of f8): refuse it here */
    if (want_idx && tt_dtype_is_fp8(x.dt))
        sema_error(S, p, "%s on %s values is not supported (Triton 3.6 cannot compile fp8 comparisons); convert with "
                   ".to(tl.float32) first", arg_only ? (is_max ? "argmax" : "argmin") : is_max ? "max with indices" :
                   "min with indices", tt_dtype_triton_name(x.dt));
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

/* ---- combine regions ---- */

/* What the combine region computes from its 2n scalar arguments. */
typedef struct combiner {
    node *call;                    /* the tl.reduce/associative_scan call (inlining site) */
    sval fn;                       /* V_FUNC or V_BUILTIN: the user's combine_fn */
    const char *binop;             /* or a Python operator ("+", "*") on two scalars */
} combiner;

static sval run_combiner(sema *S, src_pos p, const combiner *c, sval *args, int n2)
{
    if (c->binop) return sema_binop(S, p, c->binop, args[0], args[1]);
    if (c->fn.k == V_FUNC) return sema_call_jit(S, c->call, (int)c->fn.i, args, n2, NULL, NULL, 0);
    return sema_call_builtin(S, c->call, (int)c->fn.i, NULL, args, n2, NULL, NULL, 0);
}

/* Emit tt.reduce_region (scan: tt.scan) over the n tensors xs (one shape)
 * along axis: builds the region with the combiner, then the op; res gets
 * the n results. */
static void emit_combine(sema *S, src_pos p, bool scan, const sval *xs, int n, int axis, bool reverse,
                         const combiner *c, sval *res)
{
    ir_func *f = S->fn;
    ir_type *et = arena_alloc(S->a, sizeof(ir_type) * (size_t)(2 * n));
    for (int k = 0; k < n; k++) et[k] = et[n + k] = ir_type_elem(ir_value_type(f, xs[k].v));
    int32_t reg = ir_new_region(f, 2 * n, et);
    sval *args = arena_alloc(S->a, sizeof(sval) * (size_t)(2 * n));
    for (int k = 0; k < 2 * n; k++) args[k] = sv_tensor(f->regions.v[reg].args[k], xs[k % n].dt, 0);
    int32_t saved = S->b.region;
    S->b.region = reg;
    sval r = run_combiner(S, p, c, args, 2 * n);
    sval *rv = &r;
    int nr = 1;
    if (r.k == V_TUPLE) { rv = r.items; nr = r.n; }
    if (nr != n) sema_error(S, p, "combine_fn must return %d value%s, got %d", n, n == 1 ? "" : "s", nr);
    ir_value *vals = arena_alloc(S->a, sizeof(ir_value) * (size_t)n);
    for (int k = 0; k < n; k++) {
        sval v = sema_want_tensor(S, p, rv[k], "combine_fn's result");
        if (v.k == V_TENSOR && v.dt != xs[k].dt && sv_is_const(&rv[k])) v = sema_cast(S, p, v, xs[k].dt, 0, false);
        if (sv_shape(S, &v)->rank != 0 || v.dt != xs[k].dt)
            sema_error(S, p, "combine_fn must return a %s scalar for operand %d, got %s", tt_dtype_triton_name(xs[k].dt), k,
                       sv_describe(S, &v));
        vals[k] = v.v;
    }
    sema_setloc(S, p);
    ir_emit(&S->b, scan ? IR_SCAN_RETURN : IR_REDUCE_RETURN, 0, NULL, n, vals);
    S->b.region = saved;

    const ir_type_info *t = sv_shape(S, &xs[0]);
    int64_t shape[IR_MAX_RANK];
    int rank = 0;
    for (int i = 0; i < t->rank; i++)
        if (scan || i != axis) shape[rank++] = t->shape[i];
    ir_type *rt = arena_alloc(S->a, sizeof(ir_type) * (size_t)n);
    ir_value *ops = arena_alloc(S->a, sizeof(ir_value) * (size_t)n);
    for (int k = 0; k < n; k++) {
        rt[k] = sema_type(xs[k].dt, 0, rank, shape);
        ops[k] = xs[k].v;
    }
    sema_setloc(S, p);
    int at = ir_emit(&S->b, scan ? IR_SCAN : IR_REDUCE_REGION, n, rt, n, ops);
    ir_op *op = ir_op_at(f, S->b.region, at);
    ir_attr_set(op, "axis", axis);
    if (scan) ir_attr_set(op, "reverse", reverse);
    ir_value r0 = op->res;
    ir_op_add_region(f, S->b.region, at, reg);
    for (int k = 0; k < n; k++) res[k] = sv_tensor(r0 + k, xs[k].dt, 0);
}

/* tl.reduce(input, axis, combine_fn, keep_dims), tl.associative_scan(input,
 * axis, combine_fn, reverse), tl.cumsum(input, axis=0, reverse, dtype),
 * tl.cumprod(input, axis=0, reverse): input a tensor or a tuple of tensors
 * of one shape (core.py reduce / associative_scan; standard.py cumsum,
 * cumprod: bf16 -> fp32 before 3.9, ints below 32 bits -> (u)int32). */
static sval combine_builtin(sema *S, src_pos p, node *call, int id, const bargs *B)
{
    bool scan = id != B_REDUCE;
    const char *name = sema_builtin_name(id);
    sval in = sema_arg_req(S, p, B, "input");
    int n = in.k == V_TUPLE ? in.n : 1;
    if (n < 1) sema_error(S, p, "%s: input must be a tensor or a non-empty tuple of tensors", name);
    sval *xs = arena_alloc(S->a, sizeof(sval) * (size_t)n);
    for (int k = 0; k < n; k++) {
        xs[k] = sema_want_tensor(S, p, in.k == V_TUPLE ? in.items[k] : in, "the input");
        if (xs[k].dt == TT_PTR) sema_error(S, p, "%s: cannot combine pointers", name);
    }
    combiner c = { call, sv_none(), NULL };
    if (id == B_CUMSUM || id == B_CUMPROD) {
        if (n != 1) sema_error(S, p, "%s takes one tensor", name);
        /* standard.py cumsum/cumprod: 3.6-3.8 promote bf16 to fp32 and widen
         * cumsum's narrow ints; 3.9 keeps bf16 and gives cumprod dtype= and
         * the same _pick_sum_dtype (ints below 32 bits -> (u)int32) */
        int ver = front_triton_version();
        if (ver < 9 && xs[0].dt == TT_BF16) xs[0] = sema_cast(S, p, xs[0], TT_F32, 0, false);
        if (id == B_CUMSUM || ver >= 9) {
            if (sema_arg_has(B, "dtype")) xs[0] = sema_cast(S, p, xs[0], sema_want_dtype(S, p, sema_arg(B, "dtype"), NULL), 0, false);
            else if (tt_dtype_is_int(xs[0].dt) && tt_dtype_bits(xs[0].dt) < 32)
                xs[0] = sema_cast(S, p, xs[0], tt_dtype_is_signed(xs[0].dt) ? TT_I32 : TT_U32, 0, false);
        }
        c.binop = id == B_CUMSUM ? "+" : "*";
    } else {
        c.fn = sema_arg_req(S, p, B, "combine_fn");
        if (c.fn.k != V_FUNC && c.fn.k != V_BUILTIN)
            sema_error(S, p, "%s: combine_fn must be a @triton.jit function, got %s", name, sv_describe(S, &c.fn));
        if (!call) sema_error(S, p, "%s: combine_fn cannot be inlined here", name);
    }
    const ir_type_info *t = sv_shape(S, &xs[0]);
    int rank0 = t->rank;
    for (int k = 1; k < n; k++) {
        const ir_type_info *tk = sv_shape(S, &xs[k]);
        if (tk->rank != t->rank || memcmp(tk->shape, t->shape, sizeof(int64_t) * (size_t)t->rank))
            sema_error(S, p, "%s: all inputs must have the same shape, got %s and %s", name, sv_describe(S, &xs[0]),
                       sv_describe(S, &xs[k]));
    }
    if (rank0 == 0) sema_error(S, p, "%s: cannot %s a scalar", name, scan ? "scan" : "reduce");
    bool has_axis = sema_arg_has(B, "axis");
    int64_t axis = has_axis ? sema_want_int(S, p, sema_arg(B, "axis"), "axis") : 0;
    if (!has_axis && scan && id == B_ASSOC_SCAN) sema_error(S, p, "associative_scan: axis is required");
    if (!has_axis && !scan) {
        int64_t numel = ir_type_numel(ir_value_type(S->fn, xs[0].v));
        for (int k = 0; k < n; k++) xs[k] = sema_reshape(S, p, xs[k], 1, &numel);
    } else {
        if (axis < 0) axis += rank0;
        if (axis < 0 || axis >= rank0) sema_error(S, p, "%s: axis %lld out of range for rank %d", name, (long long)axis, rank0);
    }
    bool reverse = scan && sema_arg_bool(S, p, B, "reverse", false);
    sval *res = arena_alloc(S->a, sizeof(sval) * (size_t)n);
    emit_combine(S, p, scan, xs, n, (int)axis, reverse, &c, res);
    if (!scan && sema_arg_bool(S, p, B, "keep_dims", false)) {
        for (int k = 0; k < n; k++) {
            if (!has_axis) {
                int64_t ones[IR_MAX_RANK];
                for (int d = 0; d < rank0; d++) ones[d] = 1;
                res[k] = sema_reshape(S, p, res[k], rank0, ones);
            } else {
                res[k] = sema_expand_dims(S, p, res[k], (int)axis);
            }
        }
    }
    if (in.k != V_TUPLE) return res[0];   /* a tuple input, even of one tensor, gives a tuple */
    sval tup = { .k = V_TUPLE, .n = n, .v = -1 };
    tup.items = res;
    return tup;
}

/* tl.sum, tl.xor_sum, tl.max, tl.min, tl.argmax, tl.argmin (standard.py,
 * core.py reduce) */
sval sema_builtin_reduce(sema *S, src_pos p, node *call, int id, const bargs *B)
{
    switch (id) {
    case B_REDUCE: case B_ASSOC_SCAN: case B_CUMSUM: case B_CUMPROD:
        return combine_builtin(S, p, call, id, B);
    case B_MAX: return reduce_minmax(S, p, B, true, false);
    case B_MIN: return reduce_minmax(S, p, B, false, false);
    case B_ARGMAX: return reduce_minmax(S, p, B, true, true);
    case B_ARGMIN: return reduce_minmax(S, p, B, false, true);
    default: break;
    }
    sval x = sema_want_tensor(S, p, sema_arg_req(S, p, B, "input"), "the input");
    if (x.dt == TT_PTR) sema_error(S, p, "cannot reduce pointers");
    if (id == B_SUM && sema_arg_has(B, "dtype")) x = sema_cast(S, p, x, sema_want_dtype(S, p, sema_arg(B, "dtype"), NULL), 0, false);
    else if (id == B_SUM && tt_dtype_is_int(x.dt) && tt_dtype_bits(x.dt) < 32)   /* _pick_sum_dtype; xor_sum keeps its dtype */
        x = sema_cast(S, p, x, tt_dtype_is_signed(x.dt) ? TT_I32 : TT_U32, 0, false);
    if (id == B_XOR_SUM && !tt_dtype_is_int(x.dt)) sema_error(S, p, "xor_sum requires integers");
    /* _pick_sum_dtype keeps fp8, whose additions Triton 3.6 cannot compile */
    if (id == B_SUM && tt_dtype_is_fp8(x.dt))
        sema_error(S, p, "sum of %s values is not supported (Triton 3.6 cannot compile fp8 arithmetic); pass "
                   "dtype=tl.float32 or convert with .to(tl.float32) first", tt_dtype_triton_name(x.dt));
    bool has_axis = sema_arg_has(B, "axis");
    int64_t axis = has_axis ? sema_want_int(S, p, sema_arg(B, "axis"), "axis") : 0;
    return reduce(S, p, x, has_axis, axis, sema_arg_bool(S, p, B, "keep_dims", false), id == B_SUM ? RED_ADD : RED_XOR, x.dt);
}
