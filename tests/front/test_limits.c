/* test_limits.c — the resource limits of limits.h as the front end applies
 * them (issue 9): the 2^20-element tile limit at every op that makes a tile
 * (Triton 3.6 language/core.py, TRITON_MAX_TENSOR_NUMEL in block_type),
 * linear parser memory in the number of statements, the limits table itself
 * (env overrides, messages), checked arithmetic and the bounded reader. */
#include <errno.h>
#include <unistd.h>
#include <stdlib.h>
#include "tfront.h"
#include "tritium/limits.h"
#include "tritium/support.h"
#include "../../compiler/front/front_int.h"

static char ksrc[2048];

/* A kernel whose line 8 is `line` (after r = tl.arange(0, 1024) on line 7). */
static const char *kern(const char *line)
{
    snprintf(ksrc, sizeof ksrc,
             "import triton\n"
             "import triton.language as tl\n"
             "\n"
             "\n"
             "@triton.jit\n"
             "def k(Z):\n"
             "    r = tl.arange(0, 1024)\n"
             "    z = %s\n"
             "    tl.store(Z + tl.zeros_like(z).to(tl.int32), z.to(tl.float32))\n", line);
    return ksrc;
}

static void tile_err(const char *line)
{
    const char *d = compile_err(kern(line), "k", "Z:*f32[1]");
    ck_assert_msg(strstr(d, "k.py:8:"), "%s: error not on line 8:\n%s", line, d);
    ck_assert_msg(strstr(d, "TRITON_MAX_TENSOR_NUMEL"), "%s: message does not name the limit:\n%s", line, d);
}

/* each op that makes a tile larger than 2^20 elements: a located error,
 * and exactly 2^20 is still fine (Triton's check is numel > MAX) */
START_TEST(tile_limit_everywhere)
{
    tile_err("(r[:, None] + r[None, :])[:, :, None] + r[None, None, :]"); /* a broadcast in a binary op */
    tile_err("tl.where(r[:, None] > 0, r[None, :], r[:, None])[:, :, None] * r");
    tile_err("tl.broadcast_to(r[:, None, None], (1024, 1024, 2))");
    tile_err("tl.dot(tl.zeros((2048, 16), tl.float32), tl.zeros((16, 2048), tl.float32))");
    front_set_triton_version(8);     /* block pointers: Triton 3.6-3.8 */
    tile_err("tl.load(tl.make_block_ptr(Z, shape=(1, 1), strides=(1, 1), offsets=(0, 0), "
             "block_shape=(2048, 1024), order=(1, 0)), boundary_check=(0, 1))");
    front_set_triton_version(-1);
    tile_err("r[:, None, None, None] + r[None, :, None, None] + r[None, None, :, None] + r[None, None, None, :]");
    tile_err("tl.zeros((2048, 1024), tl.float32)");
    tile_err("tl.arange(0, 2097152)");               /* sema_builtin.c: arange's length */
    tile_err("tl.histogram(r, 2097152)");            /* sema_shape.c: histogram's num_bins */
    tile_err("tl.full((2048, 1024), 0, tl.int32)");  /* sema_bind.c: a shape's numel */
    /* exactly the limit compiles */
    ir_func *f = compile_ok(kern("r[:, None] + r[None, :]"), "k", "Z:*f32[1]");
    ir_func_free(f);
    f = compile_ok(kern("tl.arange(0, 1048576)"), "k", "Z:*f32[1]");
    ir_func_free(f);
    f = compile_ok(kern("tl.histogram(r, 1048576)"), "k", "Z:*f32[1]");
    ir_func_free(f);
}
END_TEST

/* `x += y` builds its tile in the statement, not in an expression */
START_TEST(tile_limit_augassign)
{
    const char *d = compile_err("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(Z):\n"
                                "    a = tl.zeros((1, 2048), tl.float32)\n"
                                "    a += tl.zeros((2048, 1), tl.float32)\n"
                                "    tl.store(Z, tl.sum(tl.sum(a, 1), 0))\n", "k", "Z:*f32[1]");
    ck_assert_msg(strstr(d, "k.py:8:5: error:") && strstr(d, "[2048, 2048]"), "%s", d);
}
END_TEST

static size_t module_bytes(int nstmts)
{
    strbuf b = { 0 };
    sb_puts(&b, "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(Z):\n    a = 0.0\n");
    for (int i = 0; i < nstmts; i++) sb_puts(&b, "    a = a + 1.0\n");
    sb_puts(&b, "    tl.store(Z, a)\n");
    front_module *m = front_load_text("long.py", b.s);
    ck_assert_ptr_nonnull(m);
    size_t n = m->mem.total;
    front_module_free(m);
    sb_free(&b);
    return n;
}

