/* sema_shape.c — the builtins that move elements between tiles: tl.join,
 * tl.split, tl.cat, tl.gather, tl.histogram, tl.broadcast and
 * tl.map_elementwise, with the checks and shapes of Triton 3.6
 * (python/triton/language/core.py and semantic.py: join, split, cat,
 * gather, histogram, broadcast_impl_value, map_elementwise). sort, topk,
 * bitonic_merge, flip and interleave are Triton code in prelude.c, as in
 * standard.py. */
#include "sema_builtin.h"
#include "tritium/limits.h"

#include <string.h>

static sval tuple2(sema *S, sval a, sval b)
{
    sval t = { .k = V_TUPLE, .n = 2, .v = -1 };
    t.items = arena_alloc(S->a, sizeof(sval) * 2);
    t.items[0] = a;
    t.items[1] = b;
    return t;
}

static void same_dtype(sema *S, src_pos p, const char *fn, const sval *a, const sval *b)
{
    if (a->dt != b->dt || a->pt != b->pt)
        sema_error(S, p, "%s: both tensors must have the same dtype, got %s and %s", fn, sv_describe(S, a),
                   sv_describe(S, b));
}

/* semantic.py join: broadcast a and b to one shape, stack them along a new
 * minor dim of size 2; two scalars give a [2] tensor. */
static sval join(sema *S, src_pos p, sval a, sval b)
{
    a = sema_want_tensor(S, p, a, "a");
    b = sema_want_tensor(S, p, b, "b");
    same_dtype(S, p, "join", &a, &b);
    sema_broadcast_pair(S, p, &a, &b);
    const ir_type_info *t = sv_shape(S, &a);
    bool scalar = t->rank == 0;
    if (scalar) {
        a = sema_expand_dims(S, p, a, 0);
        b = sema_expand_dims(S, p, b, 0);
        t = sv_shape(S, &a);
    }
    if (t->rank >= IR_MAX_RANK) sema_error(S, p, "join: tensors of rank %d are not supported (at most %d)", t->rank + 1, IR_MAX_RANK);
    int64_t shape[IR_MAX_RANK];
    int rank = t->rank + 1;
    memcpy(shape, t->shape, sizeof(int64_t) * (size_t)t->rank);
    shape[rank - 1] = 2;
    sema_setloc(S, p);
    ir_value ops[2] = { a.v, b.v };
    sval r = sema_emit(S, IR_JOIN, sema_type(a.dt, a.pt, rank, shape), 2, ops, a.dt, a.pt);
    if (scalar) {
        int64_t two = 2;
        r = sema_reshape(S, p, r, 1, &two);
    }
    return r;
}

/* core.py split: the last dim must be 2; a [2] tensor gives two scalars. */
static sval split(sema *S, src_pos p, sval a)
{
    a = sema_want_tensor(S, p, a, "a");
    const ir_type_info *t = sv_shape(S, &a);
    if (t->rank == 0 || t->shape[t->rank - 1] != 2)
        sema_error(S, p, "split: the last dimension must have size 2, got %s", sv_describe(S, &a));
    bool rank1 = t->rank == 1;
    if (rank1) {
        a = sema_expand_dims(S, p, a, 0);
        t = sv_shape(S, &a);
    }
    ir_type half = sema_type(a.dt, a.pt, t->rank - 1, t->shape);
    ir_type rt[2] = { half, half };
    sema_setloc(S, p);
    int idx = ir_emit(&S->b, IR_SPLIT, 2, rt, 1, &a.v);
    ir_value r0 = ir_op_at(S->fn, S->b.region, idx)->res;
    sval lo = sv_tensor(r0, a.dt, a.pt), hi = sv_tensor(r0 + 1, a.dt, a.pt);
    if (rank1) {
        lo = sema_reshape(S, p, lo, 0, NULL);
        hi = sema_reshape(S, p, hi, 0, NULL);
    }
    return tuple2(S, lo, hi);
}

sval sema_join_along(sema *S, src_pos p, sval a, sval b, int ax, bool interleave)
{
    const ir_type_info *t = sv_shape(S, &a);
    int rank = t->rank, q = interleave ? ax + 1 : ax;   /* where the pair axis goes */
    int64_t shape[IR_MAX_RANK], order[IR_MAX_RANK], tshape[IR_MAX_RANK];
    memcpy(shape, t->shape, sizeof(int64_t) * (size_t)rank);
    sval c = join(S, p, a, b);
    if (q != rank) {
        for (int i = 0, k = 0; i <= rank; i++) order[i] = i == q ? rank : k++;
        for (int i = 0; i <= rank; i++) tshape[i] = order[i] == rank ? 2 : shape[order[i]];
        sema_setloc(S, p);
        sval tr = sema_emit(S, IR_TRANS, sema_type(c.dt, c.pt, rank + 1, tshape), 1, &c.v, c.dt, c.pt);
        ir_attr_set(ir_def(S->fn, tr.v), "order", ir_attr_array(S->fn, rank + 1, order));
        c = tr;
    }
    shape[ax] *= 2;
    return sema_reshape(S, p, c, rank, shape);
}

