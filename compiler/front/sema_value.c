/* sema_value.c — values, Triton's type promotion, casts, broadcasting and
 * the Python operators on tensors and constexprs.
 * Rules: docs/reference/triton-semantics.md §2.2-2.5 (semantic.py in Triton 3.6). */
#include "front_int.h"
#include "sema_builtin.h"
#include "tritium/limits.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

void sema_error(sema *S, src_pos p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vat(DIAG_ERROR, p, fmt, ap);
    va_end(ap);
    /* an error inside triton.language's own code (prelude.c) also names the
     * user's call that led there, as Triton's traceback does */
    bool in_prelude = !strcmp(diag_file_name(p.file), front_prelude_name);
    for (int32_t c = S->caller_loc; in_prelude && S->fn && c >= 0 && c < S->fn->locs.n; c = S->fn->locs.v[c].caller) {
        const ir_loc *l = &S->fn->locs.v[c];
        src_pos cp = { l->file, l->line, l->col };
        in_prelude = !strcmp(diag_file_name(l->file), front_prelude_name);
        if (!in_prelude) diag_at(DIAG_NOTE, cp, "in this call");
    }
    longjmp(S->fail, 1);
}

void sema_setloc(sema *S, src_pos p)
{
    S->b.loc = ir_add_loc(S->fn, p.file, p.line, p.col, S->caller_loc, S->func_name);
}

sval sv_int(int64_t i) { return (sval){ .k = V_INT, .i = i, .v = -1 }; }
sval sv_float(double f) { return (sval){ .k = V_FLOAT, .f = f, .v = -1 }; }
sval sv_bool(bool b) { return (sval){ .k = V_BOOL, .i = b, .v = -1 }; }
sval sv_none(void) { return (sval){ .k = V_NONE, .v = -1 }; }
sval sv_dtype(tt_dtype d, tt_dtype pointee) { return (sval){ .k = V_DTYPE, .dt = d, .pt = pointee, .v = -1 }; }
sval sv_tensor(ir_value v, tt_dtype dt, tt_dtype pt) { return (sval){ .k = V_TENSOR, .v = v, .dt = dt, .pt = pt }; }
bool sv_is_const(const sval *v) { return v->k == V_INT || v->k == V_FLOAT || v->k == V_BOOL; }
bool sv_is_aggregate(const sval *v) { return v->k == V_TUPLE && v->nt && v->nt->aggregate; }

static double cnum(const sval *v) { return v->k == V_FLOAT ? v->f : (double)v->i; }

bool sv_truthy(sema *S, src_pos p, const sval *v)
{
    switch (v->k) {
    case V_INT: case V_BOOL: return v->i != 0;
    case V_FLOAT: return v->f != 0;
    case V_NONE: return false;
    case V_STR: return v->s[0] != 0;
    case V_TUPLE: return v->n != 0;
    case V_DTYPE: case V_FUNC: case V_MODULE: case V_BUILTIN: case V_METHOD: case V_BLOCKPTR: case V_TDESC:
    case V_CLASS: return true;
    case V_TENSOR: break;
    }
    sema_error(S, p, "a tensor has no compile-time truth value here; this needs a constexpr");
}

const ir_type_info *sv_shape(sema *S, const sval *v)
{
    return ir_type_get(ir_value_type(S->fn, v->v));
}

sval sema_check_tile(sema *S, src_pos p, sval v)
{
    if (v.k != V_TENSOR) return v;
    const ir_type_info *ti = sv_shape(S, &v);
    int64_t n = 1;
    bool over = false;
    for (int k = 0; k < ti->rank; k++) over |= tt_mul_overflow(n, ti->shape[k], &n) || n > TT_MAX_TENSOR_NUMEL;
    if (!over) return v;
    char shape[160] = "";
    size_t len = 0;
    for (int k = 0; k < ti->rank && len < sizeof shape - 24; k++)
        len += (size_t)snprintf(shape + len, sizeof shape - len, "%s%lld", k ? ", " : "", (long long)ti->shape[k]);
    sema_error(S, p, "this tile of shape [%s] has more than %lld elements (TRITON_MAX_TENSOR_NUMEL, a Triton limit)",
               shape, (long long)TT_MAX_TENSOR_NUMEL);
}

ir_type sema_type(tt_dtype dt, tt_dtype pt, int rank, const int64_t *shape)
{
    ir_type e = dt == TT_PTR ? ir_ptr(ir_scalar(pt)) : ir_scalar(dt);
    return rank ? ir_tensor(e, rank, shape) : e;
}

static const char *dtname(tt_dtype dt, tt_dtype pt, char *buf, size_t n)
{
    if (dt == TT_PTR) snprintf(buf, n, "pointer<%s>", tt_dtype_triton_name(pt));
    else snprintf(buf, n, "%s", tt_dtype_triton_name(dt));
    return buf;
}

const char *sema_shape_str(sema *S, int rank, const int64_t *shape)
{
    char *b = arena_alloc(S->a, (size_t)rank * 24 + 3), *q = b;
    *q++ = '[';
    for (int i = 0; i < rank; i++) q += sprintf(q, "%s%lld", i ? ", " : "", (long long)shape[i]);
    strcpy(q, "]");
    return b;
}

