/* test_deadcode.c — statically dead code is not compiled, as in Triton 3.6
 * (compiler/code_generator.py: visit_If visits only the branch a constexpr
 * condition takes; visit_For and visit_While find the loop-carried values
 * by compiling the body once). A branch a constexpr condition does not take
 * takes no part in the loop-carry analysis of a runtime loop, nor in the
 * results of a runtime if: a None pointer advanced only under `if HAS_Y:`
 * with HAS_Y False is no loop-carried value (the launch pattern of a
 * heuristic that turns a feature off). The kernels run in the interpreter
 * and their results are compared with plain C loops. */
#include "tfront.h"
#include "tritium/interp.h"

static const char for_src[] = PRELUDE
    "def k(X, Y, Z, N, HAS_Y: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    acc = tl.zeros([BLOCK], tl.float32)\n"
    "    for i in range(0, N, BLOCK):\n"
    "        acc += tl.load(X + offs)\n"
    "        X += BLOCK\n"
    "        if HAS_Y:\n"
    "            acc += tl.load(Y + offs)\n"
    "            Y += BLOCK\n"
    "    tl.store(Z + offs, acc)\n";

/* The same as a while loop, the pointer guarded by `Y is not None` (a
 * condition that reads Y itself) and a nested constexpr if. */
static const char while_src[] = PRELUDE
    "def kw(X, Y, Z, N, HAS_Y: tl.constexpr, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    acc = tl.zeros([BLOCK], tl.float32)\n"
    "    i = 0\n"
    "    while i < N:\n"
    "        acc += tl.load(X + offs)\n"
    "        X += BLOCK\n"
    "        if Y is not None:\n"
    "            if HAS_Y:\n"
    "                acc += 2.0 * tl.load(Y + offs)\n"
    "                Y += BLOCK\n"
    "            else:\n"
    "                acc -= 1.0\n"
    "        i += BLOCK\n"
    "    tl.store(Z + offs, acc)\n";

enum { BLOCK = 16, NBLK = 5 };   /* the launches: N = 80 = NBLK * BLOCK */

/* Compile `kernel` of src for spec (tensors X:*f32[80], then Y:*f32[80]
 * when it is one, then Z:*f32[16]), fill X and Y, run it in the interpreter and
 * return the number of IR_FOR/IR_WHILE results (the loop-carried values) in
 * *carried. The caller frees l. */
static void run(const char *src, const char *kernel, const char *spec, launch *l, int loop_opc, int *carried)
{
    mk_launch(l, spec);
    for (int a = 0; a < l->nargs; a++) {
        if (l->args[a].kind != ARG_TENSOR || l->args[a].tensor->dtype != TT_F32) continue;
        tt_tensor *t = l->args[a].tensor;
        float *d = t->data;
        for (int64_t e = 0; e < tt_tensor_numel(t); e++) d[e] = a == 0 ? (float)e * 0.5f + 1.0f : (float)(e % 7) - 2.5f;
    }
    cap_start();
    front_module *m = front_load_text("k.py", src);
    ir_func *f = m ? front_compile(m, kernel, l) : NULL;
    const char *d = cap_end();
    ck_assert_msg(f != NULL, "'%s' (%s) did not compile:\n%s", kernel, spec, d);
    const ir_op *loop = find_op(f, loop_opc, 0);
    ck_assert_ptr_nonnull(loop);
    *carried = loop->nres;
    interp_options o;
    interp_options_default(&o);
    interp_session *s = interp_session_new(f, l, &o);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(interp_run_launch(s), 0);
    interp_stats st;
    interp_get_stats(s, &st);
    ck_assert_int_eq(st.faults, 0);
    interp_session_free(s);
    ir_func_free(f);
    front_module_free(m);
}

/* Z[j] = sum over the blocks b of X[b*BLOCK + j] + ky * Y[b*BLOCK + j] (y
 * NULL: of X alone) + kc. */
static void check_z(const float *x, const float *y, float ky, float kc, const float *z)
{
    for (int j = 0; j < BLOCK; j++) {
        float want = 0.0f;
        for (int b = 0; b < NBLK; b++) {
            want += x[b * BLOCK + j];
            if (y) want += ky * y[b * BLOCK + j];
            want += kc;
        }
        ck_assert_msg(z[j] == want, "Z[%d] = %.9g, want %.9g", j, z[j], want);
    }
}

#define SPEC_N "N:i32=80 BLOCK=16"

/* Y is None and only advanced under `if HAS_Y:` (False): it is no
 * loop-carried value; the loop carries acc and X. */
START_TEST(dead_branch_pointer_not_carried_for)
{
    launch l;
    int carried;
    run(for_src, "k", "X:*f32[80] Z:*f32[16] Y=None HAS_Y=False " SPEC_N, &l, IR_FOR, &carried);
    ck_assert_int_eq(carried, 2);
    check_z(l.args[0].tensor->data, NULL, 0.0f, 0.0f, l.args[1].tensor->data);
    launch_free(&l);
}
END_TEST

