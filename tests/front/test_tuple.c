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
    front_set_triton_version(8);     /* 3.6-3.8 ignore `if`; 3.9 applies it (test_lang39.c) */
    d = compile_err(PRELUDE "def k(Y):\n    u = [v for v in (1, 2) if v > 1]\n", "k", "Y:*i32[1]");
    ck_assert_msg(strstr(d, "k.py:5:31: error: 'if' in a comprehension is not supported"), "got:\n%s", d);
    front_set_triton_version(-1);
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

/* Named tuple classes as Triton 3.6 builds them in kernels (code_generator.py
 * call_Function on a NamedTuple class, core.py tuple.__getattr__): typing's
 * class form with defaults, collections.namedtuple with defaults=, typing's
 * functional form. Expected values are Python's own for the same calls:
 * Point(3) == (3, 5), Pair(1) == (1, 7), Trio(1, 2, 3)[::-1] == (3, 2, 1). */
static const char nt_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "from typing import NamedTuple\n"
    "from collections import namedtuple\n"
    "import collections\n"
    "\n"
    "class Point(NamedTuple):\n"
    "    \"\"\"a docstring\"\"\"\n"
    "    x: tl.tensor\n"
    "    y: int = 5\n"
    "\n"
    "    def norm(self):\n"
    "        return self.x\n"
    "\n"
    "Pair = namedtuple(\"PairT\", \"a, b\", defaults=(7,))\n"
    "Trio = collections.namedtuple(\"Trio\", [\"u\", \"v\", \"w\"])\n"
    "Typed = NamedTuple(\"Typed\", [(\"m\", int), (\"n\", int)])\n"
    "\n"
    "@triton.jit\n"
    "def make(a, b):\n"
    "    return Point(y=b, x=a)\n"
    "\n"
    "@triton.jit\n"
    "def mul(x, a, b):\n"
    "    return x * a + b\n"
    "\n"
    "@triton.jit\n"
    "def k(Y):\n"
    "    tl.static_assert(Point(3).x == 3 and Point(3).y == 5 and Point(3)[1] == 5 and len(Point(3)) == 2)\n"
    "    tl.static_assert(make(1, 2).x == 1 and make(1, 2).y == 2)\n"
    "    tl.static_assert(Pair(1).a == 1 and Pair(1).b == 7)\n"
    "    tl.static_assert(Trio(1, 2, 3)[1:] == (2, 3) and Trio(1, 2, 3)[::-1] == (3, 2, 1))\n"
    "    tl.static_assert(Trio(1, 2, 3)[-2:-1] == (2,) and Trio(1, 2, 3)[5:] == ())\n"
    "    tl.static_assert(Trio(1, 2, 3) == (1, 2, 3) and Trio(1, 2, 3) != (1, 2))\n"
    "    tl.static_assert(Typed(n=4, m=3).m * 10 + Typed(n=4, m=3).n == 34)\n"
    "    tl.static_assert(isinstance(Trio(1, 2, 3)[1].type, tl.constexpr_type) and not isinstance(1, tl.constexpr_type))\n"
    "    tl.static_assert(not isinstance(tl.load(Y).type, tl.constexpr_type))\n"
    "    a, b = make(tl.load(Y), 2)\n"
    "    t = Trio(1, 2, 3)\n"
    "    tl.store(Y, a * b + t.w)\n"
    "\n"
    "@triton.jit\n"
    "def star(Y, F):\n"
    "    tl.store(Y, (mul, (2, 3))[0](tl.load(Y), *(mul, (2, 3))[1]))\n"
    "    tl.store(Y, F(tl.load(Y), *(4,), 5))\n"
    "\n"
    "@triton.jit\n"
    "def arg(Y, P, E):\n"
    "    tl.static_assert(P.y == 3 and len(E) == 0)\n"
    "    tl.store(Y, P.x + P[1])\n";