/* semantic.py cat: 1-D tensors of one type; Triton requires can_reorder
 * (its GPU lowering may order the result as it likes). tritium gives the
 * concatenation in order, which is one of the orders Triton allows. */
static sval cat(sema *S, src_pos p, const bargs *B)
{
    sval a = sema_want_tensor(S, p, sema_arg_req(S, p, B, "input"), "input");
    sval b = sema_want_tensor(S, p, sema_arg_req(S, p, B, "other"), "other");
    bool reorder = sema_arg_bool(S, p, B, "can_reorder", false);
    if (!reorder && front_triton_version() < 7)
        sema_error(S, p, "cat: current implementation of `cat` always may reorder elements: pass can_reorder=True");
    same_dtype(S, p, "cat", &a, &b);
    const ir_type_info *ta = sv_shape(S, &a), *tb = sv_shape(S, &b);
    if (!reorder) {
        /* Triton 3.7+ core.py cat (can_reorder=False): order-keeping along dim */
        int rank = ta->rank;
        if (rank != tb->rank) sema_error(S, p, "tensors must have the same rank, got %d and %d", rank, tb->rank);
        int64_t dim = sema_arg_has(B, "dim") ? sema_want_int(S, p, sema_arg(B, "dim"), "dim") : 0;
        if (rank == 0 || dim < -rank || dim >= rank)
            sema_error(S, p, "invalid axis %lld. Expected %d <= axis < %d", (long long)dim, -rank, rank);
        if (dim < 0) dim += rank;
        for (int i = 0; i < rank; i++)
            if (ta->shape[i] != tb->shape[i])
                sema_error(S, p, "tl.cat requires tensors of the same shape, got %s and %s", sv_describe(S, &a),
                           sv_describe(S, &b));
        return sema_join_along(S, p, a, b, (int)dim, false);
    }
    if (ta->rank != 1 || tb->rank != 1 || ta->shape[0] != tb->shape[0])
        sema_error(S, p, "cat: expected two 1-D tensors of one shape, got %s and %s", sv_describe(S, &a), sv_describe(S, &b));
    int64_t n = 2 * ta->shape[0];
    sema_setloc(S, p);
    ir_value ops[2] = { a.v, b.v };
    return sema_emit(S, IR_CAT, sema_type(a.dt, a.pt, 1, &n), 2, ops, a.dt, a.pt);
}

/* semantic.py gather: index has src's rank, integer dtype, and src's shape
 * outside axis; the result has index's shape and src's dtype. */
static sval gather(sema *S, src_pos p, const bargs *B)
{
    sval src = sema_want_tensor(S, p, sema_arg_req(S, p, B, "src"), "src");
    sval idx = sema_want_tensor(S, p, sema_arg_req(S, p, B, "index"), "index");
    int64_t axis = sema_want_int(S, p, sema_arg_req(S, p, B, "axis"), "axis");
    if (!tt_dtype_is_int(idx.dt) || idx.dt == TT_BOOL)
        sema_error(S, p, "gather: index must be an integer tensor, got %s", sv_describe(S, &idx));
    const ir_type_info *ts = sv_shape(S, &src), *ti = sv_shape(S, &idx);
    int rank = ts->rank;
    if (rank == 0) sema_error(S, p, "gather: src must be a tensor, got %s", sv_describe(S, &src));
    if (ti->rank != rank)
        sema_error(S, p, "gather: source and index tensors must have the same rank, got %s and %s", sv_describe(S, &src),
                   sv_describe(S, &idx));
    if (axis < -rank || axis >= rank) sema_error(S, p, "gather: axis %lld must be < source rank (%d)", (long long)axis, rank);
    if (axis < 0) axis += rank;
    for (int d = 0; d < rank; d++)
        if (d != axis && ti->shape[d] != ts->shape[d])
            sema_error(S, p, "gather: index dim %d must match the corresponding source dim: %s vs %s", d,
                       sv_describe(S, &idx), sv_describe(S, &src));
    sema_setloc(S, p);
    ir_value ops[2] = { src.v, idx.v };
    sval r = sema_emit(S, IR_GATHER, sema_type(src.dt, src.pt, rank, ti->shape), 2, ops, src.dt, src.pt);
    ir_attr_set(ir_def(S->fn, r.v), "axis", axis);
    return r;
}

