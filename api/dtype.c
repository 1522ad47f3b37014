/* dtype.c — libtritium: the dtype table (compiler/support/dtype.c) as JSON
 * (tritium_dtypes_json), and the check that tritium.h's TRITIUM_* codes, the
 * ABI, are the table's tt_dtype values. */
#include "api.h"

#include <jansson.h>
#include <pthread.h>

/* The ABI: each TRITIUM_X is TT_X (tests/python/test_dtypes.py checks that
 * the names agree: TRITIUM_X is the dtype named x). */
_Static_assert(TRITIUM_BOOL == (int)TT_BOOL, "TRITIUM_BOOL");
_Static_assert(TRITIUM_I8 == (int)TT_I8, "TRITIUM_I8");
_Static_assert(TRITIUM_I16 == (int)TT_I16, "TRITIUM_I16");
_Static_assert(TRITIUM_I32 == (int)TT_I32, "TRITIUM_I32");
_Static_assert(TRITIUM_I64 == (int)TT_I64, "TRITIUM_I64");
_Static_assert(TRITIUM_U8 == (int)TT_U8, "TRITIUM_U8");
_Static_assert(TRITIUM_U16 == (int)TT_U16, "TRITIUM_U16");
_Static_assert(TRITIUM_U32 == (int)TT_U32, "TRITIUM_U32");
_Static_assert(TRITIUM_U64 == (int)TT_U64, "TRITIUM_U64");
_Static_assert(TRITIUM_F16 == (int)TT_F16, "TRITIUM_F16");
_Static_assert(TRITIUM_BF16 == (int)TT_BF16, "TRITIUM_BF16");
_Static_assert(TRITIUM_F32 == (int)TT_F32, "TRITIUM_F32");
_Static_assert(TRITIUM_F64 == (int)TT_F64, "TRITIUM_F64");
_Static_assert(TRITIUM_F8E4NV == (int)TT_F8E4NV, "TRITIUM_F8E4NV");
_Static_assert(TRITIUM_F8E5 == (int)TT_F8E5, "TRITIUM_F8E5");
_Static_assert(TRITIUM_F8E4B15 == (int)TT_F8E4B15, "TRITIUM_F8E4B15");
_Static_assert(TRITIUM_F8E4B8 == (int)TT_F8E4B8, "TRITIUM_F8E4B8");
_Static_assert(TRITIUM_F8E5B16 == (int)TT_F8E5B16, "TRITIUM_F8E5B16");
_Static_assert(TRITIUM_F8E5B16 + 1 == (int)TT_PTR, "one TRITIUM_* code per element type");

static char *g_json;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static json_t *opt_string(const char *s) { return s ? json_string(s) : json_null(); }

static void build(void)
{
    json_t *a = json_array();
    for (int i = 0; i < TT_PTR; i++) {
        tt_dtype d = (tt_dtype)i;
        json_t *o = json_object();
        json_object_set_new(o, "code", json_integer(i));
        json_object_set_new(o, "name", json_string(tt_dtype_name(d)));
        json_object_set_new(o, "triton", json_string(tt_dtype_triton_name(d)));
        json_object_set_new(o, "tl", opt_string(tt_dtype_tl_name(d)));
        json_object_set_new(o, "torch", opt_string(tt_dtype_torch_name(d)));
        json_object_set_new(o, "npy", json_string(tt_dtype_npy_descr(d)));
        json_object_set_new(o, "ml", opt_string(tt_dtype_ml_name(d)));
        json_object_set_new(o, "size", json_integer(tt_dtype_size(d)));
        json_object_set_new(o, "bits", json_integer(tt_dtype_bits(d)));
        json_object_set_new(o, "float", json_boolean(tt_dtype_is_float(d)));
        json_object_set_new(o, "fp8", json_boolean(tt_dtype_is_fp8(d)));
        json_object_set_new(o, "int", json_boolean(tt_dtype_is_int(d)));
        json_object_set_new(o, "signed", json_boolean(tt_dtype_is_signed(d)));
        json_array_append_new(a, o);
    }
    g_json = json_dumps(a, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(a);
}

const char *tritium_dtypes_json(void)
{
    pthread_once(&once, build);
    return g_json;
}
