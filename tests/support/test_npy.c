/* test_npy.c — .npy reading and writing against files written by numpy
 * (tests/support/data, see gen_fixtures.py), hand-made headers of every
 * format version, and a table of malformed inputs. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tsupport.h"
#include "tritium/tensor.h"

static char *data_path(const char *name)
{
    const char *src = getenv("TRITIUM_SRCDIR");
    return xasprintf("%s/tests/support/data/%s", src ? src : ".", name);
}

static tt_tensor *load_fixture(const char *name)
{
    char err[256] = "";
    char *p = data_path(name);
    tt_tensor *t = npy_read(p, err, sizeof err);
    ck_assert_msg(t != NULL, "%s: %s", name, err);
    free(p);
    return t;
}

static void check_shape(const tt_tensor *t, tt_dtype d, int rank, const int64_t *shape)
{
    ck_assert_int_eq(t->dtype, d);
    ck_assert_int_eq(t->rank, rank);
    for (int i = 0; i < rank; i++) ck_assert_int_eq(t->shape[i], shape[i]);
}

START_TEST(read_numpy_fixtures)
{
    tt_tensor *t = load_fixture("f32_3x4.npy");
    check_shape(t, TT_F32, 2, (int64_t[]){ 3, 4 });
    for (int i = 0; i < 12; i++) ck_assert(((float *)t->data)[i] == (float)i * 0.5f - 1.0f);
    tt_tensor_free(t);

    t = load_fixture("i64_scalar.npy");
    check_shape(t, TT_I64, 0, NULL);
    ck_assert(((int64_t *)t->data)[0] == -42);
    tt_tensor_free(t);

    t = load_fixture("bool_5.npy");
    check_shape(t, TT_BOOL, 1, (int64_t[]){ 5 });
    ck_assert_mem_eq(t->data, "\1\0\1\1\0", 5);
    tt_tensor_free(t);

    t = load_fixture("f16_2x3.npy");
    check_shape(t, TT_F16, 2, (int64_t[]){ 2, 3 });
    static const uint16_t f16[6] = { 0x3C00, 0xC000, 0x3800, 0x7BFF, 0x0002, 0x8000 };
    ck_assert_mem_eq(t->data, f16, sizeof f16);
    tt_tensor_free(t);

    t = load_fixture("u8_7.npy");
    check_shape(t, TT_U8, 1, (int64_t[]){ 7 });
    ck_assert_mem_eq(t->data, "\0\1\2\x7f\x80\xfe\xff", 7);
    tt_tensor_free(t);

    t = load_fixture("i8_4.npy");
    check_shape(t, TT_I8, 1, (int64_t[]){ 4 });
    ck_assert_int_eq(((int8_t *)t->data)[0], -128);
    ck_assert_int_eq(((int8_t *)t->data)[3], 127);
    tt_tensor_free(t);

    t = load_fixture("i16_2x2.npy");
    check_shape(t, TT_I16, 2, (int64_t[]){ 2, 2 });
    ck_assert_int_eq(((int16_t *)t->data)[0], -32768);
    ck_assert_int_eq(((int16_t *)t->data)[3], 32767);
    tt_tensor_free(t);

    t = load_fixture("u16_3.npy");
    check_shape(t, TT_U16, 1, (int64_t[]){ 3 });
    ck_assert_uint_eq(((uint16_t *)t->data)[2], 65535);
    tt_tensor_free(t);

    t = load_fixture("i32_2x2x2.npy");
    check_shape(t, TT_I32, 3, (int64_t[]){ 2, 2, 2 });
    for (int i = 0; i < 8; i++) ck_assert_int_eq(((int32_t *)t->data)[i], i - 4);
    tt_tensor_free(t);

    t = load_fixture("u32_3.npy");
    check_shape(t, TT_U32, 1, (int64_t[]){ 3 });
    ck_assert_uint_eq(((uint32_t *)t->data)[2], 4294967295u);
    tt_tensor_free(t);

    t = load_fixture("u64_2.npy");
    check_shape(t, TT_U64, 1, (int64_t[]){ 2 });
    ck_assert(((uint64_t *)t->data)[1] == UINT64_MAX);
    tt_tensor_free(t);

    t = load_fixture("f64_1x2x1x2.npy");
    check_shape(t, TT_F64, 4, (int64_t[]){ 1, 2, 1, 2 });
    ck_assert(((double *)t->data)[0] == 1.5 && ((double *)t->data)[1] == -2.25);
    ck_assert(isinf(((double *)t->data)[2]) && ((double *)t->data)[3] == 1e300);
    tt_tensor_free(t);

    t = load_fixture("f32_v2.npy");
    check_shape(t, TT_F32, 1, (int64_t[]){ 3 });
    ck_assert(((float *)t->data)[2] == 3.0f);
    tt_tensor_free(t);

    t = load_fixture("i32_v3.npy");
    check_shape(t, TT_I32, 2, (int64_t[]){ 1, 2 });
    ck_assert_int_eq(((int32_t *)t->data)[1], 8);
    tt_tensor_free(t);

    t = load_fixture("f32_empty.npy");
    check_shape(t, TT_F32, 2, (int64_t[]){ 0, 3 });
    tt_tensor_free(t);
}
END_TEST

/* Write `t` to a temporary file and return the file's bytes. */
static char *write_bytes(const tt_tensor *t, size_t *len)
{
    char path[] = "/tmp/tritium-npy-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char err[256] = "";
    ck_assert_msg(npy_write(path, t, err, sizeof err), "%s", err);
    char *b = read_file(path, len);
    ck_assert_ptr_nonnull(b);
    unlink(path);
    return b;
}

