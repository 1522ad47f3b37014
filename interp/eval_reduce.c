/* eval_reduce.c — tt.reduce with a named combiner along one axis
 * (docs/reference/triton-semantics.md §2.10).
 *
 * The input is viewed as [outer, R, inner] with R the reduced axis; each
 * output element combines its R inputs in index order starting from the
 * first (no identity element), so float sums are reproducible:
 *   add       ints wrap; f32/f64 accumulate in their type; f16/bf16 in
 *             f32, rounded to the type once at the end: Triton adds them
 *             in the element type, but in a tree (a few roundings deep)
 *             whose order depends on the layout; one rounding of the f32
 *             sum stays within those few roundings of the GPU's result and
 *             near numpy's pairwise sum (Triton's interpreter), where
 *             rounding at every step in index order drifts by O(R) ulps
 *   max/min   floats ignore NaN (NaN only when all inputs are NaN), -0 < +0;
 *             ints signed (umax/umin unsigned)
 *   argmax... the index (result type) of the first maximum/minimum; NaN
 *             never wins; all-NaN gives index 0
 *   xor/or/and bitwise, ints only
 * NUMERICS_FAST does not change the order: the GPU's reduction tree depends
 * on the layout and is not emulated (float sums agree to a tolerance). */
#include "internal.h"

#include <math.h>

typedef struct red_shape { int64_t outer, R, inner; } red_shape;

/* Value reductions on an accumulator type A loaded from T. */
#define DEF_RED(NAME, T, A, LD, ST, COMB)                                                         \
    static void NAME(const T *restrict x, T *restrict out, red_shape sh, A *restrict acc)         \
    {                                                                                             \
        for (int64_t o = 0; o < sh.outer; o++) {                                                  \
            const T *xo = x + o * sh.R * sh.inner;                                                \
            if (sh.inner == 1) {                                                                  \
                A a = LD(xo[0]);                                                                  \
                for (int64_t r = 1; r < sh.R; r++) {                                              \
                    A b = LD(xo[r]);                                                              \
                    a = COMB(a, b);                                                               \
                }                                                                                 \
                out[o] = ST(a);                                                                   \
                continue;                                                                         \
            }                                                                                     \
            for (int64_t j = 0; j < sh.inner; j++) acc[j] = LD(xo[j]);                            \
            for (int64_t r = 1; r < sh.R; r++) {                                                  \
                const T *xr = xo + r * sh.inner;                                                  \
                for (int64_t j = 0; j < sh.inner; j++) {                                          \
                    A a = acc[j], b = LD(xr[j]);                                                  \
                    acc[j] = COMB(a, b);                                                          \
                }                                                                                 \
            }                                                                                     \
            for (int64_t j = 0; j < sh.inner; j++) out[o * sh.inner + j] = ST(acc[j]);            \
        }                                                                                         \
    }

#define ID(x) (x)
#define ADD(a, b) ((a) + (b))
#define XOR(a, b) ((a) ^ (b))
#define OR(a, b) ((a) | (b))
#define AND(a, b) ((a) & (b))
#define MAXI(a, b) ((a) > (b) ? (a) : (b))
#define MINI(a, b) ((a) < (b) ? (a) : (b))
/* NaN-ignoring max/min with -0 < +0 */
#define FMAX(a, b) ((a) != (a) ? (b) : (b) != (b) ? (a) : (a) == (b) ? (signbit(a) ? (b) : (a)) : (a) > (b) ? (a) : (b))
#define FMIN(a, b) ((a) != (a) ? (b) : (b) != (b) ? (a) : (a) == (b) ? (signbit(a) ? (a) : (b)) : (a) < (b) ? (a) : (b))
#define WADD8(a, b) ((uint8_t)((unsigned)(a) + (b)))
#define WADD16(a, b) ((uint16_t)((unsigned)(a) + (b)))

