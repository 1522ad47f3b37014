/* mathfn.c — helpers of ops_math.def's C expressions (see mathfn.h).
 *
 * Directed rounding: the operation runs with the host FPU's rounding mode
 * set (fesetround) on volatile operands, so the compiler can neither fold it
 * nor move it across the mode change; the mode is restored at once, so libm
 * never runs under it. Special functions missing from glibc are computed in
 * long double (x86-64: 64-bit mantissa), then rounded to double once. */
#include "mathfn.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

static const int fe_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

#define UNDER(m, T, EXPR)                     \
    do {                                      \
        int old_ = fegetround();              \
        fesetround(fe_mode[(m) & 3]);         \
        volatile T r_ = (EXPR);               \
        fesetround(old_);                     \
        return r_;                            \
    } while (0)

float mf_addf(float a, float b, int m) { volatile float x = a, y = b; UNDER(m, float, x + y); }
double mf_addd(double a, double b, int m) { volatile double x = a, y = b; UNDER(m, double, x + y); }
float mf_mulf(float a, float b, int m) { volatile float x = a, y = b; UNDER(m, float, x * y); }
double mf_muld(double a, double b, int m) { volatile double x = a, y = b; UNDER(m, double, x * y); }
float mf_divf(float a, float b, int m) { volatile float x = a, y = b; UNDER(m, float, x / y); }
double mf_divd(double a, double b, int m) { volatile double x = a, y = b; UNDER(m, double, x / y); }
float mf_sqrtf(float a, int m) { volatile float x = a; UNDER(m, float, sqrtf(x)); }
double mf_sqrtd(double a, int m) { volatile double x = a; UNDER(m, double, sqrt(x)); }
float mf_fmaf(float a, float b, float c, int m) { volatile float x = a, y = b, z = c; UNDER(m, float, fmaf(x, y, z)); }
double mf_fmad(double a, double b, double c, int m) { volatile double x = a, y = b, z = c; UNDER(m, double, fma(x, y, z)); }
float mf_d2f(double a, int m) { volatile double x = a; UNDER(m, float, (float)x); }
float mf_i2f(int64_t a, int m) { volatile int64_t x = a; UNDER(m, float, (float)x); }
float mf_u2f(uint64_t a, int m) { volatile uint64_t x = a; UNDER(m, float, (float)x); }
double mf_i2d(int64_t a, int m) { volatile int64_t x = a; UNDER(m, double, (double)x); }
double mf_u2d(uint64_t a, int m) { volatile uint64_t x = a; UNDER(m, double, (double)x); }

static double round_mode(double a, int m)
{
    switch (m) {
    case MF_RZ: return trunc(a);
    case MF_RD: return floor(a);
    case MF_RU: return ceil(a);
    default: return rint(a);      /* the default mode: ties to even */
    }
}

int64_t mf_f2i(double a, int m, int64_t lo, int64_t hi)
{
    if (isnan(a)) return 0;
    double r = round_mode(a, m);
    if (r <= (double)lo) return lo;
    if (r >= (double)hi) return hi;   /* (double)INT64_MAX rounds up to 2^63 */
    return (int64_t)r;
}

uint64_t mf_f2u(double a, int m, uint64_t hi)
{
    if (isnan(a)) return 0;
    double r = round_mode(a, m);
    if (r <= 0) return 0;
    if (r >= (double)hi) return hi;
    return (uint64_t)r;
}