/* HAS_Y True with a real Y: Y is carried too and read block by block. */
START_TEST(live_branch_pointer_carried_for)
{
    launch l;
    int carried;
    run(for_src, "k", "X:*f32[80] Y:*f32[80] Z:*f32[16] HAS_Y=True " SPEC_N, &l, IR_FOR, &carried);
    ck_assert_int_eq(carried, 3);
    check_z(l.args[0].tensor->data, l.args[1].tensor->data, 1.0f, 0.0f, l.args[2].tensor->data);
    launch_free(&l);

    /* HAS_Y False with a real Y: the dead branch is not compiled, Y not carried */
    run(for_src, "k", "X:*f32[80] Y:*f32[80] Z:*f32[16] HAS_Y=False " SPEC_N, &l, IR_FOR, &carried);
    ck_assert_int_eq(carried, 2);
    check_z(l.args[0].tensor->data, NULL, 0.0f, 0.0f, l.args[2].tensor->data);
    launch_free(&l);
}
END_TEST

START_TEST(dead_branch_pointer_not_carried_while)
{
    launch l;
    int carried;
    /* Y None: `Y is not None` is a constexpr False; carried: acc, X, i */
    run(while_src, "kw", "X:*f32[80] Z:*f32[16] Y=None HAS_Y=True " SPEC_N, &l, IR_WHILE, &carried);
    ck_assert_int_eq(carried, 3);
    check_z(l.args[0].tensor->data, NULL, 0.0f, 0.0f, l.args[1].tensor->data);
    launch_free(&l);

    /* a real Y, HAS_Y True: Y carried, Z = sum X + 2 Y */
    run(while_src, "kw", "X:*f32[80] Y:*f32[80] Z:*f32[16] HAS_Y=True " SPEC_N, &l, IR_WHILE, &carried);
    ck_assert_int_eq(carried, 4);
    check_z(l.args[0].tensor->data, l.args[1].tensor->data, 2.0f, 0.0f, l.args[2].tensor->data);
    launch_free(&l);

    /* a real Y, HAS_Y False: the nested else is live (acc -= 1), Y is not carried */
    run(while_src, "kw", "X:*f32[80] Y:*f32[80] Z:*f32[16] HAS_Y=False " SPEC_N, &l, IR_WHILE, &carried);
    ck_assert_int_eq(carried, 3);
    check_z(l.args[0].tensor->data, NULL, 0.0f, -1.0f, l.args[2].tensor->data);
    launch_free(&l);
}
END_TEST

/* The reassignment of a None is still an error where it is live: the taken
 * branch of a constexpr if (then or else), a runtime if, a live static if
 * inside a runtime if, and the same in a while loop. */
START_TEST(live_branch_none_reassign_rejected)
{
    const char *d = compile_err(for_src, "k", "X:*f32[80] Z:*f32[16] Y=None HAS_Y=True " SPEC_N);
    ck_assert_msg(strstr(d, "'Y' (None) is reassigned in a runtime loop"), "got %s", d);

    static const char else_src[] = PRELUDE
        "def k(X, Y, NO_Y: tl.constexpr):\n"
        "    for i in range(0, 4):\n"
        "        if NO_Y:\n"
        "            pass\n"
        "        else:\n"
        "            Y += 1\n"
        "        X += 1\n"
        "    tl.store(X, 1.0)\n";
    d = compile_err(else_src, "k", "X:*f32[16] Y=None NO_Y=False");
    ck_assert_msg(strstr(d, "'Y' (None) is reassigned in a runtime loop"), "got %s", d);
    ir_func *f = compile_ok(else_src, "k", "X:*f32[16] Y=None NO_Y=True");
    ck_assert_int_eq(find_op(f, IR_FOR, 0)->nres, 1);
    ir_func_free(f);

    static const char rt_src[] = PRELUDE
        "def k(X, Y, N, HAS_Y: tl.constexpr):\n"
        "    for i in range(0, N):\n"
        "        if i > 2:\n"
        "            if HAS_Y:\n"
        "                Y += 1\n"
        "        X += 1\n"
        "    tl.store(X, 1.0)\n";
    d = compile_err(rt_src, "k", "X:*f32[16] Y=None N:i32=4 HAS_Y=True");
    ck_assert_msg(strstr(d, "'Y' (None) is reassigned in a runtime loop"), "got %s", d);
    f = compile_ok(rt_src, "k", "X:*f32[16] Y=None N:i32=4 HAS_Y=False");
    ck_assert_int_eq(find_op(f, IR_FOR, 0)->nres, 1);
    ck_assert_int_eq(count_ops(f, IR_IF), 1);
    ck_assert_int_eq(find_op(f, IR_IF, 0)->nres, 0);   /* Y is no result of the runtime if either */
    ir_func_free(f);

    /* a condition that reads a name the loop changes is not decided ahead:
     * both branches count (here k is a tensor, the if a runtime one) */
    static const char varying_src[] = PRELUDE
        "def k(X, Y, N):\n"
        "    k = 0\n"
        "    for i in range(0, N):\n"
        "        if k > 0:\n"
        "            Y += 1\n"
        "        k = 1\n"
        "    tl.store(X, 1.0)\n";
    d = compile_err(varying_src, "k", "X:*f32[16] Y=None N:i32=4");
    ck_assert_msg(strstr(d, "'Y' (None) is reassigned in a runtime loop"), "got %s", d);

    static const char while_live_src[] = PRELUDE
        "def k(X, Y, N, HAS_Y: tl.constexpr):\n"
        "    i = 0\n"
        "    while i < N:\n"
        "        if HAS_Y:\n"
        "            Y += 1\n"
        "        i += 1\n"
        "    tl.store(X, 1.0)\n";
    d = compile_err(while_live_src, "k", "X:*f32[16] Y=None N:i32=4 HAS_Y=True");
    ck_assert_msg(strstr(d, "'Y' (None) is reassigned in a runtime loop"), "got %s", d);
    f = compile_ok(while_live_src, "k", "X:*f32[16] Y=None N:i32=4 HAS_Y=False");
    ck_assert_int_eq(find_op(f, IR_WHILE, 0)->nres, 1);   /* i */
    ir_func_free(f);
}
END_TEST

