/* dtype.h — element types of host tensors and of kernel values.
 *
 * tt_dtype is Triton's dtype (signedness included: tl.uint32 differs from
 * tl.int32). The IR is signless like TTIR (ir.h maps u32 to i32 and puts the
 * signedness on the op), but buffers, .npy files and the front end keep the
 * signed/unsigned distinction. */
#ifndef TRITIUM_DTYPE_H
#define TRITIUM_DTYPE_H

#include <stdint.h>
#include <stdbool.h>

/* Order matters: tt_dtype_is_int / is_float rely on the ranges. */
typedef enum tt_dtype {
    TT_BOOL,                       /* tl.int1; counts as unsigned (semantic.py) */
    TT_I8, TT_I16, TT_I32, TT_I64,
    TT_U8, TT_U16, TT_U32, TT_U64,
    TT_F16, TT_BF16, TT_F32, TT_F64,
    TT_PTR,                        /* a pointer; the pointee is kept beside it */
    TT_DTYPE_COUNT
} tt_dtype;

/* Size in bytes of one element (bool: 1, as Triton stores *i1 as int8). */
int tt_dtype_size(tt_dtype d);
/* Bit width as Triton sees it (bool: 1, pointers: 64). */
int tt_dtype_bits(tt_dtype d);
bool tt_dtype_is_float(tt_dtype d);
bool tt_dtype_is_int(tt_dtype d);      /* bool and all integer types */
bool tt_dtype_is_signed(tt_dtype d);   /* i8..i64 and floats */
/* Short name as used on the command line: "f32", "bf16", "u8", "bool". */
const char *tt_dtype_name(tt_dtype d);
/* Triton's name: "fp32", "bf16", "uint8", "int1". */
const char *tt_dtype_triton_name(tt_dtype d);
/* Parse "f32", "float32", "fp32", "i32", "int32", "u8", "uint8", "bool",
 * "int1", "f16", "float16", "bf16", "bfloat16", "f64", "float64".
 * Returns false when the name is unknown. */
bool tt_dtype_parse(const char *s, tt_dtype *out);
/* numpy's dtype.str for this dtype ("<f4", "|b1", ...). bf16 has no numpy
 * type and returns "<V2", the descriptor ml_dtypes.bfloat16 arrays are saved
 * with (np.lib.format.dtype_to_descr), so np.load(f).view(ml_dtypes.bfloat16)
 * reads it back and .npy files written by ml_dtypes load as bf16. */
const char *tt_dtype_npy_descr(tt_dtype d);

/* IEEE half and bfloat16 conversions, round-to-nearest-even. */
float tt_f16_to_f32(uint16_t h);
uint16_t tt_f32_to_f16(float f);
float tt_bf16_to_f32(uint16_t h);
uint16_t tt_f32_to_bf16(float f);

/* Read element i of a typed array as double / int64 (bool 0/1, floats
 * converted). Pointers read as raw u64. */
double tt_load_f64(const void *base, tt_dtype d, int64_t i);
int64_t tt_load_i64(const void *base, tt_dtype d, int64_t i);
/* Write a double into element i, converting like a Triton cast (RTNE for
 * floats, truncation+saturation for float->int, != 0 for bool). */
void tt_store_f64(void *base, tt_dtype d, int64_t i, double v);
void tt_store_i64(void *base, tt_dtype d, int64_t i, int64_t v);

#endif