float mf_bits_f(int64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

double mf_bits_d(int64_t bits)
{
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

int32_t mf_f_bits(float a)
{
    int32_t i;
    memcpy(&i, &a, 4);
    return i;
}

int64_t mf_d_bits(double a)
{
    int64_t i;
    memcpy(&i, &a, 8);
    return i;
}

uint32_t mf_brev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}

uint64_t mf_brev64(uint64_t x) { return (uint64_t)mf_brev32((uint32_t)x) << 32 | mf_brev32((uint32_t)(x >> 32)); }

int32_t mf_byte_perm(int32_t x, int32_t y, int32_t s)
{
    uint64_t v = (uint64_t)(uint32_t)y << 32 | (uint32_t)x;
    uint32_t r = 0;
    for (int n = 0; n < 4; n++) {
        unsigned sel = ((uint32_t)s >> (4 * n)) & 7;
        r |= (uint32_t)((v >> (8 * sel)) & 0xff) << (8 * n);
    }
    return (int32_t)r;
}

int32_t mf_mul24(int32_t a, int32_t b)
{
    int64_t x = (int64_t)((uint32_t)a & 0xffffffu), y = (int64_t)((uint32_t)b & 0xffffffu);
    if (x & 0x800000) x -= 0x1000000;
    if (y & 0x800000) y -= 0x1000000;
    return (int32_t)(uint32_t)(uint64_t)(x * y);
}

float mf_saturate(float a) { return a > 0 ? (a < 1 ? a : 1.0f) : 0.0f; }

/* sin(pi r) for r in [0, 2), by octants: every reduction step is exact. */
static double sinpi_reduced(double r)
{
    if (r <= 0.25) return sin(M_PI * r);
    if (r <= 0.75) return cos(M_PI * (r - 0.5));
    if (r <= 1.25) return sin(M_PI * (1.0 - r));
    if (r <= 1.75) return -cos(M_PI * (r - 1.5));
    return -sin(M_PI * (2.0 - r));
}

double mf_sinpi(double a)
{
    if (!isfinite(a)) return a - a;            /* NaN */
    double r = fmod(fabs(a), 2.0);             /* exact */
    double s = sinpi_reduced(r);
    if (s == 0) s = 0;                         /* sinpi(n) = +0 ... */
    return a < 0 || (a == 0 && signbit(a)) ? -s : s;   /* ... odd */
}

double mf_cospi(double a)
{
    if (!isfinite(a)) return a - a;
    double r = fmod(fabs(a), 2.0), c;
    if (r <= 0.25) c = cos(M_PI * r);
    else if (r <= 0.75) c = -sin(M_PI * (r - 0.5));
    else if (r <= 1.25) c = -cos(M_PI * (r - 1.0));
    else if (r <= 1.75) c = sin(M_PI * (r - 1.5));
    else c = cos(M_PI * (2.0 - r));
    return c + 0.0;                            /* cospi(n + 1/2) = +0 */
}

double mf_norm(double a, double b, double c, double d)
{
    if (isinf(a) || isinf(b) || isinf(c) || isinf(d)) return INFINITY;
    long double s = (long double)a * a + (long double)b * b + (long double)c * c + (long double)d * d;
    return (double)sqrtl(s);
}

static const long double two_over_sqrtpi = 1.12837916709551257389615890312154517L;

/* erfc^-1(z) for 0 < z < 0.5: Newton on erfcl from the asymptotic guess. */
static long double erfcinv_small(long double z)
{
    long double x = sqrtl(-logl(z));
    x = sqrtl(-logl(z) - logl(x * 1.77245385090551602729816748334114518L));
    for (int i = 0; i < 50; i++) {
        long double dx = (erfcl(x) - z) / (two_over_sqrtpi * expl(-x * x));
        x += dx;
        if (fabsl(dx) <= fabsl(x) * 1e-19L) break;
    }
    return x;
}

/* erf^-1(y) for |y| <= 0.5: Newton on erfl from Giles' approximation. */
static long double erfinv_small(long double y)
{
    float w = -logf((1.0f - (float)y) * (1.0f + (float)y)) - 2.5f, p = 2.81022636e-08f;
    p = 3.43273939e-07f + p * w;
    p = -3.5233877e-06f + p * w;
    p = -4.39150654e-06f + p * w;
    p = 0.00021858087f + p * w;
    p = -0.00125372503f + p * w;
    p = -0.00417768164f + p * w;
    p = 0.246640727f + p * w;
    p = 1.50140941f + p * w;
    long double x = (long double)p * y;
    for (int i = 0; i < 50 && y != 0; i++) {
        long double dx = (erfl(x) - y) / (two_over_sqrtpi * expl(-x * x));
        x -= dx;
        if (fabsl(dx) <= fabsl(x) * 1e-19L) break;
    }
    return x;
}

static long double erfcinv_l(long double z)
{
    if (isnan(z) || z < 0 || z > 2) return NAN;
    if (z == 0) return INFINITY;
    if (z == 2) return -INFINITY;
    if (z > 1) return -erfcinv_l(2 - z);       /* exact */
    if (z >= 0.5L) return erfinv_small(1 - z); /* exact */
    return erfcinv_small(z);
}

double mf_erfcinv(double y) { return (double)erfcinv_l(y); }

double mf_erfinv(double y)
{
    if (isnan(y) || fabs(y) > 1) return NAN;
    if (fabs(y) == 1) return copysign(INFINITY, y);
    if (fabs(y) <= 0.5) return (double)erfinv_small(y);
    return copysign((double)erfcinv_small(1 - fabs(y)), y);   /* 1 - |y| is exact */
}

double mf_erfcx(double x)
{
    if (isnan(x)) return x;
    if (x < 100) {
        long double lx = x;
        return (double)(expl(lx * lx) * erfcl(lx));
    }
    /* asymptotic series: 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(2x^2)^2 - ...) */
    long double t = 1, s = 1, q = 1.0L / (2.0L * x * x);
    for (int k = 1; k < 8; k++) {
        t *= -(2 * k - 1) * q;
        s += t;
    }
    return (double)(s / ((long double)x * 1.77245385090551602729816748334114518L));
}

double mf_normcdf(double x)
{
    return (double)(0.5L * erfcl(-(long double)x * 0.707106781186547524400844362104849039L));
}

double mf_normcdfinv(double p)
{
    if (isnan(p) || p < 0 || p > 1) return NAN;
    return (double)(-1.41421356237309504880168872420969808L * erfcinv_l(2.0L * p));
}

double mf_lgamma(double x)
{
    int sign;
    return lgamma_r(x, &sign);
}

/* I_nu(x) for nu = 0, 1, x >= 0: the power series up to 30, beyond it the
 * asymptotic expansion e^x / sqrt(2 pi x) sum_k (-1)^k a_k(nu) / x^k
 * (Abramowitz & Stegun 9.7.1), both in long double. */
static long double bessel_i(int nu, long double x)
{
    if (x <= 30) {
        long double q = x * x / 4, t = nu ? x / 2 : 1, s = t;
        for (int k = 1; k < 200; k++) {
            t *= q / ((long double)k * (k + nu));
            s += t;
            if (t <= s * 1e-21L) break;
        }
        return s;
    }
    long double mu = 4.0L * nu * nu, t = 1, s = 1, prev = INFINITY;
    for (int k = 1; k < 100; k++) {
        t *= -(mu - (long double)(2 * k - 1) * (2 * k - 1)) / ((long double)k * 8 * x);
        if (fabsl(t) >= prev) break;               /* the series diverges from here */
        prev = fabsl(t);
        s += t;
        if (fabsl(t) <= 1e-21L) break;
    }
    return expl(x) / sqrtl(2 * 3.14159265358979323846264338327950288L * x) * s;
}

double mf_bessel_i0(double x) { return isnan(x) ? x : (double)bessel_i(0, fabsl(x)); }

double mf_bessel_i1(double x)
{
    if (isnan(x)) return x;
    double r = (double)bessel_i(1, fabsl(x));
    return x < 0 ? -r : r;
}