const char *sv_describe(sema *S, const sval *v)
{
    char buf[160], d[48];
    switch (v->k) {
    case V_INT: snprintf(buf, sizeof buf, "constexpr int %lld", (long long)v->i); break;
    case V_FLOAT: snprintf(buf, sizeof buf, "constexpr float %g", v->f); break;
    case V_BOOL: snprintf(buf, sizeof buf, "constexpr bool %s", v->i ? "True" : "False"); break;
    case V_STR: snprintf(buf, sizeof buf, "constexpr str '%s'", v->s); break;
    case V_NONE: snprintf(buf, sizeof buf, "None"); break;
    case V_DTYPE: snprintf(buf, sizeof buf, "dtype %s", dtname(v->dt, v->pt, d, sizeof d)); break;
    case V_TUPLE:
        if (sv_is_aggregate(v)) snprintf(buf, sizeof buf, "aggregate %s", v->nt->tname);
        else if (v->nt) snprintf(buf, sizeof buf, "named tuple %s of %d", v->nt->tname, v->n);
        else snprintf(buf, sizeof buf, "tuple of %d", v->n);
        break;
    case V_CLASS: snprintf(buf, sizeof buf, "%s class %s", v->nt->aggregate ? "aggregate" : "named tuple", v->nt->tname); break;
    case V_FUNC: snprintf(buf, sizeof buf, "jit function '%s'", S->m->funcs.v[v->i].name); break;
    case V_BLOCKPTR: snprintf(buf, sizeof buf, "a block pointer of rank %d", (int)v->i); break;
    case V_TDESC: {    /* core.py tensor_descriptor_base_type.__str__, plus the padding */
        int r = (int)v->i, len = snprintf(buf, sizeof buf, "tensor_descriptor<%s[", tt_dtype_triton_name(v->items[0].pt));
        for (int i = 0; i < r; i++)
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%lld", i ? ", " : "", (long long)v->items[1 + 3 * r + i].i);
        snprintf(buf + len, sizeof buf - (size_t)len, "]>%s%s", strcmp(v->s, "nan") ? "" : " with NaN padding",
                 v->n ? " rounding to tf32" : "");
        break;
    }
    case V_TENSOR: {
        const ir_type_info *t = sv_shape(S, v);
        int len = snprintf(buf, sizeof buf, "%s", dtname(v->dt, v->pt, d, sizeof d));
        if (t->rank) {
            len += snprintf(buf + len, sizeof buf - (size_t)len, "[");
            for (int i = 0; i < t->rank; i++)
                len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%lld", i ? ", " : "", (long long)t->shape[i]);
            snprintf(buf + len, sizeof buf - (size_t)len, "]");
        }
        break;
    }
    default: snprintf(buf, sizeof buf, "a function or module"); break;
    }
    return arena_strdup(S->a, buf);
}

/* to_tensor's dtype for a Python number (semantic.py to_tensor_type) */
tt_dtype sema_literal_dtype(sema *S, src_pos p, const sval *v)
{
    if (v->k == V_BOOL) return TT_BOOL;
    if (v->k == V_INT) {
        int64_t x = v->i;
        if (x >= INT32_MIN && x <= INT32_MAX) return TT_I32;
        if (x > 0 && x <= (int64_t)UINT32_MAX) return TT_U32;
        return TT_I64;
    }
    if (v->k == V_FLOAT) {
        double a = fabs(v->f);
        if (isinf(a) || a == 0 || isnan(a) || (a >= 0x1p-126 && a <= 0x1.fffffep127)) return TT_F32;
        return TT_F64;
    }
    sema_error(S, p, "expected a number, got %s", sv_describe(S, v));
}

static sval const_as(sema *S, src_pos p, const sval *v, tt_dtype dt);

sval sema_const_tensor(sema *S, src_pos p, double f, int64_t i, tt_dtype dt, int rank, const int64_t *shape)
{
    sema_setloc(S, p);
    ir_type t = sema_type(dt, TT_BOOL, rank, shape);
    ir_value v = tt_dtype_is_float(dt) ? ir_const_float(&S->b, t, f) : ir_const_int(&S->b, t, dt == TT_BOOL ? i != 0 : i);
    return sv_tensor(v, dt, TT_BOOL);
}

/* A Python scalar must fit the type it is converted to (semantic.py:
 * "Scalar ... is out of range for type ..."). */
static void check_scalar_fits(sema *S, src_pos p, const sval *v, tt_dtype dt)
{
    if (!tt_dtype_is_int(dt) || dt == TT_BOOL || v->k == V_FLOAT) return;
    int64_t x = v->i;
    int bits = tt_dtype_bits(dt);
    bool ok;
    if (tt_dtype_is_signed(dt)) ok = bits == 64 || (x >= -((int64_t)1 << (bits - 1)) && x < ((int64_t)1 << (bits - 1)));
    else ok = x >= 0 && (bits == 64 || x < ((int64_t)1 << bits));
    if (!ok) {
        if (x < 0 && !tt_dtype_is_signed(dt))
            sema_error(S, p, "cannot perform an operation between an unsigned tensor (%s) and a negative scalar (%lld)",
                       tt_dtype_triton_name(dt), (long long)x);
        sema_error(S, p, "scalar %lld is out of range for type %s", (long long)x, tt_dtype_triton_name(dt));
    }
}

sval sema_const_as(sema *S, src_pos p, sval v, tt_dtype dt) { return const_as(S, p, &v, dt); }

static sval const_as(sema *S, src_pos p, const sval *v, tt_dtype dt)
{
    check_scalar_fits(S, p, v, dt);
    if (tt_dtype_is_float(dt)) return sema_const_tensor(S, p, cnum(v), 0, dt, 0, NULL);
    if (v->k == V_FLOAT) {
        sval r = sema_const_tensor(S, p, v->f, 0, TT_F32, 0, NULL);
        return sema_cast(S, p, r, dt, TT_BOOL, false);
    }
    return sema_const_tensor(S, p, (double)v->i, v->i, dt, 0, NULL);
}

sval sema_to_tensor(sema *S, src_pos p, sval v)
{
    if (v.k == V_TENSOR) return v;
    if (!sv_is_const(&v)) sema_error(S, p, "cannot use %s as a tensor", sv_describe(S, &v));
    return const_as(S, p, &v, sema_literal_dtype(S, p, &v));
}

static sval emit1(sema *S, int opc, ir_type t, int n, const ir_value *ops, tt_dtype dt, tt_dtype pt)
{
    return sv_tensor(ir_emit1(&S->b, opc, t, n, ops), dt, pt);
}

static int fp_mantissa(tt_dtype d)
{
    switch (d) {
    case TT_F16: return 10;
    case TT_BF16: return 7;
    case TT_F32: return 23;
    default: return 52;
    }
}

