/* eval_arith.c — elementwise integer and float arithmetic, comparisons and
 * arith.select (docs/reference/triton-semantics.md §2.3).
 *
 * Integers are signless tiles of 1, 2, 4 or 8 bytes (i1 as one byte 0/1);
 * arithmetic is done in unsigned types so that wrap-around is defined.
 * Choices where Triton/LLVM leave the result undefined, following what
 * NVIDIA hardware does (PTX ISA):
 *   x / 0 (divsi, divui)  -> all ones (-1), as div.s32/div.u32 give
 *   x % 0 (remsi, remui)  -> x (the dividend)
 *   INT_MIN / -1          -> INT_MIN (wraps); INT_MIN % -1 -> 0
 *   shift >= bit width    -> shli, shrui: 0; shrsi: sign fill (PTX clamps the
 *                            amount to the width); the amount is unsigned
 * i1 operands of signed ops (divsi, cmpi slt, ...) are read as 0 / -1.
 *
 * Floats: f32 and f64 natively; f16 and bf16 are computed in f32 and rounded
 * once, which is the correctly rounded result for + - * / (f32 has more than
 * 2p+2 bits). arith.divf is IEEE division. maxnumf/minnumf return the non-NaN
 * operand, maximumf/minimumf propagate NaN; both order -0 below +0.
 * With NUMERICS_FAST, addf/subf fed by a mulf of the same block are computed
 * as one fma (semantics §2.9). */
#include "internal.h"

#include <math.h>

typedef void (*bin_fn)(void *restrict o, const void *restrict a, const void *restrict b, int64_t n);

#define INT_BIN(NAME, W, U, S, P, EXPR)                                                           \
    INTERP_SIMD static void NAME##_##W(void *restrict o_, const void *restrict a_, const void *restrict b_, int64_t n) \
    {                                                                                             \
        typedef U U_t;                                                                            \
        typedef S S_t;                                                                            \
        typedef P P_t;                                                                            \
        enum { W_bits = W };                                                                      \
        U_t *restrict o = o_;                                                                     \
        const U_t *restrict a = a_, *restrict b = b_;                                             \
        for (int64_t i = 0; i < n; i++) {                                                         \
            U_t x = a[i], y = b[i];                                                               \
            (void)sizeof(S_t);                                                                    \
            (void)sizeof(P_t);                                                                    \
            o[i] = (U_t)(EXPR);                                                                   \
        }                                                                                         \
    }

#define INT_BIN_ALL(NAME, EXPR)                                                                   \
    INT_BIN(NAME, 8, uint8_t, int8_t, unsigned, EXPR)                                             \
    INT_BIN(NAME, 16, uint16_t, int16_t, unsigned, EXPR)                                          \
    INT_BIN(NAME, 32, uint32_t, int32_t, uint32_t, EXPR)                                          \
    INT_BIN(NAME, 64, uint64_t, int64_t, uint64_t, EXPR)                                          \
    static const bin_fn NAME##_fns[4] = { NAME##_8, NAME##_16, NAME##_32, NAME##_64 };

INT_BIN_ALL(addi, (P_t)x + (P_t)y)
INT_BIN_ALL(subi, (P_t)x - (P_t)y)
INT_BIN_ALL(muli, (P_t)x * (P_t)y)
INT_BIN_ALL(divsi, y == 0 ? (U_t) ~(U_t)0 : (S_t)y == -1 ? (U_t)(0u - (P_t)x) : (U_t)((S_t)x / (S_t)y))
INT_BIN_ALL(divui, y == 0 ? (U_t) ~(U_t)0 : (U_t)(x / y))
INT_BIN_ALL(remsi, y == 0 ? x : (S_t)y == -1 ? (U_t)0 : (U_t)((S_t)x % (S_t)y))
INT_BIN_ALL(remui, y == 0 ? x : (U_t)(x % y))
INT_BIN_ALL(andi, x & y)
INT_BIN_ALL(ori, x | y)
INT_BIN_ALL(xori, x ^ y)
INT_BIN_ALL(shli, y >= W_bits ? (U_t)0 : (U_t)((P_t)x << y))
INT_BIN_ALL(shrsi, (S_t)x >> (y >= W_bits ? W_bits - 1 : y))
INT_BIN_ALL(shrui, y >= W_bits ? (U_t)0 : (U_t)(x >> y))
INT_BIN_ALL(maxsi, (S_t)x > (S_t)y ? x : y)
INT_BIN_ALL(minsi, (S_t)x < (S_t)y ? x : y)
INT_BIN_ALL(maxui, x > y ? x : y)
INT_BIN_ALL(minui, x < y ? x : y)

