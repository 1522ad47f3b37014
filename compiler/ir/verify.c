/* verify.c — the IR verifier: structural invariants (region tree, value
 * table, terminators, definitions dominate uses) and the typing rules of
 * every op in ops.def. Rules follow TTIR's op definitions (Triton 3.6,
 * include/triton/Dialect/Triton/IR/TritonOps.td) and MLIR's arith/math/scf
 * dialects; where Triton's front end is stricter (math functions take
 * fp32/fp64 only, math.py _check_dtype; make_range's power-of-two size,
 * semantic.py arange) the verifier says so too.
 *
 * The typing rule of an op is its ops.def signature (check_sig) or, for
 * S_CUSTOM, a case of its own in check_types; an op with neither is
 * rejected, so a new op cannot pass unchecked.
 *
 * Every region other than the body ends in its terminator (scf.yield, or
 * scf.condition for scf.while's first region), also when it yields nothing;
 * the body ends in tt.return. */
#include "tritium/ir.h"
#include "attrspec.h"

#include <stdarg.h>
#include <string.h>

typedef struct verifier {
    const ir_func *f;
    int errors;
    bool *seen;                    /* per region: reached by the walk */
} verifier;

static src_pos op_pos(const ir_func *f, const ir_op *op)
{
    src_pos p = { -1, 0, 0 };
    if (op && op->loc >= 0 && op->loc < f->locs.n) {
        const ir_loc *l = &f->locs.v[op->loc];
        p = (src_pos){ l->file, l->line, l->col };
    }
    return p;
}