static sval fp_to_fp(sema *S, sval v, ir_type dst, tt_dtype to, int rounding)
{
    sval r = emit1(S, IR_FP_TO_FP, dst, 1, &v.v, to, 0);
    ir_attr_set(ir_def(S->fn, r.v), "rounding", rounding);
    return r;
}

/* The tt.fp_to_fp conversions Triton 3.6 can compile for an NVIDIA GPU
 * (FpToFpOpConversion's table, ElementwiseOpToLLVM.cpp; sm_89+ for
 * fp8e4nv) and, for fp8e4b8/fp8e5b16, for AMD's (the interpreter runs
 * those; the GPU path refuses them as Triton's CUDA backend does). Returns
 * NULL or the reason it cannot. */
static const char *fp_to_fp_refusal(tt_dtype from, tt_dtype to, int rounding)
{
    bool std_from = from == TT_F16 || from == TT_BF16 || from == TT_F32;
    bool std_to = to == TT_F16 || to == TT_BF16 || to == TT_F32;
    if (tt_dtype_is_fp8(from) && tt_dtype_is_fp8(to))
        return "Triton 3.6 has no direct fp8 -> fp8 conversion; convert through float16 or float32";
    if (tt_dtype_is_fp8(from))
        return std_to ? NULL : "fp8 converts only to float16, bfloat16 and float32 (Triton 3.6 FpToFpOpConversion)";
    if (tt_dtype_is_fp8(to)) {
        if (!std_from) return "fp8 is converted to only from float16, bfloat16 and float32 (Triton 3.6 FpToFpOpConversion)";
        if (rounding == ROUND_RTZ && !(from == TT_F32 && to == TT_F8E5))
            return "fp_downcast_rounding='rtz' to fp8 exists only for float32 -> float8e5 (Triton 3.6 FpToFpOpConversion)";
        return NULL;
    }
    /* rtz between the standard types */
    if (from == TT_F32 && (to == TT_F16 || to == TT_BF16)) return NULL;
    return "fp_downcast_rounding='rtz' exists only for float32 -> float16/bfloat16/float8e5 (Triton 3.6 FpToFpOpConversion)";
}

/* semantic.py cast(): every rule in §2.7 */
sval sema_cast(sema *S, src_pos p, sval v, tt_dtype to, tt_dtype to_pt, bool bitcast)
{
    return sema_cast_rounded(S, p, v, to, to_pt, bitcast, -1);
}

sval sema_cast_rounded(sema *S, src_pos p, sval v, tt_dtype to, tt_dtype to_pt, bool bitcast, int rounding)
{
    v = sema_to_tensor(S, p, v);
    const ir_type_info *ti = sv_shape(S, &v);
    int rank = ti->rank;
    int64_t shape[IR_MAX_RANK];
    memcpy(shape, ti->shape, sizeof shape);
    ir_type dst = sema_type(to, to_pt, rank, shape);
    tt_dtype from = v.dt;
    sema_setloc(S, p);
    if (from == to && (from != TT_PTR || v.pt == to_pt)) return v;
    /* semantic.py bitcast: a pointer on either side is a plain cast */
    if (bitcast && (from == TT_PTR || to == TT_PTR)) bitcast = false;
    if (bitcast) {
        if (tt_dtype_bits(from) != tt_dtype_bits(to))
            sema_error(S, p, "cannot bitcast %s to %s: different bit widths", tt_dtype_triton_name(from), tt_dtype_triton_name(to));
        if (ir_value_type(S->fn, v.v) == dst) return sv_tensor(v.v, to, to_pt);
        return emit1(S, IR_BITCAST, dst, 1, &v.v, to, to_pt);
    }
    /* fp_downcast_rounding: only for float -> narrower float, rtne by default */
    bool ff = tt_dtype_is_float(from), tf = tt_dtype_is_float(to);
    bool downcast = ff && tf && tt_dtype_bits(to) < tt_dtype_bits(from);
    if (rounding >= 0 && !downcast)
        sema_error(S, p, "fp_downcast_rounding should be set only for truncating fp conversions; the source is %s and "
                   "the destination %s", tt_dtype_triton_name(from), tt_dtype_triton_name(to));
    if (rounding < 0) rounding = ROUND_RTNE;
    /* fp8e4b15 (nvidia/language/cuda/utils.py convert_custom_float8): from
     * it, to float16 or float32 only (for any other destination Triton
     * returns the float16 value, mistyped); to it, only from float16 or
     * float32 (via float16 rounded toward zero), the rounding mode ignored */
    if (from == TT_F8E4B15) {
        if (to != TT_F16 && to != TT_F32)
            sema_error(S, p, "cannot cast fp8e4b15 to %s: Triton 3.6 converts it only to float16 and float32",
                       to == TT_PTR ? "a pointer" : tt_dtype_triton_name(to));
        sval h = fp_to_fp(S, v, sema_type(TT_F16, 0, rank, shape), TT_F16, ROUND_RTNE);
        return to == TT_F32 ? sema_cast(S, p, h, TT_F32, 0, false) : h;
    }
    if (to == TT_F8E4B15) {
        if (from != TT_F16 && from != TT_F32)
            sema_error(S, p, "cannot cast %s to fp8e4b15: Triton 3.6 converts to it only from float16 and float32",
                       tt_dtype_triton_name(from));
        if (from == TT_F32) v = sema_cast_rounded(S, p, v, TT_F16, 0, false, ROUND_RTZ);
        return fp_to_fp(S, v, dst, to, ROUND_RTNE);
    }
    if (tt_dtype_is_fp8(from) || tt_dtype_is_fp8(to) || (downcast && rounding == ROUND_RTZ)) {
        if (!ff || !tf)
            sema_error(S, p, "cannot cast %s to %s (Triton 3.6 casts fp8 only to and from floating-point types)",
                       from == TT_PTR ? "a pointer" : tt_dtype_triton_name(from), to == TT_PTR ? "a pointer" : tt_dtype_triton_name(to));
        const char *why = fp_to_fp_refusal(from, to, rounding);
        if (why) sema_error(S, p, "cannot cast %s to %s%s: %s", tt_dtype_triton_name(from), tt_dtype_triton_name(to),
                            rounding == ROUND_RTZ ? " with fp_downcast_rounding='rtz'" : "", why);
        return fp_to_fp(S, v, dst, to, rounding);
    }
    if (from == TT_PTR && to == TT_PTR) return emit1(S, IR_BITCAST, dst, 1, &v.v, to, to_pt);
    if (from == TT_PTR) {
        if (to == TT_BOOL) {
            sval i = emit1(S, IR_PTR_TO_INT, sema_type(TT_I64, 0, rank, shape), 1, &v.v, TT_I64, 0);
            return sema_binop(S, p, "!=", i, sv_int(0));
        }
        if (to != TT_I64) sema_error(S, p, "a pointer can only be cast to int64, int1 or another pointer");
        return emit1(S, IR_PTR_TO_INT, dst, 1, &v.v, to, 0);
    }
    if (to == TT_PTR) {
        if (from != TT_I64 && from != TT_U64) sema_error(S, p, "only int64 values can be cast to pointers");
        return emit1(S, IR_INT_TO_PTR, dst, 1, &v.v, to, to_pt);
    }
    /* any -> bool is x != 0 */
    if (to == TT_BOOL) {
        sval zero = ff ? sema_const_tensor(S, p, 0, 0, from, rank, shape) : sema_const_tensor(S, p, 0, 0, from, rank, shape);
        return sema_binop(S, p, "!=", v, zero);
    }
    /* fp16/bf16 go through fp32 to anything but fp32 */
    if ((from == TT_F16 || from == TT_BF16) && to != TT_F32) {
        v = sema_cast(S, p, v, TT_F32, 0, false);
        return sema_cast(S, p, v, to, to_pt, false);
    }
    if (ff && tf) {
        int op = tt_dtype_bits(to) > tt_dtype_bits(from) || (tt_dtype_bits(to) == tt_dtype_bits(from) && fp_mantissa(to) > fp_mantissa(from))
                 ? IR_EXTF : IR_TRUNCF;
        return emit1(S, op, dst, 1, &v.v, to, 0);
    }
    if (!ff && !tf) {
        int fb = tt_dtype_bits(from), tb = tt_dtype_bits(to);
        if (fb == tb) return sv_tensor(v.v, to, 0);   /* signless: same IR type */
        int op = tb < fb ? IR_TRUNCI : (tt_dtype_is_signed(from) && from != TT_BOOL) ? IR_EXTSI : IR_EXTUI;
        return emit1(S, op, dst, 1, &v.v, to, 0);
    }
    if (!ff && tf) {
        int op = (tt_dtype_is_signed(from) && from != TT_BOOL) ? IR_SITOFP : IR_UITOFP;
        return emit1(S, op, dst, 1, &v.v, to, 0);
    }
    return emit1(S, tt_dtype_is_signed(to) ? IR_FPTOSI : IR_FPTOUI, dst, 1, &v.v, to, 0);
}