static void mulhiui_8(void *restrict o_, const void *restrict a_, const void *restrict b_, int64_t n)
{
    uint8_t *o = o_;
    const uint8_t *a = a_, *b = b_;
    for (int64_t i = 0; i < n; i++) o[i] = (uint8_t)(((unsigned)a[i] * b[i]) >> 8);
}
static void mulhiui_16(void *restrict o_, const void *restrict a_, const void *restrict b_, int64_t n)
{
    uint16_t *o = o_;
    const uint16_t *a = a_, *b = b_;
    for (int64_t i = 0; i < n; i++) o[i] = (uint16_t)(((uint32_t)a[i] * b[i]) >> 16);
}
static void mulhiui_32(void *restrict o_, const void *restrict a_, const void *restrict b_, int64_t n)
{
    uint32_t *o = o_;
    const uint32_t *a = a_, *b = b_;
    for (int64_t i = 0; i < n; i++) o[i] = (uint32_t)(((uint64_t)a[i] * b[i]) >> 32);
}
static void mulhiui_64(void *restrict o_, const void *restrict a_, const void *restrict b_, int64_t n)
{
    uint64_t *o = o_;
    const uint64_t *a = a_, *b = b_;
    for (int64_t i = 0; i < n; i++) o[i] = (uint64_t)(((unsigned __int128)a[i] * b[i]) >> 64);
}
static const bin_fn mulhiui_fns[4] = { mulhiui_8, mulhiui_16, mulhiui_32, mulhiui_64 };

static int width_index(tt_dtype dt)
{
    switch (dt) {
    case TT_BOOL: case TT_I8: return 0;
    case TT_I16: return 1;
    case TT_I32: return 2;
    default: return 3;           /* i64, pointers */
    }
}

/* i1 tile (0/1) -> bytes 0x00/0xff, so signed ops see 0 / -1. */
static const void *sext_bool(interp_prog *p, const uint8_t *a, int64_t n)
{
    uint8_t *t = ts_alloc(&p->mem, (size_t)n);
    for (int64_t i = 0; i < n; i++) t[i] = (uint8_t)(0u - (a[i] & 1u));
    return t;
}

/* ---- comparisons ---- */

#define INT_CMP(W, U, S)                                                                          \
    static void cmpi_##W(uint8_t *restrict o, const void *a_, const void *b_, int64_t n, int pred) \
    {                                                                                             \
        const U *a = a_, *b = b_;                                                                 \
        const S *sa = a_, *sb = b_;                                                               \
        switch (pred) {                                                                           \
        case CMPI_EQ: for (int64_t i = 0; i < n; i++) o[i] = a[i] == b[i]; break;                  \
        case CMPI_NE: for (int64_t i = 0; i < n; i++) o[i] = a[i] != b[i]; break;                  \
        case CMPI_SLT: for (int64_t i = 0; i < n; i++) o[i] = sa[i] < sb[i]; break;                \
        case CMPI_SLE: for (int64_t i = 0; i < n; i++) o[i] = sa[i] <= sb[i]; break;               \
        case CMPI_SGT: for (int64_t i = 0; i < n; i++) o[i] = sa[i] > sb[i]; break;                \
        case CMPI_SGE: for (int64_t i = 0; i < n; i++) o[i] = sa[i] >= sb[i]; break;               \
        case CMPI_ULT: for (int64_t i = 0; i < n; i++) o[i] = a[i] < b[i]; break;                  \
        case CMPI_ULE: for (int64_t i = 0; i < n; i++) o[i] = a[i] <= b[i]; break;                 \
        case CMPI_UGT: for (int64_t i = 0; i < n; i++) o[i] = a[i] > b[i]; break;                  \
        case CMPI_UGE: for (int64_t i = 0; i < n; i++) o[i] = a[i] >= b[i]; break;                 \
        default: die("arith.cmpi: predicate %d", pred);                                           \
        }                                                                                         \
    }
INT_CMP(8, uint8_t, int8_t)
INT_CMP(16, uint16_t, int16_t)
INT_CMP(32, uint32_t, int32_t)
INT_CMP(64, uint64_t, int64_t)