START_TEST(named_tuples_in_kernels)
{
    ir_func *f = compile_ok(nt_src, "k", "Y:*i32[1]");
    ck_assert_int_eq(count_ops(f, IR_MULI), 1);
    ck_assert_int_eq(count_ops(f, IR_ADDI), 1);
    ir_func_free(f);
    /* a jit function stored in a tuple and called with *args, and one passed
     * as a constexpr argument: x * 2 + 3, then x * 4 + 5 */
    f = compile_ok(nt_src, "star", "Y:*i32[1] F=fn:mul");
    ck_assert_int_eq(count_ops(f, IR_MULI), 2);
    ck_assert_int_eq(count_ops(f, IR_ADDI), 2);
    ir_func_free(f);
    f = compile_ok(nt_src, "star", "Y:*i32[1] F=fn:mul@23");
    ir_func_free(f);
    /* named tuple arguments: fields from the launch, or from the file's class;
     * an empty tuple argument */
    f = compile_ok(nt_src, "arg", "Y:*i32[1] P=tuple:2:Pt,x,y P[0]:i32=5 P[1]=3 E=tuple:0");
    ck_assert_int_eq(count_ops(f, IR_ADDI), 1);
    ir_func_free(f);
    f = compile_ok(nt_src, "arg", "Y:*i32[1] P=tuple:2:Point P[0]:i32=5 P[1]=3 E=tuple:0");
    ir_func_free(f);
    /* the asserts above can fail: a named tuple whose second field is not y */
    const char *d = compile_err(nt_src, "arg", "Y:*i32[1] P=tuple:2:Pt,x,z P[0]:i32=5 P[1]=3 E=tuple:0");
    ck_assert_msg(strstr(d, "k.py:49:24: error: named tuple Pt of 2 has no attribute 'y'"), "got:\n%s", d);
}
END_TEST

START_TEST(named_tuple_errors_are_located)
{
    const char *d;
    static const char cls[] = "import triton\nimport triton.language as tl\nfrom typing import NamedTuple\n"
                              "class P(NamedTuple):\n    x: int\n    y: int\n@triton.jit\ndef k(Y, F):\n";
    char src[1024];
    static const struct { const char *body, *want; } cases[] = {
        { "    p = P(1, 2)\n    tl.store(Y, p.z)\n", "k.py:10:19: error: named tuple P of 2 has no attribute 'z'" },
        { "    p = P(1)\n", "k.py:9:9: error: P() missing required argument 'y'" },
        { "    p = P(1, 2, 3)\n", "k.py:9:9: error: P() takes 2 positional arguments but 3 were given" },
        { "    p = P(1, q=2)\n", "k.py:9:9: error: P() got an unexpected keyword argument 'q'" },
        { "    p = P(1, x=2)\n", "k.py:9:9: error: P() got multiple values for argument 'x'" },
        { "    p = tl.maximum(*3)\n", "k.py:9:20: error: argument after * must be a tuple, not constexpr int 3" },
        { "    p = (1, 2)[0:1:0]\n", "k.py:9:17: error: slice step cannot be zero" },
        { "    p = (1, 2)['a':]\n", "k.py:9:16: error: tuple slice bounds must be constexpr integers or None" },
        { "    tl.static_assert(isinstance(P(1, 2), P))\n", "isinstance(): tritium supports the classes" },
        { "    f = (1, P)\n", "k.py:9:5: error: cannot assign named tuple class P to a variable" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(src, sizeof src, "%s%s", cls, cases[i].body);
        d = compile_err(src, "k", "Y:*i32[1] F=None");
        ck_assert_msg(strstr(d, cases[i].want), "case %zu: got:\n%s", i, d);
    }
    /* bad launch values: a function that does not exist, a header shorter
     * than its elements, a class that is not in the file, field counts */
    snprintf(src, sizeof src, "%s    tl.store(Y, F(1))\n", cls);
    d = compile_err(src, "k", "Y:*i32[1] F=fn:nosuch");
    ck_assert_msg(strstr(d, "k.py:8:10: error: jit function argument 'nosuch': there is no such @triton.jit function"),
                  "got:\n%s", d);
    snprintf(src, sizeof src, "%s    tl.store(Y, F[0])\n", cls);
    d = compile_err(src, "k", "Y:*i32[1] F=tuple:1 F[0]=1 F[1]=2");
    ck_assert_msg(strstr(d, "tuple parameter 'F' has 1 elements but the launch gives F[1]"), "got:\n%s", d);
    d = compile_err(src, "k", "Y:*i32[1] F=tuple:1:Q F[0]=1");
    ck_assert_msg(strstr(d, "no named tuple class 'Q' in the kernel's file"), "got:\n%s", d);
    d = compile_err(src, "k", "Y:*i32[1] F=tuple:1:P F[0]=1");
    ck_assert_msg(strstr(d, "named tuple P has 2 fields but the launch gives 1 elements"), "got:\n%s", d);
    d = compile_err(src, "k", "Y:*i32[1] F=tuple:1:P,a,b F[0]=1");
    ck_assert_msg(strstr(d, "named tuple P needs one field name per element (1)"), "got:\n%s", d);
    /* a starred expression outside a call's arguments does not parse as kernel code */
    snprintf(src, sizeof src, "%s    t = (*(1, 2), 3)\n", cls);
    d = compile_err(src, "k", "Y:*i32[1] F=None");
    ck_assert_msg(strstr(d, "k.py:9:10: error:"), "got:\n%s", d);
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
    tcase_add_test(tc, named_tuples_in_kernels);
    tcase_add_test(tc, named_tuple_errors_are_located);
    return tc;
}
