/* test_tuple.c — compile-time Python values as Triton 3.6 builds them: list
 * comprehensions over tuples (code_generator.py visit_ListComp), tuple + and
 * * (core.py tuple.__add__/__mul__), f-strings of constexprs
 * (visit_JoinedStr), and lazy diagnostics: a jit function
 * that does not parse fails only the launches that reach it (Triton parses
 * a function when a launch first reaches it). Expected values are Python's
 * own results for the same tuple expressions. */
#include "tfront.h"

/* Python: [v * 2 for v in (1, 2, 3)] == [2, 4, 6]; (1, 2) + (3,) == (1, 2, 3);
 * (7,) * 3 == (7, 7, 7). static_assert fails the compile when a value is off. */
START_TEST(comprehension_and_tuple_arith_constexpr)
{
    static const char src[] = PRELUDE
        "def k(Y):\n"
        "    tl.static_assert(len((1, 2) + (3,)) == 3)\n"
        "    tl.static_assert(((1, 2) + (3,))[2] == 3)\n"
        "    tl.static_assert(tl.tuple([v * 2 for v in (1, 2, 3)])[0] == 2)\n"
        "    tl.static_assert([v * 2 for v in (1, 2, 3)][2] == 6)\n"
        "    tl.static_assert(len((7,) * 3) == 3 and ((7,) * 3)[2] == 7)\n"
        "    tl.static_assert(len((5,) * 0) == 0)\n"
        "    u = [v * 2 for v in (1, 2, 3)]\n"
        "    tl.store(Y, u[2])\n";
    ir_func *f = compile_ok(src, "k", "Y:*i32[1]");
    ir_func_free(f);
    /* a wrong expectation must fail, or the asserts above prove nothing */
    static const char wrong[] = PRELUDE
        "def k(Y):\n"
        "    tl.static_assert([v + 1 for v in (1, 2)][1] == 2)\n";
    const char *d = compile_err(wrong, "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "k.py:5:8: error: static_assert failed"), "got:\n%s", d);
}
END_TEST

/* A comprehension over a tuple of tensors unrolls: one addf per element. */
START_TEST(comprehension_over_runtime_tuple_unrolls)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"
        "    offs = tl.arange(0, 16)\n"
        "    xs = (tl.load(X + offs), tl.load(X + 16 + offs), tl.load(X + 32 + offs))\n"
        "    ys = [x + 1.0 for x in xs]\n"
        "    tl.store(Y + offs, ys[0] * ys[1] * ys[2])\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[48] Y:*f32[16]");
    ck_assert_int_eq(count_ops(f, IR_ADDF), 3);
    ck_assert_int_eq(count_ops(f, IR_MULF), 2);
    ir_func_free(f);
}
END_TEST

START_TEST(comprehension_errors_are_located)
{
    const char *d = compile_err(PRELUDE "def k(Y):\n    u = [v for v in 3]\n", "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "k.py:5:21: error: only comprehensions over tuples"), "got:\n%s", d);
    d = compile_err(PRELUDE "def k(Y):\n    u = [v for v in (1, 2) if v > 1]\n", "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "k.py:5:28: error: 'if' in a comprehension is not supported"), "got:\n%s", d);
    d = compile_err(PRELUDE "def k(Y):\n    u = [v for v in (1,) for w in (2,)]\n", "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "nested comprehensions are not supported"), "got:\n%s", d);
    d = compile_err(PRELUDE "def k(Y):\n    u = (1, 2) - (1,)\n", "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "unsupported operand types for -"), "got:\n%s", d);
}
END_TEST

/* A helper that does not parse (lambda is not kernel code) fails only the
 * kernels that reach it, with its own located diagnostic. */
static const char lazy_src[] = PRELUDE
    "def broken(x):\n"
    "    return (lambda v: v)(x)\n"
    "\n"
    "@triton.jit\n"
    "def good(Y):\n"
    "    tl.store(Y, 3)\n"
    "\n"
    "@triton.jit\n"
    "def caller(Y):\n"
    "    tl.store(Y, broken(3))\n";

START_TEST(unreached_parse_error_does_not_fail_other_kernels)
{
    ir_func *f = compile_ok(lazy_src, "good", "Y:*i32[1]");
    ck_assert_int_eq(count_ops(f, IR_STORE), 1);
    ir_func_free(f);
    const char *d = compile_err(lazy_src, "broken", "x:i32");
    ck_assert_msg(strstr(d, "k.py:5:13: error: unsupported construct in a kernel"), "got:\n%s", d);
    d = compile_err(lazy_src, "caller", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "k.py:5:13: error: unsupported construct in a kernel"), "got:\n%s", d);
    ck_assert_msg(strstr(d, "k.py:13:17: error: helper 'broken'"), "got:\n%s", d);
}
END_TEST

/* f-strings of constexprs: the expected texts are Python's own
 * "{}".format / "{!r}".format of the same values. static_assert's message
 * shows the text in the diagnostic. */
START_TEST(fstring_of_constexprs)
{
    static const char src[] = PRELUDE
        "def k(Y, N: tl.constexpr, DT: tl.constexpr):\n"
        "    tl.static_assert(N == 5, f\"N={N} {N * 2!r} {{x}} {DT} {'s'!r} {'s'} {N=} {1.5} {None} {(1, 2)} {N:>8}|\" 'plain{}')\n";
    const char *d = compile_err(src, "k", "Y:*i32[1] N=4 DT=tl.float16");
    ck_assert_msg(strstr(d, "k.py:5:8: error: static_assert failed: N=4 8 {x} fp16 's' s N=4 1.5 None (1, 2) 4|plain{}\n"),
                  "got:\n%s", d);
    /* a field that is not a constexpr is a located error */
    d = compile_err(PRELUDE "def k(Y):\n    y = tl.load(Y)\n    tl.static_assert(True, f\"y={y + 1}\")\n", "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "k.py:6:33: error: cannot evaluate an f-string field that is not a constexpr"), "got:\n%s", d);
    d = compile_err(PRELUDE "def k(Y):\n    tl.static_assert(True, f\"{}\")\n", "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "empty expression"), "got:\n%s", d);
    d = compile_err(PRELUDE "def k(Y):\n    tl.static_assert(True, f\"{1!x}\")\n", "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "invalid conversion character"), "got:\n%s", d);
    d = compile_err(PRELUDE "def k(Y):\n    tl.static_assert(True, f\"a}b\")\n", "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "single '}'"), "got:\n%s", d);
}
END_TEST

TCase *tc_tuple(void)
{
    TCase *tc = tcase_create("tuple");
    tcase_add_test(tc, comprehension_and_tuple_arith_constexpr);
    tcase_add_test(tc, comprehension_over_runtime_tuple_unrolls);
    tcase_add_test(tc, comprehension_errors_are_located);
    tcase_add_test(tc, unreached_parse_error_does_not_fail_other_kernels);
    tcase_add_test(tc, fstring_of_constexprs);
    return tc;
}
