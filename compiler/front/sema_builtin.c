/* sema_builtin.c — the tl.* functions, tensor methods and Python builtins
 * that kernels may call, with Triton 3.6's argument names and checks
 * (python/triton/language/{core,semantic,standard,math}.py): the table
 * (sema_builtin.h), name lookup, and the dispatcher. Memory ops live in
 * sema_mem.c, reductions in sema_reduce.c, argument binding in sema_bind.c. */
#include "sema_builtin.h"
#include "tritium/limits.h"

#include <math.h>
#include <string.h>

static const struct { const char *name, *params; unsigned vis; } btab[B_COUNT] = {
#define X(id, name, params, vis) [B_##id] = { name, params, vis },
    BUILTINS(X)
#undef X
};

const char *sema_builtin_name(int id) { return btab[id].name; }
const char *sema_builtin_params(int id) { return btab[id].params; }

static bool find(const char *name, unsigned vis, sval *out, vkind k)
{
    for (int i = 0; i < B_COUNT; i++) {
        if ((btab[i].vis & vis) && !strcmp(btab[i].name, name)) {
            *out = (sval){ .k = k, .i = i, .v = -1 };
            return true;
        }
    }
    return false;
}

bool sema_python_builtin(const char *name, sval *out) { return find(name, IN_PY, out, V_BUILTIN); }

/* tl.rand & co. (and tl.random.NAME) are the prelude's __tl_ functions
 * (prelude.c): names[] lists those tl exports, random[] those of
 * language/random.py. */
static bool prelude_func(sema *S, const char *name, sval *out, bool random)
{
    static const char *const names[] = { "rand", "randint", "randn", "randint4x", "rand4x", "randn4x",
                                         "philox", "uint_to_uniform_float", "pair_uniform_to_normal",
                                         "swizzle2d", "reduce_or", "softmax", "sort", "topk", "bitonic_merge",
                                         "flip", "interleave", "squeeze", "unsqueeze", NULL };
    static const char *const rnames[] = { "rand", "randint", "randn", "randint4x", "rand4x", "randn4x", "philox",
                                          "philox_impl", "uint_to_uniform_float", "pair_uniform_to_normal", NULL };
    const char *const *tab = random ? rnames : names;
    for (int k = 0; tab[k]; k++) {
        if (strcmp(tab[k], name)) continue;
        char full[64];
        /* where releases differ: softmax keeps the shape from 3.9, topk takes descending= from 3.8 */
        const char *suffix = (!random && !strcmp(name, "softmax") && front_triton_version() >= 9) ? "_39"
                             : (!random && !strcmp(name, "topk") && front_triton_version() >= 8) ? "_38" : "";
        snprintf(full, sizeof full, "__tl_%s%s", name, suffix);
        for (int i = S->m->nuser; i < S->m->funcs.n; i++) {
            if (!strcmp(S->m->funcs.v[i].name, full)) {
                *out = (sval){ .k = V_FUNC, .i = i, .v = -1 };
                return true;
            }
        }
    }
    return false;
}

bool sema_module_attr(sema *S, int mod, const char *name, sval *out)
{
    switch (mod) {
    case MOD_TL:
        tt_dtype d;
        if (tt_dtype_from_tl(name, &d)) {                /* tl.float16, tl.int1, tl.float8e4nv (dtype.c) */
            *out = sv_dtype(d, TT_BOOL);
            return true;
        }
        if (!strcmp(name, "pi32_t")) { *out = sv_dtype(TT_PTR, TT_I32); return true; }   /* core.py: pointer_type(int32) */
        if (!strcmp(name, "math")) { *out = (sval){ .k = V_MODULE, .i = MOD_MATH, .v = -1 }; return true; }
        if (!strcmp(name, "random")) { *out = (sval){ .k = V_MODULE, .i = MOD_RANDOM, .v = -1 }; return true; }
        if (!strcmp(name, "extra")) { *out = (sval){ .k = V_MODULE, .i = MOD_EXTRA, .v = -1 }; return true; }
        if (!strcmp(name, "PropagateNan")) { *out = (sval){ .k = V_MODULE, .i = MOD_PROPAGATE_NAN, .v = -1 }; return true; }
        if (prelude_func(S, name, out, false)) return true;
        return find(name, IN_TL, out, V_BUILTIN);
    case MOD_MATH: return find(name, IN_MATH, out, V_BUILTIN);
    case MOD_RANDOM: return prelude_func(S, name, out, true);   /* language/random.py */
    case MOD_LIBDEVICE: return find(name, IN_LIBDEVICE, out, V_BUILTIN) || sema_libdevice_attr(name, out);
    case MOD_EXTRA:
        if (!strcmp(name, "cuda")) { *out = (sval){ .k = V_MODULE, .i = MOD_CUDA, .v = -1 }; return true; }
        if (!strcmp(name, "libdevice")) { *out = (sval){ .k = V_MODULE, .i = MOD_LIBDEVICE, .v = -1 }; return true; }
        return false;
    case MOD_CUDA:
        if (!strcmp(name, "libdevice")) { *out = (sval){ .k = V_MODULE, .i = MOD_LIBDEVICE, .v = -1 }; return true; }
        return false;
    case MOD_PROPAGATE_NAN:    /* core.py PropagateNan: NONE = 0x0000, ALL = 0xFFFF */
        if (!strcmp(name, "NONE") || !strcmp(name, "ALL")) { *out = sv_int(!strcmp(name, "ALL") ? 0xffff : 0); return true; }
        return false;
    case MOD_TRITON:
        if (!strcmp(name, "language")) { *out = (sval){ .k = V_MODULE, .i = MOD_TL, .v = -1 }; return true; }
        return find(name, IN_TRITON, out, V_BUILTIN);
    }
    return false;
}

/* A tensor descriptor's attributes (core.py tensor_descriptor): shape (i32
 * scalars), strides (i64), block_shape (constexprs) and dtype. */
static bool desc_attr(sema *S, src_pos p, sval d, const char *name, sval *out)
{
    int rank = (int)d.i;
    int which = !strcmp(name, "shape") ? 0 : !strcmp(name, "strides") ? 1 : !strcmp(name, "block_shape") ? 2 : -1;
    if (!strcmp(name, "dtype")) {
        *out = sv_dtype(d.items[0].pt, 0);
        return true;
    }
    if (which < 0) return false;
    sval tup = { .k = V_TUPLE, .n = rank, .v = -1 };
    tup.items = arena_alloc(S->a, sizeof(sval) * (size_t)(rank + 1));
    for (int k = 0; k < rank; k++) {
        if (which == 2) tup.items[k] = d.items[1 + 3 * rank + k];
        else if (which == 1) tup.items[k] = d.items[1 + rank + k];
        else tup.items[k] = sema_cast(S, p, d.items[1 + k], TT_I32, 0, false);
    }
    *out = tup;
    return true;
}