/* MLIR's cmpf: ordered predicates are false when either side is NaN,
 * unordered ones true. */
#define FLT_CMP(NAME, T)                                                                          \
    INTERP_SIMD static void NAME(uint8_t *restrict o, const T *restrict a, const T *restrict b, int64_t n, int pred) \
    {                                                                                             \
        switch (pred) {                                                                           \
        case CMPF_FALSE: memset(o, 0, (size_t)n); break;                                          \
        case CMPF_TRUE: memset(o, 1, (size_t)n); break;                                           \
        case CMPF_OEQ: for (int64_t i = 0; i < n; i++) o[i] = a[i] == b[i]; break;                 \
        case CMPF_OGT: for (int64_t i = 0; i < n; i++) o[i] = a[i] > b[i]; break;                  \
        case CMPF_OGE: for (int64_t i = 0; i < n; i++) o[i] = a[i] >= b[i]; break;                 \
        case CMPF_OLT: for (int64_t i = 0; i < n; i++) o[i] = a[i] < b[i]; break;                  \
        case CMPF_OLE: for (int64_t i = 0; i < n; i++) o[i] = a[i] <= b[i]; break;                 \
        case CMPF_ONE: for (int64_t i = 0; i < n; i++) o[i] = a[i] < b[i] || a[i] > b[i]; break;   \
        case CMPF_ORD: for (int64_t i = 0; i < n; i++) o[i] = a[i] == a[i] && b[i] == b[i]; break; \
        case CMPF_UEQ: for (int64_t i = 0; i < n; i++) o[i] = !(a[i] < b[i] || a[i] > b[i]); break; \
        case CMPF_UGT: for (int64_t i = 0; i < n; i++) o[i] = !(a[i] <= b[i]); break;              \
        case CMPF_UGE: for (int64_t i = 0; i < n; i++) o[i] = !(a[i] < b[i]); break;               \
        case CMPF_ULT: for (int64_t i = 0; i < n; i++) o[i] = !(a[i] >= b[i]); break;              \
        case CMPF_ULE: for (int64_t i = 0; i < n; i++) o[i] = !(a[i] > b[i]); break;               \
        case CMPF_UNE: for (int64_t i = 0; i < n; i++) o[i] = a[i] != b[i]; break;                 \
        case CMPF_UNO: for (int64_t i = 0; i < n; i++) o[i] = a[i] != a[i] || b[i] != b[i]; break; \
        default: die("arith.cmpf: predicate %d", pred);                                           \
        }                                                                                         \
    }
FLT_CMP(cmpf_f32, float)
FLT_CMP(cmpf_f64, double)

/* ---- float ops ---- */

static inline float maxnum32(float x, float y)
{
    if (x != x) return y;
    if (y != y) return x;
    if (x == y) return signbit(x) ? y : x;
    return x > y ? x : y;
}
static inline float minnum32(float x, float y)
{
    if (x != x) return y;
    if (y != y) return x;
    if (x == y) return signbit(x) ? x : y;
    return x < y ? x : y;
}
static inline double maxnum64(double x, double y)
{
    if (x != x) return y;
    if (y != y) return x;
    if (x == y) return signbit(x) ? y : x;
    return x > y ? x : y;
}
static inline double minnum64(double x, double y)
{
    if (x != x) return y;
    if (y != y) return x;
    if (x == y) return signbit(x) ? x : y;
    return x < y ? x : y;
}
static inline float maximum32(float x, float y) { return (x != x || y != y) ? x + y : maxnum32(x, y); }
static inline float minimum32(float x, float y) { return (x != x || y != y) ? x + y : minnum32(x, y); }
static inline double maximum64(double x, double y) { return (x != x || y != y) ? x + y : maxnum64(x, y); }
static inline double minimum64(double x, double y) { return (x != x || y != y) ? x + y : minnum64(x, y); }

typedef void (*f32_fn)(float *restrict o, const float *restrict a, const float *restrict b, int64_t n);
typedef void (*f64_fn)(double *restrict o, const double *restrict a, const double *restrict b, int64_t n);
typedef void (*f32_vs_fn)(float *restrict o, const float *restrict a, float y, int64_t n);
typedef void (*f32_sv_fn)(float *restrict o, float x, const float *restrict b, int64_t n);
typedef struct flt_fns { f32_fn f32; f64_fn f64; f32_vs_fn vs; f32_sv_fn sv; } flt_fns;
#define FLT_FNS(NAME) ((flt_fns){ NAME##_f32, NAME##_f64, NAME##_f32_vs, NAME##_f32_sv })