sval sema_expand_dims(sema *S, src_pos p, sval v, int axis)
{
    v = sema_to_tensor(S, p, v);
    const ir_type_info *t = sv_shape(S, &v);
    int rank = t->rank;
    if (axis < -(rank + 1) || axis > rank)
        sema_error(S, p, "invalid axis %d. Expected %d <= axis < %d", axis, -(rank + 1), rank + 1);
    if (axis < 0) axis += rank + 1;
    if (rank + 1 > IR_MAX_RANK) sema_error(S, p, "tensors of rank above %d are not supported", IR_MAX_RANK);
    int64_t shape[IR_MAX_RANK];
    for (int i = 0, j = 0; i <= rank; i++) shape[i] = i == axis ? 1 : t->shape[j++];
    sema_setloc(S, p);
    ir_type nt = sema_type(v.dt, v.pt, rank + 1, shape);
    if (rank == 0) return emit1(S, IR_SPLAT, nt, 1, &v.v, v.dt, v.pt);
    sval r = emit1(S, IR_EXPAND_DIMS, nt, 1, &v.v, v.dt, v.pt);
    ir_attr_set(ir_def(S->fn, r.v), "axis", axis);
    return r;
}

sval sema_broadcast_to(sema *S, src_pos p, sval v, int rank, const int64_t *shape)
{
    v = sema_to_tensor(S, p, v);
    const ir_type_info *t = sv_shape(S, &v);
    if (t->rank == rank && !memcmp(t->shape, shape, sizeof(int64_t) * (size_t)rank)) return v;
    sema_setloc(S, p);
    ir_type nt = sema_type(v.dt, v.pt, rank, shape);
    if (t->rank == 0) return emit1(S, IR_SPLAT, nt, 1, &v.v, v.dt, v.pt);
    if (t->rank > rank) sema_error(S, p, "cannot broadcast %s to rank %d", sv_describe(S, &v), rank);
    while (sv_shape(S, &v)->rank < rank) v = sema_expand_dims(S, p, v, 0);
    t = sv_shape(S, &v);
    for (int i = 0; i < rank; i++)
        if (t->shape[i] != shape[i] && t->shape[i] != 1)
            sema_error(S, p, "cannot broadcast %s: dimension %d is %lld, expected %lld or 1",
                       sv_describe(S, &v), i, (long long)t->shape[i], (long long)shape[i]);
    if (!memcmp(t->shape, shape, sizeof(int64_t) * (size_t)rank)) return v;
    return emit1(S, IR_BROADCAST, nt, 1, &v.v, v.dt, v.pt);
}

/* numpy-style broadcast of two tensors (semantic.py broadcast_impl_value) */
void sema_broadcast_pair(sema *S, src_pos p, sval *a, sval *b)
{
    const ir_type_info *ta = sv_shape(S, a), *tb = sv_shape(S, b);
    int rank = ta->rank > tb->rank ? ta->rank : tb->rank;
    int64_t shape[IR_MAX_RANK];
    for (int i = 0; i < rank; i++) {
        int ia = i - (rank - ta->rank), ib = i - (rank - tb->rank);
        int64_t da = ia >= 0 ? ta->shape[ia] : 1, db = ib >= 0 ? tb->shape[ib] : 1;
        if (da != db && da != 1 && db != 1)
            sema_error(S, p, "incompatible shapes for broadcasting: %s and %s", sv_describe(S, a), sv_describe(S, b));
        shape[i] = da == 1 ? db : da;
    }
    *a = sema_broadcast_to(S, p, *a, rank, shape);
    *b = sema_broadcast_to(S, p, *b, rank, shape);
}