/* npy_write must produce exactly numpy's bytes for the same array. */
static void same_as_numpy(const tt_tensor *t, const char *fixture)
{
    size_t n, m;
    char *mine = write_bytes(t, &n);
    char *p = data_path(fixture);
    char *ref = read_file(p, &m);
    ck_assert_ptr_nonnull(ref);
    ck_assert_msg(n == m && memcmp(mine, ref, n) == 0, "%s: written bytes differ from numpy's", fixture);
    free(p);
    free(mine);
    free(ref);
}

START_TEST(write_matches_numpy)
{
    tt_tensor *t = tt_tensor_new("x", TT_F32, 2, (int64_t[]){ 3, 4 });
    for (int i = 0; i < 12; i++) ((float *)t->data)[i] = (float)i * 0.5f - 1.0f;
    same_as_numpy(t, "f32_3x4.npy");
    tt_tensor_free(t);

    t = tt_tensor_new("s", TT_I64, 0, NULL);
    ((int64_t *)t->data)[0] = -42;
    same_as_numpy(t, "i64_scalar.npy");
    tt_tensor_free(t);

    t = tt_tensor_new("b", TT_BOOL, 1, (int64_t[]){ 5 });
    memcpy(t->data, "\1\0\1\1\0", 5);
    same_as_numpy(t, "bool_5.npy");
    tt_tensor_free(t);

    t = tt_tensor_new("e", TT_F32, 2, (int64_t[]){ 0, 3 });
    same_as_numpy(t, "f32_empty.npy");
    tt_tensor_free(t);

    /* every fixture read back and rewritten gives the same bytes (v1 ones) */
    static const char *const v1[] = { "f16_2x3.npy", "u8_7.npy", "i8_4.npy", "i16_2x2.npy", "u16_3.npy",
                                      "i32_2x2x2.npy", "u32_3.npy", "u64_2.npy", "f64_1x2x1x2.npy" };
    for (size_t i = 0; i < TT_COUNTOF(v1); i++) {
        t = load_fixture(v1[i]);
        same_as_numpy(t, v1[i]);
        tt_tensor_free(t);
    }
}
END_TEST