/* f32 also with a scalar operand (_vs: y, _sv: x), for the rows of a splat
 * left as row heads (CT_HEADS) */
#define FLT_BIN(NAME, E32, E64)                                                                   \
    INTERP_SIMD static void NAME##_f32(float *restrict o, const float *restrict a, const float *restrict b, int64_t n) \
    {                                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                         \
            float x = a[i], y = b[i];                                                             \
            o[i] = E32;                                                                           \
        }                                                                                         \
    }                                                                                             \
    INTERP_SIMD static void NAME##_f32_vs(float *restrict o, const float *restrict a, float y, int64_t n) \
    {                                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                         \
            float x = a[i];                                                                       \
            o[i] = E32;                                                                           \
        }                                                                                         \
    }                                                                                             \
    INTERP_SIMD static void NAME##_f32_sv(float *restrict o, float x, const float *restrict b, int64_t n) \
    {                                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                         \
            float y = b[i];                                                                       \
            o[i] = E32;                                                                           \
        }                                                                                         \
    }                                                                                             \
    INTERP_SIMD static void NAME##_f64(double *restrict o, const double *restrict a, const double *restrict b, int64_t n) \
    {                                                                                             \
        for (int64_t i = 0; i < n; i++) {                                                         \
            double x = a[i], y = b[i];                                                            \
            o[i] = E64;                                                                           \
        }                                                                                         \
    }
FLT_BIN(addf, x + y, x + y)
FLT_BIN(subf, x - y, x - y)
FLT_BIN(mulf, x * y, x * y)
FLT_BIN(divf, x / y, x / y)
FLT_BIN(remf, fmodf(x, y), fmod(x, y))
FLT_BIN(maxnumf, maxnum32(x, y), maxnum64(x, y))
FLT_BIN(minnumf, minnum32(x, y), minnum64(x, y))
FLT_BIN(maximumf, maximum32(x, y), maximum64(x, y))
FLT_BIN(minimumf, minimum32(x, y), minimum64(x, y))

/* f16/bf16 <-> f32 tiles */
static float *to_f32(interp_prog *p, tt_dtype dt, const uint16_t *a, int64_t n)
{
    float *t = ts_alloc(&p->mem, (size_t)n * 4);
    if (dt == TT_F16)
        for (int64_t i = 0; i < n; i++) t[i] = interp_h2f(a[i]);
    else
        for (int64_t i = 0; i < n; i++) t[i] = interp_bf2f(a[i]);
    return t;
}

static void from_f32(tt_dtype dt, uint16_t *o, const float *t, int64_t n)
{
    if (dt == TT_F16)
        for (int64_t i = 0; i < n; i++) o[i] = interp_f2h(t[i]);
    else
        for (int64_t i = 0; i < n; i++) o[i] = interp_f2bf(t[i]);
}

static void float_bin(interp_prog *p, const ir_op *op, flt_fns fn)
{
    const ival_info *vr = &p->s->vi[op->res];
    int64_t n = vr->numel;
    const void *a = interp_operand(p, op, 0, n), *b = interp_operand(p, op, 1, n);
    void *o = interp_result(p, op, 0);
    bool ha = p->contig[op->opnd[0]] & CT_HEADS, hb = p->contig[op->opnd[1]] & CT_HEADS;
    if (vr->dt == TT_F32 && ha != hb && n % (vr->rank ? vr->shape[vr->rank - 1] : 1) == 0) {
        /* one side is a splat left as row heads (uniform rows): a scalar per row */
        int64_t cols = vr->rank ? vr->shape[vr->rank - 1] : 1;
        const float *fa = a, *fb = b;
        float *fo = o;
        for (int64_t r = 0; r < n; r += cols) {
            if (ha) fn.sv(fo + r, fa[r], fb + r, cols);
            else fn.vs(fo + r, fa + r, fb[r], cols);
        }
        return;
    }
    interp_full(p, op->opnd[0]);
    interp_full(p, op->opnd[1]);
    switch (vr->dt) {
    case TT_F32: fn.f32(o, a, b, n); break;
    case TT_F64: fn.f64(o, a, b, n); break;
    case TT_F16:
    case TT_BF16: {
        const float *fa = to_f32(p, vr->dt, a, n), *fb = to_f32(p, vr->dt, b, n);
        float *fo = ts_alloc(&p->mem, (size_t)n * 4);
        fn.f32(fo, fa, fb, n);
        from_f32(vr->dt, o, fo, n);
        break;
    }
    default: die("%s on a non-float type", ir_ops[op->opc].name);
    }
}

