/* test_tdesc.c — tensor descriptors: what Triton 3.6 refuses at compile time
 * (semantic.py make_tensor_descriptor / descriptor_* asserts and the
 * verifiers of lib/Dialect/Triton/IR/Ops.cpp) is a located error here too,
 * and a descriptor whose shape or base reaches outside its tensor faults in
 * the interpreter, naming the tensor. */
#include "tfront.h"
#include "tritium/interp.h"

#include <stdlib.h>

/* A kernel over X:*f32[16,64], I:*i32[16], H:*f16[16,64] whose body is `body`. */
static const char *err_of(const char *body)
{
    static char src[2048];
    snprintf(src, sizeof src,
             PRELUDE "def k(X, I, H):\n"
                     "    d = tl.make_tensor_descriptor(X, [16, 64], [64, 1], [1, 32])\n"
                     "    e = tl.make_tensor_descriptor(I, [16, 16], [16, 1], [8, 16])\n"
                     "    h = tl.make_tensor_descriptor(H, [16, 64], [64, 1], [8, 16])\n"
                     "    r = tl.load(I + tl.arange(0, 16))\n"
                     "%s\n",
             body);
    return compile_err(src, "k", "X:*f32[16,64] I:*i32[16] H:*f16[16,64]");
}

static void expect_err(const char *body, const char *want)
{
    const char *d = err_of(body);
    ck_assert_msg(strstr(d, want), "%s\nwanted \"%s\", got:\n%s", body, want, d);
    ck_assert_msg(strstr(d, "k.py:"), "%s: the error has no location:\n%s", body, d);
}

START_TEST(tdesc_compile_errors)
{
    /* gather / scatter (verifyGatherScatterOp, descriptor_gather) */
    expect_err("    v = d.gather(tl.arange(0, 4), 0)", "at least 8 rows");
    expect_err("    v = e.gather(r, 0)", "1 row");
    expect_err("    v = d.gather(r.to(tl.int64), 0)", "int32");
    expect_err("    v = d.gather(r[:, None], 0)", "1-D");
    expect_err("    d.scatter(tl.zeros((16, 16), tl.float32), r, 0)", "[16, 32]");
    expect_err("    d.scatter(tl.zeros((16, 32), tl.float16), r, 0)", "same element type");
    /* atomics (descriptor_atomic_*: dtype sets, validate_store_like) */
    expect_err("    d.atomic_and([0, 0], tl.zeros((1, 32), tl.float32))", "unsupported dtype fp32");
    expect_err("    h.atomic_min([0, 0], tl.zeros((8, 16), tl.float16))", "does not support desc.atomic_min on fp16");
    expect_err("    e.atomic_add([0, 0], tl.zeros((8, 8), tl.int32))", "block shape [8, 16]");
    expect_err("    e.atomic_add([0, 0], tl.zeros((8, 16), tl.int64))", "same dtype");
    expect_err("    e.atomic_add([0, 0], tl.zeros((8, 16), tl.float32))", "same dtype");
    expect_err("    e.atomic_add([0, 0], tl.zeros((8, 16), tl.uint32))\n    tl.static_assert(False, 'compiled')", "compiled");
    /* store: exactly the block's shape, cast to its dtype */
    expect_err("    d.store([0, 0], 1.0)", "block shape [1, 32]");
    expect_err("    e.store([0, 0], tl.zeros((16,), tl.int32))", "block shape [8, 16]");
    expect_err("    e.store([0], tl.zeros((8, 16), tl.int32))", "needs 2 offsets");
    /* make_tensor_descriptor */
    expect_err("    f = tl.make_tensor_descriptor(I, [16], [1], [16], padding_option='nan')", "integer blocks");
    expect_err("    f = tl.make_tensor_descriptor(X, [16, 64], [64, 1], [8, 2])", "at least 16 bytes");
    expect_err("    f = tl.make_tensor_descriptor(X, [16, 64], [64, 2], [8, 16])", "last stride must be 1");
    expect_err("    f = tl.make_tensor_descriptor(X, [16, 64], [64, 1], [8, 12])", "power of 2");
    expect_err("    f = tl.make_tensor_descriptor(X, [1, 1, 1, 1, 16, 64], [1, 1, 1, 1, 64, 1], [1, 1, 1, 1, 8, 16])",
               "1 <= ndim <= 5");
    expect_err("    f = tl.make_tensor_descriptor(X, [16, 64], [64, 1], [8, 16], padding_option='inf')", "\"zero\" or \"nan\"");
    /* a descriptor carried through a loop keeps its block and padding (compile-time properties) */
    expect_err("    for i in range(3):\n"
               "        d = tl.make_tensor_descriptor(X, [16, 64], [64, 1], [1, 32], padding_option='nan')",
               "with NaN padding");
    expect_err("    if r.sum() > 0:\n"
               "        d = tl.make_tensor_descriptor(X, [16, 64], [64, 1], [2, 32])\n"
               "    d.store([0, 0], tl.zeros((1, 32), tl.float32))",
               "tensor_descriptor<fp32[2, 32]>");
}
END_TEST