/* Report an error at `op` ("OPNAME: message"); always returns false. */
static bool fail(verifier *V, const ir_op *op, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(verifier *V, const ir_op *op, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *name = op && op->opc < IR_OP_COUNT ? ir_ops[op->opc].name : "function";
    src_pos p = op_pos(V->f, op);
    if (p.file < 0)
        diag_at(DIAG_ERROR, p, "in @%s: %s: %s", V->f->name, name, msg);
    else
        diag_at(DIAG_ERROR, p, "%s: %s", name, msg);
    V->errors++;
    return false;
}

/* Type names for messages: four rotating buffers. */
static const char *ts(ir_type t)
{
    static char buf[4][128];
    static int k;
    k = (k + 1) % 4;
    if (!t) return "<no type>";
    return ir_type_str(t, buf[k], sizeof buf[k]);
}

static const ir_type_info *ti(ir_type t) { return ir_type_get(t); }
static bool is_scalar(ir_type t) { return ti(t)->rank == 0; }
static bool is_ptr(ir_type t) { return ir_type_is_ptr(t); }
static bool is_int(ir_type t) { return ir_type_is_int(t); }
/* floats with arithmetic: fp8 values are only converted (tt.fp_to_fp),
 * loaded, stored, selected, made constant and multiplied by tt.dot */
static bool is_float(ir_type t) { return ir_type_is_float(t) && !tt_dtype_is_fp8(ti(t)->elem); }
static bool elem_is(ir_type t, tt_dtype d) { return ti(t)->elem == d; }

static bool same_shape(ir_type a, ir_type b)
{
    const ir_type_info *x = ti(a), *y = ti(b);
    if (x->rank != y->rank) return false;
    for (int i = 0; i < x->rank; i++)
        if (x->shape[i] != y->shape[i]) return false;
    return true;
}

static ir_type with_elem(ir_type shape_of, ir_type elem) { return ir_type_with_elem(shape_of, elem); }
static ir_type i1_like(ir_type t) { return with_elem(t, ir_scalar(TT_BOOL)); }
static ir_type pointee(ir_type ptr) { return ti(ptr)->pointee; }

/* ---- structure ---- */

static const ir_region *R(const verifier *V, int32_t r) { return &V->f->regions.v[r]; }

/* The op owning region r, or NULL for the body. */
static const ir_op *parent_op(const verifier *V, int32_t r)
{
    const ir_region *rg = R(V, r);
    if (rg->parent_region < 0) return NULL;
    return &R(V, rg->parent_region)->ops[rg->parent_op];
}

/* 0: visible; 1: used before its definition; 2: defined in a region that
 * does not enclose the use. */
static int visibility(const verifier *V, ir_value v, int32_t region, int index)
{
    const ir_value_info *vi = &V->f->values.v[v];
    int32_t r = region;
    int idx = index;
    for (int steps = 0; r >= 0 && steps <= V->f->regions.n; steps++) {
        if (vi->region == r) {
            if (vi->def_kind != IR_DEF_OP) return 0;
            return vi->index < idx ? 0 : 1;
        }
        idx = R(V, r)->parent_op;
        r = R(V, r)->parent_region;
    }
    return 2;
}

static const char *vname(const verifier *V, ir_value v)
{
    static char buf[2][96];
    static int k;
    k ^= 1;
    const char *n = V->f->values.v[v].name;
    if (n && *n) snprintf(buf[k], sizeof buf[k], "'%s'", n);
    else snprintf(buf[k], sizeof buf[k], "value %d", v);
    return buf[k];
}

/* The terminator ending region r, or NULL. */
static const ir_op *terminator(const verifier *V, int32_t r)
{
    const ir_region *rg = R(V, r);
    if (!rg->nops) return NULL;
    const ir_op *last = &rg->ops[rg->nops - 1];
    return last->opc < IR_OP_COUNT && (ir_ops[last->opc].props & P_TERMINATOR) ? last : NULL;
}

/* Region r's arguments have exactly the given types. */
static bool check_region_args(verifier *V, const ir_op *op, int32_t r, const char *which, int n,
                              const ir_type *want)
{
    const ir_region *rg = R(V, r);
    if (rg->nargs != n)
        return fail(V, op, "%s has %d argument%s, expected %d", which, rg->nargs, rg->nargs == 1 ? "" : "s", n);
    for (int i = 0; i < n; i++) {
        if (rg->args[i] < 0 || rg->args[i] >= V->f->values.n) return false;   /* reported with the region */
        ir_type t = ir_value_type(V->f, rg->args[i]);
        if (t != want[i]) return fail(V, op, "%s argument %d has type %s, expected %s", which, i, ts(t), ts(want[i]));
    }
    return true;
}

/* Region r ends in `opc` whose operands (from `skip` on) have the given types. */
static bool check_region_end(verifier *V, const ir_op *op, int32_t r, const char *which, int opc, int skip,
                             int n, const ir_type *want)
{
    const ir_op *t = terminator(V, r);
    if (!t || t->opc != opc) return fail(V, op, "%s must end with %s", which, ir_ops[opc].name);
    if (t->nopnd - skip != n)
        return fail(V, op, "%s: %s passes %d value%s, expected %d", which, ir_ops[opc].name, t->nopnd - skip,
                    t->nopnd - skip == 1 ? "" : "s", n);
    for (int i = 0; i < n; i++) {
        ir_value v = t->opnd[skip + i];
        if (v < 0 || v >= V->f->values.n) return false;     /* reported at the terminator */
        ir_type ty = ir_value_type(V->f, v);
        if (ty != want[i])
            return fail(V, op, "%s: %s value %d has type %s, expected %s", which, ir_ops[opc].name, i, ts(ty),
                        ts(want[i]));
    }
    return true;
}

/* ---- typing rules ---- */

static bool need(verifier *V, const ir_op *op, bool cond, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool need(verifier *V, const ir_op *op, bool cond, const char *fmt, ...)
{
    if (cond) return true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return fail(V, op, "%s", msg);
}


static bool check_attrs(verifier *V, const ir_op *op)
{
    const ir_opdesc *d = &ir_ops[op->opc];
    ir_attrspec spec[4];
    int n = ir_attrspec_split(d->attrs, spec);
    for (int i = 0; i < n; i++) {
        if (ir_attrspec_kind_is(&spec[i], "a")) {
            int64_t e[IR_ATTR_ARRAY_MAX];
            if (ir_attr_array_get(V->f, op->attr[i], e) < 0)
                return fail(V, op, "attribute '%.*s' is corrupt", (int)spec[i].name_len, spec[i].name);
        } else if (ir_attrspec_kind_is(&spec[i], "s")) {
            if (op->attr[i] < 0 || op->attr[i] >= V->f->strs.n)
                return fail(V, op, "string attribute '%.*s' is corrupt", (int)spec[i].name_len, spec[i].name);
        } else if (!ir_attrspec_kind_is(&spec[i], "i") && !ir_attrspec_kind_is(&spec[i], "v")) {
            const char *const *names = ir_enum_names(spec[i].kind, spec[i].kind_len);
            int count = 0;
            while (names && names[count]) count++;
            if (op->attr[i] < 0 || op->attr[i] >= count)
                return fail(V, op, "attribute '%.*s' = %lld is not a valid %.*s value", (int)spec[i].name_len,
                            spec[i].name, (long long)op->attr[i], (int)spec[i].kind_len, spec[i].kind);
        }
    }
    return true;
}

/* tt.reduce_region / tt.scan: n operands of one tensor shape; results the
 * operands without the axis (reduce) or of the operands' types (scan); the
 * combine region takes (acc..., new...) scalars and returns n scalars of the
 * operands' element types. */
static bool check_combine(verifier *V, const ir_op *op)
{
    const ir_func *f = V->f;
    int n = op->nopnd;
    bool scan = op->opc == IR_SCAN;
    ir_type t0 = ir_value_type(f, op->opnd[0]);
    const ir_type_info *s = ti(t0);
    int64_t ax = op->attr[0];
    if (!need(V, op, s->rank >= 1, "operand 0 must be a tensor, got %s", ts(t0)) ||
        !need(V, op, ax >= 0 && ax < s->rank, "axis %lld out of range for %s", (long long)ax, ts(t0)) ||
        !need(V, op, op->nres == n, "has %d results but %d operands", op->nres, n) ||
        !need(V, op, !scan || op->attr[1] == 0 || op->attr[1] == 1, "reverse must be 0 or 1"))
        return false;
    ir_type *want = xmalloc(sizeof *want * (size_t)(2 * n));
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        ir_type tk = ir_value_type(f, op->opnd[k]);
        ok = need(V, op, same_shape(tk, t0) && !is_ptr(tk), "operand %d has type %s, expected a non-pointer of the shape of %s",
                  k, ts(tk), ts(t0));
        if (!ok) break;
        ir_type e = ir_type_elem(tk);
        want[k] = want[n + k] = e;
        ir_type rt = tk;
        if (!scan) {
            int64_t shape[IR_MAX_RANK];
            for (int i = 0, j = 0; i < s->rank; i++)
                if (i != ax) shape[j++] = s->shape[i];
            rt = ir_tensor(e, s->rank - 1, shape);
        }
        ok = need(V, op, ir_value_type(f, op->res + k) == rt, "result %d must be %s, got %s", k, ts(rt),
                  ts(ir_value_type(f, op->res + k)));
    }
    const char *which = "the combine region";
    ok = ok && check_region_args(V, op, op->region[0], which, 2 * n, want) &&
         check_region_end(V, op, op->region[0], which, scan ? IR_SCAN_RETURN : IR_REDUCE_RETURN, 0, n, want);
    free(want);
    return ok;
}

/* tt.map_elementwise: operands of one tensor shape, results of that shape;
 * the region takes n * pack scalars of the operands' element types and
 * returns m * pack scalars of the results' element types. */
static bool check_map(verifier *V, const ir_op *op)
{
    const ir_func *f = V->f;
    int n = op->nopnd, m = op->nres;
    int64_t pack = op->attr[0];
    ir_type t0 = ir_value_type(f, op->opnd[0]);
    if (!need(V, op, ti(t0)->rank >= 1, "operand 0 must be a tensor, got %s", ts(t0)) ||
        !need(V, op, pack >= 1 && pack <= 64 && ir_type_numel(t0) % pack == 0,
              "pack %lld must be between 1 and 64 and divide the %lld elements", (long long)pack,
              (long long)ir_type_numel(t0)) ||
        !need(V, op, m >= 1, "must have at least one result"))
        return false;
    ir_type *want = xmalloc(sizeof *want * (size_t)((n > m ? n : m) * pack));
    bool ok = true;
    for (int k = 0; k < n && ok; k++) {
        ir_type tk = ir_value_type(f, op->opnd[k]);
        ok = need(V, op, same_shape(tk, t0), "operand %d has type %s, expected the shape of %s", k, ts(tk), ts(t0));
        for (int j = 0; j < pack; j++) want[k * pack + j] = ir_type_elem(tk);
    }
    ok = ok && check_region_args(V, op, op->region[0], "the region", (int)(n * pack), want);
    for (int k = 0; k < m && ok; k++) {
        ir_type rk = ir_value_type(f, op->res + k);
        ok = need(V, op, same_shape(rk, t0), "result %d has type %s, expected the shape of %s", k, ts(rk), ts(t0));
        for (int j = 0; j < pack; j++) want[k * pack + j] = ir_type_elem(rk);
    }
    ok = ok && check_region_end(V, op, op->region[0], "the region", IR_MAP_RETURN, 0, (int)(m * pack), want);
    free(want);
    return ok;
}

/* The signature named by the op's ops.def row (S_*): one checker per
 * signature, shared by all ops that have it. */
static bool check_sig(verifier *V, const ir_op *op, const ir_type *T, ir_type Rt)
{
    int sig = ir_ops[op->opc].sig;
    switch (sig) {
    case S_INT_BINARY:
        return need(V, op, is_int(T[0]) && T[0] == T[1] && Rt == T[0],
                    "operands and result must be one integer type, got %s, %s -> %s", ts(T[0]), ts(T[1]), ts(Rt));
    case S_FLOAT_BINARY:
        return need(V, op, is_float(T[0]) && T[0] == T[1] && Rt == T[0],
                    "operands and result must be one float type, got %s, %s -> %s", ts(T[0]), ts(T[1]), ts(Rt));
    case S_INT_CMP:
    case S_FLOAT_CMP: {
        bool in = sig == S_INT_CMP;
        return need(V, op, (in ? is_int(T[0]) : is_float(T[0])) && T[0] == T[1],
                    "operands must be %s of one type, got %s and %s", in ? "integers" : "floats", ts(T[0]), ts(T[1])) &&
               need(V, op, Rt == i1_like(T[0]), "result must be %s, got %s", ts(i1_like(T[0])), ts(Rt));
    }
    case S_FP32_UNARY:
        return need(V, op, (elem_is(T[0], TT_F32) || elem_is(T[0], TT_F64)) && Rt == T[0],
                    "operand and result must be one fp32/fp64 type (math.py _check_dtype), got %s -> %s", ts(T[0]),
                    ts(Rt));
    case S_FLOAT_UNARY:
        return need(V, op, is_float(T[0]) && Rt == T[0], "operand and result must be one float type, got %s -> %s",
                    ts(T[0]), ts(Rt));
    case S_INT_UNARY:
        return need(V, op, is_int(T[0]) && Rt == T[0], "operand and result must be one integer type, got %s -> %s",
                    ts(T[0]), ts(Rt));
    case S_FLOAT_TERNARY:
        return need(V, op, is_float(T[0]) && T[0] == T[1] && T[1] == T[2] && Rt == T[0],
                    "operands and result must be one float type, got %s, %s, %s -> %s", ts(T[0]), ts(T[1]), ts(T[2]),
                    ts(Rt));
    case S_INT_WIDEN:
    case S_INT_NARROW:
    case S_FLOAT_WIDEN:
    case S_FLOAT_NARROW: {
        bool fl = sig == S_FLOAT_WIDEN || sig == S_FLOAT_NARROW, widen = sig == S_INT_WIDEN || sig == S_FLOAT_WIDEN;
        if (!need(V, op, fl ? is_float(T[0]) && is_float(Rt) : is_int(T[0]) && is_int(Rt),
                  "operand and result must be %s, got %s -> %s", fl ? "floats" : "integers", ts(T[0]), ts(Rt)))
            return false;
        int a = ir_type_bits(T[0]), b = ir_type_bits(Rt);
        return need(V, op, widen ? b > a : b < a, "must %s: %s -> %s", widen ? "widen" : "narrow", ts(T[0]), ts(Rt));
    }
    case S_INT_TO_FLOAT:
        return need(V, op, is_int(T[0]) && is_float(Rt), "must convert an integer to a float, got %s -> %s", ts(T[0]),
                    ts(Rt));
    case S_FLOAT_TO_INT:
        return need(V, op, is_float(T[0]) && is_int(Rt), "must convert a float to an integer, got %s -> %s", ts(T[0]),
                    ts(Rt));
    case S_MATHFN: {
        if (ir_mathfn_variant(op->opc, T, op->nopnd, Rt) >= 0) return true;
        const ir_mathfn *m = &ir_mathfns[op->opc];
        char want[160] = "";
        for (int k = 0; k < 2; k++) {
            const ir_mathvar *v = &m->var[k];
            if (!*v->gpu) continue;
            size_t l = strlen(want);
            snprintf(want + l, sizeof want - l, "%s(", l ? " or " : "");
            for (int i = 0; i < m->arity; i++) {
                l = strlen(want);
                snprintf(want + l, sizeof want - l, "%s%s", i ? ", " : "", ts(ir_scalar(v->opnd[i])));
            }
            l = strlen(want);
            snprintf(want + l, sizeof want - l, ") -> %s", ts(ir_scalar(v->res)));
        }
        return fail(V, op, "operand and result types match no variant: expected %s (ops_math.def)", want);
    }
    default:
        return fail(V, op, "has no type signature in ops.def");
    }
}

static bool check_types(verifier *V, const ir_op *op, int32_t region)
{
    const ir_func *f = V->f;
    int opc = op->opc;
    ir_type T[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < op->nopnd && i < 4; i++) T[i] = ir_value_type(f, op->opnd[i]);
    ir_type Rt = op->nres >= 1 ? ir_value_type(f, op->res) : 0;
    const ir_type_info *r = Rt ? ti(Rt) : NULL;

    /* elementwise ops: one shape for all operands and results */
    if (ir_ops[opc].props & P_ELEMWISE) {
        ir_type ref = op->nres ? Rt : T[0];
        for (int i = 0; i < op->nopnd && i < 4; i++) {
            if (opc == IR_SELECT && i == 0 && is_scalar(T[0])) continue;
            if (!same_shape(T[i], ref))
                return fail(V, op, "operand %d has type %s, expected the shape of %s", i, ts(T[i]), ts(ref));
        }
    }
    if (ir_ops[opc].sig != S_CUSTOM) return check_sig(V, op, T, Rt);

    /* S_CUSTOM: the op's own rule */
    switch (opc) {
    case IR_CONSTANT:
        if (!need(V, op, is_int(Rt) || ir_type_is_float(Rt), "result must be an integer or float, got %s", ts(Rt))) return false;
        if (is_int(Rt)) {
            int bits = ir_type_bits(Rt);
            if (bits < 64) {
                int64_t lo = -((int64_t)1 << (bits - 1)), hi = ((int64_t)1 << bits) - 1;
                if (bits == 1) lo = -1;
                if (!need(V, op, op->ival >= lo && op->ival <= hi, "value %lld does not fit %s",
                          (long long)op->ival, ts(Rt)))
                    return false;
            }
        }
        return true;
    case IR_GET_PID:
    case IR_GET_NPROG:
        return need(V, op, Rt == ir_scalar(TT_I32), "result must be i32, got %s", ts(Rt)) &&
               need(V, op, op->attr[0] >= 0 && op->attr[0] <= 2, "axis must be 0, 1 or 2, got %lld",
                    (long long)op->attr[0]);
    case IR_MAKE_RANGE: {
        int64_t s = op->attr[0], e = op->attr[1];
        if (!need(V, op, r->rank == 1 && elem_is(Rt, TT_I32), "result must be a 1-D i32 tensor, got %s", ts(Rt)) ||
            !need(V, op, s >= INT32_MIN && s <= INT32_MAX && e >= INT32_MIN && e <= INT32_MAX,
                  "start and end must fit i32") ||
            !need(V, op, e > s, "end (%lld) must be greater than start (%lld)", (long long)e, (long long)s) ||
            !need(V, op, e - s == r->shape[0], "end - start = %lld but the result has %lld elements",
                  (long long)(e - s), (long long)r->shape[0]))
            return false;
        return need(V, op, ((e - s) & (e - s - 1)) == 0, "range size %lld is not a power of two (semantic.py arange)",
                    (long long)(e - s));
    }
    case IR_SPLAT:
        return need(V, op, is_scalar(T[0]), "operand must be a scalar, got %s", ts(T[0])) &&
               need(V, op, r->rank >= 1 && ir_type_elem(Rt) == T[0], "result %s is not a tensor of %s", ts(Rt),
                    ts(T[0]));
    case IR_BROADCAST: {
        const ir_type_info *s = ti(T[0]);
        if (!need(V, op, s->rank == r->rank && s->rank >= 1, "operand %s and result %s must have the same rank",
                  ts(T[0]), ts(Rt)) ||
            !need(V, op, ir_type_elem(T[0]) == ir_type_elem(Rt), "element types differ: %s vs %s", ts(T[0]), ts(Rt)))
            return false;
        for (int i = 0; i < s->rank; i++)
            if (!need(V, op, s->shape[i] == r->shape[i] || s->shape[i] == 1,
                      "cannot broadcast %s to %s (dimension %d)", ts(T[0]), ts(Rt), i))
                return false;
        return true;
    }
    case IR_EXPAND_DIMS: {
        const ir_type_info *s = ti(T[0]);
        int64_t ax = op->attr[0];
        if (!need(V, op, ax >= 0 && ax <= s->rank, "axis %lld out of range for %s", (long long)ax, ts(T[0])) ||
            !need(V, op, r->rank == s->rank + 1 && ir_type_elem(T[0]) == ir_type_elem(Rt),
                  "result %s is not %s with one more dimension", ts(Rt), ts(T[0])))
            return false;
        for (int i = 0, j = 0; i < r->rank; i++) {
            int64_t want = i == ax ? 1 : s->shape[j++];
            if (!need(V, op, r->shape[i] == want, "result %s is not %s expanded at axis %lld", ts(Rt), ts(T[0]),
                      (long long)ax))
                return false;
        }
        return true;
    }
    case IR_RESHAPE:
        return need(V, op, ir_type_elem(T[0]) == ir_type_elem(Rt), "element types differ: %s vs %s", ts(T[0]), ts(Rt)) &&
               need(V, op, ir_type_numel(T[0]) == ir_type_numel(Rt), "cannot reshape %s (%lld elements) to %s",
                    ts(T[0]), (long long)ir_type_numel(T[0]), ts(Rt));
    case IR_TRANS: {
        const ir_type_info *s = ti(T[0]);
        int64_t ord[IR_ATTR_ARRAY_MAX];
        int n = ir_attr_array_get(V->f, op->attr[0], ord);
        if (!need(V, op, n == s->rank && n >= 1, "order has %d entries but the operand %s has rank %d", n, ts(T[0]),
                  s->rank))
            return false;
        bool used[IR_ATTR_ARRAY_MAX] = { false };
        for (int i = 0; i < n; i++) {
            if (!need(V, op, ord[i] >= 0 && ord[i] < n && !used[ord[i]], "order is not a permutation of 0..%d", n - 1))
                return false;
            used[ord[i]] = true;
        }
        if (!need(V, op, r->rank == n && ir_type_elem(T[0]) == ir_type_elem(Rt), "result %s does not match %s",
                  ts(Rt), ts(T[0])))
            return false;
        for (int i = 0; i < n; i++)
            if (!need(V, op, r->shape[i] == s->shape[ord[i]], "result %s is not %s transposed", ts(Rt), ts(T[0])))
                return false;
        return true;
    }
    case IR_JOIN:
    case IR_SPLIT:
    case IR_CAT: {
        /* tt.join: A, A -> A x 2; tt.split: A x 2 -> A, A; tt.cat: [n], [m] -> [n + m] */
        ir_type a = op->opc == IR_SPLIT ? Rt : T[0], whole = op->opc == IR_SPLIT ? T[0] : Rt;
        if (op->opc == IR_SPLIT &&
            !need(V, op, ir_value_type(f, op->res + 1) == Rt, "the two results differ: %s vs %s", ts(Rt),
                  ts(ir_value_type(f, op->res + 1))))
            return false;
        if (op->opc != IR_SPLIT && !need(V, op, T[0] == T[1], "operands differ: %s vs %s", ts(T[0]), ts(T[1])))
            return false;
        const ir_type_info *ai = ti(a), *wi = ti(whole);
        if (!need(V, op, ir_type_elem(a) == ir_type_elem(whole), "element types differ: %s vs %s", ts(a), ts(whole)))
            return false;
        if (op->opc == IR_CAT)
            return need(V, op, ai->rank == 1 && wi->rank == 1 && wi->shape[0] == 2 * ai->shape[0],
                        "tt.cat takes two 1-D tiles of one shape and gives their concatenation, got %s -> %s",
                        ts(a), ts(whole));
        bool ok = ai->rank >= 1 && wi->rank == ai->rank + 1 && wi->shape[ai->rank] == 2;
        for (int i = 0; ok && i < ai->rank; i++) ok = wi->shape[i] == ai->shape[i];
        return need(V, op, ok, "%s is not %s with a minor dimension of 2", ts(whole), ts(a));
    }
    case IR_GATHER: {
        const ir_type_info *s = ti(T[0]), *x = ti(T[1]);
        int64_t ax = op->attr[0];
        if (!need(V, op, s->rank >= 1 && x->rank == s->rank, "source %s and indices %s must have one rank", ts(T[0]),
                  ts(T[1])) ||
            !need(V, op, ax >= 0 && ax < s->rank, "axis %lld out of range for %s", (long long)ax, ts(T[0])) ||
            !need(V, op, is_int(T[1]) && !elem_is(T[1], TT_BOOL), "indices must be integers, got %s", ts(T[1])) ||
            !need(V, op, r->rank == x->rank && ir_type_elem(Rt) == ir_type_elem(T[0]),
                  "result %s must have the shape of %s and the element type of %s", ts(Rt), ts(T[1]), ts(T[0])))
            return false;
        for (int i = 0; i < s->rank; i++)
            if (!need(V, op, r->shape[i] == x->shape[i] && (i == ax || x->shape[i] == s->shape[i]),
                      "indices %s must match source %s outside axis %lld", ts(T[1]), ts(T[0]), (long long)ax))
                return false;
        return true;
    }
    case IR_HISTOGRAM:
        return need(V, op, ti(T[0])->rank == 1 && is_int(T[0]) && !elem_is(T[0], TT_BOOL),
                    "source must be a 1-D integer tile, got %s", ts(T[0])) &&
               need(V, op, op->nopnd < 2 || (T[1] == ir_type_with_elem(T[0], ir_scalar(TT_BOOL))),
                    "mask must be an i1 tile of the source's shape, got %s", ts(T[1])) &&
               need(V, op, r->rank == 1 && elem_is(Rt, TT_I32) && (r->shape[0] & (r->shape[0] - 1)) == 0,
                    "result must be a 1-D i32 tile of a power-of-two size, got %s", ts(Rt));
    case IR_ADDPTR:
        return need(V, op, is_ptr(T[0]), "operand 0 must be a pointer, got %s", ts(T[0])) &&
               need(V, op, is_int(T[1]), "offset must be an integer, got %s", ts(T[1])) &&
               need(V, op, Rt == T[0], "result %s must have the pointer type %s", ts(Rt), ts(T[0]));
    case IR_INT_TO_PTR:
        return need(V, op, elem_is(T[0], TT_I64), "operand must be i64, got %s", ts(T[0])) &&
               need(V, op, is_ptr(Rt), "result must be a pointer, got %s", ts(Rt));
    case IR_PTR_TO_INT:
        return need(V, op, is_ptr(T[0]), "operand must be a pointer, got %s", ts(T[0])) &&
               need(V, op, elem_is(Rt, TT_I64), "result must be i64, got %s", ts(Rt));
    case IR_FP_TO_FP:
        return need(V, op, ir_type_is_float(T[0]) && ir_type_is_float(Rt) && ti(T[0])->elem != ti(Rt)->elem,
                    "must convert between two float types, got %s -> %s", ts(T[0]), ts(Rt)) &&
               need(V, op, op->attr[0] == ROUND_RTNE || op->attr[0] == ROUND_RTZ, "bad rounding %lld",
                    (long long)op->attr[0]);
    case IR_BITCAST:
        return need(V, op, is_ptr(T[0]) == is_ptr(Rt), "cannot bitcast between pointer and non-pointer (%s to %s)",
                    ts(T[0]), ts(Rt)) &&
               need(V, op, ir_type_bits(T[0]) == ir_type_bits(Rt), "bit widths differ: %s vs %s", ts(T[0]), ts(Rt));
    case IR_LOAD: {
        if (!need(V, op, is_ptr(T[0]), "operand 0 must be a pointer, got %s", ts(T[0]))) return false;
        ir_type want = with_elem(T[0], pointee(T[0]));
        if (!need(V, op, Rt == want, "result must be %s, got %s", ts(want), ts(Rt))) return false;
        if (op->nopnd >= 2 && !need(V, op, T[1] == i1_like(T[0]), "mask must be %s, got %s", ts(i1_like(T[0])), ts(T[1])))
            return false;
        if (op->nopnd >= 3 && !need(V, op, T[2] == want, "other must be %s, got %s", ts(want), ts(T[2]))) return false;
        if (op->nopnd <= 3) return true;
        int rank = ir_type_rank(Rt);
        if (!need(V, op, op->nopnd == 4 + 3 * rank,
                  "a descriptor load takes a base, %d offsets, %d shapes and %d strides, got %d operands", rank, rank,
                  rank, op->nopnd - 3) ||
            !need(V, op, is_ptr(T[3]) && ir_type_rank(T[3]) == 0 && pointee(T[3]) == pointee(T[0]),
                  "the descriptor's base must be a scalar %s, got %s", ts(ir_type_elem(T[0])), ts(T[3])))
            return false;
        for (int k = 4; k < op->nopnd; k++) {
            ir_type o = ir_value_type(f, op->opnd[k]);
            int i = (k - 4) / rank;
            ir_type w = ir_scalar(i ? TT_I64 : TT_I32);
            if (!need(V, op, o == w, "descriptor %s %d must be %s, got %s", i == 0 ? "offset" : i == 1 ? "shape" : "stride",
                      (k - 4) % rank, ts(w), ts(o)))
                return false;
        }
        return true;
    }
    case IR_STORE: {
        if (!need(V, op, is_ptr(T[0]), "operand 0 must be a pointer, got %s", ts(T[0]))) return false;
        ir_type want = with_elem(T[0], pointee(T[0]));
        if (!need(V, op, T[1] == want, "stored value must be %s, got %s", ts(want), ts(T[1]))) return false;
        if (op->nopnd >= 3 && !need(V, op, T[2] == i1_like(T[0]), "mask must be %s, got %s", ts(i1_like(T[0])), ts(T[2])))
            return false;
        return true;
    }
    case IR_ATOMIC_RMW: {
        if (!need(V, op, is_ptr(T[0]), "operand 0 must be a pointer, got %s", ts(T[0]))) return false;
        ir_type want = with_elem(T[0], pointee(T[0]));
        if (!need(V, op, T[1] == want, "value must be %s, got %s", ts(want), ts(T[1])) ||
            !need(V, op, Rt == want, "result must be %s, got %s", ts(want), ts(Rt)))
            return false;
        if (op->nopnd >= 3 && !need(V, op, T[2] == i1_like(T[0]), "mask must be %s, got %s", ts(i1_like(T[0])), ts(T[2])))
            return false;
        int64_t k = op->attr[0];
        if (k == RMW_FADD) return need(V, op, is_float(want), "fadd needs a float pointee, got %s", ts(want));
        if (k != RMW_XCHG) return need(V, op, is_int(want), "this atomic needs an integer pointee, got %s", ts(want));
        return true;
    }
    case IR_ATOMIC_CAS: {
        if (!need(V, op, is_ptr(T[0]), "operand 0 must be a pointer, got %s", ts(T[0]))) return false;
        ir_type want = with_elem(T[0], pointee(T[0]));
        return need(V, op, T[1] == want && T[2] == want, "compare and value must be %s, got %s and %s", ts(want),
                    ts(T[1]), ts(T[2])) &&
               need(V, op, Rt == want, "result must be %s, got %s", ts(want), ts(Rt));
    }
    case IR_ATOMIC_POLL: {
        if (!need(V, op, is_ptr(T[0]), "operand 0 must be a pointer, got %s", ts(T[0]))) return false;
        ir_type want = with_elem(T[0], pointee(T[0]));
        int bits = ir_type_bits(pointee(T[0]));
        return need(V, op, is_int(want) && (bits == 16 || bits == 32 || bits == 64),
                    "the pointee must be a 16-, 32- or 64-bit integer, got %s", ts(want)) &&
               need(V, op, T[1] == want, "expected must be %s, got %s", ts(want), ts(T[1])) &&
               need(V, op, op->nopnd < 3 || T[2] == ir_scalar(TT_I64), "timeout must be i64, got %s", ts(T[2])) &&
               need(V, op, Rt == i1_like(T[0]), "result must be %s, got %s", ts(i1_like(T[0])), ts(Rt));
    }
    case IR_DOT: {
        const ir_type_info *a = ti(T[0]), *b = ti(T[1]), *c = ti(T[2]);
        int n = a->rank;
        if (!need(V, op, (n == 2 || n == 3) && b->rank == n && c->rank == n,
                  "operands must all be 2-D (or 3-D batched), got %s, %s, %s", ts(T[0]), ts(T[1]), ts(T[2])))
            return false;
        int64_t M = a->shape[n - 2], K = a->shape[n - 1], N = b->shape[n - 1];
        if (!need(V, op, b->shape[n - 2] == K, "inner dimensions differ: %s and %s", ts(T[0]), ts(T[1])) ||
            !need(V, op, c->shape[n - 2] == M && c->shape[n - 1] == N, "accumulator %s is not %lldx%lld", ts(T[2]),
                  (long long)M, (long long)N) ||
            !need(V, op, n == 2 || (a->shape[0] == b->shape[0] && a->shape[0] == c->shape[0]),
                  "batch dimensions differ"))
            return false;
        if (!need(V, op, a->elem == b->elem, "operand element types differ: %s and %s", ts(T[0]), ts(T[1])) ||
            !need(V, op, !is_ptr(T[0]), "cannot multiply pointers"))
            return false;
        if (is_float(T[0]) && !need(V, op, is_float(T[2]), "accumulator of a float dot must be float, got %s", ts(T[2])))
            return false;
        if (is_int(T[0]) && !need(V, op, elem_is(T[2], TT_I32), "accumulator of an integer dot must be i32, got %s", ts(T[2])))
            return false;
        return need(V, op, Rt == T[2], "result %s must match the accumulator %s", ts(Rt), ts(T[2]));
    }
    case IR_REDUCE: {
        const ir_type_info *s = ti(T[0]);
        int64_t ax = op->attr[0], k = op->attr[1];
        if (!need(V, op, s->rank >= 1, "operand must be a tensor, got %s", ts(T[0])) ||
            !need(V, op, ax >= 0 && ax < s->rank, "axis %lld out of range for %s", (long long)ax, ts(T[0])) ||
            !need(V, op, !is_ptr(T[0]), "cannot reduce pointers"))
            return false;
        bool arg = k == RED_ARGMAX || k == RED_UARGMAX || k == RED_ARGMIN || k == RED_UARGMIN;
        bool int_only = k == RED_UMAX || k == RED_UMIN || k == RED_UARGMAX || k == RED_UARGMIN || k == RED_XOR ||
                        k == RED_OR || k == RED_AND;
        if (int_only && !need(V, op, is_int(T[0]), "this reduction needs integers, got %s", ts(T[0]))) return false;
        int64_t shape[IR_MAX_RANK];
        for (int i = 0, j = 0; i < s->rank; i++)
            if (i != ax) shape[j++] = s->shape[i];
        ir_type elem = arg ? ir_scalar(TT_I32) : ir_type_elem(T[0]);
        ir_type want = ir_tensor(elem, s->rank - 1, shape);
        return need(V, op, Rt == want, "result must be %s, got %s", ts(want), ts(Rt));
    }
    case IR_REDUCE_REGION:
    case IR_SCAN:
        return check_combine(V, op);
    case IR_MAP_ELEMWISE:
        return check_map(V, op);
    case IR_SELECT:
        return need(V, op, elem_is(T[0], TT_BOOL), "condition must be i1, got %s", ts(T[0])) &&
               need(V, op, T[1] == T[2] && Rt == T[1], "operands and result must have one type, got %s, %s -> %s",
                    ts(T[1]), ts(T[2]), ts(Rt));
    case IR_ASSUME:
        return need(V, op, T[0] == ir_scalar(TT_BOOL), "operand must be an i1 scalar, got %s", ts(T[0]));
    case IR_BARRIER:
        return true;
    case IR_PRINT:
        if (!need(V, op, op->nopnd <= 64, "at most 64 operands (one signedness bit each), got %d", op->nopnd)) return false;
        for (int i = 0; i < op->nopnd; i++) {
            ir_type t = ir_value_type(f, op->opnd[i]);
            if (!need(V, op, is_int(t) || is_float(t) || ir_type_is_ptr(t), "operand %d must be a number or pointer, got %s",
                      i, ts(t)))
                return false;
        }
        return true;
    case IR_ASSERT:
        return need(V, op, elem_is(T[0], TT_BOOL), "condition must be i1, got %s", ts(T[0]));
    case IR_INLINE_ASM: {
        int64_t pack = op->attr[3];
        if (!need(V, op, op->nres >= 1, "needs at least one result") ||
            !need(V, op, pack >= 1 && pack <= 16 && (pack & (pack - 1)) == 0, "packed_element must be 1, 2, 4, 8 or 16, got %lld",
                  (long long)pack))
            return false;
        for (int i = 0; i < op->nopnd; i++)
            if (!need(V, op, same_shape(ir_value_type(f, op->opnd[i]), Rt), "operand %d has type %s, expected the shape of %s",
                      i, ts(ir_value_type(f, op->opnd[i])), ts(Rt)))
                return false;
        for (int i = 1; i < op->nres; i++)
            if (!need(V, op, same_shape(ir_value_type(f, op->res + i), Rt), "result %d has type %s, expected the shape of %s", i,
                      ts(ir_value_type(f, op->res + i)), ts(Rt)))
                return false;
        return true;
    }
    case IR_FOR: case IR_IF: case IR_WHILE:            /* check_for, check_if, check_while */
    case IR_CONDITION: case IR_YIELD: case IR_RETURN:  /* checked with the op that owns the region */
    case IR_REDUCE_RETURN: case IR_SCAN_RETURN: case IR_MAP_RETURN:
        return true;
    default:
        break;
    }
    (void)region;
    return fail(V, op, "has no typing rule in the verifier (S_CUSTOM without a case in verify.c)");
}

/* ---- structured control flow ---- */

static bool check_for(verifier *V, const ir_op *op)
{
    const ir_func *f = V->f;
    ir_type lb = ir_value_type(f, op->opnd[0]);
    int n = op->nopnd - 3;
    if (!need(V, op, is_scalar(lb) && is_int(lb) && !elem_is(lb, TT_BOOL), "bounds must be integer scalars, got %s",
              ts(lb)) ||
        !need(V, op, ir_value_type(f, op->opnd[1]) == lb && ir_value_type(f, op->opnd[2]) == lb,
              "lower bound, upper bound and step must have one type"))
        return false;
    ir_type *want = xmalloc(sizeof *want * (size_t)(n + 1));
    want[0] = lb;
    for (int i = 0; i < n; i++) want[i + 1] = ir_value_type(f, op->opnd[3 + i]);
    bool ok = need(V, op, op->nres == n, "has %d results but %d loop-carried values", op->nres, n);
    for (int i = 0; ok && i < n; i++)
        ok = need(V, op, ir_value_type(f, op->res + i) == want[i + 1], "result %d has type %s, expected %s", i,
                  ts(ir_value_type(f, op->res + i)), ts(want[i + 1]));
    ok = ok && check_region_args(V, op, op->region[0], "the loop body", n + 1, want) &&
         check_region_end(V, op, op->region[0], "the loop body", IR_YIELD, 0, n, want + 1);
    free(want);
    return ok;
}

static bool check_if(verifier *V, const ir_op *op)
{
    const ir_func *f = V->f;
    ir_type c = ir_value_type(f, op->opnd[0]);
    if (!need(V, op, c == ir_scalar(TT_BOOL), "condition must be an i1 scalar, got %s", ts(c))) return false;
    ir_type *want = xmalloc(sizeof *want * (size_t)(op->nres + 1));
    for (int i = 0; i < op->nres; i++) want[i] = ir_value_type(f, op->res + i);
    bool ok = check_region_args(V, op, op->region[0], "the then region", 0, NULL) &&
              check_region_args(V, op, op->region[1], "the else region", 0, NULL) &&
              check_region_end(V, op, op->region[0], "the then region", IR_YIELD, 0, op->nres, want) &&
              check_region_end(V, op, op->region[1], "the else region", IR_YIELD, 0, op->nres, want);
    free(want);
    return ok;
}

static bool check_while(verifier *V, const ir_op *op)
{
    const ir_func *f = V->f;
    int n = op->nopnd;
    ir_type *init = xmalloc(sizeof *init * (size_t)(n + 1));
    ir_type *res = xmalloc(sizeof *res * (size_t)(op->nres + 1));
    for (int i = 0; i < n; i++) init[i] = ir_value_type(f, op->opnd[i]);
    for (int i = 0; i < op->nres; i++) res[i] = ir_value_type(f, op->res + i);
    bool ok = check_region_args(V, op, op->region[0], "the before region", n, init);
    if (ok) {
        const ir_op *c = terminator(V, op->region[0]);
        ok = need(V, op, c && c->opc == IR_CONDITION && c->nopnd >= 1,
                  "the before region must end with scf.condition");
        if (ok && c->opnd[0] >= 0 && c->opnd[0] < f->values.n)
            ok = need(V, op, ir_value_type(f, c->opnd[0]) == ir_scalar(TT_BOOL),
                      "scf.condition's condition must be an i1 scalar, got %s", ts(ir_value_type(f, c->opnd[0])));
        ok = ok && check_region_end(V, op, op->region[0], "the before region", IR_CONDITION, 1, op->nres, res);
    }
    ok = ok && check_region_args(V, op, op->region[1], "the after region", op->nres, res) &&
         check_region_end(V, op, op->region[1], "the after region", IR_YIELD, 0, n, init);
    free(init);
    free(res);
    return ok;
}

/* Where a terminator may stand: yield in scf.for/scf.if/scf.while's after
 * region, condition in scf.while's before region, return in the body. */
static bool check_terminator_place(verifier *V, const ir_op *op, int32_t region, int index)
{
    const ir_region *rg = R(V, region);
    if (index != rg->nops - 1) return fail(V, op, "a terminator must be the last op of its region");
    const ir_op *p = parent_op(V, region);
    switch (op->opc) {
    case IR_RETURN:
        return need(V, op, p == NULL, "tt.return is only allowed at the end of the function body");
    case IR_CONDITION:
        return need(V, op, p && p->opc == IR_WHILE && p->region[0] == region,
                    "scf.condition must end the first region of scf.while");
    case IR_REDUCE_RETURN:
        return need(V, op, p && p->opc == IR_REDUCE_REGION, "tt.reduce.return must end the region of tt.reduce_region");
    case IR_SCAN_RETURN:
        return need(V, op, p && p->opc == IR_SCAN, "tt.scan.return must end the region of tt.scan");
    case IR_MAP_RETURN:
        return need(V, op, p && p->opc == IR_MAP_ELEMWISE,
                    "tt.map_elementwise.return must end the region of tt.map_elementwise");
    default:
        return need(V, op, p && (p->opc == IR_FOR || p->opc == IR_IF || (p->opc == IR_WHILE && p->region[1] == region)),
                    "scf.yield must end a region of scf.for, scf.if or scf.while");
    }
}

/* ---- the walk ---- */

static void verify_region(verifier *V, int32_t region);

static void verify_op(verifier *V, int32_t region, int index)
{
    const ir_func *f = V->f;
    const ir_op *op = &R(V, region)->ops[index];
    if (op->opc >= IR_OP_COUNT) {
        fail(V, op, "unknown opcode %u", op->opc);
        return;
    }
    const ir_opdesc *d = &ir_ops[op->opc];
    if (op->loc < -1 || op->loc >= f->locs.n) fail(V, op, "location id %d out of range", op->loc);

    /* counts */
    if (op->nopnd < d->min_opnd || (d->max_opnd >= 0 && op->nopnd > d->max_opnd)) {
        fail(V, op, "has %d operands, expected %d..%d", op->nopnd, d->min_opnd, d->max_opnd);
        return;
    }
    if (d->nres >= 0 && op->nres != d->nres) {
        fail(V, op, "has %d results, expected %d", op->nres, d->nres);
        return;
    }
    if (op->nregions != d->nregions) {
        fail(V, op, "has %d regions, expected %d", op->nregions, d->nregions);
        return;
    }

    /* results are this op's values */
    bool ok = true;
    for (int i = 0; i < op->nres; i++) {
        ir_value v = op->res + i;
        if (op->res < 0 || v >= f->values.n) {
            fail(V, op, "result %d has no value", i);
            return;
        }
        const ir_value_info *vi = &f->values.v[v];
        if (vi->def_kind != IR_DEF_OP || vi->region != region || vi->index != index) {
            fail(V, op, "result %d's value table entry does not point back at the op", i);
            return;
        }
        if (!vi->type) {
            fail(V, op, "result %d has no type", i);
            return;
        }
    }

    /* operands are defined and visible */
    for (int i = 0; i < op->nopnd; i++) {
        ir_value v = op->opnd[i];
        if (v < 0 || v >= f->values.n) {
            fail(V, op, "operand %d refers to no value (%d)", i, v);
            ok = false;
            continue;
        }
        int vis = visibility(V, v, region, index);
        if (vis == 1) ok = fail(V, op, "operand %d (%s) is used before its definition", i, vname(V, v));
        else if (vis == 2) ok = fail(V, op, "operand %d (%s) is defined in a region that does not enclose this use", i, vname(V, v));
        else if (!f->values.v[v].type) ok = fail(V, op, "operand %d has no type", i);
    }

    /* regions belong to this op */
    for (int i = 0; i < op->nregions; i++) {
        int32_t c = op->region[i];
        if (c <= 0 || c >= f->regions.n || R(V, c)->parent_region != region || R(V, c)->parent_op != index) {
            fail(V, op, "region %d is not attached to this op", i);
            return;
        }
        if (V->seen[c]) {
            fail(V, op, "region %d is shared with another op", i);
            return;
        }
    }

    if (d->props & P_TERMINATOR) ok = check_terminator_place(V, op, region, index) && ok;
    if (ok) ok = check_attrs(V, op);
    if (ok) ok = check_types(V, op, region);
    if (ok && op->opc == IR_FOR) check_for(V, op);
    if (ok && op->opc == IR_IF) check_if(V, op);
    if (ok && op->opc == IR_WHILE) check_while(V, op);

    for (int i = 0; i < op->nregions; i++) verify_region(V, op->region[i]);
}

static void verify_region(verifier *V, int32_t region)
{
    V->seen[region] = true;
    const ir_region *rg = R(V, region);
    for (int i = 0; i < rg->nargs; i++) {
        ir_value v = rg->args[i];
        const ir_value_info *vi = v >= 0 && v < V->f->values.n ? &V->f->values.v[v] : NULL;
        int kind = region == IR_BODY ? IR_DEF_ARG : IR_DEF_REGION_ARG;
        if (!vi || vi->def_kind != kind || vi->region != region || vi->index != i || !vi->type) {
            fail(V, parent_op(V, region), "region argument %d's value table entry is inconsistent", i);
            return;
        }
    }
    for (int i = 0; i < R(V, region)->nops; i++) verify_op(V, region, i);
}

int ir_verify(const ir_func *f)
{
    verifier V = { f, 0, NULL };
    if (!f->regions.n) {
        fail(&V, NULL, "the function has no body");
        return V.errors;
    }
    const ir_region *body = &f->regions.v[IR_BODY];
    if (body->parent_region != -1) fail(&V, NULL, "the body region has a parent");
    if (body->nargs != f->nargs) fail(&V, NULL, "the body has %d arguments but the function %d", body->nargs, f->nargs);
    for (int i = 0; i < f->locs.n; i++) {
        int32_t c = f->locs.v[i].caller;
        for (int steps = 0; c >= 0; steps++) {
            if (c >= f->locs.n || steps > f->locs.n) {
                fail(&V, NULL, "location %d has a broken call-site chain", i);
                break;
            }
            c = f->locs.v[c].caller;
        }
    }
    if (V.errors) return V.errors;
    /* every region except the body must hang under an op that names it */
    for (int r = 1; r < f->regions.n; r++) {
        const ir_region *rg = &f->regions.v[r];
        int32_t pr = rg->parent_region;
        if (pr < 0 || pr >= f->regions.n || rg->parent_op < 0 || rg->parent_op >= f->regions.v[pr].nops) {
            fail(&V, NULL, "region %d is not attached to any op", r);
            continue;
        }
        const ir_op *p = &f->regions.v[pr].ops[rg->parent_op];
        if (!(p->nregions >= 1 && p->region[0] == r) && !(p->nregions >= 2 && p->region[1] == r))
            fail(&V, p, "region %d claims this op as its parent, but the op does not own it", r);
    }
    if (V.errors) return V.errors;
    V.seen = xcalloc((size_t)f->regions.n, sizeof *V.seen);
    verify_region(&V, IR_BODY);
    const ir_op *last = terminator(&V, IR_BODY);
    if (!last || last->opc != IR_RETURN) {
        const ir_op *at = body->nops ? &body->ops[body->nops - 1] : NULL;
        fail(&V, at, "the function body must end with tt.return");
    }
    free(V.seen);
    return V.errors;
}