/* ---- promotion (semantic.py computation_type_impl / integer_promote_impl) ---- */

static int kind_of(tt_dtype d) { return d == TT_BOOL ? 0 : tt_dtype_is_int(d) ? 1 : 2; }

static tt_dtype integer_promote(sema *S, src_pos p, tt_dtype a, tt_dtype b)
{
    (void)S; (void)p;
    int ar = tt_dtype_bits(a), br = tt_dtype_bits(b);
    bool as = tt_dtype_is_signed(a), bs = tt_dtype_is_signed(b);
    if (as == bs) return ar > br ? a : b;
    if (!as) return ar >= br ? a : b;
    return br >= ar ? b : a;
}

static tt_dtype computation_type(sema *S, src_pos p, tt_dtype a, bool a_scalar, tt_dtype b, bool b_scalar, bool div_or_mod)
{
    if (a_scalar != b_scalar) {
        tt_dtype s = a_scalar ? a : b, t = a_scalar ? b : a;
        if (kind_of(s) <= kind_of(t)) {
            if (div_or_mod && (t == TT_F16 || t == TT_BF16)) return TT_F32;
            return t;
        }
    }
    if (a == TT_F64 || b == TT_F64) return TT_F64;
    if (a == TT_F32 || b == TT_F32) return TT_F32;
    if (a == TT_F16 || b == TT_F16) return div_or_mod ? TT_F32 : TT_F16;
    if (a == TT_BF16 && b == TT_BF16) return div_or_mod ? TT_F32 : TT_BF16;
    if (a == TT_BF16 || b == TT_BF16) return TT_F32;
    /* 5) two fp8 operands: their type if equal, else fp16 */
    if (tt_dtype_is_fp8(a) && tt_dtype_is_fp8(b)) return a == b ? a : TT_F16;
    if (!tt_dtype_is_int(a) || !tt_dtype_is_int(b))
        sema_error(S, p, "unexpected types %s and %s", tt_dtype_triton_name(a), tt_dtype_triton_name(b));
    if (div_or_mod && tt_dtype_is_signed(a) != tt_dtype_is_signed(b))
        sema_error(S, p, "Cannot use /, // or %% with %s and %s because they have different signedness; cast one of them first",
                   tt_dtype_triton_name(a), tt_dtype_triton_name(b));
    return integer_promote(S, p, a, b);
}

static bool is_cmp(const char *op)
{
    return !strcmp(op, "<") || !strcmp(op, ">") || !strcmp(op, "<=") || !strcmp(op, ">=") ||
           !strcmp(op, "==") || !strcmp(op, "!=");
}

/* Python semantics on two constexpr numbers */
static sval const_binop(sema *S, src_pos p, const char *op, sval a, sval b)
{
    pynum x = { a.k == V_FLOAT ? 'f' : a.k == V_BOOL ? 'b' : 'i', a.i, a.f };
    pynum y = { b.k == V_FLOAT ? 'f' : b.k == V_BOOL ? 'b' : 'i', b.i, b.f };
    pynum r;
    const char *err = py_binop(op, x, y, &r);
    if (err) sema_error(S, p, "%s in a constant expression (%s)", err, op);
    return r.kind == 'f' ? sv_float(r.f) : r.kind == 'b' ? sv_bool(r.i != 0) : sv_int(r.i);
}

static int float_pred(const char *op)
{
    if (!strcmp(op, "<")) return CMPF_OLT;
    if (!strcmp(op, ">")) return CMPF_OGT;
    if (!strcmp(op, "<=")) return CMPF_OLE;
    if (!strcmp(op, ">=")) return CMPF_OGE;
    if (!strcmp(op, "==")) return CMPF_OEQ;
    return CMPF_UNE;
}

static int int_pred(const char *op, bool sgn)
{
    if (!strcmp(op, "==")) return CMPI_EQ;
    if (!strcmp(op, "!=")) return CMPI_NE;
    if (!strcmp(op, "<")) return sgn ? CMPI_SLT : CMPI_ULT;
    if (!strcmp(op, ">")) return sgn ? CMPI_SGT : CMPI_UGT;
    if (!strcmp(op, "<=")) return sgn ? CMPI_SLE : CMPI_ULE;
    return sgn ? CMPI_SGE : CMPI_UGE;
}

/* If the op that produced `d` is the last one emitted in the current region
 * and is a tt.dot with a zero accumulator, return its index (for the
 * acc + dot -> dot(acc) rewrite of Combine.cpp, §2.9). */
static int fusable_dot(sema *S, sval d, sval acc)
{
    if (d.k != V_TENSOR || acc.k != V_TENSOR) return -1;
    ir_func *f = S->fn;
    ir_value_info *vi = &f->values.v[d.v];
    if (vi->def_kind != IR_DEF_OP || vi->region != S->b.region || vi->index != f->regions.v[S->b.region].nops - 1) return -1;
    if (vi->name || acc.v == d.v) return -1;   /* a named dot may have other uses */
    ir_op *op = ir_def(f, d.v);
    if (op->opc != IR_DOT || ir_value_type(f, acc.v) != ir_value_type(f, d.v) || acc.dt != d.dt) return -1;
    ir_op *z = ir_def(f, op->opnd[2]);
    if (!z || z->opc != IR_CONSTANT || z->fval != 0 || z->ival != 0) return -1;
    return vi->index;
}

/* Triton 3.6 types fp8 arithmetic (computation_type_impl keeps fp8 when
 * both sides are one fp8 type or the other is a Python scalar), but no GPU
 * backend lowers arith ops on fp8 (there is no f8 in LLVM): refuse it here
 * with the way out. */
