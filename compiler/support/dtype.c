/* dtype.c — dtype names, sizes and the scalar conversions every component
 * shares (RTNE half/bfloat16, Triton's float->int and ->bool casts). */
#include "tritium/dtype.h"

#include <math.h>
#include <string.h>

/* The dtype table: the one list of tritium's element types and their names.
 * Everything else derives from it: the front end's tl.NAME (tt_dtype_from_tl),
 * the IR's scalar types (tt_dtype_ir_name, tt_dtype_from_ir), the command
 * line's dtype names and their help (tt_dtype_parse, repl/help.c), .npy
 * files, and the C API's codes and names (tritium.h's TRITIUM_* enum, whose
 * values are the tt_dtype values: api/dtype.c checks them at compile time;
 * tritium_dtypes_json hands this table to the Python package). Columns:
 *   name    tritium's short name (command line, reports)
 *   triton  Triton's dtype name (str(tl.float32), tl.dtype.name)
 *   tl      the attribute of triton.language (tl.float32); NULL: none
 *   torch   the attribute of torch (torch.float32); NULL: torch has none
 *   ir      the IR's scalar type (MLIR's names); NULL: the IR is signless
 *           (unsigned dtypes are its signless integers) or it is a pointer
 *   npy     numpy's dtype.str of a .npy file tritium writes
 *   ml      ml_dtypes' name for a dtype numpy lacks, else NULL
 *   size    bytes per element; bits: the width Triton sees (bool: 1) */
static const struct {
    const char *name, *triton, *tl, *torch, *ir, *npy, *ml;
    int size, bits;
} info[TT_DTYPE_COUNT] = {
    /*              name       triton      tl             torch              ir            npy     ml */
    [TT_BOOL]    = { "bool",    "int1",     "int1",        "bool",            "i1",         "|b1", NULL, 1, 1 },
    [TT_I8]      = { "i8",      "int8",     "int8",        "int8",            "i8",         "|i1", NULL, 1, 8 },
    [TT_I16]     = { "i16",     "int16",    "int16",       "int16",           "i16",        "<i2", NULL, 2, 16 },
    [TT_I32]     = { "i32",     "int32",    "int32",       "int32",           "i32",        "<i4", NULL, 4, 32 },
    [TT_I64]     = { "i64",     "int64",    "int64",       "int64",           "i64",        "<i8", NULL, 8, 64 },
    [TT_U8]      = { "u8",      "uint8",    "uint8",       "uint8",           NULL,         "|u1", NULL, 1, 8 },
    [TT_U16]     = { "u16",     "uint16",   "uint16",      "uint16",          NULL,         "<u2", NULL, 2, 16 },
    [TT_U32]     = { "u32",     "uint32",   "uint32",      "uint32",          NULL,         "<u4", NULL, 4, 32 },
    [TT_U64]     = { "u64",     "uint64",   "uint64",      "uint64",          NULL,         "<u8", NULL, 8, 64 },
    [TT_F16]     = { "f16",     "fp16",     "float16",     "float16",         "f16",        "<f2", NULL, 2, 16 },
    /* as ml_dtypes.bfloat16 saves: load with .view(ml_dtypes.bfloat16) */
    [TT_BF16]    = { "bf16",    "bf16",     "bfloat16",    "bfloat16",        "bf16",       "<V2", "bfloat16", 2, 16 },
    [TT_F32]     = { "f32",     "fp32",     "float32",     "float32",         "f32",        "<f4", NULL, 4, 32 },
    [TT_F64]     = { "f64",     "fp64",     "float64",     "float64",         "f64",        "<f8", NULL, 8, 64 },
    /* fp8: ml_dtypes' float8 types save as 1-byte voids (float8_e5m2 as
     * "<f1", which npy.c reads too); ml_dtypes and torch have no fp8e4b15,
     * whose IR name is tritium's (Triton types it as i8) */
    [TT_F8E4NV]  = { "f8e4nv",  "fp8e4nv",  "float8e4nv",  "float8_e4m3fn",   "f8E4M3FN",   "<V1", "float8_e4m3fn", 1, 8 },
    [TT_F8E5]    = { "f8e5",    "fp8e5",    "float8e5",    "float8_e5m2",     "f8E5M2",     "<V1", "float8_e5m2", 1, 8 },
    [TT_F8E4B15] = { "f8e4b15", "fp8e4b15", "float8e4b15", NULL,              "f8E4M3B15",  "|u1", NULL, 1, 8 },
    [TT_F8E4B8]  = { "f8e4b8",  "fp8e4b8",  "float8e4b8",  "float8_e4m3fnuz", "f8E4M3FNUZ", "<V1", "float8_e4m3fnuz", 1, 8 },
    [TT_F8E5B16] = { "f8e5b16", "fp8e5b16", "float8e5b16", "float8_e5m2fnuz", "f8E5M2FNUZ", "<V1", "float8_e5m2fnuz", 1, 8 },
    [TT_PTR]     = { "ptr",     "pointer",  NULL,          NULL,              NULL,         "<u8", NULL, 8, 64 },
};