/* NUMERICS_FAST contraction: op is addf/subf, operand k-1 is a mulf. */
static void fused(interp_prog *p, const ir_op *op, int k)
{
    interp_session *s = p->s;
    const ival_info *vr = &s->vi[op->res];
    int64_t n = vr->numel;
    const ir_value_info *mv = &s->f->values.v[op->opnd[k]];
    const ir_op *mul = &s->f->regions.v[mv->region].ops[mv->index];
    interp_full(p, mul->opnd[0]);
    interp_full(p, mul->opnd[1]);
    interp_full(p, op->opnd[1 - k]);
    const void *x = interp_operand(p, mul, 0, n), *y = interp_operand(p, mul, 1, n);
    const void *z = interp_operand(p, op, 1 - k, n);
    void *o = interp_result(p, op, 0);
    /* addf: x*y + z; subf lhs: x*y - z; subf rhs: z - x*y */
    double sx = (op->opc == IR_SUBF && k == 1) ? -1.0 : 1.0;
    double sz = (op->opc == IR_SUBF && k == 0) ? -1.0 : 1.0;
    switch (vr->dt) {
    case TT_F32: {
        const float *fx = x, *fy = y, *fz = z;
        float *fo = o, fsx = (float)sx, fsz = (float)sz;
        for (int64_t i = 0; i < n; i++) fo[i] = fmaf(fsx * fx[i], fy[i], fsz * fz[i]);
        break;
    }
    case TT_F64: {
        const double *dx = x, *dy = y, *dz = z;
        double *d = o;
        for (int64_t i = 0; i < n; i++) d[i] = fma(sx * dx[i], dy[i], sz * dz[i]);
        break;
    }
    case TT_F16:
    case TT_BF16: {
        const float *fx = to_f32(p, vr->dt, x, n), *fy = to_f32(p, vr->dt, y, n), *fz = to_f32(p, vr->dt, z, n);
        uint16_t *h = o;
        for (int64_t i = 0; i < n; i++) {
            double r = fma(sx * fx[i], (double)fy[i], sz * fz[i]);
            h[i] = vr->dt == TT_F16 ? interp_d2h(r) : interp_d2bf(r);
        }
        break;
    }
    default: die("fused: type");
    }
}

static int64_t sext_at(const void *t, int esz, int64_t i)
{
    switch (esz) {
    case 1: return ((const int8_t *)t)[i];
    case 2: return ((const int16_t *)t)[i];
    case 4: return ((const int32_t *)t)[i];
    default: return ((const int64_t *)t)[i];
    }
}

/* The CT_* row facts of c = a + b (internal.h), from each row's first lane:
 * uniform + uniform is uniform; a run plus a uniform row is a run when
 * the row's exact sums a[r,0] + b[r,0] .. + cols - 1 fit the type, which
 * also proves no lane overflowed (CT_EXACT: overflow.c skips the op). */
static uint8_t addi_facts(interp_prog *p, const ir_op *op, const void *a, const void *b)
{
    const ival_info *vr = &p->s->vi[op->res];
    if (vr->dt == TT_BOOL) return 0;
    int64_t n = vr->numel, cols = vr->rank ? vr->shape[vr->rank - 1] : 1;
    uint8_t single = interp_ct_single(vr);
    const ival_info *va = &p->s->vi[op->opnd[0]], *vb = &p->s->vi[op->opnd[1]];
    uint8_t fa = va->numel == 1 ? CT_UNIF | single : p->contig[op->opnd[0]];
    uint8_t fb = vb->numel == 1 ? CT_UNIF | single : p->contig[op->opnd[1]];
    uint8_t f = 0;
    if (fa & fb & CT_UNIF) f = CT_UNIF | single;
    else if (((fa & CT_RUN) && (fb & CT_UNIF)) || ((fa & CT_UNIF) && (fb & CT_RUN))) f = CT_RUN;
    if (!f || n % cols) return 0;
    int esz = vr->esize;
    int64_t max = esz == 8 ? INT64_MAX : (int64_t)((1ull << (8 * esz - 1)) - 1), min = -max - 1;
    int64_t span = f & CT_UNIF ? 0 : cols - 1;
    /* operands of n lanes here (interp_operand splats 0-d ones) */
    for (int64_t r = 0; r < n; r += cols) {
        int64_t lo, hi;
        if (__builtin_add_overflow(sext_at(a, esz, r), sext_at(b, esz, r), &lo) ||
            __builtin_add_overflow(lo, span, &hi) || lo < min || hi > max)
            return 0;
    }
    return f | CT_EXACT;
}