START_TEST(roundtrip_and_bf16)
{
    tt_tensor *t = tt_tensor_new("x", TT_BF16, 2, (int64_t[]){ 2, 5 });
    ck_assert(tt_tensor_generate(t, "randn", 0, 3, 0, NULL, 0));
    size_t n;
    char *b = write_bytes(t, &n);
    char err[256] = "";
    tt_tensor *r = npy_parse(b, n, err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    check_shape(r, TT_BF16, 2, (int64_t[]){ 2, 5 });              /* ml_dtypes' descriptor, bits kept */
    ck_assert(!memcmp(r->data, t->data, 20));
    ck_assert_ptr_nonnull(memmem(b, n, "'descr': '<V2'", 14));
    free(b);
    tt_tensor_free(r);
    tt_tensor_free(t);

    static const tt_dtype all[] = { TT_BOOL, TT_I8, TT_I16, TT_I32, TT_I64, TT_U8, TT_U16, TT_U32,
                                    TT_U64, TT_F16, TT_F32, TT_F64 };
    for (size_t k = 0; k < TT_COUNTOF(all); k++) {
        t = tt_tensor_new("x", all[k], 3, (int64_t[]){ 2, 3, 4 });
        ck_assert(tt_tensor_generate(t, "arange", 0, 0, 0, NULL, 0));
        b = write_bytes(t, &n);
        ck_assert_uint_eq(n % 64, t->nbytes % 64);                 /* data starts 64-aligned */
        r = npy_parse(b, n, err, sizeof err);
        ck_assert_msg(r != NULL, "%s", err);
        check_shape(r, all[k], 3, (int64_t[]){ 2, 3, 4 });
        ck_assert_mem_eq(r->data, t->data, t->nbytes);
        free(b);
        tt_tensor_free(r);
        tt_tensor_free(t);
    }

    char err2[256];
    t = tt_tensor_new("x", TT_F32, 1, (int64_t[]){ 1 });
    ck_assert(!npy_write("/nonexistent-dir/x.npy", t, err2, sizeof err2));
    ck_assert_ptr_nonnull(strstr(err2, "/nonexistent-dir/x.npy"));
    tt_tensor_free(t);
    ck_assert_ptr_null(npy_read("/nonexistent-dir/x.npy", err2, sizeof err2));
    ck_assert_ptr_nonnull(strstr(err2, "No such file"));
}
END_TEST

/* fp8 as ml_dtypes' np.save writes it: '<V1' (the float8 type not named:
 * the caller's hint names it), '<f1' for float8_e5m2; fp8e4b15 as '|u1'. */
static size_t build(unsigned char *out, int major, const char *header, const void *data, size_t nd);

START_TEST(fp8_descriptors)
{
    unsigned char buf[256];
    char err[256] = "";
    size_t n = build(buf, 1, "{'descr': '<V1', 'fortran_order': False, 'shape': (4,), }\n", "\x38\xb8\x7e\x7f", 4);
    ck_assert_ptr_null(npy_parse(buf, n, err, sizeof err));
    ck_assert_msg(strstr(err, "FILE.npy:f8e4nv"), "%s", err);
    tt_tensor *t = npy_parse_as(buf, n, TT_F8E4NV, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    check_shape(t, TT_F8E4NV, 1, (int64_t[]){ 4 });
    ck_assert(tt_load_f64(t->data, t->dtype, 0) == 1.0 && tt_load_f64(t->data, t->dtype, 1) == -1.0);
    ck_assert(tt_load_f64(t->data, t->dtype, 2) == 448.0 && isnan(tt_load_f64(t->data, t->dtype, 3)));
    tt_tensor_free(t);
    n = build(buf, 1, "{'descr': '<f1', 'fortran_order': False, 'shape': (2,), }\n", "\x3c\xfc", 2);
    t = npy_parse(buf, n, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    check_shape(t, TT_F8E5, 1, (int64_t[]){ 2 });
    ck_assert(tt_load_f64(t->data, t->dtype, 0) == 1.0 && tt_load_f64(t->data, t->dtype, 1) == -INFINITY);
    tt_tensor_free(t);
    n = build(buf, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (1,), }\n", "\x7f", 1);
    t = npy_parse_as(buf, n, TT_F8E4B15, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    ck_assert(t->dtype == TT_F8E4B15 && tt_load_f64(t->data, t->dtype, 0) == 1.875);
    tt_tensor_free(t);
    t = npy_parse(buf, n, err, sizeof err);
    ck_assert(t != NULL && t->dtype == TT_U8);                   /* no hint: plain bytes */
    tt_tensor_free(t);
    /* writing: the descriptors above, bits kept, read back with the hint */
    static const tt_dtype all[] = { TT_F8E4NV, TT_F8E5, TT_F8E4B15, TT_F8E4B8, TT_F8E5B16 };
    static const char *const descr[] = { "'<V1'", "'<V1'", "'|u1'", "'<V1'", "'<V1'" };
    for (size_t k = 0; k < TT_COUNTOF(all); k++) {
        t = tt_tensor_new("x", all[k], 2, (int64_t[]){ 3, 5 });
        ck_assert(tt_tensor_generate(t, "randn", 0, 7, 0, NULL, 0));
        size_t len;
        char *b = write_bytes(t, &len);
        ck_assert_msg(memmem(b, len, descr[k], strlen(descr[k])) != NULL, "%s", tt_dtype_name(all[k]));
        tt_tensor *r = npy_parse_as(b, len, all[k], err, sizeof err);
        ck_assert_msg(r != NULL, "%s", err);
        check_shape(r, all[k], 2, (int64_t[]){ 3, 5 });
        ck_assert_mem_eq(r->data, t->data, t->nbytes);
        free(b);
        tt_tensor_free(r);
        tt_tensor_free(t);
    }
}
END_TEST

/* Build a .npy image: magic, version, header length field, header, data. */
static size_t build(unsigned char *out, int major, const char *header, const void *data, size_t nd)
{
    size_t hl = strlen(header), off;
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    if (major == 1) {
        out[8] = (unsigned char)hl;
        out[9] = (unsigned char)(hl >> 8);
        off = 10;
    } else {
        for (int i = 0; i < 4; i++) out[8 + i] = (unsigned char)(hl >> (8 * i));
        off = 12;
    }
    memcpy(out + off, header, hl);
    memcpy(out + off + hl, data, nd);
    return off + hl + nd;
}

START_TEST(hand_made_versions)
{
    unsigned char buf[512];
    char err[256] = "";
    int32_t vals[3] = { 1, -2, 3 };
    for (int major = 1; major <= 3; major++) {
        size_t n = build(buf, major, "{'descr':'<i4','fortran_order':False,'shape':(3,)}\n", vals, sizeof vals);
        tt_tensor *t = npy_parse(buf, n, err, sizeof err);
        ck_assert_msg(t != NULL, "v%d: %s", major, err);
        check_shape(t, TT_I32, 1, (int64_t[]){ 3 });
        ck_assert_mem_eq(t->data, vals, sizeof vals);
        tt_tensor_free(t);
    }
    /* key order, double quotes, '=' byte order, Python 2 long suffix, (n) without comma */
    uint16_t h[2] = { 0x3C00, 0xC000 };
    size_t n = build(buf, 1, "{ \"shape\" : ( 1L , 2 , ) , \"fortran_order\" : False , \"descr\" : \"=f2\" , }   \n", h, 4);
    tt_tensor *t = npy_parse(buf, n, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    check_shape(t, TT_F16, 2, (int64_t[]){ 1, 2 });
    ck_assert(tt_f16_to_f32(((uint16_t *)t->data)[1]) == -2.0f);
    tt_tensor_free(t);
    n = build(buf, 1, "{'descr':'>u1','fortran_order':False,'shape':(2)}", "\x05\x06", 2);
    t = npy_parse(buf, n, err, sizeof err);
    ck_assert_msg(t != NULL, "%s", err);
    check_shape(t, TT_U8, 1, (int64_t[]){ 2 });
    tt_tensor_free(t);
    /* bool bytes other than 0/1 read as 1 */
    n = build(buf, 1, "{'descr':'|b1','fortran_order':False,'shape':(2,)}", "\x00\x07", 2);
    t = npy_parse(buf, n, err, sizeof err);
    ck_assert_mem_eq(t->data, "\0\1", 2);
    tt_tensor_free(t);
}
END_TEST

static const struct bad {
    const char *header;            /* NULL: use raw bytes */
    int major;
    size_t ndata;
    const char *want;              /* substring of the error */
} bad_inputs[] = {
    { "{'descr':'>f4','fortran_order':False,'shape':(2,)}", 1, 8, "big-endian" },
    { "{'descr':'!i4','fortran_order':False,'shape':(2,)}", 1, 8, "big-endian" },
    { "{'descr':'|O','fortran_order':False,'shape':(2,)}", 1, 16, "object" },
    { "{'descr':'<f4','fortran_order':True,'shape':(2,)}", 1, 8, "fortran_order" },
    { "{'descr':'<c8','fortran_order':False,'shape':(2,)}", 1, 16, "unsupported dtype '<c8'" },
    { "{'descr':'|f4','fortran_order':False,'shape':(2,)}", 1, 8, "byte order" },
    { "{'descr':'f4','fortran_order':False,'shape':(2,)}", 1, 8, "unsupported dtype" },
    { "{'descr':'','fortran_order':False,'shape':(2,)}", 1, 8, "unsupported dtype" },
    { "{'descr':[('a','<f4')],'fortran_order':False,'shape':(2,)}", 1, 8, "structured" },
    { "{'descr':'<f4','shape':(2,)}", 1, 8, "missing key 'fortran_order'" },
    { "{'descr':'<f4','fortran_order':False}", 1, 8, "missing key 'shape'" },
    { "{'fortran_order':False,'shape':(2,)}", 1, 8, "missing key 'descr'" },
    { "{'descr':'<f4','fortran_order':False,'shape':(2,),'extra':1}", 1, 8, "unexpected key 'extra'" },
    { "{'descr':'<f4','descr':'<f4','fortran_order':False,'shape':(2,)}", 1, 8, "duplicate key" },
    { "{'descr':'<f4','fortran_order':False,'shape':((2,),)}", 1, 8, "integer" },
    { "{'descr':'<f4','fortran_order':False,'shape':(-2,)}", 1, 8, "integer" },
    { "{'descr':'<f4','fortran_order':False,'shape':(1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2)}", 1, 8,
      "rank > 32" },
    { "{'descr':'<f4','fortran_order':False,'shape':(1125899906842624,1125899906842624)}", 1, 8, "too large" },
    { "{'descr':'<f4','fortran_order':False,'shape':(99999999999999999999,)}", 1, 8, "too large" },
    { "{'descr':'<f4','fortran_order':False,'shape':(1099511627776,)}", 1, 8, "too large" },
    { "{'descr':'<f4','fortran_order':False,'shape':(3,)}", 1, 8, "truncated .npy data" },
    /* a tiny file claiming 1 GiB is rejected before anything is allocated */
    { "{'descr':'<f4','fortran_order':False,'shape':(268435456,)}", 1, 8, "truncated .npy data: need 1073741824 bytes, have 8" },
    { "{'descr':'<f4','fortran_order':Maybe,'shape':(2,)}", 1, 8, "True or False" },
    { "{'descr':'<f4','fortran_order':False,'shape':(2,)", 1, 8, "expected ',' or '}'" },
    { "{'descr':'<f4','fortran_order':False,'shape':(2,)} x", 1, 8, "trailing" },
    { "{'descr':'<f4,'fortran_order':False,'shape':(2,)}", 1, 8, "expected ',' or '}'" },
    { "{'descr' '<f4','fortran_order':False,'shape':(2,)}", 1, 8, "expected ':'" },
    { "{'descr':'<f4','fortran_order':False,'shape':(2,", 1, 0, "integer" },
    { "{'descr", 1, 0, "unterminated string" },
    { "['descr']", 1, 0, "expected '{'" },
    { "", 1, 0, "expected '{'" },
    { "{'de\\scr':'<f4'}", 1, 0, "escape" },
    { "{'descr':'<f4','fortran_order':False,'shape':(2,)}", 4, 8, "version 4.0" },
};

START_TEST(malformed_table)
{
    unsigned char buf[1024];
    unsigned char zeros[64] = { 0 };
    for (size_t i = 0; i < TT_COUNTOF(bad_inputs); i++) {
        const struct bad *b = &bad_inputs[i];
        size_t n = build(buf, b->major, b->header, zeros, b->ndata);
        char err[256] = "";
        tt_tensor *t = npy_parse(buf, n, err, sizeof err);
        ck_assert_msg(t == NULL, "case %zu accepted", i);
        ck_assert_msg(strstr(err, b->want) != NULL, "case %zu: '%s' lacks '%s'", i, err, b->want);
        ck_assert_msg(strchr(err, '\n') == NULL, "case %zu: multi-line message", i);
    }
}
END_TEST

START_TEST(truncations)
{
    /* every prefix of a valid file is rejected with a message; none crashes */
    char *p = data_path("f32_3x4.npy");
    size_t len;
    char *full = read_file(p, &len);
    ck_assert_ptr_nonnull(full);
    for (size_t n = 0; n < len; n++) {
        char *copy = xmalloc(n ? n : 1);            /* exact size so ASan sees overreads */
        memcpy(copy, full, n);
        char err[256] = "";
        tt_tensor *t = npy_parse(copy, n, err, sizeof err);
        ck_assert_msg(t == NULL && err[0], "prefix %zu", n);
        free(copy);
    }
    char err[256];
    tt_tensor *t = npy_parse(full, len, err, sizeof err);
    ck_assert_ptr_nonnull(t);
    tt_tensor_free(t);
    /* header length pointing past the end */
    full[8] = (char)0xff;
    full[9] = (char)0x7f;
    ck_assert_ptr_null(npy_parse(full, len, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "truncated .npy header"));
    /* bad magic, NUL in header */
    ck_assert_ptr_null(npy_parse("\x93NUMPX\1\0", 8, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "bad magic"));
    ck_assert_ptr_null(npy_parse("\x93NUMPY\1\0\4\0{\0}\n", 14, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "NUL"));
    ck_assert_ptr_null(npy_parse(NULL, 0, err, sizeof err));
    /* v2 header length of 4 GiB */
    ck_assert_ptr_null(npy_parse("\x93NUMPY\2\0\xff\xff\xff\xff{}", 14, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "too long"));
    /* flip every header byte to a few other values: must never crash */
    for (size_t i = 0; i < len; i++) {
        static const char subs[] = { '(', ')', '{', '}', ',', '\'', ':', '9', ' ', 'L', 0x7f };
        for (size_t k = 0; k < sizeof subs; k++) {
            char *m = read_file(p, NULL);
            m[i] = subs[k];
            tt_tensor *x = npy_parse(m, len, err, sizeof err);
            tt_tensor_free(x);
            free(m);
        }
    }
    free(full);
    free(p);
}
END_TEST

TCase *npy_tcase(void)
{
    TCase *tc = tcase_create("npy");
    tcase_add_test(tc, read_numpy_fixtures);
    tcase_add_test(tc, write_matches_numpy);
    tcase_add_test(tc, roundtrip_and_bf16);
    tcase_add_test(tc, fp8_descriptors);
    tcase_add_test(tc, hand_made_versions);
    tcase_add_test(tc, malformed_table);
    tcase_add_test(tc, truncations);
    return tc;
}
