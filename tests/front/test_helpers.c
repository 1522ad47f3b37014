/* test_helpers.c — calls of @triton.jit helpers (docs/reference/triton-semantics.md §2.1):
 * inlined, re-specialized per constexpr argument, keyword arguments, tuple
 * returns, and inline locations (ir_loc.func / ir_loc.caller). */
#include "tfront.h"

/* A helper defined after its caller (globals resolve at compile time). */
START_TEST(helper_defined_after_caller)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"
        "    offs = tl.arange(0, 16)\n"
        "    x = tl.load(X + offs)\n"
        "    tl.store(Y + offs, twice(x))\n"
        "\n"
        "\n"
        "@triton.jit\n"
        "def twice(v):\n"
        "    return v * 2.0\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] Y:*f32[16]");
    ck_assert_int_eq(count_ops(f, IR_MULF), 1);
    ir_op *m = find_op(f, IR_MULF, 0);
    ck_assert_str_eq(rtype(f, m), "tensor<16xf32>");
    ck_assert_int_eq(find_op(f, IR_STORE, 0)->opnd[1], m->res);
    ir_func_free(f);
}
END_TEST

static const char kw_src[] = PRELUDE
    "def k(X, Y):\n"
    "    offs = tl.arange(0, 16)\n"
    "    x = tl.load(X + offs)\n"
    "    tl.store(Y + offs, scale_add(x, b=1.0, a=3.0) + with_default(x))\n"
    "\n"
    "@triton.jit\n"
    "def scale_add(v, a, b):\n"
    "    return v * a + b\n"
    "\n"
    "@triton.jit\n"
    "def with_default(v, k=5.0):\n"
    "    return v - k\n";

START_TEST(keyword_arguments_and_defaults)
{
    ir_func *f = compile_ok(kw_src, "k", "X:*f32[16] Y:*f32[16]");
    ir_op *m = find_op(f, IR_MULF, 0);
    double c = 0;
    ck_assert_msg(const_of(f, m->opnd[1], &c) && c == 3.0, "v * a: a must be 3.0, got %g", c);
    ck_assert_int_eq(count_ops(f, IR_SUBF), 1);
    ir_op *s = find_op(f, IR_SUBF, 0);
    ck_assert_msg(const_of(f, s->opnd[1], &c) && c == 5.0, "default k must be 5.0, got %g", c);
    /* scale_add's + b: one of the ADDFs adds the constant 1.0 */
    bool found = false;
    for (int i = 0; i < count_ops(f, IR_ADDF); i++) {
        ir_op *a = find_op(f, IR_ADDF, i);
        found |= const_of(f, a->opnd[1], &c) && c == 1.0;
    }
    ck_assert_msg(found, "scale_add(b=1.0) must add 1.0");
    ir_func_free(f);

    static const char bad[] = PRELUDE
        "def k(X):\n"
        "    tl.store(X, h(1, c=2))\n"
        "@triton.jit\n"
        "def h(a, b=0):\n"
        "    return a + b\n";
    const char *d = compile_err(bad, "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "k.py:5:") && strstr(d, "'c'"), "%s", d);

    static const char missing[] = PRELUDE
        "def k(X):\n"
        "    tl.store(X, h(1))\n"
        "@triton.jit\n"
        "def h(a, b):\n"
        "    return a + b\n";
    d = compile_err(missing, "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "k.py:5:") && strstr(d, "'b'"), "%s", d);

    static const char extra[] = PRELUDE
        "def k(X):\n"
        "    tl.store(X, h(1, 2, 3))\n"
        "@triton.jit\n"
        "def h(a, b):\n"
        "    return a + b\n";
    d = compile_err(extra, "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "k.py:5:"), "%s", d);
}
END_TEST

/* Each constexpr value specializes the helper anew. */
START_TEST(constexpr_respecialization)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"
        "    a = rng(16)\n"
        "    b = rng(N=32)\n"
        "    x = tl.load(X + a)\n"
        "    y = tl.load(X + b)\n"
        "    tl.store(Y + a, mulk(x, 2))\n"
        "    tl.store(Y + b, mulk(y, 3))\n"
        "\n"
        "@triton.jit\n"
        "def rng(N: tl.constexpr):\n"
        "    return tl.arange(0, N)\n"
        "\n"
        "@triton.jit\n"
        "def mulk(v, k):\n"
        "    if k == 2:\n"
        "        return v * k\n"
        "    return v + k\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[64] Y:*f32[64]");
    ck_assert_int_eq(count_ops(f, IR_MAKE_RANGE), 2);
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 0)->attr[1], 16);
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 1)->attr[1], 32);
    /* mulk(x, 2): k == 2 is static, v * 2.0; mulk(y, 3): v + 3.0 */
    ck_assert_int_eq(count_ops(f, IR_IF), 0);
    ck_assert_int_eq(count_ops(f, IR_MULF), 1);
    ck_assert_int_eq(count_ops(f, IR_ADDF), 1);
    double c;
    ck_assert(const_of(f, find_op(f, IR_MULF, 0)->opnd[1], &c) && c == 2.0);
    ck_assert(const_of(f, find_op(f, IR_ADDF, 0)->opnd[1], &c) && c == 3.0);
    ck_assert_str_eq(rtype(f, find_op(f, IR_ADDF, 0)), "tensor<32xf32>");
    ir_func_free(f);
}
END_TEST

