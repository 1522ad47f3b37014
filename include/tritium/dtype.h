/* dtype.h — element types of host tensors and of kernel values.
 *
 * tt_dtype is Triton's dtype (signedness included: tl.uint32 differs from
 * tl.int32). The IR is signless like TTIR (ir.h maps u32 to i32 and puts the
 * signedness on the op), but buffers, .npy files and the front end keep the
 * signed/unsigned distinction. */
#ifndef TRITIUM_DTYPE_H
#define TRITIUM_DTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Order matters: tt_dtype_is_int / is_float rely on the ranges. */
typedef enum tt_dtype {
    TT_BOOL,                       /* tl.int1; counts as unsigned (semantic.py) */
    TT_I8, TT_I16, TT_I32, TT_I64,
    TT_U8, TT_U16, TT_U32, TT_U64,
    TT_F16, TT_BF16, TT_F32, TT_F64,
    /* Triton's fp8 dtypes (core.py dtype.FP_TYPES), one byte each:
     * fp8e4nv (e4m3fn: bias 7, no inf, 0x7f NaN), fp8e5 (e5m2: IEEE-like),
     * fp8e4b15 (bias 15, no inf, no NaN), fp8e4b8 (e4m3fnuz: bias 8) and
     * fp8e5b16 (e5m2fnuz: bias 16); the fnuz ones have 0x80 as their only
     * NaN and no -0. */
    TT_F8E4NV, TT_F8E5, TT_F8E4B15, TT_F8E4B8, TT_F8E5B16,
    TT_PTR,                        /* a pointer; the pointee is kept beside it */
    TT_DTYPE_COUNT
} tt_dtype;

/* Size in bytes of one element (bool: 1, as Triton stores *i1 as int8). */
int tt_dtype_size(tt_dtype d);
/* Bit width as Triton sees it (bool: 1, pointers: 64). */
int tt_dtype_bits(tt_dtype d);
/* Stored fraction (mantissa) bits of a float dtype: 52, 23, 10, 7, 3 (e4
 * fp8s) or 2 (e5 fp8s); 0 for the others. */
int tt_dtype_frac_bits(tt_dtype d);
bool tt_dtype_is_float(tt_dtype d);    /* fp16 .. fp64 and the fp8 dtypes */
bool tt_dtype_is_fp8(tt_dtype d);
bool tt_dtype_is_int(tt_dtype d);      /* bool and all integer types */
bool tt_dtype_is_signed(tt_dtype d);   /* i8..i64 and floats */
/* The names of a dtype, each a column of the dtype table (dtype.c, the one
 * list of dtypes: every other derives from it). NULL where a dtype has none.
 *   tt_dtype_name         tritium's short name (command line): "f32", "bf16", "u8", "bool"
 *   tt_dtype_triton_name  Triton's name (tl.dtype.name): "fp32", "bf16", "uint8", "int1"
 *   tt_dtype_tl_name      the attribute of triton.language: "float32", "int1", "float8e4nv"
 *   tt_dtype_torch_name   the attribute of torch: "float32", "bool", "float8_e4m3fn"
 *   tt_dtype_ir_name      the IR's scalar type: "f32", "i1", "f8E4M3FN" (NULL for
 *                         unsigned dtypes, which the signless IR holds as i8..i64,
 *                         and pointers) */
const char *tt_dtype_name(tt_dtype d);
const char *tt_dtype_triton_name(tt_dtype d);
const char *tt_dtype_tl_name(tt_dtype d);
const char *tt_dtype_torch_name(tt_dtype d);
const char *tt_dtype_ir_name(tt_dtype d);
/* The dtype of triton.language's attribute s (tl.float16), or false. */
bool tt_dtype_from_tl(const char *s, tt_dtype *out);
/* The dtype of the IR scalar type s[0..n) ("f32", "f8E4M3FN"), or false. */
bool tt_dtype_from_ir(const char *s, size_t n, tt_dtype *out);
/* Parse a dtype name of the command line: any of a dtype's names above
 * ("f32", "fp32", "float32"; "f8e4nv", "fp8e4nv", "float8e4nv",
 * "float8_e4m3fn"), ml_dtypes' name, or "half", "float", "double", "i1".
 * Pointers have none. Returns false when the name is unknown. */