/* Types: a value whose type changes only in dead code keeps its type, and a
 * constexpr assigned only in dead code stays a constexpr after the loop (it
 * is no loop-carried value: tl.arange takes it); live, both are errors. */
static const char type_src[] = PRELUDE
    "def kt(X, Z, N, LOWP: tl.constexpr, BLOCK: tl.constexpr, W: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    acc = tl.zeros([BLOCK], tl.float32)\n"
    "    for i in range(0, N, BLOCK):\n"
    "        x = tl.load(X + i + offs)\n"
    "        if LOWP:\n"
    "            acc = acc.to(tl.float16)\n"
    "            W = W * 2\n"
    "        if tl.sum(x) > 0.0:\n"
    "            if not LOWP:\n"
    "                pass\n"
    "            else:\n"
    "                W = 1\n"
    "        acc += x\n"
    "    tl.store(Z + tl.arange(0, W), acc)\n";

START_TEST(dead_branch_type_change_ignored)
{
    launch l;
    int carried;
    run(type_src, "kt", "X:*f32[80] Z:*f32[16] LOWP=False W=16 " SPEC_N, &l, IR_FOR, &carried);
    ck_assert_int_eq(carried, 1);   /* acc alone, as f32 */
    check_z(l.args[0].tensor->data, NULL, 0.0f, 0.0f, l.args[1].tensor->data);
    launch_free(&l);

    ir_func *f = compile_ok(type_src, "kt", "X:*f32[80] Z:*f32[16] LOWP=False W=16 " SPEC_N);
    ck_assert_str_eq(rtype(f, find_op(f, IR_FOR, 0)), "tensor<16xf32>");
    ck_assert_int_eq(find_op(f, IR_IF, 0)->nres, 0);   /* W is no result of the runtime if */
    ir_func_free(f);

    const char *d = compile_err(type_src, "kt", "X:*f32[80] Z:*f32[16] LOWP=True W=16 " SPEC_N);
    ck_assert_msg(strstr(d, "cannot reassign constexpr 'W' in a loop"), "got %s", d);
    static const char acc_src[] = PRELUDE
        "def k(X, LOWP: tl.constexpr):\n"
        "    acc = tl.zeros([16], tl.float32)\n"
        "    for i in range(0, 4):\n"
        "        if LOWP:\n"
        "            acc = acc.to(tl.float16)\n"
        "        acc += 1.0\n"
        "    tl.store(X + tl.arange(0, 16), acc)\n";
    f = compile_ok(acc_src, "k", "X:*f32[16] LOWP=False");
    ck_assert_str_eq(rtype(f, find_op(f, IR_FOR, 0)), "tensor<16xf32>");
    ir_func_free(f);
    d = compile_err(acc_src, "k", "X:*f32[16] LOWP=True");
    ck_assert_msg(strstr(d, "make sure its type stays the same"), "got %s", d);
}
END_TEST

/* Deciding a condition ahead of the loop leaves no IR behind, and one that
 * is an error there (an undefined name, read before the loop defines it) is
 * reported once, where the loop compiles it. */
