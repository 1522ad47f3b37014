/* test_assign.c — assignment semantics (docs/reference/triton-semantics.md §2.1): plain
 * assignment turns Python numbers into 0-d tensors, `x: tl.constexpr = ...`
 * keeps a constexpr, tuple unpacking, augmented assignment on pointers. */
#include "tfront.h"

/* `x = 0` is an int32 0-d tensor: int8 tensor + x is then int32 (a constexpr
 * 0 would keep int8). */
START_TEST(plain_int_becomes_i32_tensor)
{
    static const char src[] = PRELUDE
        "def k(P, Z):\n"
        "    offs = tl.arange(0, 16)\n"
        "    x = 0\n"
        "    h = tl.load(P + offs)\n"
        "    y = h + x\n"
        "    tl.store(Z + offs, y)\n";
    ir_func *f = compile_ok(src, "k", "P:*i8[16] Z:*i32[16]");
    ir_value x = find_named(f, "x");
    ck_assert_int_ge(x, 0);
    ck_assert_str_eq(vtype(f, x), "i32");
    ck_assert_int_eq(def_opc(f, x), IR_CONSTANT);
    ck_assert_str_eq(vtype(f, find_named(f, "y")), "tensor<16xi32>");
    ir_func_free(f);
}
END_TEST

START_TEST(plain_float_and_constexpr_become_tensors)
{
    static const char src[] = PRELUDE
        "def k(P, Q, Z, C: tl.constexpr):\n"
        "    offs = tl.arange(0, 16)\n"
        "    x = 0.0\n"
        "    c = C\n"
        "    h = tl.load(P + offs)\n"
        "    q = tl.load(Q + offs)\n"
        "    y = h + x\n"
        "    w = q + c\n"
        "    v = q + C\n"
        "    tl.store(Z + offs, y + w + v)\n";
    ir_func *f = compile_ok(src, "k", "P:*f16[16] Q:*i8[16] Z:*f32[16] C=3");
    ck_assert_str_eq(vtype(f, find_named(f, "x")), "f32");
    ck_assert_str_eq(vtype(f, find_named(f, "y")), "tensor<16xf32>");   /* f16 + f32 0-d tensor */
    ck_assert_str_eq(vtype(f, find_named(f, "c")), "i32");              /* x = SOME_CONSTEXPR: 0-d int32 */
    ck_assert_str_eq(vtype(f, find_named(f, "w")), "tensor<16xi32>");
    ck_assert_str_eq(vtype(f, find_named(f, "v")), "tensor<16xi8>");    /* the constexpr itself is a scalar */
    ir_func_free(f);
}
END_TEST

/* `x: tl.constexpr = 4` stays a constexpr: usable in tl.arange, and a scalar
 * for promotion. */
START_TEST(annotated_constexpr_stays_constexpr)
{
    static const char src[] = PRELUDE
        "def k(P, Z, BLOCK: tl.constexpr):\n"
        "    HALF: tl.constexpr = BLOCK // 2\n"
        "    offs = tl.arange(0, HALF)\n"
        "    h = tl.load(P + offs)\n"
        "    y = h * HALF\n"
        "    tl.store(Z + offs, y)\n";
    ir_func *f = compile_ok(src, "k", "P:*i8[64] Z:*i8[64] BLOCK=64");
    ir_op *r = find_op(f, IR_MAKE_RANGE, 0);
    ck_assert_ptr_nonnull(r);
    ck_assert_int_eq(r->attr[0], 0);
    ck_assert_int_eq(r->attr[1], 32);
    ck_assert_str_eq(rtype(f, r), "tensor<32xi32>");
    ck_assert_str_eq(vtype(f, find_named(f, "y")), "tensor<32xi8>");
    ir_func_free(f);
}
END_TEST

/* `B2 = BLOCK` loses constexpr-ness: tl.arange(0, B2) fails (§2.1). */
START_TEST(plain_copy_of_constexpr_is_not_constexpr)
{
    static const char src[] = PRELUDE
        "def k(P, BLOCK: tl.constexpr):\n"
        "    B2 = BLOCK\n"
        "    offs = tl.arange(0, B2)\n"
        "    tl.store(P + offs, 0)\n";
    const char *d = compile_err(src, "k", "P:*f32[64] BLOCK=64");
    ck_assert_msg(strstr(d, "k.py:6:"), "%s", d);
}
END_TEST