/* semantic.py histogram: a 1-D integer input, num_bins bins of width 1
 * from 0 (int32 counts), an optional boolean mask broadcast to the input. */
static sval histogram(sema *S, src_pos p, const bargs *B)
{
    sval x = sema_want_tensor(S, p, sema_arg_req(S, p, B, "input"), "input");
    int64_t nb = sema_want_int(S, p, sema_arg_req(S, p, B, "num_bins"), "num_bins");
    const ir_type_info *t = sv_shape(S, &x);
    if (t->rank != 1) sema_error(S, p, "histogram only supports 1D input, got %s", sv_describe(S, &x));
    if (!tt_dtype_is_int(x.dt) || x.dt == TT_BOOL) sema_error(S, p, "histogram only supports integer input, got %s", sv_describe(S, &x));
    if (nb < 1 || nb > TT_MAX_TENSOR_NUMEL || !sema_is_pow2(nb))
        sema_error(S, p, "histogram: num_bins must be a power of two between 1 and %lld (TRITON_MAX_TENSOR_NUMEL), got %lld",
                   (long long)TT_MAX_TENSOR_NUMEL, (long long)nb);
    ir_value ops[2] = { x.v, 0 };
    int n = 1;
    sval m = { .k = V_NONE };
    if (sema_arg_has(B, "mask")) {
        m = sema_want_tensor(S, p, sema_arg(B, "mask"), "mask");
        m = sema_broadcast_to(S, p, m, 1, t->shape);
        if (m.dt != TT_BOOL) sema_error(S, p, "histogram: Mask must have boolean scalar type, got %s", sv_describe(S, &m));
    }
    if (front_triton_version() >= 9) {
        /* 3.9's lowering drops values outside [0, num_bins) (HistogramOpToLLVM: an
         * unsigned compare; its interpreter.py create_histogram says so); 3.6-3.8's
         * count value mod num_bins, which tt.histogram does (interp/eval_move.c) */
        sval w = sema_cast(S, p, x, TT_I64, 0, false);
        sval in = sema_binop(S, p, "<", w, sv_int(nb));
        if (tt_dtype_is_signed(x.dt)) in = sema_binop(S, p, "&", in, sema_binop(S, p, ">=", w, sv_int(0)));
        m = m.k == V_NONE ? in : sema_binop(S, p, "&", m, in);
    }
    if (m.k != V_NONE) ops[n++] = m.v;
    sema_setloc(S, p);
    return sema_emit(S, IR_HISTOGRAM, sema_type(TT_I32, 0, 1, &nb), n, ops, TT_I32, 0);
}

/* core.py map_elementwise: scalar_fn inlined into the region of
 * tt.map_elementwise, on scalars (pack of them per argument), so it may
 * branch on the elements' values; its results (one value or a tuple; with
 * pack > 1 the first pack values are result 0's elements, and so on) give
 * the results' dtypes. The arguments are broadcast to one shape. */