bool tt_dtype_parse(const char *s, tt_dtype *out);
/* numpy's dtype.str for this dtype ("<f4", "|b1", ...). bf16 has no numpy
 * type and returns "<V2", the descriptor ml_dtypes.bfloat16 arrays are saved
 * with (np.lib.format.dtype_to_descr), so np.load(f).view(ml_dtypes.bfloat16)
 * reads it back and .npy files written by ml_dtypes load as bf16. */
const char *tt_dtype_npy_descr(tt_dtype d);
/* The numpy dtype name ml_dtypes registers for a dtype that numpy lacks
 * ("bfloat16", "float8_e4m3fn", ...; ml_dtypes has no fp8e4b15 and NULL is
 * returned), NULL for numpy's own dtypes. */
const char *tt_dtype_ml_name(tt_dtype d);

/* IEEE half and bfloat16 conversions, round-to-nearest-even. */
float tt_f16_to_f32(uint16_t h);
uint16_t tt_f32_to_f16(float f);
float tt_bf16_to_f32(uint16_t h);
uint16_t tt_f32_to_bf16(float f);
/* f32 -> f16 / bf16 rounding toward zero, as PTX cvt.rz.f16.f32 and
 * cvt.rz.bf16.f32 (Triton 3.6 fp_downcast_rounding="rtz"): finite values
 * never overflow to inf (f16: to +-65504), inf stays inf, NaN gives the
 * canonical NaN 0x7fff. */
uint16_t tt_f32_to_f16_rz(float f);
uint16_t tt_f32_to_bf16_rz(float f);

/* fp8 conversions of Triton 3.6 on the GPU that supports the dtype
 * (fp8.c; rules from third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/
 * ElementwiseOpToLLVM.cpp FpToFpOpConversion, nvidia/language/cuda/utils.py
 * convert_custom_float8 and, for the fnuz dtypes, the AMD backend's
 * downcastToFp8_RTNE_oneValue):
 *   fp8e4nv, fp8e5  round to nearest even with PTX .satfinite: overflow and
 *                   +-inf give +-max finite (448, 57344), NaN stays NaN
 *   fp8e5 rtz       f32 -> f16 toward zero, then the high byte: overflow
 *                   gives +-57344, inf stays inf
 *   fp8e4b8/e5b16   round to nearest even, overflow to +-max finite (240,
 *                   57344), inf and NaN to NaN (0x80), -0 to +0
 *   fp8e4b15        |x| clamped to 1.75 (NaN too), round half away from 0
 * tt_fp8_decode is exact (every fp8 value is an f32); `raw` decodes fp8e5's
 * inf/NaN codes as the finite numbers 2^16 * 1.mm, as Triton's
 * fp8e5 -> bf16 conversion (a shift and a multiply by 2^112) does. */
float tt_fp8_decode(tt_dtype d, uint8_t b, bool raw);
uint8_t tt_fp8_encode(tt_dtype d, float x, bool rtz);
/* One rounding from f64 (rounds to odd in f32 first, then as above). */
uint8_t tt_fp8_encode_f64(tt_dtype d, double x);
/* Largest finite value of an fp8 dtype (448 for fp8e4nv). */
double tt_fp8_max(tt_dtype d);

/* Read element i of a typed array as double / int64 (bool 0/1, floats
 * converted). Pointers read as raw u64. */
double tt_load_f64(const void *base, tt_dtype d, int64_t i);
int64_t tt_load_i64(const void *base, tt_dtype d, int64_t i);
/* Write a double into element i, converting like a Triton cast (RTNE for
 * floats, truncation+saturation for float->int, != 0 for bool). */
void tt_store_f64(void *base, tt_dtype d, int64_t i, double v);
void tt_store_i64(void *base, tt_dtype d, int64_t i, int64_t v);

#endif