static void int_bin(interp_prog *p, const ir_op *op, const bin_fn *fns, bool is_signed)
{
    const ival_info *vr = &p->s->vi[op->res];
    int64_t n = vr->numel;
    const void *a = interp_operand(p, op, 0, n), *b = interp_operand(p, op, 1, n);
    void *o = interp_result(p, op, 0);
    uint8_t facts = op->opc == IR_ADDI ? addi_facts(p, op, a, b) : 0;   /* from row heads */
    if (facts && interp_heads_only(p, op)) {
        /* runs or uniform rows, exact: the row heads say it all */
        int64_t cols = vr->rank ? vr->shape[vr->rank - 1] : 1;
        size_t esz = vr->esize;
        for (int64_t r = 0; r < n; r += cols)
            fns[width_index(vr->dt)]((uint8_t *)o + r * esz, (const uint8_t *)a + r * esz, (const uint8_t *)b + r * esz, 1);
        p->contig[op->res] = facts | CT_HEADS;
        return;
    }
    interp_full(p, op->opnd[0]);
    interp_full(p, op->opnd[1]);
    if (vr->dt == TT_BOOL && is_signed) {
        a = sext_bool(p, a, n);
        b = sext_bool(p, b, n);
    }
    fns[width_index(vr->dt)](o, a, b, n);
    if (op->opc == IR_ADDI) p->contig[op->res] = facts;
    if (vr->dt == TT_BOOL) {
        uint8_t *ob = o;
        for (int64_t i = 0; i < n; i++) ob[i] &= 1;
    }
}

/* Row r of run PRED lim (signed PRED: SLT, SLE, SGT or SGE), with
 * run[r + c] = run[r] + c and lim uniform along the row: the lanes c < *k
 * are on PRED's side of the bound (a prefix for SLT/SLE, else the lanes
 * c >= *k are). False when the difference overflows. */
static inline bool row_cut(const void *lim, const void *run, int esz, int64_t r, int pred, int64_t cols, int64_t *k)
{
    int64_t d;                                     /* run[r + c] = x0 + c: compare c with y - x0 */
    if (__builtin_sub_overflow(sext_at(lim, esz, r), sext_at(run, esz, r), &d)) return false;
    if (pred == CMPI_SLE || pred == CMPI_SGT) d = d == INT64_MAX ? d : d + 1;
    *k = d < 0 ? 0 : d > cols ? cols : d;
    return true;
}

/* c = a PRED b (signed PRED) where one side is a run and the other is
 * uniform along each row (CT_*, internal.h): the true lanes of each row are
 * a prefix or a suffix, found from the row's first lanes, so a mask such as
 * `cols < N` costs two memsets a row. False when the shapes do not say so. */