int tt_dtype_size(tt_dtype d) { return info[d].size; }
int tt_dtype_bits(tt_dtype d) { return info[d].bits; }

int tt_dtype_frac_bits(tt_dtype d)
{
    switch (d) {
    case TT_F64: return 52;
    case TT_F32: return 23;
    case TT_F16: return 10;
    case TT_BF16: return 7;
    case TT_F8E4NV: case TT_F8E4B15: case TT_F8E4B8: return 3;
    case TT_F8E5: case TT_F8E5B16: return 2;
    default: return 0;
    }
}
bool tt_dtype_is_float(tt_dtype d) { return d >= TT_F16 && d <= TT_F8E5B16; }
bool tt_dtype_is_fp8(tt_dtype d) { return d >= TT_F8E4NV && d <= TT_F8E5B16; }
bool tt_dtype_is_int(tt_dtype d) { return d <= TT_U64; }
bool tt_dtype_is_signed(tt_dtype d) { return (d >= TT_I8 && d <= TT_I64) || tt_dtype_is_float(d); }
const char *tt_dtype_name(tt_dtype d) { return info[d].name; }
const char *tt_dtype_triton_name(tt_dtype d) { return info[d].triton; }
const char *tt_dtype_tl_name(tt_dtype d) { return info[d].tl; }
const char *tt_dtype_torch_name(tt_dtype d) { return info[d].torch; }
const char *tt_dtype_ir_name(tt_dtype d) { return info[d].ir; }
const char *tt_dtype_npy_descr(tt_dtype d) { return info[d].npy; }
const char *tt_dtype_ml_name(tt_dtype d) { return info[d].ml; }

bool tt_dtype_from_tl(const char *s, tt_dtype *out)
{
    for (int d = 0; d < TT_DTYPE_COUNT; d++)
        if (info[d].tl && !strcmp(s, info[d].tl)) {
            *out = (tt_dtype)d;
            return true;
        }
    return false;
}

bool tt_dtype_from_ir(const char *s, size_t n, tt_dtype *out)
{
    for (int d = 0; d < TT_DTYPE_COUNT; d++)
        if (info[d].ir && strlen(info[d].ir) == n && !memcmp(info[d].ir, s, n)) {
            *out = (tt_dtype)d;
            return true;
        }
    return false;
}

bool tt_dtype_parse(const char *s, tt_dtype *out)
{
    /* names of no column: C's and PyTorch's spellings */
    static const struct { const char *alias; tt_dtype d; } aliases[] = {
        { "half", TT_F16 }, { "float", TT_F32 }, { "double", TT_F64 }, { "i1", TT_BOOL },
    };
    for (int d = 0; d < TT_PTR; d++) {
        const char *col[] = { info[d].name, info[d].triton, info[d].tl, info[d].torch, info[d].ml };
        for (size_t k = 0; k < sizeof col / sizeof col[0]; k++)
            if (col[k] && !strcmp(s, col[k])) {
                *out = (tt_dtype)d;
                return true;
            }
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (!strcmp(s, aliases[i].alias)) {
            *out = aliases[i].d;
            return true;
        }
    }
    return false;
}

float tt_f16_to_f32(uint16_t h)
{
    _Float16 x;
    memcpy(&x, &h, 2);
    return (float)x;
}

uint16_t tt_f32_to_f16(float f)
{
    _Float16 x = (_Float16)f;   /* RTNE per IEEE 754 */
    uint16_t h;
    memcpy(&h, &x, 2);
    return h;
}

float tt_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

uint16_t tt_f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffff) > 0x7f800000) return (uint16_t)((u >> 16) | 0x40); /* quiet NaN */
    u += 0x7fff + ((u >> 16) & 1);                                          /* RTNE */
    return (uint16_t)(u >> 16);
}

double tt_load_f64(const void *base, tt_dtype d, int64_t i)
{
    switch (d) {
    case TT_F16:  return tt_f16_to_f32(((const uint16_t *)base)[i]);
    case TT_BF16: return tt_bf16_to_f32(((const uint16_t *)base)[i]);
    case TT_F32:  return ((const float *)base)[i];
    case TT_F64:  return ((const double *)base)[i];
    case TT_F8E4NV: case TT_F8E5: case TT_F8E4B15: case TT_F8E4B8: case TT_F8E5B16:
        return tt_fp8_decode(d, ((const uint8_t *)base)[i], false);
    case TT_U64:
    case TT_PTR:  return (double)((const uint64_t *)base)[i];
    default:      return (double)tt_load_i64(base, d, i);
    }
}