/* code_generator.visit_AnnAssign: "x is already defined. constexpr cannot be
 * reassigned"; and a constexpr reassigned in a runtime loop. */
START_TEST(constexpr_cannot_be_reassigned)
{
    static const char twice[] = PRELUDE
        "def k(P):\n"
        "    N: tl.constexpr = 4\n"
        "    N: tl.constexpr = 8\n"
        "    tl.store(P + tl.arange(0, N), 0)\n";
    const char *d = compile_err(twice, "k", "P:*f32[64]");
    ck_assert_msg(strstr(d, "k.py:6:") && strstr(d, "N"), "%s", d);

    static const char param[] = PRELUDE
        "def k(P, BLOCK: tl.constexpr):\n"
        "    BLOCK: tl.constexpr = 8\n"
        "    tl.store(P + tl.arange(0, BLOCK), 0)\n";
    d = compile_err(param, "k", "P:*f32[64] BLOCK=16");
    ck_assert_msg(strstr(d, "k.py:5:") && strstr(d, "BLOCK"), "%s", d);

    static const char loop[] = PRELUDE
        "def k(P, n, BLOCK: tl.constexpr):\n"
        "    for i in range(n):\n"
        "        BLOCK = BLOCK + 1\n"
        "    tl.store(P, 0)\n";
    d = compile_err(loop, "k", "P:*f32[64] n:i32=4 BLOCK=16");
    ck_assert_msg(strstr(d, "BLOCK"), "%s", d);
}
END_TEST

/* Arithmetic between constexprs is Python's: floor // and %, / is a float
 * (§2.1, core.py constexpr operators). */
START_TEST(constexpr_arithmetic_is_python)
{
    static const char src[] = PRELUDE
        "def k(X, A: tl.constexpr, B: tl.constexpr):\n"
        "    Q: tl.constexpr = A // B + 12\n"
        "    R: tl.constexpr = A % B + 7\n"
        "    S: tl.constexpr = 2 ** 4\n"
        "    tl.store(X + tl.arange(0, Q), 1.0)\n"
        "    tl.store(X + tl.arange(0, R), 2.0)\n"
        "    tl.store(X + tl.arange(0, S), A / B)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[64] A=-7 B=2");
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 0)->attr[1], 8);    /* -7 // 2 == -4 */
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 1)->attr[1], 8);    /* -7 % 2 == 1 */
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 2)->attr[1], 16);
    double c;
    ck_assert(const_of(f, find_op(f, IR_STORE, 2)->opnd[1], &c) && c == -3.5);
    ir_func_free(f);
    static const char fl[] = PRELUDE
        "def k(X):\n"
        "    tl.store(X + tl.arange(0, 16 / 2), 1.0)\n";
    compile_err(fl, "k", "X:*f32[64]");                            /* 16 / 2 is the float 8.0 */
}
END_TEST

START_TEST(tuple_unpacking)
{
    static const char src[] = PRELUDE
        "def k(X, Z, N: tl.constexpr):\n"
        "    offs = tl.arange(0, 16)\n"
        "    x = tl.load(X + offs)\n"
        "    a, b = x + 1.0, x * 2.0\n"
        "    lo, hi = 0, N\n"
        "    (c, d), e = (a, b), x\n"
        "    p = q = a - b\n"
        "    tl.store(Z + offs, c + d + e + p + q + lo + hi)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] Z:*f32[16] N=8");
    ir_value a = find_named(f, "a"), b = find_named(f, "b");
    ck_assert_int_eq(def_opc(f, a), IR_ADDF);
    ck_assert_int_eq(def_opc(f, b), IR_MULF);
    ck_assert_str_eq(vtype(f, a), "tensor<16xf32>");
    ck_assert_str_eq(vtype(f, find_named(f, "lo")), "i32");   /* lo, hi = 0, N: tensors */
    ck_assert_str_eq(vtype(f, find_named(f, "hi")), "i32");
    double c;
    ck_assert(const_of(f, find_named(f, "hi"), &c) && c == 8);
    ir_func_free(f);

    static const char bad[] = PRELUDE
        "def k(X):\n"
        "    a, b = 1, 2, 3\n"
        "    tl.store(X, a)\n";
    const char *d = compile_err(bad, "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "k.py:5:"), "%s", d);
}
END_TEST

/* `X += row * stride` on a pointer argument is tt.addptr (§2.4), and later
 * uses see the moved pointer. */