static bool cmpi_rows(interp_prog *p, const ir_op *op, const void *a, const void *b, uint8_t *o, int pred)
{
    interp_session *s = p->s;
    const ival_info *va = &s->vi[op->opnd[0]], *vb = &s->vi[op->opnd[1]], *vr = &s->vi[op->res];
    if (pred < CMPI_SLT || pred > CMPI_SGE || va->dt == TT_BOOL) return false;
    int64_t n = vr->numel, cols = vr->rank ? vr->shape[vr->rank - 1] : 1;
    uint8_t single = interp_ct_single(vr);
    uint8_t fa = va->numel == 1 ? CT_UNIF | single : p->contig[op->opnd[0]];
    uint8_t fb = vb->numel == 1 ? CT_UNIF | single : p->contig[op->opnd[1]];
    const void *run = a, *lim = b;
    if (!((fa & CT_RUN) && (fb & CT_UNIF))) {
        if (!((fa & CT_UNIF) && (fb & CT_RUN))) return false;
        run = b;                                   /* y PRED x  <=>  x PRED' y */
        lim = a;
        pred = pred == CMPI_SLT ? CMPI_SGT : pred == CMPI_SLE ? CMPI_SGE : pred == CMPI_SGT ? CMPI_SLT : CMPI_SLE;
    }
    if (n % cols) return false;
    bool unif = true;                              /* every row all true or all false */
    int64_t k = 0;
    for (int64_t r = 0; r < n; r += cols) {
        if (!row_cut(lim, run, va->esize, r, pred, cols, &k)) return false;
        unif &= k == 0 || k == cols;
    }
    bool prefix = pred == CMPI_SLT || pred == CMPI_SLE;
    if (unif && interp_heads_only(p, op)) {        /* a mask only loads and stores read */
        for (int64_t r = 0; r < n; r += cols) {
            row_cut(lim, run, va->esize, r, pred, cols, &k);
            o[r] = k == cols ? prefix : !prefix;
        }
        p->contig[op->res] = CT_UNIF | CT_HEADS;
        return true;
    }
    for (int64_t r = 0; r < n; r += cols) {
        row_cut(lim, run, va->esize, r, pred, cols, &k);
        memset(o + r, prefix, (size_t)k);
        memset(o + r + k, !prefix, (size_t)(cols - k));
    }
    /* a mask row that is all true or all false: loads and stores do not scan it */
    p->contig[op->res] = unif ? CT_UNIF : 0;
    return true;
}

static void eval_cmpi(interp_prog *p, const ir_op *op)
{
    const ival_info *va = &p->s->vi[op->opnd[0]];
    int64_t n = p->s->vi[op->res].numel;
    const void *a = interp_operand(p, op, 0, n), *b = interp_operand(p, op, 1, n);
    int pred = (int)op->attr[0];
    uint8_t *o = interp_result(p, op, 0);
    p->contig[op->res] = 0;
    if (cmpi_rows(p, op, a, b, o, pred)) return;   /* reads row heads only; false for i1 */
    interp_full(p, op->opnd[0]);
    interp_full(p, op->opnd[1]);
    if (va->dt == TT_BOOL && pred >= CMPI_SLT && pred <= CMPI_SGE) {
        a = sext_bool(p, a, n);
        b = sext_bool(p, b, n);
    }
    switch (width_index(va->dt)) {
    case 0: cmpi_8(o, a, b, n, pred); break;
    case 1: cmpi_16(o, a, b, n, pred); break;
    case 2: cmpi_32(o, a, b, n, pred); break;
    default: cmpi_64(o, a, b, n, pred); break;
    }
}

static void eval_cmpf(interp_prog *p, const ir_op *op)
{
    const ival_info *va = &p->s->vi[op->opnd[0]];
    int64_t n = p->s->vi[op->res].numel;
    const void *a = interp_operand(p, op, 0, n), *b = interp_operand(p, op, 1, n);
    int pred = (int)op->attr[0];
    uint8_t *o = interp_result(p, op, 0);
    switch (va->dt) {
    case TT_F32: cmpf_f32(o, a, b, n, pred); break;
    case TT_F64: cmpf_f64(o, a, b, n, pred); break;
    case TT_F16:
    case TT_BF16: cmpf_f32(o, to_f32(p, va->dt, a, n), to_f32(p, va->dt, b, n), n, pred); break;
    default: die("arith.cmpf on a non-float type");
    }
}

#define SELECT(W, T)                                                                              \
    INTERP_SIMD static void select_##W(void *restrict o_, const uint8_t *restrict c, const void *restrict a_, \
                                       const void *restrict b_, int64_t n)                       \
    {                                                                                             \
        T *restrict o = o_;                                                                       \
        const T *restrict a = a_, *restrict b = b_;                                               \
        for (int64_t i = 0; i < n; i++) {     /* a bit mask, not a branch: vectorizes */          \
            T m = (T)((T)0 - (T)(c[i] != 0));                                                     \
            o[i] = (T)((a[i] & m) | (b[i] & (T)~m));                                              \
        }                                                                                         \
    }
SELECT(8, uint8_t)
SELECT(16, uint16_t)
SELECT(32, uint32_t)
SELECT(64, uint64_t)