int64_t tt_load_i64(const void *base, tt_dtype d, int64_t i)
{
    switch (d) {
    case TT_BOOL: return ((const uint8_t *)base)[i] != 0;
    case TT_I8:   return ((const int8_t *)base)[i];
    case TT_I16:  return ((const int16_t *)base)[i];
    case TT_I32:  return ((const int32_t *)base)[i];
    case TT_I64:  return ((const int64_t *)base)[i];
    case TT_U8:   return ((const uint8_t *)base)[i];
    case TT_U16:  return ((const uint16_t *)base)[i];
    case TT_U32:  return ((const uint32_t *)base)[i];
    case TT_U64:
    case TT_PTR:  return (int64_t)((const uint64_t *)base)[i];
    default:      return (int64_t)tt_load_f64(base, d, i);
    }
}

/* float -> int as PTX cvt.rzi: truncate, saturate, NaN -> 0 (semantics §2.7) */
static int64_t sat_i(double v, double lo, double hi)
{
    if (isnan(v)) return 0;
    v = trunc(v);
    if (v <= lo) return (int64_t)lo;
    if (v >= hi) return (int64_t)hi;
    return (int64_t)v;
}

/* f64 -> f32 rounding to odd (truncate, then set the last bit if inexact).
 * Rounding that to bf16 (RTNE) equals rounding the f64 directly, because f32
 * carries more than 2 extra bits; going through a plain (float) cast would
 * round twice (1 + 2^-8 + 2^-30 would become 1.0 instead of 1 + 2^-7). */
static float f64_to_f32_odd(double v)
{
    float f = (float)v;
    if (isnan(v) || (double)f == v) return f;
    uint32_t u;
    memcpy(&u, &f, 4);
    if (fabs((double)f) > fabs(v)) u -= 1;   /* truncate toward zero (inf -> FLT_MAX) */
    u |= 1;
    memcpy(&f, &u, 4);
    return f;
}

void tt_store_f64(void *base, tt_dtype d, int64_t i, double v)
{
    switch (d) {
    case TT_BOOL: ((uint8_t *)base)[i] = v != 0; break;   /* UNE: NaN -> 1 */
    case TT_I8:   ((int8_t *)base)[i] = (int8_t)sat_i(v, -128.0, 127.0); break;
    case TT_I16:  ((int16_t *)base)[i] = (int16_t)sat_i(v, -32768.0, 32767.0); break;
    case TT_I32:  ((int32_t *)base)[i] = (int32_t)sat_i(v, -2147483648.0, 2147483647.0); break;
    case TT_I64:
        if (isnan(v)) ((int64_t *)base)[i] = 0;
        else if (v >= 9223372036854775807.0) ((int64_t *)base)[i] = INT64_MAX;
        else if (v <= -9223372036854775808.0) ((int64_t *)base)[i] = INT64_MIN;
        else ((int64_t *)base)[i] = (int64_t)v;
        break;
    case TT_U8:   ((uint8_t *)base)[i] = (uint8_t)sat_i(v, 0.0, 255.0); break;
    case TT_U16:  ((uint16_t *)base)[i] = (uint16_t)sat_i(v, 0.0, 65535.0); break;
    case TT_U32:  ((uint32_t *)base)[i] = (uint32_t)sat_i(v, 0.0, 4294967295.0); break;
    case TT_U64:
    case TT_PTR:
        if (isnan(v) || v <= 0) ((uint64_t *)base)[i] = 0;
        else if (v >= 18446744073709551615.0) ((uint64_t *)base)[i] = UINT64_MAX;
        else ((uint64_t *)base)[i] = (uint64_t)v;
        break;
    case TT_F16: {                                     /* one rounding, f64 -> f16 */
        _Float16 h = (_Float16)v;
        memcpy((uint16_t *)base + i, &h, 2);
        break;
    }
    case TT_BF16: ((uint16_t *)base)[i] = tt_f32_to_bf16(f64_to_f32_odd(v)); break;
    case TT_F32:  ((float *)base)[i] = (float)v; break;
    case TT_F64:  ((double *)base)[i] = v; break;
    case TT_F8E4NV: case TT_F8E5: case TT_F8E4B15: case TT_F8E4B8: case TT_F8E5B16:
        ((uint8_t *)base)[i] = tt_fp8_encode_f64(d, v);
        break;
    default: break;
    }
}

void tt_store_i64(void *base, tt_dtype d, int64_t i, int64_t v)
{
    switch (d) {
    case TT_BOOL: ((uint8_t *)base)[i] = v != 0; break;
    case TT_I8: case TT_U8:   ((uint8_t *)base)[i] = (uint8_t)v; break;
    case TT_I16: case TT_U16: ((uint16_t *)base)[i] = (uint16_t)v; break;
    case TT_I32: case TT_U32: ((uint32_t *)base)[i] = (uint32_t)v; break;
    case TT_I64: case TT_U64: case TT_PTR: ((uint64_t *)base)[i] = (uint64_t)v; break;
    default: tt_store_f64(base, d, i, (double)v); break;
    }
}