static void no_fp8_arith(sema *S, src_pos p, const char *op, tt_dtype ct)
{
    if (tt_dtype_is_fp8(ct))
        sema_error(S, p, "%s on %s values is not supported (Triton 3.6 cannot compile fp8 arithmetic); convert with "
                   ".to(tl.float32) first", op, tt_dtype_triton_name(ct));
}

sval sema_binop(sema *S, src_pos p, const char *op, sval a, sval b)
{
    if (!strcmp(op, "@")) sema_error(S, p, "the @ operator is not supported; use tl.dot");
    /* constexpr strings, dtypes, None: static comparisons */
    if ((a.k == V_STR || b.k == V_STR || a.k == V_DTYPE || b.k == V_DTYPE || a.k == V_NONE || b.k == V_NONE) &&
        (!strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "is") || !strcmp(op, "is not"))) {
        bool eq = a.k == b.k;
        if (eq && a.k == V_STR) eq = !strcmp(a.s, b.s);
        if (eq && a.k == V_DTYPE) eq = a.dt == b.dt && (a.dt != TT_PTR || a.pt == b.pt);
        bool neg = !strcmp(op, "!=") || !strcmp(op, "is not");
        return sv_bool(eq != neg);
    }
    /* jit functions and named tuple classes: by identity */
    if ((a.k == V_FUNC || b.k == V_FUNC || a.k == V_CLASS || b.k == V_CLASS) &&
        (!strcmp(op, "==") || !strcmp(op, "!=") || !strcmp(op, "is") || !strcmp(op, "is not"))) {
        bool eq = a.k == b.k && (a.k == V_FUNC ? a.i == b.i : a.nt == b.nt);
        bool neg = !strcmp(op, "!=") || !strcmp(op, "is not");
        return sv_bool(eq != neg);
    }
    /* constexpr tuples (shapes): Python's element-wise == and != (named or
     * not: core.py tuple.__eq__ compares the values only) */
    if (a.k == V_TUPLE && b.k == V_TUPLE && (!strcmp(op, "==") || !strcmp(op, "!="))) {
        bool eq = a.n == b.n;
        for (int i = 0; eq && i < a.n; i++) {
            sval e = sema_binop(S, p, "==", a.items[i], b.items[i]);
            if (e.k == V_TENSOR) sema_error(S, p, "comparing tuples that hold tensors is not supported");
            eq = sv_truthy(S, p, &e);
        }
        return sv_bool(eq == !strcmp(op, "=="));
    }
    if (!strcmp(op, "is") || !strcmp(op, "is not")) sema_error(S, p, "'%s' is only supported on constexprs and None", op);
    if (a.k == V_STR && b.k == V_STR && !strcmp(op, "+")) {
        char *s = arena_alloc(S->a, strlen(a.s) + strlen(b.s) + 1);
        strcpy(s, a.s);
        strcat(s, b.s);
        return (sval){ .k = V_STR, .s = s, .v = -1 };
    }
    if (sv_is_const(&a) && sv_is_const(&b)) return const_binop(S, p, op, a, b);
    if ((a.k != V_TENSOR && !sv_is_const(&a)) || (b.k != V_TENSOR && !sv_is_const(&b)))
        sema_error(S, p, "unsupported operand types for %s: %s and %s", op, sv_describe(S, &a), sv_describe(S, &b));

    bool a_sc = a.k != V_TENSOR, b_sc = b.k != V_TENSOR;
    tt_dtype adt = a_sc ? sema_literal_dtype(S, p, &a) : a.dt;
    tt_dtype bdt = b_sc ? sema_literal_dtype(S, p, &b) : b.dt;

    /* pointers: ptr + int, int + ptr, ptr - int */
    if (adt == TT_PTR || bdt == TT_PTR) {
        if (adt == TT_PTR && bdt == TT_PTR) sema_error(S, p, "unsupported operation %s between two pointers", op);
        if (!strcmp(op, "+") || (!strcmp(op, "-") && adt == TT_PTR)) {
            sval ptr = adt == TT_PTR ? a : b, off = adt == TT_PTR ? b : a;
            off = sema_to_tensor(S, p, off);
            if (!tt_dtype_is_int(off.dt)) sema_error(S, p, "pointer offsets must be integers, got %s", sv_describe(S, &off));
            if (!strcmp(op, "-")) off = sema_unop(S, p, "-", off);
            /* unsigned offsets narrower than 64 bits are zero-extended (semantic.py add) */
            if (!tt_dtype_is_signed(off.dt) && tt_dtype_bits(off.dt) < 64) off = sema_cast(S, p, off, TT_I64, 0, false);
            sema_broadcast_pair(S, p, &ptr, &off);
            sema_setloc(S, p);
            ir_value ops[2] = { ptr.v, off.v };
            return emit1(S, IR_ADDPTR, ir_value_type(S->fn, ptr.v), 2, ops, TT_PTR, ptr.pt);
        }
        sema_error(S, p, "unsupported operation %s on a pointer (%s, %s)", op, sv_describe(S, &a), sv_describe(S, &b));
    }

    bool bitwise = !strcmp(op, "&") || !strcmp(op, "|") || !strcmp(op, "^") || !strcmp(op, "<<") || !strcmp(op, ">>");
    bool divmod = !strcmp(op, "/") || !strcmp(op, "%") || !strcmp(op, "//");
    tt_dtype ct;
    if (bitwise) {
        if (!tt_dtype_is_int(adt) || !tt_dtype_is_int(bdt))
            sema_error(S, p, "invalid operands of type %s and %s for %s (bitwise operators need integers)",
                       sv_describe(S, &a), sv_describe(S, &b), op);
        /* semantic.py bitwise_op_type_checking_impl: binary_op_type_checking_impl
         * first (a Python int takes the tensor's integer type: `i16 ^ -32768`
         * stays int16), then integer_promote_impl of the two (equal) types */
        ct = computation_type(S, p, adt, a_sc, bdt, b_sc, false);
        if (!tt_dtype_is_signed(ct) && ((a_sc && cnum(&a) < 0) || (b_sc && cnum(&b) < 0)))
            sema_error(S, p, "cannot perform a binary operation between an unsigned tensor and a negative scalar");
    } else {
        if (!strcmp(op, "//") && (tt_dtype_is_float(adt) || tt_dtype_is_float(bdt)))
            sema_error(S, p, "floordiv (//) is not supported for floating-point operands (Triton 3.6)");
        ct = computation_type(S, p, adt, a_sc, bdt, b_sc, divmod);
        if (!tt_dtype_is_signed(ct) && tt_dtype_is_int(ct) &&
            ((a_sc && cnum(&a) < 0) || (b_sc && cnum(&b) < 0)))
            sema_error(S, p, "cannot perform a binary operation between an unsigned tensor and a negative scalar");
    }
    no_fp8_arith(S, p, op, ct);
    a = a_sc ? const_as(S, p, &a, ct) : sema_cast(S, p, a, ct, 0, false);
    b = b_sc ? const_as(S, p, &b, ct) : sema_cast(S, p, b, ct, 0, false);
    if (!strcmp(op, "/") && !tt_dtype_is_float(ct)) {
        a = sema_cast(S, p, a, TT_F32, 0, false);
        b = sema_cast(S, p, b, TT_F32, 0, false);
        ct = TT_F32;
    }
    if (!strcmp(op, "+")) {
        int di = fusable_dot(S, b, a);
        if (di < 0) { di = fusable_dot(S, a, b); if (di >= 0) { sval t = a; a = b; b = t; } }
        if (di >= 0) {
            ir_op *d = ir_op_at(S->fn, S->b.region, di);
            d->opnd[2] = a.v;
            return b;
        }
    }
    sema_broadcast_pair(S, p, &a, &b);
    sema_setloc(S, p);
    ir_value ops[2] = { a.v, b.v };
    ir_type t = ir_value_type(S->fn, a.v);
    bool fl = tt_dtype_is_float(ct), sg = tt_dtype_is_signed(ct);
    if (is_cmp(op)) {
        ir_type bt = ir_type_with_elem(t, ir_scalar(TT_BOOL));
        sval r = emit1(S, fl ? IR_CMPF : IR_CMPI, bt, 2, ops, TT_BOOL, 0);
        ir_attr_set(ir_def(S->fn, r.v), "predicate", fl ? float_pred(op) : int_pred(op, sg));
        return r;
    }
    int opc = -1;
    switch (op[0]) {
    case '+': opc = fl ? IR_ADDF : IR_ADDI; break;
    case '-': opc = fl ? IR_SUBF : IR_SUBI; break;
    case '*': if (op[1] == '*') sema_error(S, p, "** on tensors is not supported; use libdevice.pow");
              opc = fl ? IR_MULF : IR_MULI; break;
    case '/': opc = op[1] == '/' ? (sg ? IR_DIVSI : IR_DIVUI) : IR_DIVF; break;
    case '%': opc = fl ? IR_REMF : sg ? IR_REMSI : IR_REMUI; break;
    case '&': opc = IR_ANDI; break;
    case '|': opc = IR_ORI; break;
    case '^': opc = IR_XORI; break;
    case '<': opc = IR_SHLI; break;
    /* arithmetic or logical by the signedness of the tensor whose method runs
     * (self of tensor.__rshift__/__rrshift__, core.py), not of the promoted type:
     * int8 >> uint8 computes in uint8 but shifts arithmetically */
    case '>': opc = tt_dtype_is_signed(a_sc ? bdt : adt) ? IR_SHRSI : IR_SHRUI; break;
    }
    if (opc < 0) sema_error(S, p, "unsupported operator %s", op);
    return emit1(S, opc, t, 2, ops, ct, 0);
}