static void eval_select(interp_prog *p, const ir_op *op)
{
    const ival_info *vr = &p->s->vi[op->res];
    int64_t n = vr->numel, cols = vr->rank ? vr->shape[vr->rank - 1] : 1;
    const uint8_t *c = interp_operand(p, op, 0, n);
    const void *a_ = interp_operand(p, op, 1, n), *b_ = interp_operand(p, op, 2, n);
    uint8_t cf = p->s->vi[op->opnd[0]].numel == 1 ? CT_UNIF : p->contig[op->opnd[0]];
    if ((cf & CT_UNIF) && n % cols == 0) {
        /* each condition row all true or all false (maybe left as row heads):
         * rows are copied whole, and when all rows agree the result is that
         * operand's tile (tiles are immutable) */
        bool all1 = true, all0 = true;
        for (int64_t r = 0; r < n; r += cols) {
            all1 &= c[r] != 0;
            all0 &= c[r] == 0;
        }
        if (all1 || all0) {
            p->vals[op->res] = (void *)(all1 ? a_ : b_);
            return;
        }
        uint8_t *o = interp_result(p, op, 0);
        size_t row = (size_t)cols * vr->esize;
        for (int64_t r = 0; r < n; r += cols)
            memcpy(o + r * vr->esize, (const uint8_t *)(c[r] ? a_ : b_) + r * vr->esize, row);
        return;
    }
    interp_full(p, op->opnd[0]);
    void *o_ = interp_result(p, op, 0);
    switch (vr->esize) {
    case 1: select_8(o_, c, a_, b_, n); break;
    case 2: select_16(o_, c, a_, b_, n); break;
    case 4: select_32(o_, c, a_, b_, n); break;
    case 8: select_64(o_, c, a_, b_, n); break;
    default: die("arith.select: element size %d", vr->esize);
    }
}

void interp_eval_arith(interp_prog *p, const ir_op *op)
{
    switch (op->opc) {
    case IR_ADDI: int_bin(p, op, addi_fns, false); break;
    case IR_SUBI: int_bin(p, op, subi_fns, false); break;
    case IR_MULI: int_bin(p, op, muli_fns, false); break;
    case IR_DIVSI: int_bin(p, op, divsi_fns, true); break;
    case IR_DIVUI: int_bin(p, op, divui_fns, false); break;
    case IR_REMSI: int_bin(p, op, remsi_fns, true); break;
    case IR_REMUI: int_bin(p, op, remui_fns, false); break;
    case IR_ANDI: int_bin(p, op, andi_fns, false); break;
    case IR_ORI: int_bin(p, op, ori_fns, false); break;
    case IR_XORI: int_bin(p, op, xori_fns, false); break;
    case IR_SHLI: int_bin(p, op, shli_fns, false); break;
    case IR_SHRSI: int_bin(p, op, shrsi_fns, true); break;
    case IR_SHRUI: int_bin(p, op, shrui_fns, false); break;
    case IR_MAXSI: int_bin(p, op, maxsi_fns, true); break;
    case IR_MINSI: int_bin(p, op, minsi_fns, true); break;
    case IR_MAXUI: int_bin(p, op, maxui_fns, false); break;
    case IR_MINUI: int_bin(p, op, minui_fns, false); break;
    case IR_MULHIUI: int_bin(p, op, mulhiui_fns, false); break;
    case IR_CMPI: eval_cmpi(p, op); break;
    case IR_ADDF:
    case IR_SUBF: {
        interp_session *s = p->s;
        if (s->fuse) {
            int k = s->fuse[s->opbase[p->region] + p->opi];
            if (k) {
                fused(p, op, k - 1);
                break;
            }
        }
        if (op->opc == IR_ADDF) float_bin(p, op, FLT_FNS(addf));
        else float_bin(p, op, FLT_FNS(subf));
        break;
    }
    case IR_MULF: float_bin(p, op, FLT_FNS(mulf)); break;
    case IR_DIVF: float_bin(p, op, FLT_FNS(divf)); break;
    case IR_REMF: float_bin(p, op, FLT_FNS(remf)); break;
    case IR_MAXNUMF: float_bin(p, op, FLT_FNS(maxnumf)); break;
    case IR_MINNUMF: float_bin(p, op, FLT_FNS(minnumf)); break;
    case IR_MAXIMUMF: float_bin(p, op, FLT_FNS(maximumf)); break;
    case IR_MINIMUMF: float_bin(p, op, FLT_FNS(minimumf)); break;
    case IR_CMPF: eval_cmpf(p, op); break;
    case IR_SELECT: eval_select(p, op); break;
    default: die("interp_eval_arith: %s", ir_ops[op->opc].name);
    }
}