START_TEST(tuple_return)
{
    static const char src[] = PRELUDE
        "def k(X, Y, Z):\n"
        "    offs = tl.arange(0, 16)\n"
        "    x = tl.load(X + offs)\n"
        "    a, b = two(x)\n"
        "    t = two(x)\n"
        "    tl.store(Y + offs, a + t[1])\n"
        "    tl.store(Z + offs, b.to(tl.int32))\n"
        "\n"
        "@triton.jit\n"
        "def two(v):\n"
        "    return v + 1.0, v > 0.0\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] Y:*f32[16] Z:*i32[16]");
    ck_assert_str_eq(vtype(f, find_named(f, "a")), "tensor<16xf32>");
    ck_assert_str_eq(vtype(f, find_named(f, "b")), "tensor<16xi1>");
    ck_assert_int_eq(count_ops(f, IR_CMPF), 2);   /* two calls, two copies */
    ir_func_free(f);
}
END_TEST

/* return inside a helper that is called inside a runtime loop is fine (the
 * helper is inlined; only a return *in* the loop is rejected). */
START_TEST(helper_with_return_in_loop)
{
    static const char src[] = PRELUDE
        "def k(X, n):\n"
        "    offs = tl.arange(0, 16)\n"
        "    acc = tl.zeros([16], tl.float32)\n"
        "    for i in range(n):\n"
        "        acc = step(acc, tl.load(X + offs))\n"
        "    tl.store(X + offs, acc)\n"
        "\n"
        "@triton.jit\n"
        "def step(a, v):\n"
        "    return a + v * 0.5\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] n:i32=2");
    ir_op *fo = find_op(f, IR_FOR, 0);
    ck_assert_ptr_nonnull(fo);
    ck_assert_int_eq(count_ops_in(f, fo->region[0], IR_MULF), 1);
    ir_func_free(f);
}
END_TEST

/* Inline locations: ops from a helper carry func == helper and a caller
 * location at the call site, itself in the kernel. */