bool sema_tensor_attr(sema *S, src_pos p, sval self, const char *name, sval *out)
{
    if ((sv_is_const(&self) || self.k == V_STR || self.k == V_NONE || self.k == V_DTYPE) && !strcmp(name, "value")) {
        /* Triton's compiler hands constexpr parameters and globals over as
         * tl.constexpr objects, whose .value is the value (core.py constexpr) */
        *out = self;
        return true;
    }
    if (self.k == V_DTYPE) return sema_dtype_attr(S, self, name, out);
    if (self.k == V_BLOCKPTR && (!strcmp(name, "type") || !strcmp(name, "dtype"))) {
        /* a pointer to the block (semantic.py make_block_ptr: pointer_type(block_type(elt, ...))); its
         * element_ty is the block's element type as far as casts go (semantic.py cast takes .scalar) */
        *out = sv_dtype(TT_PTR, self.items[0].pt);
        return true;
    }
    if (self.k == V_TDESC && (!strcmp(name, "load") || !strcmp(name, "store") || find(name, IN_TDESC, out, V_METHOD))) {
        if (!strcmp(name, "load") || !strcmp(name, "store"))
            *out = (sval){ .k = V_METHOD, .i = !strcmp(name, "load") ? B_DESC_LOAD : B_DESC_STORE, .v = -1 };
        out->self = arena_alloc(S->a, sizeof(sval));
        *out->self = self;
        return true;
    }
    if (self.k == V_TDESC) return desc_attr(S, p, self, name, out);
    if ((sv_is_const(&self) || self.k == V_STR) && !strcmp(name, "type")) {
        /* core.py constexpr.type: constexpr_type(value), for isinstance() */
        *out = (sval){ .k = V_BUILTIN, .i = B_CONSTEXPR_TYPE, .v = -1 };
        out->self = arena_alloc(S->a, sizeof(sval));
        *out->self = self;
        return true;
    }
    if (self.k != V_TENSOR) return false;
    if (!strcmp(name, "dtype") || !strcmp(name, "type")) {
        *out = sv_dtype(self.dt, self.pt);
        return true;
    }
    if (!strcmp(name, "shape")) {
        const ir_type_info *t = sv_shape(S, &self);
        sval tup = { .k = V_TUPLE, .n = t->rank, .v = -1 };
        tup.items = arena_alloc(S->a, sizeof(sval) * (size_t)(t->rank + 1));
        for (int i = 0; i < t->rank; i++) tup.items[i] = sv_int(t->shape[i]);
        *out = tup;
        return true;
    }
    if (!strcmp(name, "numel")) {    /* core.py tensor.numel: a constexpr */
        *out = sv_int(ir_type_numel(ir_value_type(S->fn, self.v)));
        return true;
    }
    if (!strcmp(name, "T")) {
        sval args[1] = { self };
        *out = sema_call_builtin(S, NULL, B_TRANS, NULL, args, 1, NULL, NULL, 0);
        (void)p;
        return true;
    }
    /* language/standard.py's @_tensor_member_fn functions of the prelude */
    bool member = !strcmp(name, "softmax") || !strcmp(name, "reduce_or") || !strcmp(name, "flip") ||
                  !strcmp(name, "sort");
    if ((member && prelude_func(S, name, out, false)) || find(name, IN_METHOD, out, V_METHOD)) {
        out->self = arena_alloc(S->a, sizeof(sval));
        *out->self = self;
        return true;
    }
    return false;
}

/* The op of a tl.math function NAME: math.NAME of ops_math.def with the
 * fp32/fp64 signature; -1 for other builtins. */
static int math_op(int id)
{
    if (id < 0 || id >= B_COUNT || !(btab[id].vis & IN_MATH)) return -1;
    char name[64];
    int n = snprintf(name, sizeof name, "math.%s", btab[id].name);
    int opc = ir_op_lookup(name, (size_t)n);
    return opc >= 0 && ir_mathfns[opc].arity == 1 && ir_mathfns[opc].var[0].res == TT_F32 ? opc : -1;
}

/* propagate_nan=: tl.PropagateNan.NONE (0, the default) or ALL (0xffff),
 * core.py PropagateNan; true for ALL. */
static bool propagate_nan(sema *S, src_pos p, const bargs *B)
{
    if (!sema_arg_has(B, "propagate_nan")) return false;
    sval v = sema_arg(B, "propagate_nan");
    if ((v.k != V_INT && v.k != V_BOOL) || (v.i != 0 && v.i != 0xffff))
        sema_error(S, p, "propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL, got %s", sv_describe(S, &v));
    return v.i == 0xffff;
}

static sval unary_math(sema *S, src_pos p, int opc, sval x, const char *fn)
{
    x = sema_want_tensor(S, p, x, "the argument");
    sema_check_fp(S, p, x, fn);
    sema_setloc(S, p);
    return sema_emit(S, opc, ir_value_type(S->fn, x.v), 1, &x.v, x.dt, 0);
}

/* isinstance(obj, cls) on the classes kernels test (Triton 3.6 evaluates it
 * at compile time on the frontend's value classes, core.py): tl.tensor,
 * tl.tensor_descriptor, tl.constexpr, tl.constexpr_type (a constexpr's
 * .type), int, float, bool, or a tuple of them. */
static bool is_instance(sema *S, src_pos p, sval obj, sval cls)
{
    if (cls.k == V_TUPLE) {
        for (int i = 0; i < cls.n; i++)
            if (is_instance(S, p, obj, cls.items[i])) return true;
        return false;
    }
    if (cls.k == V_BUILTIN) {
        switch (cls.i) {
        case B_TDESC_TYPE: return obj.k == V_TDESC;
        case B_TENSOR_TYPE: return obj.k == V_TENSOR;
        case B_CONSTEXPR_TYPE: return obj.k == V_BUILTIN && obj.i == B_CONSTEXPR_TYPE && obj.self;
        case B_CONSTEXPR: return sv_is_const(&obj) || obj.k == V_NONE || obj.k == V_STR || obj.k == V_DTYPE;
        case B_PY_INT: return obj.k == V_INT || obj.k == V_BOOL;
        case B_PY_FLOAT: return obj.k == V_FLOAT;
        case B_PY_BOOL: return obj.k == V_BOOL;
        case B_POINTER_TYPE: return obj.k == V_DTYPE && obj.dt == TT_PTR;
        default: break;
        }
    }
    sema_error(S, p, "isinstance(): tritium supports the classes tl.tensor, tl.tensor_descriptor, tl.constexpr, "
               "tl.constexpr_type, tl.pointer_type, int, float and bool, got %s", sv_describe(S, &cls));
}