sval sema_unop(sema *S, src_pos p, const char *op, sval a)
{
    if (!strcmp(op, "not")) {
        if (a.k != V_TENSOR) return sv_bool(!sv_truthy(S, p, &a));
        a = sema_cast(S, p, a, TT_BOOL, 0, false);
        return sema_binop(S, p, "^", a, sema_const_tensor(S, p, 1, 1, TT_BOOL, 0, NULL));
    }
    if (!strcmp(op, "+")) return a;
    if (sv_is_const(&a)) {
        if (!strcmp(op, "-")) {
            if (a.k == V_FLOAT) return sv_float(-a.f);
            if (a.i == INT64_MIN) sema_error(S, p, "integer overflow in a constant expression");
            return sv_int(-a.i);
        }
        if (a.k == V_FLOAT) sema_error(S, p, "bad operand type for unary ~: float");
        return sv_int(~a.i);
    }
    if (a.k != V_TENSOR) sema_error(S, p, "bad operand for unary %s: %s", op, sv_describe(S, &a));
    if (a.dt == TT_PTR) sema_error(S, p, "unary %s is not defined on pointers", op);
    if (!strcmp(op, "-")) {
        /* semantic.py minus: from Triton 3.8 a float negation is fneg (the
         * sign bit flipped: -(+0.0) is -0.0), written as an xor of the sign
         * bit on the bits; fp8 (whose arithmetic tritium refuses) and
         * integers are 0 - x, as every float is in 3.6 and 3.7 (-(+0.0) is
         * +0.0) */
        if (tt_dtype_is_float(a.dt) && !tt_dtype_is_fp8(a.dt) && front_triton_version() >= 8) {
            int bits = tt_dtype_bits(a.dt);
            tt_dtype it = bits == 16 ? TT_I16 : bits == 32 ? TT_I32 : TT_I64;
            sval b = sema_cast(S, p, a, it, 0, true);
            sval m = sema_const_tensor(S, p, 0, (int64_t)((uint64_t)1 << (bits - 1) | (bits == 64 ? 0 : ~(uint64_t)0 << bits)),
                                       it, 0, NULL);
            return sema_cast(S, p, sema_binop(S, p, "^", b, m), a.dt, 0, true);
        }
        sval z = sema_const_tensor(S, p, 0, 0, a.dt, 0, NULL);
        return sema_binop(S, p, "-", z, a);
    }
    if (tt_dtype_is_float(a.dt)) sema_error(S, p, "bitwise ~ requires an integer tensor, got %s", sv_describe(S, &a));
    sval ones = sema_const_tensor(S, p, -1, -1, a.dt, 0, NULL);
    return sema_binop(S, p, "^", a, ones);
}