static sval map_elementwise(sema *S, src_pos p, node *call, const bargs *B)
{
    sval fn = sema_arg_req(S, p, B, "scalar_fn");
    if (fn.k != V_FUNC) sema_error(S, p, "map_elementwise: scalar_fn must be a @triton.jit function, got %s", sv_describe(S, &fn));
    int64_t pack = sema_arg_has(B, "pack") ? sema_want_int(S, p, sema_arg(B, "pack"), "pack") : 1;
    sval t = sema_arg(B, "args");
    if (t.n == 0) sema_error(S, p, "map_elementwise must have at least 1 input tensor");
    if (!call) sema_error(S, p, "map_elementwise cannot be inlined here");
    int n = t.n;
    sval *xs = arena_alloc(S->a, sizeof(sval) * (size_t)n);
    for (int i = 0; i < n; i++) xs[i] = sema_want_tensor(S, p, t.items[i], "an argument");
    for (int i = 1; i < n; i++) sema_broadcast_pair(S, p, &xs[0], &xs[i]);
    for (int i = 1; i < n; i++) sema_broadcast_pair(S, p, &xs[0], &xs[i]);
    const ir_type_info *shape = sv_shape(S, &xs[0]);
    int64_t numel = ir_type_numel(ir_value_type(S->fn, xs[0].v));
    bool scalar = shape->rank == 0;
    if (scalar) {                      /* scalars: a [1] tile, then back */
        for (int i = 0; i < n; i++) xs[i] = sema_expand_dims(S, p, xs[i], 0);
        shape = sv_shape(S, &xs[0]);
    }
    if (pack < 1 || pack > 64 || numel % pack)
        sema_error(S, p, "map_elementwise: pack must be between 1 and 64 and divide the %lld elements, got %lld",
                   (long long)numel, (long long)pack);
    ir_func *f = S->fn;
    int na = (int)(n * pack);
    ir_type *et = arena_alloc(S->a, sizeof(ir_type) * (size_t)na);
    for (int k = 0; k < na; k++) et[k] = ir_type_elem(ir_value_type(f, xs[k / pack].v));
    int32_t reg = ir_new_region(f, na, et);
    sval *args = arena_alloc(S->a, sizeof(sval) * (size_t)na);
    for (int k = 0; k < na; k++) args[k] = sv_tensor(f->regions.v[reg].args[k], xs[k / pack].dt, xs[k / pack].pt);
    int32_t saved = S->b.region;
    S->b.region = reg;
    sval r = sema_call_jit(S, call, (int)fn.i, args, na, NULL, NULL, 0);
    sval *rv = &r;
    int nr = 1;
    if (r.k == V_TUPLE) { rv = r.items; nr = r.n; }
    if (nr == 0 || nr % pack)
        sema_error(S, p, "map_elementwise: scalar_fn returned %d values, expected a multiple of pack (%lld)", nr, (long long)pack);
    int m = (int)(nr / pack);
    ir_value *vals = arena_alloc(S->a, sizeof(ir_value) * (size_t)nr);
    sval *res = arena_alloc(S->a, sizeof(sval) * (size_t)nr);
    for (int k = 0; k < nr; k++) {
        res[k] = sema_want_tensor(S, p, rv[k], "scalar_fn's result");
        if (sv_shape(S, &res[k])->rank != 0)
            sema_error(S, p, "map_elementwise: scalar_fn must return scalars, got %s", sv_describe(S, &res[k]));
        if (k % pack && (res[k].dt != res[k - k % pack].dt || res[k].pt != res[k - k % pack].pt))
            sema_error(S, p, "map_elementwise: type mismatch in unpacked results");
        vals[k] = res[k].v;
    }
    sema_setloc(S, p);
    ir_emit(&S->b, IR_MAP_RETURN, 0, NULL, nr, vals);
    S->b.region = saved;
    ir_type *rt = arena_alloc(S->a, sizeof(ir_type) * (size_t)m);
    ir_value *ops = arena_alloc(S->a, sizeof(ir_value) * (size_t)n);
    for (int k = 0; k < m; k++) rt[k] = sema_type(res[k * pack].dt, res[k * pack].pt, shape->rank, shape->shape);
    for (int k = 0; k < n; k++) ops[k] = xs[k].v;
    int at = ir_emit(&S->b, IR_MAP_ELEMWISE, m, rt, n, ops);
    ir_op *op = ir_op_at(f, S->b.region, at);
    ir_attr_set(op, "pack", pack);
    ir_value r0 = op->res;
    ir_op_add_region(f, S->b.region, at, reg);
    sval out = { .k = V_TUPLE, .n = m, .v = -1 };
    out.items = arena_alloc(S->a, sizeof(sval) * (size_t)m);
    for (int k = 0; k < m; k++) {
        out.items[k] = sv_tensor(r0 + k, res[k * pack].dt, res[k * pack].pt);
        if (scalar) out.items[k] = sema_reshape(S, p, out.items[k], 0, NULL);
    }
    return m == 1 && r.k != V_TUPLE ? out.items[0] : out;
}

sval sema_builtin_shape(sema *S, src_pos p, node *call, int id, const bargs *B)
{
    switch (id) {
    case B_JOIN: return join(S, p, sema_arg_req(S, p, B, "a"), sema_arg_req(S, p, B, "b"));
    case B_SPLIT: return split(S, p, sema_arg_req(S, p, B, "a"));
    case B_CAT: return cat(S, p, B);
    case B_GATHER: return gather(S, p, B);
    case B_HISTOGRAM: return histogram(S, p, B);
    case B_BROADCAST: {
        sval a = sema_want_tensor(S, p, sema_arg_req(S, p, B, "input"), "input");
        sval b = sema_want_tensor(S, p, sema_arg_req(S, p, B, "other"), "other");
        sema_broadcast_pair(S, p, &a, &b);
        return tuple2(S, a, b);
    }
    case B_MAP_ELEMENTWISE: return map_elementwise(S, p, call, B);
    case B_LOG2_CONST: {
        /* standard.py _log2 (a constexpr_function): floor(log2(i)), 0 for i <= 1 */
        int64_t i = sema_want_int(S, p, sema_arg_req(S, p, B, "i"), "the argument"), r = 0;
        while (i > 1) i >>= 1, r++;
        return sv_int(r);
    }
    }
    sema_error(S, p, "internal: sema_builtin_shape(%d)", id);
}