sval sema_call_builtin(sema *S, node *call, int id, sval *self, sval *args, int nargs,
                       const char **kwn, sval *kwv, int nkw)
{
    src_pos p = call ? call->pos : (src_pos){ -1, 0, 0 };
    if (!call && S->b.loc >= 0) {
        ir_loc *l = &S->fn->locs.v[S->b.loc];
        p = (src_pos){ l->file, l->line, l->col };
    }
    if (id == B_DTYPE_METHOD) return sema_dtype_method(S, p, self, nargs + nkw);
    if (id == B_LIBDEVICE_FN) {
        if (!self || self->k != V_BUILTIN || !self->s) sema_error(S, p, "a libdevice function can only be called");
        return sema_libdevice_call(S, p, self->s, args, nargs, kwn, kwv, nkw);
    }
    sema_version_call(S, p, btab[id].name, kwn, nkw);
    if (id == B_AGGREGATE_REPLACE) return sema_aggregate_replace(S, p, args, nargs, kwn, kwv, nkw);
    bargs B;
    sema_bind_args(S, p, id, self, args, nargs, kwn, kwv, nkw, &B);
    sema_version_args(S, p, &B);
    sema_setloc(S, p);
    switch (id) {
    case B_PROGRAM_ID:
    case B_NUM_PROGRAMS: {
        int64_t axis = sema_arg_has(&B, "axis") ? sema_want_int(S, p, sema_arg(&B, "axis"), "axis") : 0;
        if (axis < 0 || axis > 2) sema_error(S, p, "%s axis must be 0, 1, or 2 but got %lld", btab[id].name, (long long)axis);
        sval r = sema_emit(S, id == B_PROGRAM_ID ? IR_GET_PID : IR_GET_NPROG, ir_scalar(TT_I32), 0, NULL, TT_I32, 0);
        ir_attr_set(ir_def(S->fn, r.v), "axis", axis);
        return r;
    }
    case B_ARANGE: {
        int64_t start = sema_want_int(S, p, sema_arg_req(S, p, &B, "start"), "arange's start");
        int64_t end;
        if (sema_arg_has(&B, "end")) end = sema_want_int(S, p, sema_arg(&B, "end"), "arange's end");
        else { end = start; start = 0; }
        if (start < INT32_MIN || end > INT32_MAX) sema_error(S, p, "arange's arguments must be within int32 range");
        if (end <= start) sema_error(S, p, "arange's end must be greater than start (got %lld, %lld)", (long long)start, (long long)end);
        if (!sema_is_pow2(end - start)) sema_error(S, p, "arange's range must be a power of 2, got %lld", (long long)(end - start));
        if (end - start > TT_MAX_TENSOR_NUMEL)
            sema_error(S, p, "arange: more than %lld elements (TRITON_MAX_TENSOR_NUMEL)", (long long)TT_MAX_TENSOR_NUMEL);
        int64_t n = end - start;
        sval r = sema_emit(S, IR_MAKE_RANGE, ir_tensor(ir_scalar(TT_I32), 1, &n), 0, NULL, TT_I32, 0);
        ir_attr_set(ir_def(S->fn, r.v), "start", start);
        ir_attr_set(ir_def(S->fn, r.v), "end", end);
        return r;
    }
    case B_ZEROS:
    case B_FULL: {
        int64_t shape[IR_MAX_RANK];
        int rank = sema_want_shape(S, p, sema_arg_req(S, p, &B, "shape"), shape, true);
        tt_dtype pt;
        tt_dtype dt = sema_want_dtype(S, p, sema_arg_req(S, p, &B, "dtype"), &pt);
        if (dt == TT_PTR) sema_error(S, p, "cannot create a tensor of pointers with %s", btab[id].name);
        if (id == B_ZEROS) return sema_const_tensor(S, p, 0, 0, dt, rank, shape);
        sval v = sema_arg_req(S, p, &B, "value");
        if (v.k == V_TENSOR) return sema_broadcast_to(S, p, sema_cast(S, p, v, dt, 0, false), rank, shape);
        if (!sv_is_const(&v)) sema_error(S, p, "full: value must be a number, got %s", sv_describe(S, &v));
        if (tt_dtype_is_float(dt)) return sema_const_tensor(S, p, v.k == V_FLOAT ? v.f : (double)v.i, 0, dt, rank, shape);
        if (v.k == V_FLOAT) {
            sval f = sema_const_tensor(S, p, v.f, 0, TT_F32, rank, shape);
            return sema_cast(S, p, f, dt, 0, false);
        }
        return sema_const_tensor(S, p, (double)v.i, v.i, dt, rank, shape);
    }
    case B_ZEROS_LIKE: {
        sval x = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "input"), "the input");
        const ir_type_info *t = sv_shape(S, &x);
        return sema_const_tensor(S, p, 0, 0, x.dt, t->rank, t->shape);
    }
    case B_CDIV: {
        sval x = sema_arg_req(S, p, &B, "x"), d = sema_arg_req(S, p, &B, "div");
        sval r = sema_binop(S, p, "+", x, d);
        r = sema_binop(S, p, "-", r, sv_int(1));
        return sema_binop(S, p, "//", r, d);
    }
    case B_NEXT_POW2: {
        /* triton/runtime/jit.py next_power_of_2: a host helper, so constexprs only */
        sval n = sema_arg_req(S, p, &B, "n");
        if (n.k != V_INT && n.k != V_BOOL)
            sema_error(S, p, "triton.next_power_of_2 runs on the host: it needs a constexpr int, got %s", sv_describe(S, &n));
        uint64_t v = (uint64_t)n.i - 1;
        for (int sh = 1; sh <= 32; sh *= 2) v |= v >> sh;
        return sv_int((int64_t)(v + 1));
    }
    case B_WHERE: {
        sval c = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "condition"), "the condition");
        if (c.dt != TT_BOOL) c = sema_cast(S, p, c, TT_BOOL, 0, false);
        sval x = sema_arg_req(S, p, &B, "x"), y = sema_arg_req(S, p, &B, "y");
        /* x and y are promoted together like a binary op (semantic.py where) */
        if (x.k != V_TENSOR || y.k != V_TENSOR || x.dt != y.dt || x.pt != y.pt) {
            if (x.dt == TT_PTR || y.dt == TT_PTR) {
                if (x.k != V_TENSOR || y.k != V_TENSOR || x.dt != y.dt || x.pt != y.pt)
                    sema_error(S, p, "where: incompatible pointer operands %s and %s", sv_describe(S, &x), sv_describe(S, &y));
            } else {
                tt_dtype ct = sema_promote(S, p, x, y);
                x = x.k == V_TENSOR ? sema_cast(S, p, x, ct, 0, false) : sema_const_as(S, p, x, ct);
                y = y.k == V_TENSOR ? sema_cast(S, p, y, ct, 0, false) : sema_const_as(S, p, y, ct);
            }
        }
        sema_broadcast_pair(S, p, &x, &y);
        sema_broadcast_pair(S, p, &c, &x);
        sema_broadcast_pair(S, p, &x, &y);
        sema_broadcast_pair(S, p, &c, &y);
        sema_setloc(S, p);
        ir_value ops[3] = { c.v, x.v, y.v };
        return sema_emit(S, IR_SELECT, ir_value_type(S->fn, x.v), 3, ops, x.dt, x.pt);
    }
    case B_MINIMUM:
    case B_MAXIMUM:
        return sema_minmax_nan(S, p, id == B_MAXIMUM, sema_arg_req(S, p, &B, "x"), sema_arg_req(S, p, &B, "y"),
                               propagate_nan(S, p, &B));
    case B_CLAMP: {
        /* tt.clampf: max(x, min) then min(., max), NaN-propagating with ALL */
        bool all = propagate_nan(S, p, &B);
        sval x = sema_arg_req(S, p, &B, "x");
        x = sema_minmax_nan(S, p, true, x, sema_arg_req(S, p, &B, "min"), all);
        return sema_minmax_nan(S, p, false, x, sema_arg_req(S, p, &B, "max"), all);
    }
    case B_DIV_RN:
    case B_FDIV: {
        /* math.py div_rn (fp32 tensors only, then promoted) and fdiv
         * (semantic.py fdiv: floats, promoted; ieee_rounding is unused in
         * Triton 3.6: arith.divf) */
        sval x = sema_arg_req(S, p, &B, "x"), y = sema_arg_req(S, p, &B, "y");
        if (id == B_FDIV && front_triton_version() >= 9) {
            /* Triton 3.9 semantic.py fdiv: the operands promoted as for `/`
             * (div_or_mod), floating after promotion; approx= (fp32 only:
             * div.approx.f32 on the GPU, here the division itself) or
             * ieee_rounding= (a precise division), not both */
            bool ieee = sema_arg_bool(S, p, &B, "ieee_rounding", false), approx = sema_arg_bool(S, p, &B, "approx", false);
            if (ieee && approx) sema_error(S, p, "approx and ieee_rounding cannot both be True");
            bool xi = x.k == V_TENSOR ? !tt_dtype_is_float(x.dt) : x.k != V_FLOAT;
            bool yi = y.k == V_TENSOR ? !tt_dtype_is_float(y.dt) : y.k != V_FLOAT;
            if (xi && yi) sema_error(S, p, "fdiv requires floating-point operands after type promotion");
            sval r = sema_binop(S, p, "/", x, y);
            if (approx && r.dt != TT_F32) sema_error(S, p, "approx division requires float32 operands");
            if (!ieee) return r;
            if (r.dt != TT_F32 && r.dt != TT_F64)
                sema_error(S, p, "fdiv(ieee_rounding=True): tritium's precise division takes fp32 or fp64, got %s",
                           tt_dtype_triton_name(r.dt));
            sval v[2] = { x.k == V_TENSOR ? sema_cast(S, p, x, r.dt, 0, false) : sema_const_as(S, p, x, r.dt),
                          y.k == V_TENSOR ? sema_cast(S, p, y, r.dt, 0, false) : sema_const_as(S, p, y, r.dt) };
            for (int i = 0; i < 2; i++) v[i] = sema_want_tensor(S, p, v[i], "an operand");
            return sema_mathfn_emit(S, p, IR_DIV_RN, r.dt == TT_F32 ? 0 : 1, v);
        }
        for (int i = 0; i < 2; i++) {
            sval v = i ? y : x;
            if (v.k != V_TENSOR) continue;
            if (id == B_DIV_RN && v.dt != TT_F32)
                sema_error(S, p, "div_rn: expected dtype ['fp32'] but got %s", v.dt == TT_PTR ? "pointer" : tt_dtype_triton_name(v.dt));
            if (id == B_FDIV && !tt_dtype_is_float(v.dt)) sema_error(S, p, "both operands of fdiv must have floating scalar type");
        }
        if (id == B_FDIV) {
            if (sv_is_const(&x) && x.k != V_FLOAT) sema_error(S, p, "both operands of fdiv must have floating scalar type");
            if (sv_is_const(&y) && y.k != V_FLOAT) sema_error(S, p, "both operands of fdiv must have floating scalar type");
            return sema_binop(S, p, "/", x, y);
        }
        tt_dtype ct = sema_promote(S, p, x, y);
        sval v[2] = { x.k == V_TENSOR ? sema_cast(S, p, x, ct, 0, false) : sema_const_as(S, p, x, ct),
                      y.k == V_TENSOR ? sema_cast(S, p, y, ct, 0, false) : sema_const_as(S, p, y, ct) };
        for (int i = 0; i < 2; i++) v[i] = sema_want_tensor(S, p, v[i], "an operand");
        if (ct != TT_F32 && ct != TT_F64) sema_error(S, p, "div_rn: expected fp32 operands, got %s", tt_dtype_triton_name(ct));
        return sema_mathfn_emit(S, p, IR_DIV_RN, ct == TT_F32 ? 0 : 1, v);
    }
    case B_SQRT_RN: {
        sval x = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "x"), "the argument");
        if (x.dt != TT_F32)
            sema_error(S, p, "sqrt_rn: expected dtype ['fp32'] but got %s", x.dt == TT_PTR ? "pointer" : tt_dtype_triton_name(x.dt));
        return sema_mathfn_emit(S, p, IR_SQRT_RN, 0, &x);
    }
    case B_LOAD: return sema_builtin_load(S, p, &B);
    case B_STORE:
        sema_builtin_store(S, p, &B);
        return sv_none();
    case B_SUM: case B_XOR_SUM: case B_MAX: case B_MIN: case B_ARGMAX: case B_ARGMIN:
    case B_REDUCE: case B_ASSOC_SCAN: case B_CUMSUM: case B_CUMPROD:
        return sema_builtin_reduce(S, p, call, id, &B);
    case B_JOIN: case B_SPLIT: case B_CAT: case B_GATHER: case B_HISTOGRAM: case B_BROADCAST:
    case B_MAP_ELEMENTWISE: case B_LOG2_CONST:
        return sema_builtin_shape(S, p, call, id, &B);
    case B_ABS: {
        sval x = sema_arg_req(S, p, &B, "x");
        if (sv_is_const(&x)) return x.k == V_FLOAT ? sv_float(fabs(x.f)) : x.i == INT64_MIN ? x : sv_int(x.i < 0 ? -x.i : x.i);
        x = sema_want_tensor(S, p, x, "the argument");
        if (x.dt == TT_PTR) sema_error(S, p, "abs of a pointer");
        if (tt_dtype_is_int(x.dt) && !tt_dtype_is_signed(x.dt)) return x;
        /* fp8 (math.py abs: math.absf, for fp8e4b15 an and with 0x7f; no
         * LLVM type has f8): the sign bit cleared, except the fnuz types'
         * NaN 0x80, which stays */
        if (tt_dtype_is_fp8(x.dt)) {
            const ir_type_info *t = sv_shape(S, &x);
            sval b = sema_cast(S, p, x, TT_I8, 0, true);
            sval m = sema_const_tensor(S, p, 0, 0x7f, TT_I8, t->rank, t->shape);
            if (x.dt == TT_F8E4B8 || x.dt == TT_F8E5B16) {      /* mask 0xff for 0x80 */
                sval c80 = sema_const_tensor(S, p, 0, -128, TT_I8, t->rank, t->shape);
                sval isnan = sema_cast(S, p, sema_binop(S, p, "==", b, c80), TT_I8, 0, false);   /* 0 or 1 */
                m = sema_binop(S, p, "|", m, sema_binop(S, p, "*", c80, isnan));
            }
            return sema_cast(S, p, sema_binop(S, p, "&", b, m), x.dt, 0, true);
        }
        return sema_emit(S, tt_dtype_is_float(x.dt) ? IR_ABSF : IR_ABSI, ir_value_type(S->fn, x.v), 1, &x.v, x.dt, 0);
    }
    case B_EXPECT_ZERO: {
        /* core.py expect_zero (Triton 3.8+): x itself; with debug, a
         * device_assert that x is zero where mask holds */
        sval x = sema_arg_req(S, p, &B, "x");
        sval m = sema_to_tensor(S, p, sema_arg_req(S, p, &B, "mask"));
        if (S->debug) {
            sval cond = sema_binop(S, p, "|", sema_binop(S, p, "==", x, sv_int(0)), sema_unop(S, p, "not", m));
            sval args[2] = { cond, { .k = V_STR, .s = "expect_zero expected x == 0 where mask is true", .v = -1 } };
            sema_call_builtin(S, call, B_DEVICE_ASSERT, NULL, args, 2, NULL, NULL, 0);
        }
        return x;
    }
    case B_LOGICAL_AND:
    case B_LOGICAL_OR: {
        /* core.py tensor.logical_and/logical_or (every release): semantic.py
         * bitcasts a non-int1 operand to int1, then and_/or_ */
        sval x = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "input"), "input");
        sval y = sema_to_tensor(S, p, sema_arg_req(S, p, &B, "other"));
        if (x.dt != TT_BOOL) x = sema_cast(S, p, x, TT_BOOL, 0, true);
        if (y.dt != TT_BOOL) y = sema_cast(S, p, y, TT_BOOL, 0, true);
        return sema_binop(S, p, id == B_LOGICAL_AND ? "&" : "|", x, y);
    }
    case B_SIGMOID: {
        sval x = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "x"), "the argument");
        sema_check_fp(S, p, x, "sigmoid");
        sval e = unary_math(S, p, IR_EXP, sema_unop(S, p, "-", x), "exp");
        return sema_binop(S, p, "/", sv_float(1.0), sema_binop(S, p, "+", sv_float(1.0), e));
    }
    case B_FMA:
        return sema_fma(S, p, sema_arg_req(S, p, &B, "x"), sema_arg_req(S, p, &B, "y"), sema_arg_req(S, p, &B, "z"));
    case B_UMULHI: {
        sval x = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "x"), "x");
        sval y = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "y"), "y");
        /* math.py umulhi: _check_dtype(int32, int64, uint32, uint64), then
         * binary_op_type_legalization; the high half of the unsigned product */
        sval *xy[2] = { &x, &y };
        for (int i = 0; i < 2; i++) {
            tt_dtype d = xy[i]->dt;
            if (d != TT_I32 && d != TT_I64 && d != TT_U32 && d != TT_U64)
                sema_error(S, p, "umulhi: expected dtype ['int32', 'int64', 'uint32', 'uint64'] but got %s",
                           d == TT_PTR ? "pointer" : tt_dtype_triton_name(d));
        }
        tt_dtype ct = sema_promote(S, p, x, y);
        x = sema_cast(S, p, x, ct, 0, false);
        y = sema_cast(S, p, y, ct, 0, false);
        sema_broadcast_pair(S, p, &x, &y);
        ir_value ops[2] = { x.v, y.v };
        return sema_emit(S, IR_MULHIUI, ir_value_type(S->fn, x.v), 2, ops, x.dt, 0);
    }
    case B_DOT: {
        sval a = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "input"), "input");
        sval b = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "other"), "other");
        const ir_type_info *ta = sv_shape(S, &a), *tb = sv_shape(S, &b);
        bool fp8 = tt_dtype_is_fp8(a.dt) && tt_dtype_is_fp8(b.dt);   /* any two fp8 dtypes (semantic.py dot) */
        if (a.dt != b.dt && !fp8) sema_error(S, p, "dot: both operands must have the same dtype, got %s and %s", sv_describe(S, &a), sv_describe(S, &b));
        if (ta->rank != tb->rank || (ta->rank != 2 && ta->rank != 3))
            sema_error(S, p, "dot: operands must be 2-D (or 3-D batched), got %s and %s", sv_describe(S, &a), sv_describe(S, &b));
        int r = ta->rank;
        int64_t M = ta->shape[r - 2], K = ta->shape[r - 1], K2 = tb->shape[r - 2], N = tb->shape[r - 1];
        if (K != K2) sema_error(S, p, "dot: inner dimensions differ: %s @ %s", sv_describe(S, &a), sv_describe(S, &b));
        if (r == 3 && ta->shape[0] != tb->shape[0]) sema_error(S, p, "dot: batch dimensions differ");
        if (K < 16 || (tt_dtype_bits(a.dt) == 8 && K < 32))
            sema_error(S, p, "dot: K must be >= %d for %s operands on NVIDIA GPUs (got %lld)",
                       tt_dtype_bits(a.dt) == 8 ? 32 : 16, tt_dtype_triton_name(a.dt), (long long)K);
        tt_dtype out, def_out = TT_F32;
        /* out_dtype's default: float32 before Triton 3.8; from 3.8
         * (semantic.py dot) the accumulator's dtype when acc is given */
        if (front_triton_version() >= 8 && sema_arg_has(&B, "acc") && sema_arg(&B, "acc").k == V_TENSOR)
            def_out = sema_arg(&B, "acc").dt;
        if (fp8) {
            /* fp8 values are exact in fp16: tritium multiplies them as fp16
             * (semantic.py does so for fp8e4b15, and for fp8e4b8/fp8e5b16
             * where they are not native); the result type is out_dtype */
            a = sema_cast(S, p, a, TT_F16, 0, false);
            b = sema_cast(S, p, b, TT_F16, 0, false);
            out = sema_arg_has(&B, "out_dtype") ? sema_want_dtype(S, p, sema_arg(&B, "out_dtype"), NULL) : def_out;
            if (out == TT_BF16)
                sema_error(S, p, "dot: out_dtype=bfloat16 is unsupported; use out_dtype=float32/float16 and cast with .to(tl.bfloat16)");
        } else switch (a.dt) {
        case TT_I8: out = TT_I32; break;
        case TT_U8: out = TT_I32; break;
        case TT_F16: out = sema_arg_has(&B, "out_dtype") ? sema_want_dtype(S, p, sema_arg(&B, "out_dtype"), NULL) : def_out; break;
        case TT_BF16: case TT_F32: out = TT_F32; break;
        case TT_F64: out = TT_F64; break;
        default: sema_error(S, p, "dot: unsupported operand dtype %s", tt_dtype_triton_name(a.dt));
        }
        if (out != TT_F32 && out != TT_F16 && out != TT_I32 && out != TT_F64)
            sema_error(S, p, "dot: out_dtype must be float32 or float16");
        int64_t prec = PREC_TF32;
        if (!sema_arg_bool(S, p, &B, "allow_tf32", true)) prec = PREC_IEEE;
        if (sema_arg_has(&B, "input_precision")) {
            static const char *const names[] = { "tf32", "tf32x3", "ieee", "bf16x3", "bf16x6" };
            sval ip = sema_arg(&B, "input_precision");
            if (ip.k != V_STR) sema_error(S, p, "dot: input_precision must be a string");
            for (prec = 0; prec < 5 && strcmp(names[prec], ip.s); prec++) {}
            if (prec == 5) sema_error(S, p, "dot: unknown input_precision '%s' (tf32, tf32x3, ieee, bf16x3, bf16x6)", ip.s);
        }
        int64_t shape[3];
        if (r == 3) shape[0] = ta->shape[0];
        shape[r - 2] = M;
        shape[r - 1] = N;
        ir_type rt = sema_type(out, 0, r, shape);
        sval acc;
        if (sema_arg_has(&B, "acc")) {
            acc = sema_want_tensor(S, p, sema_arg(&B, "acc"), "acc");
            if (ir_value_type(S->fn, acc.v) != rt || acc.dt != out)
                sema_error(S, p, "dot: acc must be %s, got %s", tt_dtype_triton_name(out), sv_describe(S, &acc));
        } else {
            acc = sema_const_tensor(S, p, 0, 0, out, r, shape);
        }
        sema_setloc(S, p);
        ir_value ops[3] = { a.v, b.v, acc.v };
        sval res = sema_emit(S, IR_DOT, rt, 3, ops, out, 0);
        ir_attr_set(ir_def(S->fn, res.v), "precision", prec);
        return res;
    }
    case B_DOT_SCALED:
        return sema_builtin_dot_scaled(S, p, &B);
    case B_TRANS:
    case B_PERMUTE: {
        sval x = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "input"), "input");
        const ir_type_info *t = sv_shape(S, &x);
        int rank = t->rank;
        int64_t order[IR_MAX_RANK];
        /* core.py trans/permute: dims as a tuple or as individual arguments; trans without
         * dims swaps the last two axes (a batched 2-D transpose) */
        sval d = sema_arg_has(&B, "dims") ? sema_arg(&B, "dims") : (sval){ .k = V_TUPLE };
        if (d.k == V_TUPLE && d.n == 1 && d.items[0].k == V_TUPLE) d = d.items[0];
        int nd = d.k == V_TUPLE ? d.n : 1;
        if (nd == 0 && id == B_TRANS) {
            if (rank < 2) sema_error(S, p, "tl.trans invoked with a 0- or 1-dimensional tensor");
            for (int i = 0; i < rank; i++) order[i] = i;
            order[rank - 2] = rank - 1, order[rank - 1] = rank - 2;
        } else {
            if (nd != rank) sema_error(S, p, "%s dims must have the same length as input shape (%d), got %d", btab[id].name, rank, nd);
            for (int i = 0; i < rank; i++) order[i] = sema_want_int(S, p, d.k == V_TUPLE ? d.items[i] : d, "a dim");
        }
        int64_t shape[IR_MAX_RANK];
        unsigned seen = 0;
        for (int i = 0; i < rank; i++) {
            if (order[i] < 0 || order[i] >= rank || (seen & (1u << order[i])))
                sema_error(S, p, "%s dims must be a permutation of 0, 1, ..., %d", btab[id].name, rank - 1);
            seen |= 1u << order[i];
            shape[i] = t->shape[order[i]];
        }
        sema_setloc(S, p);
        sval r = sema_emit(S, IR_TRANS, sema_type(x.dt, x.pt, rank, shape), 1, &x.v, x.dt, x.pt);
        ir_attr_set(ir_def(S->fn, r.v), "order", ir_attr_array(S->fn, rank, order));
        return r;
    }
    case B_RESHAPE:
    case B_VIEW:
    case B_BROADCAST_TO: {
        int64_t shape[IR_MAX_RANK];
        int rank = sema_want_shape(S, p, sema_arg_req(S, p, &B, "shape"), shape, true);
        if (id == B_BROADCAST_TO) return sema_broadcast_to(S, p, sema_arg_req(S, p, &B, "input"), rank, shape);
        return sema_reshape(S, p, sema_arg_req(S, p, &B, "input"), rank, shape);
    }
    case B_RAVEL: {
        sval x = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "x"), "x");
        int64_t n = ir_type_numel(ir_value_type(S->fn, x.v));
        return sema_reshape(S, p, x, 1, &n);
    }
    case B_ITEM: {
        /* core.py item/_unsplat: a one-element tensor as a 0-d one */
        sval x = sema_want_tensor(S, p, sema_arg_req(S, p, &B, "input"), "input");
        if (ir_type_numel(ir_value_type(S->fn, x.v)) != 1)
            sema_error(S, p, "item: can only unsplat single-element tensors, got %s", sv_describe(S, &x));
        return sema_reshape(S, p, x, 0, NULL);
    }
    case B_EXPAND_DIMS: {
        /* core.py expand_dims: axes index the result (rank + #axes), may be negative, must be distinct;
         * inserted in increasing order */
        sval x = sema_to_tensor(S, p, sema_arg_req(S, p, &B, "input")), ax = sema_arg_req(S, p, &B, "axis");
        int n = ax.k == V_TUPLE ? ax.n : 1, nd = sv_shape(S, &x)->rank + n;
        if (nd > IR_MAX_RANK) sema_error(S, p, "tensors of rank above %d are not supported", IR_MAX_RANK);
        int64_t axes[IR_MAX_RANK];
        for (int i = 0; i < n; i++) {
            int64_t a = sema_want_int(S, p, ax.k == V_TUPLE ? ax.items[i] : ax, "axis");
            if (a < -nd || a >= nd) sema_error(S, p, "invalid axis %lld. Expected %d <= axis < %d", (long long)a, -nd, nd);
            axes[i] = a < 0 ? a + nd : a;
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                if (axes[i] == axes[j]) {
                    char buf[IR_MAX_RANK * 24] = "", *q = buf;
                    for (int k = 0; k < n; k++) q += sprintf(q, "%s%lld", k ? ", " : "", (long long)axes[k]);
                    sema_error(S, p, "expand_dims received duplicate axes, normalized axes = [%s]", buf);
                }
        for (int done = 0; done < n; done++) {    /* smallest first */
            int m = 0;
            for (int i = 1; i < n; i++) if (axes[i] < axes[m]) m = i;
            x = sema_expand_dims(S, p, x, (int)axes[m]);
            axes[m] = INT64_MAX;
        }
        return x;
    }
    case B_MULTIPLE_OF:
    case B_MAX_CONTIGUOUS:
    case B_MAX_CONSTANCY: {
        sval x = sema_arg_req(S, p, &B, "input"), v = sema_arg_req(S, p, &B, "values");
        if (v.k == V_TUPLE) for (int i = 0; i < v.n; i++) sema_want_int(S, p, v.items[i], "a hint value");
        else sema_want_int(S, p, v, "a hint value");
        return x;   /* pure hints: no semantic effect (§2.14) */
    }
    case B_ASSUME: {
        sval c = sema_arg_req(S, p, &B, "cond");
        if (c.k != V_TENSOR) return sv_none();
        if (c.dt != TT_BOOL) sema_error(S, p, "assume: condition must be a boolean");
        ir_emit(&S->b, IR_ASSUME, 0, NULL, 1, &c.v);
        return sv_none();
    }
    case B_DEBUG_BARRIER:
        ir_emit(&S->b, IR_BARRIER, 0, NULL, 0, NULL);
        return sv_none();
    case B_STATIC_ASSERT: {
        /* code_generator.execute_static_assert: the condition must be a bool */
        sval c = sema_arg_req(S, p, &B, "cond");
        if (c.k != V_BOOL)
            sema_error(S, p, "static_assert: the condition could not be determined at compile time (got %s; it must "
                             "depend only on constexpr values)", sv_describe(S, &c));
        if (!sv_truthy(S, p, &c))
            sema_error(S, p, "static_assert failed%s%s", sema_arg_has(&B, "msg") && sema_arg(&B, "msg").k == V_STR ? ": " : "",
                       sema_arg_has(&B, "msg") && sema_arg(&B, "msg").k == V_STR ? sema_arg(&B, "msg").s : "");
        return sv_none();
    }
    case B_STATIC_PRINT:
        sema_static_print(S, p, &B);
        return sv_none();
    case B_DEVICE_ASSERT:
    case B_DEVICE_PRINT:
    case B_PY_PRINT:
    case B_INLINE_ASM:
    case B_TUPLE:
        return sema_builtin_debug(S, p, id, &B);
    case B_STATIC_RANGE:
    case B_RANGE:
        sema_error(S, p, "%s() can only be used as the iterable of a for loop", btab[id].name);
    case B_CAST:
    case B_TO: {
        sval x = sema_arg_req(S, p, &B, "input");
        tt_dtype pt;
        tt_dtype dt = sema_want_dtype(S, p, sema_arg_req(S, p, &B, "dtype"), &pt);
        int rounding = -1;
        if (sema_arg_has(&B, "fp_downcast_rounding") && sema_arg(&B, "fp_downcast_rounding").k != V_NONE) {
            sval r = sema_arg(&B, "fp_downcast_rounding");
            if (r.k != V_STR || (strcmp(r.s, "rtne") && strcmp(r.s, "rtz")))
                sema_error(S, p, "fp_downcast_rounding must be 'rtne' or 'rtz'");
            rounding = !strcmp(r.s, "rtz") ? ROUND_RTZ : ROUND_RTNE;
        }
        return sema_cast_rounded(S, p, x, dt, pt, sema_arg_bool(S, p, &B, "bitcast", false), rounding);
    }
    case B_CONSTEXPR:
        return sema_arg_req(S, p, &B, "value");
    case B_MAKE_BLOCK_PTR: {
        sval order = sema_arg(&B, "order");
        return sema_make_block_ptr(S, p, sema_arg_req(S, p, &B, "base"), sema_arg_req(S, p, &B, "shape"), sema_arg_req(S, p, &B, "strides"),
                                   sema_arg_req(S, p, &B, "offsets"), sema_arg_req(S, p, &B, "block_shape"), order);
    }
    case B_ADVANCE:
        return sema_advance(S, p, sema_arg_req(S, p, &B, "base"), sema_arg_req(S, p, &B, "offsets"));
    case B_MAKE_TENSOR_DESC: {
        sval d = sema_make_tensor_desc(S, p, sema_arg_req(S, p, &B, "base"), sema_arg_req(S, p, &B, "shape"),
                                       sema_arg_req(S, p, &B, "strides"), sema_arg_req(S, p, &B, "block_shape"),
                                       sema_arg(&B, "padding_option"));
        sema_desc_check_alignment(S, p, d);
        return d;
    }
    case B_DESC_LOAD:
    case B_DESC_STORE: {
        sval d = sema_arg_req(S, p, &B, "desc");
        if (d.k != V_TDESC) sema_error(S, p, "%s: expected a tensor descriptor, got %s", btab[id].name, sv_describe(S, &d));
        if (id == B_DESC_LOAD) return sema_desc_load(S, p, d, sema_arg_req(S, p, &B, "offsets"));
        sema_desc_store(S, p, d, sema_arg_req(S, p, &B, "offsets"), sema_arg_req(S, p, &B, "value"));
        return sv_none();
    }
    case B_DESC_ATOMIC_ADD: case B_DESC_ATOMIC_MIN: case B_DESC_ATOMIC_MAX:
    case B_DESC_ATOMIC_AND: case B_DESC_ATOMIC_OR: case B_DESC_ATOMIC_XOR:
        sema_desc_atomic(S, p, btab[id].name + strlen("atomic_"), sema_arg_req(S, p, &B, "desc"),
                         sema_arg_req(S, p, &B, "offsets"), sema_arg_req(S, p, &B, "value"));
        return sv_none();
    case B_DESC_GATHER:
        return sema_desc_gather(S, p, sema_arg_req(S, p, &B, "desc"), sema_arg_req(S, p, &B, "x_offsets"),
                                sema_arg_req(S, p, &B, "y_offset"));
    case B_DESC_SCATTER:
        sema_desc_scatter(S, p, sema_arg_req(S, p, &B, "desc"), sema_arg_req(S, p, &B, "value"),
                          sema_arg_req(S, p, &B, "x_offsets"), sema_arg_req(S, p, &B, "y_offset"));
        return sv_none();
    case B_TO_TENSOR:
        return sema_want_tensor(S, p, sema_arg_req(S, p, &B, "x"), "the argument");
    case B_POINTER_TYPE: {
        tt_dtype pt;
        tt_dtype dt = sema_want_dtype(S, p, sema_arg_req(S, p, &B, "element_ty"), &pt);
        if (dt == TT_PTR) sema_error(S, p, "pointers to pointers are not supported");
        return sv_dtype(TT_PTR, dt);
    }
    case B_ATOMIC_LOAD: case B_ATOMIC_STORE:
        return sema_builtin_atomic_load_store(S, p, id, &B);
    case B_ATOMIC_POLL:
        return sema_builtin_atomic_poll(S, p, &B);
    case B_ATOMIC_ADD: case B_ATOMIC_MAX: case B_ATOMIC_MIN: case B_ATOMIC_AND:
    case B_ATOMIC_OR: case B_ATOMIC_XOR: case B_ATOMIC_XCHG: case B_ATOMIC_CAS:
        return sema_builtin_atomic(S, p, id, &B);
    case B_PY_MIN:
    case B_PY_MAX: {
        sval t = sema_arg(&B, "args");
        if (t.n == 1 && t.items[0].k == V_TUPLE) t = t.items[0];
        if (t.n == 0) sema_error(S, p, "%s expected at least 1 argument", btab[id].name);
        sval r = t.items[0];
        for (int i = 1; i < t.n; i++) r = sema_minmax(S, p, id == B_PY_MAX, r, t.items[i]);
        return r;
    }
    case B_PY_LEN: {
        sval x = sema_arg_req(S, p, &B, "obj");
        if (x.k == V_TUPLE) return sv_int(x.n);
        if (x.k == V_STR) return sv_int((int64_t)strlen(x.s));
        if (x.k == V_TENSOR && sv_shape(S, &x)->rank) return sv_int(sv_shape(S, &x)->shape[0]);
        sema_error(S, p, "len() of %s", sv_describe(S, &x));
    }
    case B_PY_INT: {
        sval x = sema_arg_req(S, p, &B, "x");
        if (x.k == V_INT || x.k == V_BOOL) return sv_int(x.i);
        if (x.k == V_FLOAT && isfinite(x.f) && fabs(x.f) < 9.2e18) return sv_int((int64_t)x.f);
        if (x.k == V_TENSOR) return sema_cast(S, p, x, TT_I32, 0, false);
        sema_error(S, p, "int() of %s", sv_describe(S, &x));
    }
    case B_PY_FLOAT: {
        sval x = sema_arg_req(S, p, &B, "x");
        if (x.k == V_INT || x.k == V_BOOL) return sv_float((double)x.i);
        if (x.k == V_FLOAT) return x;
        if (x.k == V_STR) {
            const char *s = x.s;
            if (!strcmp(s, "inf") || !strcmp(s, "+inf") || !strcmp(s, "infinity")) return sv_float(INFINITY);
            if (!strcmp(s, "-inf") || !strcmp(s, "-infinity")) return sv_float(-INFINITY);
            if (!strcmp(s, "nan")) return sv_float(NAN);
            char *end;
            double d = strtod(s, &end);
            if (*s && !*end) return sv_float(d);
        }
        if (x.k == V_TENSOR) return sema_cast(S, p, x, TT_F32, 0, false);
        sema_error(S, p, "float() of %s", sv_describe(S, &x));
    }
    case B_PY_BOOL: {
        sval x = sema_arg_req(S, p, &B, "x");
        if (x.k == V_TENSOR) return sema_cast(S, p, x, TT_BOOL, 0, false);
        return sv_bool(sv_truthy(S, p, &x));
    }
    case B_PY_ISINSTANCE:
        return sv_bool(is_instance(S, p, sema_arg_req(S, p, &B, "obj"), sema_arg_req(S, p, &B, "cls")));
    case B_PY_HASATTR:
    case B_PY_GETATTR: {
        /* Python's, at compile time (code_generator.py's builtin_namespace) */
        sval obj = sema_arg_req(S, p, &B, "obj"), name = sema_arg_req(S, p, &B, "name"), out;
        if (name.k != V_STR) sema_error(S, p, "%s(): attribute name must be a string", btab[id].name);
        bool ok = sema_attr(S, p, obj, name.s, &out);
        if (id == B_PY_HASATTR) return sv_bool(ok);
        if (ok) return out;
        if (nargs + nkw == 3) return sema_arg(&B, "default");   /* given, None included */
        sema_error(S, p, "%s has no attribute '%s'", sv_describe(S, &obj), name.s);
    }
    case B_TDESC_TYPE: case B_TENSOR_TYPE: case B_CONSTEXPR_TYPE:
        sema_error(S, p, "tl.%s is a class; tritium supports it only in isinstance()", btab[id].name);
    }
    int mop = math_op(id);
    if (mop >= 0) return unary_math(S, p, mop, sema_arg_req(S, p, &B, "x"), btab[id].name);
    sema_error(S, p, "%s() is not supported", id >= 0 && id < B_COUNT ? btab[id].name : "this function");
}