/* a block's statement list was copied on every push: quadratic memory */
START_TEST(parser_memory_linear)
{
    size_t small = module_bytes(2000), big = module_bytes(20000);
    /* 10x the statements: ~10x the memory when linear, ~100x when quadratic */
    ck_assert_msg(big < 15 * small, "2000 statements: %zu bytes, 20000: %zu bytes", small, big);
}
END_TEST

START_TEST(limits_table)
{
    unsetenv("TRITIUM_MAX_SOURCE_BYTES");
    ck_assert_int_eq(tt_limit(TT_LIM_SOURCE_BYTES), (int64_t)8 << 20);
    ck_assert_int_eq(tt_limit(TT_LIM_TILE_NUMEL), 1048576);
    setenv("TRITIUM_MAX_SOURCE_BYTES", "3K", 1);
    ck_assert_int_eq(tt_limit(TT_LIM_SOURCE_BYTES), 3072);
    setenv("TRITIUM_MAX_SOURCE_BYTES", "2G", 1);
    ck_assert_int_eq(tt_limit(TT_LIM_SOURCE_BYTES), (int64_t)2 << 30);
    setenv("TRITIUM_MAX_SOURCE_BYTES", "99999999999999999999", 1);   /* malformed: the default */
    ck_assert_int_eq(tt_limit(TT_LIM_SOURCE_BYTES), (int64_t)8 << 20);
    setenv("TRITIUM_MAX_SOURCE_BYTES", "100", 1);
    char *msg = tt_limit_exceeded(TT_LIM_SOURCE_BYTES);
    ck_assert_str_eq(msg, "a kernel source file exceeds the limit of 100 bytes (set TRITIUM_MAX_SOURCE_BYTES to raise it)");
    free(msg);
    /* the bounded reader: a file past the limit, an endless file, a directory */
    char path[] = "/tmp/tritium-limits-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    char buf[150];
    memset(buf, 'x', sizeof buf);
    ck_assert_int_eq(write(fd, buf, sizeof buf), (int)sizeof buf);
    close(fd);
    size_t len;
    errno = 0;
    ck_assert_ptr_null(tt_read_file_limited(path, TT_LIM_SOURCE_BYTES, &len));
    ck_assert_int_eq(errno, EFBIG);
    setenv("TRITIUM_MAX_SOURCE_BYTES", "150", 1);
    char *t = tt_read_file_limited(path, TT_LIM_SOURCE_BYTES, &len);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(len, 150);
    free(t);
    errno = 0;
    ck_assert_ptr_null(tt_read_file_limited("/dev/zero", TT_LIM_SOURCE_BYTES, &len));
    ck_assert_int_eq(errno, EFBIG);
    errno = 0;
    ck_assert_ptr_null(tt_read_file_limited("/tmp", TT_LIM_SOURCE_BYTES, &len));
    ck_assert_int_eq(errno, EISDIR);
    unsetenv("TRITIUM_MAX_SOURCE_BYTES");
    remove(path);
}
END_TEST

START_TEST(checked_arithmetic)
{
    const char *s = "9223372036854775807x";
    int64_t v;
    ck_assert(tt_parse_digits(&s, &v));
    ck_assert_int_eq(v, INT64_MAX);
    ck_assert_str_eq(s, "x");
    s = "9223372036854775808";
    ck_assert(!tt_parse_digits(&s, &v));
    ck_assert_str_eq(s, "9223372036854775808");   /* unchanged on overflow */
    s = "18446744073709551617";
    ck_assert(!tt_parse_digits(&s, &v));
    s = "-1";
    ck_assert(!tt_parse_digits(&s, &v));
    ck_assert_int_eq(tt_sat_add(INT64_MAX, 1), INT64_MAX);
    ck_assert_int_eq(tt_sat_add(INT64_MIN, -1), INT64_MIN);
    ck_assert_int_eq(tt_sat_mul(INT64_MAX / 2, 3), INT64_MAX);
    ck_assert_int_eq(tt_sat_mul(INT64_MIN, -1), INT64_MAX);
    ck_assert_int_eq(tt_sat_mul(-4, 5), -20);
    int64_t r;
    ck_assert(tt_mul_overflow(INT64_MAX, 2, &r));
    ck_assert(!tt_add_overflow(40, 2, &r) && r == 42);
}
END_TEST

/* item 8: a pointer bitcast to int64 failed IR verification; Triton 3.6
 * semantic.py bitcast makes it a cast (ptr_to_int, int_to_ptr) */