START_TEST(augassign_on_pointer_argument)
{
    static const char src[] = PRELUDE
        "def k(X, Z, stride):\n"
        "    row = tl.program_id(0)\n"
        "    X += row * stride\n"
        "    offs = tl.arange(0, 16)\n"
        "    tl.store(Z + offs, tl.load(X + offs))\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[1024] Z:*f32[16] stride:i32=16");
    int reg = -1;
    ir_op *ap = find_op_at(f, IR_ADDPTR, 0, &reg, NULL);
    ck_assert_ptr_nonnull(ap);
    ck_assert_int_eq(reg, IR_BODY);
    ck_assert_str_eq(rtype(f, ap), "!tt.ptr<f32>");
    ck_assert_int_eq(ap->opnd[0], f->regions.v[IR_BODY].args[0]);    /* X itself */
    ck_assert_int_eq(def_opc(f, ap->opnd[1]), IR_MULI);               /* row * stride, in int32 */
    ir_value moved = ap->res;
    /* the load's pointer is splat(moved) + offs */
    ir_op *ld = find_op(f, IR_LOAD, 0);
    ir_op *lp = ir_def(f, ld->opnd[0]);
    ck_assert_int_eq(lp->opc, IR_ADDPTR);
    ir_op *sp = ir_def(f, lp->opnd[0]);
    ck_assert_int_eq(sp->opc, IR_SPLAT);
    ck_assert_int_eq(sp->opnd[0], moved);
    ir_func_free(f);
}
END_TEST

START_TEST(unsupported_targets)
{
    static const char sub[] = PRELUDE
        "def k(X):\n"
        "    x = tl.load(X + tl.arange(0, 16))\n"
        "    x[0] = 1.0\n"
        "    tl.store(X + tl.arange(0, 16), x)\n";
    const char *d = compile_err(sub, "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "k.py:6:"), "%s", d);
    static const char attr[] = PRELUDE
        "def k(X):\n"
        "    X.foo = 1\n";
    d = compile_err(attr, "k", "X:*f32[16]");
    ck_assert_msg(strstr(d, "k.py:5:"), "%s", d);
}
END_TEST


/* ---- known bugs ---- */

/* visit_AnnAssign rejects `NAME: tl.constexpr = ...` when NAME is already
 * defined, whatever its value (here a tensor). */
START_TEST(constexpr_annotation_over_tensor)
{
    static const char src[] = PRELUDE
        "def k(P):\n"
        "    N = 1\n"
        "    N: tl.constexpr = 4\n"
        "    tl.store(P + tl.arange(0, N), 0)\n";
    const char *d = compile_err(src, "k", "P:*f32[64]");
    ck_assert_msg(strstr(d, "k.py:6:") && strstr(d, "N"), "%s", d);
}
END_TEST

/* visit_AnnAssign: an annotation other than tl.constexpr is ignored (the
 * statement is visited as a plain Assign): `y: tl.float16 = x` keeps x's
 * fp32, it does not cast. */
START_TEST(dtype_annotation_does_not_cast)
{
    static const char src[] = PRELUDE
        "def k(X):\n"
        "    x = tl.load(X)\n"
        "    y: tl.float16 = x\n"
        "    tl.store(X, y * 3.0)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[4]");
    ck_assert_int_eq(count_ops(f, IR_TRUNCF), 0);
    ck_assert_str_eq(rtype(f, find_op(f, IR_MULF, 0)), "f32");
    ir_func_free(f);
}
END_TEST

void add_assign_known_bugs(TCase *tc);
void add_assign_known_bugs(TCase *tc)
{
    (void)tc;
}

TCase *tc_assign(void)
{
    TCase *tc = tcase_create("assign");
    tcase_add_test(tc, plain_int_becomes_i32_tensor);
    tcase_add_test(tc, plain_float_and_constexpr_become_tensors);
    tcase_add_test(tc, annotated_constexpr_stays_constexpr);
    tcase_add_test(tc, plain_copy_of_constexpr_is_not_constexpr);
    tcase_add_test(tc, constexpr_cannot_be_reassigned);
    tcase_add_test(tc, constexpr_arithmetic_is_python);
    tcase_add_test(tc, tuple_unpacking);
    tcase_add_test(tc, augassign_on_pointer_argument);
    tcase_add_test(tc, unsupported_targets);
    tcase_add_test(tc, dtype_annotation_does_not_cast);
    tcase_add_test(tc, constexpr_annotation_over_tensor);
    return tc;
}