/* tl.fma(x, y, z) (math.py fma, no dtype check): Triton 3.9's
 * ternary_op_type_checking_impl combines the tensors' dtypes and the Python
 * scalars' apart, then the two with the scalars as scalars (fma(x_f16, 2.5,
 * z_f16) stays fp16) and only then makes the scalars tensors; before 3.9
 * every operand is made a tensor first (a Python float is fp32) and the
 * pairs (x, y), (z, x), (z, y) are promoted in turn. */
sval sema_fma(sema *S, src_pos p, sval x, sval y, sval z)
{
    sval *v[3] = { &x, &y, &z };
    for (int i = 0; i < 3; i++)
        if (v[i]->k != V_TENSOR && !sv_is_const(v[i]))
            sema_error(S, p, "fma: expected numbers or tensors, got %s", sv_describe(S, v[i]));
    if (front_triton_version() >= 9) {
        tt_dtype td = TT_BOOL, sd = TT_BOOL;
        bool has_t = false, has_s = false;
        for (int i = 0; i < 3; i++) {
            bool sc = v[i]->k != V_TENSOR;
            tt_dtype d = sc ? sema_literal_dtype(S, p, v[i]) : v[i]->dt;
            if (sc) sd = has_s ? computation_type(S, p, sd, true, d, true, false) : d, has_s = true;
            else td = has_t ? computation_type(S, p, td, false, d, false, false) : d, has_t = true;
        }
        tt_dtype ct = !has_t ? sd : !has_s ? td : computation_type(S, p, td, false, sd, true, false);
        for (int i = 0; i < 3; i++) *v[i] = v[i]->k != V_TENSOR ? const_as(S, p, v[i], ct) : sema_cast(S, p, *v[i], ct, 0, false);
    } else {
        for (int i = 0; i < 3; i++) *v[i] = sema_to_tensor(S, p, *v[i]);
        static const int pairs[3][2] = { { 0, 1 }, { 2, 0 }, { 2, 1 } };
        for (int k = 0; k < 3; k++) {
            sval *a = v[pairs[k][0]], *b = v[pairs[k][1]];
            tt_dtype ct = computation_type(S, p, a->dt, false, b->dt, false, false);
            *a = sema_cast(S, p, *a, ct, 0, false);
            *b = sema_cast(S, p, *b, ct, 0, false);
        }
    }
    if (!tt_dtype_is_float(x.dt))
        sema_error(S, p, "fma: expected floating-point operands, got %s", tt_dtype_triton_name(x.dt));
    sema_broadcast_pair(S, p, &x, &y);
    sema_broadcast_pair(S, p, &x, &z);
    sema_broadcast_pair(S, p, &y, &z);
    sema_setloc(S, p);
    ir_value ops[3] = { x.v, y.v, z.v };
    return sema_emit(S, IR_FMA, ir_value_type(S->fn, x.v), 3, ops, x.dt, 0);
}

tt_dtype sema_promote(sema *S, src_pos p, sval a, sval b)
{
    bool a_sc = a.k != V_TENSOR, b_sc = b.k != V_TENSOR;
    if ((a_sc && !sv_is_const(&a)) || (b_sc && !sv_is_const(&b)))
        sema_error(S, p, "expected numbers or tensors, got %s and %s", sv_describe(S, &a), sv_describe(S, &b));
    tt_dtype adt = a_sc ? sema_literal_dtype(S, p, &a) : a.dt;
    tt_dtype bdt = b_sc ? sema_literal_dtype(S, p, &b) : b.dt;
    return computation_type(S, p, adt, a_sc && !b_sc, bdt, b_sc && !a_sc, false);
}

sval sema_minmax(sema *S, src_pos p, bool is_max, sval a, sval b) { return sema_minmax_nan(S, p, is_max, a, b, false); }

sval sema_minmax_nan(sema *S, src_pos p, bool is_max, sval a, sval b, bool nan_all)
{
    if (sv_is_const(&a) && sv_is_const(&b)) {
        bool gt = (a.k == V_FLOAT || b.k == V_FLOAT) ? cnum(&a) > cnum(&b) : a.i > b.i;
        bool lt = (a.k == V_FLOAT || b.k == V_FLOAT) ? cnum(&a) < cnum(&b) : a.i < b.i;
        return is_max ? (lt ? b : a) : (gt ? b : a);
    }
    bool a_sc = a.k != V_TENSOR, b_sc = b.k != V_TENSOR;
    tt_dtype adt = a_sc ? sema_literal_dtype(S, p, &a) : a.dt;
    tt_dtype bdt = b_sc ? sema_literal_dtype(S, p, &b) : b.dt;
    tt_dtype ct = computation_type(S, p, adt, a_sc, bdt, b_sc, false);
    no_fp8_arith(S, p, is_max ? "maximum" : "minimum", ct);
    a = a_sc ? const_as(S, p, &a, ct) : sema_cast(S, p, a, ct, 0, false);
    b = b_sc ? const_as(S, p, &b, ct) : sema_cast(S, p, b, ct, 0, false);
    sema_broadcast_pair(S, p, &a, &b);
    sema_setloc(S, p);
    ir_value ops[2] = { a.v, b.v };
    int opc = tt_dtype_is_float(ct) ? (nan_all ? (is_max ? IR_MAXIMUMF : IR_MINIMUMF) : (is_max ? IR_MAXNUMF : IR_MINNUMF))
            : tt_dtype_is_signed(ct) ? (is_max ? IR_MAXSI : IR_MINSI) : (is_max ? IR_MAXUI : IR_MINUI);
    return emit1(S, opc, ir_value_type(S->fn, a.v), 2, ops, ct, 0);
}