START_TEST(pointer_bitcast)
{
    ir_func *f = compile_ok("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(X, Z):\n"
                            "    q = X.to(tl.int64, bitcast=True)\n"
                            "    p = (X + tl.arange(0, 4)).to(tl.int64, bitcast=True)\n"
                            "    y = q.to(tl.pointer_type(tl.float32), bitcast=True)\n"
                            "    tl.store(Z + tl.arange(0, 4), p - q)\n"
                            "    tl.store(y, 1.0)\n", "k", "X:*f32[4] Z:*i64[4]");
    ck_assert_int_eq(count_ops(f, IR_PTR_TO_INT), 2);
    ck_assert_int_eq(count_ops(f, IR_INT_TO_PTR), 1);
    ir_func_free(f);
    /* a pointer to int32: Triton's cast refuses it; here a located error */
    const char *d = compile_err("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(X, Z):\n"
                                "    q = X.to(tl.int32, bitcast=True)\n"
                                "    tl.store(Z, q)\n", "k", "X:*f32[4] Z:*i32[4]");
    ck_assert_msg(strstr(d, "k.py:7:11: error: a pointer can only be cast to int64"), "%s", d);
    ck_assert_msg(!strstr(d, "internal error"), "%s", d);
}
END_TEST

/* item 10: TabError, invalid UTF-8, and a deep helper chain that is not recursion */
START_TEST(python_source_rules)
{
    const char *d = compile_err("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(Z):\n"
                                "        x = 1.0\n"
                                "\tx = x + 1.0\n"
                                "        tl.store(Z, x)\n", "k", "Z:*f32[1]");
    ck_assert_msg(strstr(d, "k.py:8:2: error: inconsistent use of tabs and spaces in indentation (TabError)"), "%s", d);
    /* tabs alone, or spaces alone, are fine */
    ir_func_free(compile_ok("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(Z):\n"
                            "\tx = 1.0\n\tif x > 0:\n\t\tx = x + 1.0\n\ttl.store(Z, x)\n", "k", "Z:*f32[1]"));
    d = compile_err("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(Z):\n"
                    "    x\xff = 1.0\n    tl.store(Z, x)\n", "k", "Z:*f32[1]");
    ck_assert_msg(strstr(d, "k.py:7:6: error: the file is not valid UTF-8 (byte 0xff)"), "%s", d);
    d = compile_err("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(Z):\n"
                    "    x = 1.0  # \xc0\xaf overlong\n    tl.store(Z, x)\n", "k", "Z:*f32[1]");
    ck_assert_msg(strstr(d, "not valid UTF-8 (byte 0xc0)"), "%s", d);
    ir_func_free(compile_ok("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(Z):\n"
                            "    x\xc3\xa9 = 1.0  # caf\xc3\xa9 \xf0\x9f\x99\x82\n    tl.store(Z, x\xc3\xa9)\n",
                            "k", "Z:*f32[1]"));
    /* a chain of 70 distinct helpers: past the inliner's depth, not "recursion" */
    strbuf b = { 0 };
    sb_puts(&b, "import triton\nimport triton.language as tl\n\n\n");
    for (int i = 0; i < 70; i++) sb_printf(&b, "@triton.jit\ndef h%d(x):\n    return h%d(x) + 1.0\n\n\n", i, i + 1);
    sb_puts(&b, "@triton.jit\ndef h70(x):\n    return x\n\n\n@triton.jit\ndef k(Z):\n    tl.store(Z, h0(1.0))\n");
    d = compile_err(b.s, "k", "Z:*f32[1]");
    ck_assert_msg(strstr(d, "helper calls nested more than 64 deep"), "%s", d);
    ck_assert_msg(!strstr(d, "recursion"), "%s", d);
    sb_free(&b);
    d = compile_err("import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef f(x):\n    return g(x)\n\n\n"
                    "@triton.jit\ndef g(x):\n    return f(x)\n\n\n@triton.jit\ndef k(Z):\n    tl.store(Z, f(1.0))\n",
                    "k", "Z:*f32[1]");
    ck_assert_msg(strstr(d, "'f' calls itself: recursion is not supported"), "%s", d);
}
END_TEST

TCase *tc_limits(void)
{
    TCase *tc = tcase_create("limits");
    tcase_add_test(tc, tile_limit_everywhere);
    tcase_add_test(tc, tile_limit_augassign);
    tcase_add_test(tc, parser_memory_linear);
    tcase_add_test(tc, limits_table);
    tcase_add_test(tc, checked_arithmetic);
    tcase_add_test(tc, pointer_bitcast);
    tcase_add_test(tc, python_source_rules);
    return tc;
}
