/* sema_dtype.c — attributes and methods of dtype values in kernels
 * (`x.dtype.is_floating()`, `DT.primitive_bitwidth`, `tl.int8.get_int_max_value()`),
 * all compile-time constants, as triton/language/core.py class dtype and
 * pointer_type define them (Triton 3.6). */
#include "sema_builtin.h"

#include <string.h>

/* One zero-argument method: its value for dtype d (pointer to pt). */
static bool method_value(const char *name, tt_dtype d, sval *out)
{
    bool f = tt_dtype_is_float(d), ptr = d == TT_PTR;
    bool sint = d == TT_I8 || d == TT_I16 || d == TT_I32 || d == TT_I64;
    bool uint = d == TT_BOOL || d == TT_U8 || d == TT_U16 || d == TT_U32 || d == TT_U64;   /* int1 is unsigned */
    static const struct { const char *name; tt_dtype d; } exact[] = {
        { "is_fp16", TT_F16 }, { "is_bf16", TT_BF16 }, { "is_fp32", TT_F32 }, { "is_fp64", TT_F64 },
        { "is_int1", TT_BOOL }, { "is_bool", TT_BOOL }, { "is_int8", TT_I8 }, { "is_int16", TT_I16 },
        { "is_int32", TT_I32 }, { "is_int64", TT_I64 }, { "is_uint8", TT_U8 }, { "is_uint16", TT_U16 },
        { "is_uint32", TT_U32 }, { "is_uint64", TT_U64 },
        { "is_fp8e4nv", TT_F8E4NV }, { "is_fp8e4b8", TT_F8E4B8 }, { "is_fp8e4b15", TT_F8E4B15 },
        { "is_fp8e5", TT_F8E5 }, { "is_fp8e5b16", TT_F8E5B16 },
    };
    for (size_t i = 0; i < TT_COUNTOF(exact); i++)
        if (!strcmp(name, exact[i].name)) return *out = sv_bool(d == exact[i].d), true;
    if (!strcmp(name, "is_fp8")) return *out = sv_bool(tt_dtype_is_fp8(d)), true;
    if (!strcmp(name, "is_floating")) return *out = sv_bool(f), true;
    if (!strcmp(name, "is_standard_floating")) return *out = sv_bool(f && !tt_dtype_is_fp8(d)), true;   /* fp16, bf16, fp32, fp64 */
    if (!strcmp(name, "is_int_signed")) return *out = sv_bool(sint), true;
    if (!strcmp(name, "is_int_unsigned")) return *out = sv_bool(uint), true;
    if (!strcmp(name, "is_int")) return *out = sv_bool(sint || uint), true;
    if (!strcmp(name, "is_ptr")) return *out = sv_bool(ptr), true;
    if (!strcmp(name, "is_block") || !strcmp(name, "is_const")) return *out = sv_bool(false), true;
    if (!strcmp(name, "get_int_max_value") && (sint || uint)) {
        int b = tt_dtype_bits(d);
        *out = sv_int(sint ? (int64_t)((UINT64_C(1) << (b - 1)) - 1) : b == 64 ? -1 : (int64_t)((UINT64_C(1) << b) - 1));
        return d != TT_U64;   /* 2**64 - 1 is not an int64 constexpr */
    }
    if (!strcmp(name, "get_int_min_value") && (sint || uint)) {
        *out = sv_int(sint ? (int64_t)-(UINT64_C(1) << (tt_dtype_bits(d) - 1)) : 0);
        return true;
    }
    return false;
}

static bool is_method(const char *name)
{
    sval v;
    return method_value(name, TT_I8, &v) || method_value(name, TT_F32, &v) || !strcmp(name, "get_int_max_value");
}

bool sema_dtype_attr(sema *S, sval self, const char *name, sval *out)
{
    tt_dtype d = self.dt;
    if (!strcmp(name, "element_ty") || !strcmp(name, "scalar")) {
        *out = d == TT_PTR ? sv_dtype(self.pt, TT_BOOL) : self;
        return true;
    }
    if (!strcmp(name, "primitive_bitwidth")) return *out = sv_int(tt_dtype_bits(d)), true;
    if (!strcmp(name, "itemsize") && d != TT_PTR) return *out = sv_int(tt_dtype_bits(d) / 8), true;
    if (!strcmp(name, "int_bitwidth") && tt_dtype_is_int(d)) return *out = sv_int(tt_dtype_bits(d)), true;
    if (!strcmp(name, "name")) {
        *out = (sval){ .k = V_STR, .s = tt_dtype_triton_name(d), .v = -1 };
        return true;
    }
    if (tt_dtype_is_float(d) && (!strcmp(name, "fp_mantissa_width") || !strcmp(name, "exponent_bias"))) {
        static const struct { tt_dtype d; int mant, bias; } fp[] = {
            { TT_F16, 10, 15 }, { TT_BF16, 7, 127 }, { TT_F32, 23, 127 }, { TT_F64, 52, 1023 },
            { TT_F8E4NV, 3, 7 }, { TT_F8E5, 2, 15 }, { TT_F8E4B15, 3, 15 }, { TT_F8E4B8, 3, 8 }, { TT_F8E5B16, 2, 16 },
        };
        for (size_t i = 0; i < TT_COUNTOF(fp); i++)
            if (fp[i].d == d) return *out = sv_int(name[0] == 'f' ? fp[i].mant : fp[i].bias), true;
    }
    if (is_method(name)) {
        *out = (sval){ .k = V_METHOD, .i = B_DTYPE_METHOD, .v = -1 };
        out->self = arena_alloc(S->a, sizeof(sval));
        *out->self = self;
        out->self->s = arena_strdup(S->a, name);   /* which method */
        return true;
    }
    return false;
}

sval sema_dtype_method(sema *S, src_pos p, const sval *self, int nargs)
{
    if (nargs) sema_error(S, p, "dtype.%s() takes no arguments", self->s);
    sval v;
    if (!method_value(self->s, self->dt, &v))
        sema_error(S, p, "dtype.%s() is not defined for %s", self->s, sv_describe(S, self));
    return v;
}