START_TEST(inline_locations)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"                        /* 4 */
        "    offs = tl.arange(0, 16)\n"         /* 5 */
        "    x = tl.load(X + offs)\n"           /* 6 */
        "    y = outer(x)\n"                    /* 7 */
        "    tl.store(Y + offs, y)\n"           /* 8 */
        "\n"                                    /* 9 */
        "@triton.jit\n"                         /* 10 */
        "def outer(v):\n"                       /* 11 */
        "    w = v * 3.0\n"                     /* 12 */
        "    return inner(w)\n"                 /* 13 */
        "\n"                                    /* 14 */
        "@triton.jit\n"                         /* 15 */
        "def inner(u):\n"                       /* 16 */
        "    return u - 1.0\n";                 /* 17 */
    ir_func *f = compile_ok(src, "k", "X:*f32[16] Y:*f32[16]");
    /* the load: kernel code, no caller */
    ir_op *ld = find_op(f, IR_LOAD, 0);
    ck_assert_int_ge(ld->loc, 0);
    ir_loc *l = &f->locs.v[ld->loc];
    ck_assert_int_eq(l->line, 6);
    ck_assert_int_eq(l->caller, -1);
    ck_assert_str_eq(l->func, "k");
    /* v * 3.0 in outer */
    ir_op *m = find_op(f, IR_MULF, 0);
    l = &f->locs.v[m->loc];
    ck_assert_int_eq(l->line, 12);
    ck_assert_str_eq(l->func, "outer");
    ck_assert_int_ne(l->caller, -1);
    ir_loc *c = &f->locs.v[l->caller];
    ck_assert_int_eq(c->line, 7);
    ck_assert_int_eq(c->col, 9);
    ck_assert_str_eq(c->func, "k");
    ck_assert_int_eq(c->caller, -1);
    /* u - 1.0 in inner: inner <- outer line 13 <- k line 7 */
    ir_op *s = find_op(f, IR_SUBF, 0);
    l = &f->locs.v[s->loc];
    ck_assert_int_eq(l->line, 17);
    ck_assert_str_eq(l->func, "inner");
    ck_assert_int_ne(l->caller, -1);
    c = &f->locs.v[l->caller];
    ck_assert_int_eq(c->line, 13);
    ck_assert_str_eq(c->func, "outer");
    ck_assert_int_ne(c->caller, -1);
    ck_assert_int_eq(f->locs.v[c->caller].line, 7);
    ck_assert_str_eq(f->locs.v[c->caller].func, "k");
    /* the store after the call is kernel code again */
    ir_op *st = find_op(f, IR_STORE, 0);
    ck_assert_int_eq(f->locs.v[st->loc].line, 8);
    ck_assert_int_eq(f->locs.v[st->loc].caller, -1);
    ir_func_free(f);
}
END_TEST

/* Rebinding a parameter inside a helper does not touch the caller's name. */
START_TEST(helper_parameters_are_local)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"
        "    x = tl.load(X)\n"
        "    v = bump(x)\n"
        "    tl.store(Y, x)\n"
        "    tl.store(Y, v)\n"
        "@triton.jit\n"
        "def bump(x):\n"
        "    x = x + 1.0\n"
        "    return x\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[1] Y:*f32[1]");
    ck_assert_int_eq(def_opc(f, find_op(f, IR_STORE, 0)->opnd[1]), IR_LOAD);
    ck_assert_int_eq(def_opc(f, find_op(f, IR_STORE, 1)->opnd[1]), IR_ADDF);
    ir_func_free(f);
}
END_TEST

START_TEST(recursion_is_an_error)
{
    static const char src[] = PRELUDE
        "def k(X):\n"
        "    tl.store(X, rec(1))\n"
        "\n"
        "@triton.jit\n"
        "def rec(n):\n"
        "    return rec(n + 1)\n";
    const char *d = compile_err(src, "k", "X:*i32[16]");
    ck_assert_msg(count_str(d, "error:") >= 1, "%s", d);
}
END_TEST


/* ---- known bugs ---- */

/* Python module semantics: a later `def h` replaces the earlier one, and
 * Triton resolves h from the module globals at compile time. */
START_TEST(helper_redefinition_last_wins)
{
    static const char src[] = PRELUDE
        "def h(v):\n"
        "    return v + 1.0\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    tl.store(X, h(tl.load(X)))\n"
        "@triton.jit\n"
        "def h(v):\n"
        "    return v * 2.0\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[1]");
    ck_assert_int_eq(count_ops(f, IR_MULF), 1);
    ck_assert_int_eq(count_ops(f, IR_ADDF), 0);
    ir_func_free(f);
}
END_TEST

void add_helpers_known_bugs(TCase *tc);
void add_helpers_known_bugs(TCase *tc)
{
    (void)tc;
}

TCase *tc_helpers(void)
{
    TCase *tc = tcase_create("helpers");
    tcase_add_test(tc, helper_defined_after_caller);
    tcase_add_test(tc, keyword_arguments_and_defaults);
    tcase_add_test(tc, constexpr_respecialization);
    tcase_add_test(tc, tuple_return);
    tcase_add_test(tc, helper_with_return_in_loop);
    tcase_add_test(tc, inline_locations);
    tcase_add_test(tc, recursion_is_an_error);
    tcase_add_test(tc, helper_parameters_are_local);
    tcase_add_test(tc, helper_redefinition_last_wins);
    return tc;
}