/* Run k(X, Y) over X:*f32[16,64] Y:*f32[16,64] with grid 1; the report text in *rep. */
static interp_stats run_desc(const char *body, char **rep)
{
    char src[1024];
    snprintf(src, sizeof src, PRELUDE "def k(X, Y):\n%s\n", body);
    launch l;
    mk_launch(&l, "X:*f32[16,64] Y:*f32[16,64]");
    front_module *m = front_load_text("k.py", src);
    ck_assert_ptr_nonnull(m);
    ir_func *f = front_compile(m, "k", &l);
    ck_assert_ptr_nonnull(f);
    size_t len;
    interp_options o;
    interp_options_default(&o);
    o.report = open_memstream(rep, &len);
    interp_session *s = interp_session_new(f, &l, &o);
    ck_assert_ptr_nonnull(s);
    interp_run_launch(s);
    interp_stats st;
    interp_get_stats(s, &st);
    interp_session_free(s);
    fclose(o.report);
    ir_func_free(f);
    front_module_free(m);
    launch_free(&l);
    return st;
}

START_TEST(tdesc_faults_name_tensor)
{
    char *rep = NULL;
    /* in bounds of the descriptor: no fault, however far the block reaches past its shape */
    interp_stats st = run_desc("    d = tl.make_tensor_descriptor(X, [16, 64], [64, 1], [32, 64])\n"
                               "    v = d.load([8, 32])\n"
                               "    tl.make_tensor_descriptor(Y, [16, 64], [64, 1], [32, 64]).store([-8, 32], v)", &rep);
    ck_assert_msg(st.faults == 0, "%s", rep);
    free(rep);
    /* a shape larger than the tensor: the lanes past X fault, X is named */
    st = run_desc("    d = tl.make_tensor_descriptor(X, [32, 64], [64, 1], [32, 64])\n"
                  "    v = d.load([0, 0])\n"
                  "    tl.store(Y + tl.arange(0, 64), tl.sum(v, 0))", &rep);
    ck_assert_int_gt(st.faults, 0);
    ck_assert_msg(strstr(rep, "X"), "the report does not name X:\n%s", rep);
    free(rep);
    /* a base outside every buffer: stores fault and are not performed */
    st = run_desc("    d = tl.make_tensor_descriptor(Y + 4096, [16, 64], [64, 1], [8, 16])\n"
                  "    d.store([0, 0], tl.zeros((8, 16), tl.float32))", &rep);
    ck_assert_int_gt(st.faults, 0);
    free(rep);
}
END_TEST

/* TMA's alignment rule for device-side descriptors (Triton's interpreter
 * asserts it): base 16-byte aligned, strides but the last multiples of 16
 * bytes; a violation stops the program with a report naming the rule. */
START_TEST(tdesc_alignment)
{
    static const char *const bodies[] = {
        "    d = tl.make_tensor_descriptor(X + 4, [8, 60], [64, 1], [8, 16])\n    tl.store(Y, d.load([0, 0]).sum())",
        "    d = tl.make_tensor_descriptor(X + 1, [8, 60], [64, 1], [8, 16])\n    tl.store(Y, d.load([0, 0]).sum())",
        "    d = tl.make_tensor_descriptor(X, [8, 60], [63, 1], [8, 16])\n    tl.store(Y, d.load([0, 0]).sum())",
        "    s = tl.load(Y + 1).to(tl.int32) + 62\n"
        "    d = tl.make_tensor_descriptor(X, [8, 60], [s, 1], [8, 16])\n    tl.store(Y, d.load([0, 0]).sum())",
    };
    for (int i = 0; i < 4; i++) {
        char *rep = NULL;
        interp_stats st = run_desc(bodies[i], &rep);
        if (i == 0) ck_assert_msg(st.faults == 0, "%s\n%s", bodies[i], rep);
        else ck_assert_msg(st.faults > 0 && strstr(rep, "16-byte aligned"), "%s\n%s", bodies[i], rep);
        free(rep);
    }
}
END_TEST

TCase *tc_tdesc(void)
{
    TCase *tc = tcase_create("tdesc");
    tcase_add_test(tc, tdesc_compile_errors);
    tcase_add_test(tc, tdesc_faults_name_tensor);
    tcase_add_test(tc, tdesc_alignment);
    return tc;
}
