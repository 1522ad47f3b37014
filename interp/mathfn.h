/* mathfn.h — the helpers that ops_math.def's C expressions call (internal to
 * interp/): IEEE operations under a rounding mode, CUDA's conversions, bit
 * functions, and the special functions glibc lacks (libdevice's erfinv,
 * erfcx, normcdf, cyl_bessel_i0, sinpi, ...). Results follow libdevice
 * (CUDA C Programming Guide, "Mathematical Functions"; PTX ISA, cvt). */
#ifndef TRITIUM_INTERP_MATHFN_H
#define TRITIUM_INTERP_MATHFN_H

#include <stdint.h>

/* Rounding modes of the _rn/_rz/_rd/_ru functions. */
enum { MF_RN, MF_RZ, MF_RD, MF_RU };

/* One IEEE operation rounded in mode m: exact (the host FPU's rounding
 * mode is set around it and restored). */
float mf_addf(float a, float b, int m);
double mf_addd(double a, double b, int m);
float mf_mulf(float a, float b, int m);
double mf_muld(double a, double b, int m);
float mf_divf(float a, float b, int m);
double mf_divd(double a, double b, int m);
float mf_sqrtf(float a, int m);
double mf_sqrtd(double a, int m);
float mf_fmaf(float a, float b, float c, int m);
double mf_fmad(double a, double b, double c, int m);
float mf_d2f(double a, int m);
float mf_i2f(int64_t a, int m);
float mf_u2f(uint64_t a, int m);
double mf_i2d(int64_t a, int m);
double mf_u2d(uint64_t a, int m);

/* Float -> integer as PTX cvt.rni/rzi/rmi/rpi: round in mode m, NaN -> 0,
 * saturate to [lo, hi] (mf_f2u: to [0, hi]). */
int64_t mf_f2i(double a, int m, int64_t lo, int64_t hi);
uint64_t mf_f2u(double a, int m, uint64_t hi);

/* Bit reinterpretations. */
float mf_bits_f(int64_t bits);     /* low 32 bits as f32 */
double mf_bits_d(int64_t bits);
int32_t mf_f_bits(float a);
int64_t mf_d_bits(double a);

uint32_t mf_brev32(uint32_t x);
uint64_t mf_brev64(uint64_t x);
/* __byte_perm(x, y, s): byte n of the result is byte (s >> 4n) & 7 of y:x. */
int32_t mf_byte_perm(int32_t x, int32_t y, int32_t s);
/* __mul24: the low 32 bits of the product of the sign-extended low 24 bits. */
int32_t mf_mul24(int32_t a, int32_t b);
float mf_saturate(float a);        /* clamp to [0, 1], NaN -> 0 */

/* Special functions in double (f32 variants round the result once). */
double mf_sinpi(double a);         /* sin(pi a), exact argument reduction */
double mf_cospi(double a);
double mf_norm(double a, double b, double c, double d);   /* sqrt(a²+b²+c²+d²) */
double mf_erfinv(double y);
double mf_erfcinv(double y);
double mf_erfcx(double x);         /* exp(x²) erfc(x) */
double mf_normcdf(double x);
double mf_normcdfinv(double p);
double mf_lgamma(double x);        /* thread-safe (lgamma_r) */
double mf_bessel_i0(double x);
double mf_bessel_i1(double x);

#endif