START_TEST(ahead_decision_leaves_no_trace)
{
    ir_func *f = compile_ok(for_src, "k", "X:*f32[80] Z:*f32[16] Y=None HAS_Y=False " SPEC_N);
    ir_func *g = compile_ok(PRELUDE
        "def k(X, Y, Z, N, HAS_Y: tl.constexpr, BLOCK: tl.constexpr):\n"
        "    offs = tl.arange(0, BLOCK)\n"
        "    acc = tl.zeros([BLOCK], tl.float32)\n"
        "    for i in range(0, N, BLOCK):\n"
        "        acc += tl.load(X + offs)\n"
        "        X += BLOCK\n"
        "    tl.store(Z + offs, acc)\n", "k", "X:*f32[80] Z:*f32[16] Y=None HAS_Y=False " SPEC_N);
    ck_assert_int_eq(f->regions.n, g->regions.n);
    ck_assert_int_eq(f->values.n, g->values.n);
    ck_assert_int_eq(total_ops(f), total_ops(g));
    ir_func_free(f);
    ir_func_free(g);

    /* a runtime condition decided ahead: its ops are gone, only the real if's remain */
    f = compile_ok(PRELUDE
        "def k(X, N):\n"
        "    pid = tl.program_id(0)\n"
        "    acc = 0.0\n"
        "    for i in range(0, N):\n"
        "        if pid > 0:\n"
        "            acc += 1.0\n"
        "    tl.store(X, acc)\n", "k", "X:*f32[16] N:i32=4");
    ck_assert_int_eq(f->regions.n, 4);   /* the body, the loop's, the if's two */
    ck_assert_int_eq(count_ops(f, IR_CMPI), 1);
    ir_func_free(f);

    const char *d = compile_err(PRELUDE
        "def k(X, Y, N):\n"
        "    for i in range(0, N):\n"
        "        if UNDEFINED_FLAG:\n"
        "            Y += 1\n"
        "        X += 1\n"
        "    tl.store(X, 1.0)\n", "k", "X:*f32[16] Y:*f32[16] N:i32=4");
    ck_assert_int_eq(count_str(d, "error:"), 1);
    ck_assert_msg(strstr(d, "k.py:6:12: error: name 'UNDEFINED_FLAG' is not defined"), "got %s", d);
}
END_TEST

/* A condition that reads a name the construct assigns is not decided
 * ahead (the name may hold another value where the if is): both branches
 * count. Here it would be decided wrongly: D is float32 in front of the
 * runtime if, float16 at the inner if; USE is the global False in front of
 * the loop, the local True in it. */
START_TEST(varying_condition_not_decided_ahead)
{
    static const char src[] =
        "import triton\n"
        "import triton.language as tl\n"
        "USE = tl.constexpr(False)\n"
        "@triton.jit\n"
        "def k(X, S, N):\n"
        "    D = tl.float32\n"
        "    w = 16\n"
        "    if tl.load(S) > 0:\n"
        "        D = tl.float16\n"
        "        if D == tl.float16:\n"
        "            w = 1\n"
        "    v = 0\n"
        "    for i in range(0, N):\n"
        "        USE: tl.constexpr = True\n"
        "        if USE:\n"
        "            v += 2\n"
        "    tl.store(X, w)\n"
        "    tl.store(X + 1, v)\n";
    for (int pos = 0; pos < 2; pos++) {
        launch l;
        mk_launch(&l, "X:*i32[2] S:*i32[1] N:i32=5");
        ((int32_t *)l.args[1].tensor->data)[0] = pos;
        front_module *m = front_load_text("k.py", src);
        ck_assert_ptr_nonnull(m);
        ir_func *f = front_compile(m, "k", &l);
        ck_assert_ptr_nonnull(f);
        interp_options o;
        interp_options_default(&o);
        interp_session *s = interp_session_new(f, &l, &o);
        ck_assert_ptr_nonnull(s);
        ck_assert_int_eq(interp_run_launch(s), 0);
        interp_session_free(s);
        const int32_t *x = l.args[0].tensor->data;
        ck_assert_int_eq(x[0], pos ? 1 : 16);
        ck_assert_int_eq(x[1], 10);
        ir_func_free(f);
        front_module_free(m);
        launch_free(&l);
    }
}
END_TEST

TCase *tc_deadcode(void)
{
    TCase *tc = tcase_create("deadcode");
    tcase_add_test(tc, dead_branch_pointer_not_carried_for);
    tcase_add_test(tc, live_branch_pointer_carried_for);
    tcase_add_test(tc, dead_branch_pointer_not_carried_while);
    tcase_add_test(tc, live_branch_none_reassign_rejected);
    tcase_add_test(tc, dead_branch_type_change_ignored);
    tcase_add_test(tc, ahead_decision_leaves_no_trace);
    tcase_add_test(tc, varying_condition_not_decided_ahead);
    return tc;
}