DEF_RED(sum_f32, float, float, ID, ID, ADD)
DEF_RED(sum_f64, double, double, ID, ID, ADD)
DEF_RED(sum_f16, uint16_t, float, interp_h2f, interp_f2h, ADD)
DEF_RED(sum_bf16, uint16_t, float, interp_bf2f, interp_f2bf, ADD)
DEF_RED(max_f32, float, float, ID, ID, FMAX)
DEF_RED(max_f64, double, double, ID, ID, FMAX)
DEF_RED(max_f16, uint16_t, float, interp_h2f, interp_f2h, FMAX)
DEF_RED(max_bf16, uint16_t, float, interp_bf2f, interp_f2bf, FMAX)
DEF_RED(min_f32, float, float, ID, ID, FMIN)
DEF_RED(min_f64, double, double, ID, ID, FMIN)
DEF_RED(min_f16, uint16_t, float, interp_h2f, interp_f2h, FMIN)
DEF_RED(min_bf16, uint16_t, float, interp_bf2f, interp_f2bf, FMIN)

#define DEF_IRED(W, U, S, WADD)                                                                   \
    DEF_RED(sum_i##W, U, U, ID, ID, WADD)                                                         \
    DEF_RED(max_i##W, S, S, ID, ID, MAXI)                                                         \
    DEF_RED(min_i##W, S, S, ID, ID, MINI)                                                         \
    DEF_RED(umax_i##W, U, U, ID, ID, MAXI)                                                        \
    DEF_RED(umin_i##W, U, U, ID, ID, MINI)                                                        \
    DEF_RED(xor_i##W, U, U, ID, ID, XOR)                                                          \
    DEF_RED(or_i##W, U, U, ID, ID, OR)                                                            \
    DEF_RED(and_i##W, U, U, ID, ID, AND)
DEF_IRED(8, uint8_t, int8_t, WADD8)
DEF_IRED(16, uint16_t, int16_t, WADD16)
DEF_IRED(32, uint32_t, int32_t, ADD)
DEF_IRED(64, uint64_t, int64_t, ADD)

/* Arg reductions: value accumulator A, index of the winner. BETTER(b, a):
 * candidate b replaces a (strictly better, so ties keep the first). */
#define DEF_ARG(NAME, T, A, LD, BETTER)                                                           \
    static void NAME(const T *restrict x, int64_t *restrict out, red_shape sh, A *restrict acc, int64_t *restrict idx) \
    {                                                                                             \
        for (int64_t o = 0; o < sh.outer; o++) {                                                  \
            const T *xo = x + o * sh.R * sh.inner;                                                \
            for (int64_t j = 0; j < sh.inner; j++) {                                              \
                acc[j] = LD(xo[j]);                                                               \
                idx[j] = 0;                                                                       \
            }                                                                                     \
            for (int64_t r = 1; r < sh.R; r++) {                                                  \
                const T *xr = xo + r * sh.inner;                                                  \
                for (int64_t j = 0; j < sh.inner; j++) {                                          \
                    A a = acc[j], b = LD(xr[j]);                                                  \
                    if (BETTER(b, a)) {                                                           \
                        acc[j] = b;                                                               \
                        idx[j] = r;                                                               \
                    }                                                                             \
                }                                                                                 \
            }                                                                                     \
            for (int64_t j = 0; j < sh.inner; j++) out[o * sh.inner + j] = idx[j];                \
        }                                                                                         \
    }
/* floats: a NaN accumulator is replaced by any number; NaN never wins */
#define FGT(b, a) ((b) > (a) || ((a) != (a) && (b) == (b)))
#define FLT(b, a) ((b) < (a) || ((a) != (a) && (b) == (b)))
#define GT(b, a) ((b) > (a))
#define LT(b, a) ((b) < (a))
DEF_ARG(argmax_f32, float, float, ID, FGT)
DEF_ARG(argmin_f32, float, float, ID, FLT)
DEF_ARG(argmax_f64, double, double, ID, FGT)
DEF_ARG(argmin_f64, double, double, ID, FLT)
DEF_ARG(argmax_f16, uint16_t, float, interp_h2f, FGT)
DEF_ARG(argmin_f16, uint16_t, float, interp_h2f, FLT)
DEF_ARG(argmax_bf16, uint16_t, float, interp_bf2f, FGT)
DEF_ARG(argmin_bf16, uint16_t, float, interp_bf2f, FLT)
#define DEF_IARG(W, U, S)                                                                         \
    DEF_ARG(argmax_i##W, S, S, ID, GT)                                                            \
    DEF_ARG(argmin_i##W, S, S, ID, LT)                                                            \
    DEF_ARG(uargmax_i##W, U, U, ID, GT)                                                           \
    DEF_ARG(uargmin_i##W, U, U, ID, LT)
DEF_IARG(8, uint8_t, int8_t)
DEF_IARG(16, uint16_t, int16_t)
DEF_IARG(32, uint32_t, int32_t)
DEF_IARG(64, uint64_t, int64_t)

/* f32 max/min in an order-free form that vectorizes: floats map to signed
 * integer keys ordered like the floats (-0 below +0); NaN lanes take the
 * identity key and are counted, so a result is NaN only when all its inputs
 * are. The result does not depend on the order, so it equals the
 * sequential FMAX/FMIN above. */
static inline int32_t fkey(uint32_t b) { return (int32_t)(b ^ ((uint32_t)((int32_t)b >> 31) & 0x7fffffffu)); }
static inline uint32_t funkey(int32_t k) { return k >= 0 ? (uint32_t)k : (uint32_t)k ^ 0x7fffffffu; }

static void maxmin_f32(const uint32_t *restrict x, uint32_t *restrict out, red_shape sh, int32_t *restrict acc,
                       int32_t *restrict cnt, bool is_max)
{
    const int32_t ident = is_max ? INT32_MIN : INT32_MAX;
    for (int64_t o = 0; o < sh.outer; o++) {
        const uint32_t *xo = x + o * sh.R * sh.inner;
        if (sh.inner == 1) {
            int32_t a = ident, c = 0;
            if (is_max) {
                for (int64_t r = 0; r < sh.R; r++) {
                    uint32_t b = xo[r];
                    bool nan = (b & 0x7fffffffu) > 0x7f800000u;
                    int32_t k = nan ? ident : fkey(b);
                    a = k > a ? k : a;
                    c += !nan;
                }
            } else {
                for (int64_t r = 0; r < sh.R; r++) {
                    uint32_t b = xo[r];
                    bool nan = (b & 0x7fffffffu) > 0x7f800000u;
                    int32_t k = nan ? ident : fkey(b);
                    a = k < a ? k : a;
                    c += !nan;
                }
            }
            out[o] = c ? funkey(a) : xo[0];
            continue;
        }
        for (int64_t j = 0; j < sh.inner; j++) {
            acc[j] = ident;
            cnt[j] = 0;
        }
        for (int64_t r = 0; r < sh.R; r++) {
            const uint32_t *xr = xo + r * sh.inner;
            for (int64_t j = 0; j < sh.inner; j++) {
                uint32_t b = xr[j];
                bool nan = (b & 0x7fffffffu) > 0x7f800000u;
                int32_t k = nan ? ident : fkey(b);
                acc[j] = is_max ? (k > acc[j] ? k : acc[j]) : (k < acc[j] ? k : acc[j]);
                cnt[j] += !nan;
            }
        }
        for (int64_t j = 0; j < sh.inner; j++) out[o * sh.inner + j] = cnt[j] ? funkey(acc[j]) : xo[j];
    }
}

static bool is_arg(int kind)
{
    return kind == RED_ARGMAX || kind == RED_UARGMAX || kind == RED_ARGMIN || kind == RED_UARGMIN;
}

/* Value reduction of x (dt) into out (dt). */
static void reduce_values(interp_prog *p, int kind, tt_dtype dt, const void *x, void *out, red_shape sh)
{
    void *acc = ts_alloc(&p->mem, (size_t)sh.inner * 8);
    bool fl = tt_dtype_is_float(dt);
    if (dt == TT_F32 && kind != RED_ADD) {
        int32_t *cnt = ts_alloc(&p->mem, (size_t)sh.inner * 4);
        maxmin_f32(x, out, sh, acc, cnt, kind == RED_MAX || kind == RED_UMAX);
        return;
    }
    if (fl) {
        int k = kind == RED_UMAX ? RED_MAX : kind == RED_UMIN ? RED_MIN : kind;
#define FCASE(K, N)                                                                               \
    case K:                                                                                       \
        switch (dt) {                                                                             \
        case TT_F32: N##_f32(x, out, sh, acc); return;                                            \
        case TT_F64: N##_f64(x, out, sh, acc); return;                                            \
        case TT_F16: N##_f16(x, out, sh, acc); return;                                            \
        default: N##_bf16(x, out, sh, acc); return;                                               \
        }
        switch (k) {
        FCASE(RED_ADD, sum)
        FCASE(RED_MAX, max)
        FCASE(RED_MIN, min)
        default: die("tt.reduce: %d on floats", kind);
        }
#undef FCASE
    }
    int w = dt == TT_BOOL || dt == TT_I8 ? 8 : dt == TT_I16 ? 16 : dt == TT_I32 ? 32 : 64;
#define ICASE(K, N)                                                                               \
    case K:                                                                                       \
        switch (w) {                                                                              \
        case 8: N##_i8(x, out, sh, acc); break;                                                   \
        case 16: N##_i16(x, out, sh, acc); break;                                                 \
        case 32: N##_i32(x, out, sh, acc); break;                                                 \
        default: N##_i64(x, out, sh, acc); break;                                                 \
        }                                                                                         \
        break;
    switch (kind) {
    ICASE(RED_ADD, sum)
    ICASE(RED_MAX, max)
    ICASE(RED_MIN, min)
    ICASE(RED_UMAX, umax)
    ICASE(RED_UMIN, umin)
    ICASE(RED_XOR, xor)
    ICASE(RED_OR, or)
    ICASE(RED_AND, and)
    default: die("tt.reduce: kind %d", kind);
    }
#undef ICASE
    if (dt == TT_BOOL) {
        /* i1: add wraps mod 2; signed max/min see 0 and -1 */
        uint8_t *o = out;
        int64_t n = sh.outer * sh.inner;
        if (kind == RED_MAX || kind == RED_MIN) {
            /* recompute on 0/-1: max of {0,-1} is 0 unless all are true */
            const uint8_t *xi = x;
            for (int64_t oo = 0; oo < sh.outer; oo++)
                for (int64_t j = 0; j < sh.inner; j++) {
                    bool all = true, any = false;
                    for (int64_t r = 0; r < sh.R; r++) {
                        bool b = xi[(oo * sh.R + r) * sh.inner + j] & 1;
                        all &= b;
                        any |= b;
                    }
                    o[oo * sh.inner + j] = kind == RED_MAX ? all : any;
                }
        }
        for (int64_t i = 0; i < n; i++) o[i] &= 1;
    }
}

static void reduce_args(interp_prog *p, int kind, tt_dtype dt, const void *x, int64_t *out, red_shape sh)
{
    void *acc = ts_alloc(&p->mem, (size_t)sh.inner * 8);
    int64_t *idx = ts_alloc(&p->mem, (size_t)sh.inner * 8);
    bool mx = kind == RED_ARGMAX || kind == RED_UARGMAX;
    if (tt_dtype_is_float(dt)) {
        switch (dt) {
        case TT_F32: (mx ? argmax_f32 : argmin_f32)(x, out, sh, acc, idx); break;
        case TT_F64: (mx ? argmax_f64 : argmin_f64)(x, out, sh, acc, idx); break;
        case TT_F16: (mx ? argmax_f16 : argmin_f16)(x, out, sh, acc, idx); break;
        default: (mx ? argmax_bf16 : argmin_bf16)(x, out, sh, acc, idx); break;
        }
        return;
    }
    bool uns = kind == RED_UARGMAX || kind == RED_UARGMIN || dt == TT_BOOL;
    switch (dt) {
    case TT_BOOL:
    case TT_I8:
        if (uns) (mx ? uargmax_i8 : uargmin_i8)(x, out, sh, acc, idx);
        else (mx ? argmax_i8 : argmin_i8)(x, out, sh, acc, idx);
        break;
    case TT_I16:
        if (uns) (mx ? uargmax_i16 : uargmin_i16)(x, out, sh, acc, idx);
        else (mx ? argmax_i16 : argmin_i16)(x, out, sh, acc, idx);
        break;
    case TT_I32:
        if (uns) (mx ? uargmax_i32 : uargmin_i32)(x, out, sh, acc, idx);
        else (mx ? argmax_i32 : argmin_i32)(x, out, sh, acc, idx);
        break;
    default:
        if (uns) (mx ? uargmax_i64 : uargmin_i64)(x, out, sh, acc, idx);
        else (mx ? argmax_i64 : argmin_i64)(x, out, sh, acc, idx);
        break;
    }
}

/* Write n int64 indices into an integer tile of dt (low bytes). */
static void store_ints(void *o, tt_dtype dt, const int64_t *v, int64_t n)
{
    switch (tt_dtype_size(dt)) {
    case 1: for (int64_t i = 0; i < n; i++) ((uint8_t *)o)[i] = (uint8_t)v[i]; break;
    case 2: for (int64_t i = 0; i < n; i++) ((uint16_t *)o)[i] = (uint16_t)v[i]; break;
    case 4: for (int64_t i = 0; i < n; i++) ((uint32_t *)o)[i] = (uint32_t)v[i]; break;
    default: memcpy(o, v, (size_t)n * 8); break;
    }
}

static void convert_tile(void *o, tt_dtype odt, const void *x, tt_dtype xdt, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        double v = interp_get_f64(x, xdt, i, false);
        switch (odt) {
        case TT_F16: ((uint16_t *)o)[i] = interp_d2h(v); break;
        case TT_BF16: ((uint16_t *)o)[i] = interp_d2bf(v); break;
        case TT_F32: ((float *)o)[i] = (float)v; break;
        case TT_F64: ((double *)o)[i] = v; break;
        default: tt_store_f64(o, odt, i, v); break;
        }
    }
}

void interp_eval_reduce(interp_prog *p, const ir_op *op)
{
    interp_session *s = p->s;
    const ival_info *vx = &s->vi[op->opnd[0]], *vr = &s->vi[op->res];
    int axis = (int)op->attr[0], kind = (int)op->attr[1];
    if (axis < 0) axis += vx->rank;
    if (axis < 0 || axis >= vx->rank) die("tt.reduce: axis %d of a rank-%d tile", (int)op->attr[0], vx->rank);
    red_shape sh = { 1, vx->shape[axis], 1 };
    for (int d = 0; d < axis; d++) sh.outer *= vx->shape[d];
    for (int d = axis + 1; d < vx->rank; d++) sh.inner *= vx->shape[d];
    int64_t n = sh.outer * sh.inner;
    if (n != vr->numel) die("tt.reduce: result has %lld elements, expected %lld", (long long)vr->numel, (long long)n);
    const void *x = p->vals[op->opnd[0]];
    void *out = interp_result(p, op, 0);
    if (sh.R == 0) {
        memset(out, 0, (size_t)n * vr->esize);
        return;
    }
    if (is_arg(kind)) {
        int64_t *idx = vr->dt == TT_I64 ? out : ts_alloc(&p->mem, (size_t)n * 8);
        reduce_args(p, kind, vx->dt, x, idx, sh);
        if (vr->dt != TT_I64) store_ints(out, vr->dt, idx, n);
        return;
    }
    if (vr->dt == vx->dt) {
        reduce_values(p, kind, vx->dt, x, out, sh);
        return;
    }
    void *tmp = ts_alloc(&p->mem, (size_t)n * vx->esize);
    reduce_values(p, kind, vx->dt, x, tmp, sh);
    convert_tile(out, vr->dt, tmp, vx->dt, n);
}
