/* test_promote.c — Triton's implicit type promotion (docs/reference/triton-semantics.md
 * §2.2 computation_type_impl, §2.3 arithmetic, §2.4 pointers) observed on the
 * IR: the result type of `z = EXPR` and the op that computes it. */
#include <stdlib.h>
#include "tfront.h"

/* z = EXPR over x = load(X) (dtype xd), y = load(Y) (dtype yd) and a runtime
 * fp32 scalar s; z is stored to an f32 buffer. */
static const char *zkernel(const char *expr, const char *xd, const char *yd, char *spec, size_t n)
{
    static char src[1024];
    snprintf(src, sizeof src, PRELUDE
             "def k(X, Y, Z, s):\n"
             "    offs = tl.arange(0, 16)\n"
             "    x = tl.load(X + offs)\n"
             "    y = tl.load(Y + offs)\n"
             "    z = %s\n"
             "    tl.store(Z + offs, z)\n", expr);
    snprintf(spec, n, "X:*%s[16] Y:*%s[16] Z:*f32[16] s:f32=0.5", xd, yd);
    return src;
}

/* Compile; check z's type and the opcode that produced it (-1: don't check).
 * Returns the function for further checks (caller frees). */
static ir_func *zcheck(const char *expr, const char *xd, const char *yd, const char *want_type, int want_opc)
{
    char spec[128];
    const char *src = zkernel(expr, xd, yd, spec, sizeof spec);
    ir_func *f = compile_ok(src, "k", spec);
    ir_value z = find_named(f, "z");
    ck_assert_msg(z >= 0, "no value named z for '%s'", expr);
    ck_assert_msg(!strcmp(vtype(f, z), want_type), "z = %s with x:%s y:%s: type %s, expected %s",
                  expr, xd, yd, vtype(f, z), want_type);
    if (want_opc >= 0)
        ck_assert_msg(def_opc(f, z) == want_opc, "z = %s with x:%s y:%s: computed by %s, expected %s", expr, xd, yd,
                      def_opc(f, z) >= 0 ? ir_ops[def_opc(f, z)].name : "an argument", ir_ops[want_opc].name);
    return f;
}

static void zok(const char *expr, const char *xd, const char *yd, const char *want_type, int want_opc)
{
    ir_func_free(zcheck(expr, xd, yd, want_type, want_opc));
}

/* z = EXPR must be rejected with a message containing `substr`. */
static void zerr(const char *expr, const char *xd, const char *yd, const char *substr)
{
    char spec[128];
    const char *src = zkernel(expr, xd, yd, spec, sizeof spec);
    const char *d = compile_err(src, "k", spec);
    ck_assert_msg(strstr(d, "k.py:8:"), "z = %s: error not on line 8:\n%s", expr, d);
    if (substr) ck_assert_msg(strstr(d, substr), "z = %s: message lacks '%s':\n%s", expr, substr, d);
}

/* predicate attribute of the op computing z */
static int64_t zpred(const char *expr, const char *xd, const char *yd, int opc)
{
    ir_func *f = zcheck(expr, xd, yd, "tensor<16xi1>", opc);
    int64_t p = ir_def(f, find_named(f, "z"))->attr[0];
    ir_func_free(f);
    return p;
}

/* Rule 0: a Python scalar of kind <= the tensor's kind takes the tensor's type. */
START_TEST(scalar_keeps_tensor_type)
{
    zok("x * 0.5", "f16", "f16", "tensor<16xf16>", IR_MULF);
    zok("x * 0.5", "bf16", "f16", "tensor<16xbf16>", IR_MULF);
    zok("x + 1", "f16", "f16", "tensor<16xf16>", IR_ADDF);
    zok("x + 1", "i8", "f16", "tensor<16xi8>", IR_ADDI);
    zok("2 * x", "i16", "f16", "tensor<16xi16>", IR_MULI);
    /* ... but / and % on fp16/bf16 go to fp32 */
    zok("x / 2.0", "f16", "f16", "tensor<16xf32>", IR_DIVF);
    zok("x % 2.0", "bf16", "f16", "tensor<16xf32>", IR_REMF);
}
END_TEST

/* A runtime scalar argument is a tensor: fp16 * fp32 scalar -> fp32. */
START_TEST(runtime_scalar_is_a_tensor)
{
    ir_func *f = zcheck("x * s", "f16", "f16", "tensor<16xf32>", IR_MULF);
    ck_assert_int_eq(count_ops(f, IR_EXTF), 1);
    ir_func_free(f);
}
END_TEST

/* A 0-d tensor from plain assignment also participates in promotion. */
START_TEST(zero_d_tensor_participates)
{
    static const char src[] = PRELUDE
        "def k(X, Z):\n"
        "    offs = tl.arange(0, 16)\n"
        "    x = tl.load(X + offs)\n"
        "    c = 2.0\n"
        "    z = x * c\n"
        "    tl.store(Z + offs, z)\n";
    ir_func *f = compile_ok(src, "k", "X:*f16[16] Z:*f32[16]");
    ck_assert_str_eq(vtype(f, find_named(f, "z")), "tensor<16xf32>");
    ir_func_free(f);
}
END_TEST

/* Rule 0 falls through for a scalar of a higher kind: int * 0.5 -> fp32. */
START_TEST(int_times_float_scalar)
{
    ir_func *f = zcheck("x * 0.5", "i32", "f16", "tensor<16xf32>", IR_MULF);
    ck_assert_int_eq(count_ops(f, IR_SITOFP), 1);
    ir_func_free(f);
    f = zcheck("x * 0.5", "u8", "f16", "tensor<16xf32>", IR_MULF);
    ck_assert_int_eq(count_ops(f, IR_UITOFP), 1);
    ir_func_free(f);
}
END_TEST

/* Rules 1-4 between two tensors. */
START_TEST(float_tensor_rules)
{
    zok("x + y", "bf16", "f16", "tensor<16xf16>", IR_ADDF);   /* rule 3 precedes rule 4 */
    zok("x + y", "f16", "bf16", "tensor<16xf16>", IR_ADDF);
    zok("x + y", "bf16", "bf16", "tensor<16xbf16>", IR_ADDF);
    zok("x + y", "bf16", "i32", "tensor<16xf32>", IR_ADDF);   /* bf16 with non-fp16 -> fp32 */
    zok("x + y", "f16", "f32", "tensor<16xf32>", IR_ADDF);
    zok("x * y", "f32", "f64", "tensor<16xf64>", IR_MULF);
    zok("x - y", "f16", "i64", "tensor<16xf16>", IR_SUBF);    /* fp16 with an int -> fp16 */
    zok("x / y", "f16", "f16", "tensor<16xf32>", IR_DIVF);
    zok("x / y", "bf16", "bf16", "tensor<16xf32>", IR_DIVF);
    zok("x % y", "f16", "f16", "tensor<16xf32>", IR_REMF);
    zok("x % y", "f32", "f32", "tensor<16xf32>", IR_REMF);
}
END_TEST

/* Rule 6: C usual arithmetic conversions; the IR is signless. */
START_TEST(integer_promotion)
{
    ir_func *f = zcheck("x + y", "i8", "i32", "tensor<16xi32>", IR_ADDI);
    ck_assert_int_eq(count_ops(f, IR_EXTSI), 1);
    ir_func_free(f);
    zok("x + y", "i16", "i64", "tensor<16xi64>", IR_ADDI);
    zok("x * y", "u32", "i32", "tensor<16xi32>", IR_MULI);    /* u32 wins, signless i32 */
    f = zcheck("x + y", "u8", "i32", "tensor<16xi32>", IR_ADDI);
    ck_assert_int_eq(count_ops(f, IR_EXTUI), 1);               /* unsigned source: zero-extended */
    ir_func_free(f);
    zok("x + y", "bool", "i8", "tensor<16xi8>", IR_ADDI);
    zok("x & y", "i8", "i16", "tensor<16xi16>", IR_ANDI);
}
END_TEST

START_TEST(signedness_of_comparisons)
{
    ck_assert_int_eq(zpred("x < y", "u32", "i32", IR_CMPI), CMPI_ULT);   /* u32 vs i32: unsigned */
    ck_assert_int_eq(zpred("x > y", "i32", "u32", IR_CMPI), CMPI_UGT);
    ck_assert_int_eq(zpred("x <= y", "u64", "i32", IR_CMPI), CMPI_ULE);
    ck_assert_int_eq(zpred("x < y", "i32", "i32", IR_CMPI), CMPI_SLT);
    ck_assert_int_eq(zpred("x >= y", "u8", "i32", IR_CMPI), CMPI_SGE);  /* i32 wider than u8: signed */
    ck_assert_int_eq(zpred("x == y", "u32", "i32", IR_CMPI), CMPI_EQ);
    ck_assert_int_eq(zpred("x != y", "i8", "i8", IR_CMPI), CMPI_NE);
    /* floats: ordered predicates, != is unordered */
    ck_assert_int_eq(zpred("x < y", "f32", "f32", IR_CMPF), CMPF_OLT);
    ck_assert_int_eq(zpred("x >= y", "f16", "f32", IR_CMPF), CMPF_OGE);
    ck_assert_int_eq(zpred("x == y", "f32", "f32", IR_CMPF), CMPF_OEQ);
    ck_assert_int_eq(zpred("x != y", "f32", "f32", IR_CMPF), CMPF_UNE);
    ck_assert_int_eq(zpred("x > 0", "f16", "f32", IR_CMPF), CMPF_OGT);
}
END_TEST

START_TEST(integer_division_ops)
{
    zok("x / y", "i32", "i32", "tensor<16xf32>", IR_DIVF);
    ir_func *f = zcheck("x / y", "i32", "i32", "tensor<16xf32>", IR_DIVF);
    ck_assert_int_eq(count_ops(f, IR_SITOFP), 2);
    ir_func_free(f);
    zok("x / y", "i64", "i64", "tensor<16xf32>", IR_DIVF);      /* int64 too goes to fp32 */
    zok("x / 2.0", "i32", "i32", "tensor<16xf32>", IR_DIVF);
    zok("x // y", "i32", "i32", "tensor<16xi32>", IR_DIVSI);
    zok("x // y", "u32", "u32", "tensor<16xi32>", IR_DIVUI);
    zok("x // y", "i8", "i32", "tensor<16xi32>", IR_DIVSI);
    zok("x // 4", "u16", "u16", "tensor<16xi16>", IR_DIVUI);
    zok("x % y", "i32", "i32", "tensor<16xi32>", IR_REMSI);
    zok("x % y", "u32", "u32", "tensor<16xi32>", IR_REMUI);
    zok("x % 3", "i64", "i64", "tensor<16xi64>", IR_REMSI);
    zok("x >> 2", "i32", "i32", "tensor<16xi32>", IR_SHRSI);    /* arithmetic for signed */
    zok("x >> 2", "u32", "u32", "tensor<16xi32>", IR_SHRUI);    /* logical for unsigned */
    zok("x << y", "i16", "i16", "tensor<16xi16>", IR_SHLI);
}
END_TEST

START_TEST(promotion_errors)
{
    zerr("x // y", "f32", "f32", NULL);                /* float floordiv is a TypeError */
    zerr("x // 2", "f16", "f16", NULL);
    zerr("x // y", "i32", "f32", NULL);
    zerr("x / y", "i32", "u32", "Cannot use /, // or % with int32 and uint32 because they have different signedness");
    zerr("x % y", "i64", "u8", "signedness");
    zerr("x + -1", "u32", "u32", "negative");          /* unsigned tensor with a negative scalar */
    zerr("x - 5 * -2", "u8", "u8", "negative");
    zerr("x & y", "f32", "i32", "invalid operands of type");   /* bitwise needs ints (semantic.py's words) */
    zerr("x ^ 1.5", "i32", "i32", "invalid operands of type");
    zerr("~x", "f32", "f32", NULL);
    zerr("x << 1", "f16", "f16", "invalid operands of type");
    zerr("x ** 2", "f32", "f32", NULL);                /* ** is not defined on tensors */
}
END_TEST

/* §2.2 to_tensor_type: floats outside fp32's normal range are fp64. */
START_TEST(float_literal_dtype)
{
    zok("x * 1e-300", "i32", "i32", "tensor<16xf64>", IR_MULF);  /* int tensor, fp64 scalar: rule 1 */
    zok("x * 1e39", "i32", "i32", "tensor<16xf64>", IR_MULF);
    zok("x * 1e30", "i32", "i32", "tensor<16xf32>", IR_MULF);
    zok("x * 1e-300", "f32", "f32", "tensor<16xf32>", IR_MULF);  /* rule 0: float tensor keeps its type */
    zok("x * 0.0", "i32", "i32", "tensor<16xf32>", IR_MULF);
    /* assigned literals become 0-d tensors of that type */
    zok("1e-300", "i32", "i32", "f64", IR_CONSTANT);
    zok("1.5", "i32", "i32", "f32", IR_CONSTANT);
    zok("float('inf')", "i32", "i32", "f32", IR_CONSTANT);
    zok("1e-40", "i32", "i32", "f64", IR_CONSTANT);              /* fp32 subnormal range */
}
END_TEST

/* §2.2 to_tensor_type for ints: int32, then uint32, then int64. */
START_TEST(int_literal_dtype)
{
    zok("7", "i32", "i32", "i32", IR_CONSTANT);
    zok("True", "i32", "i32", "i1", IR_CONSTANT);
    zok("5000000000", "i32", "i32", "i64", IR_CONSTANT);
    zok("-2147483648", "i32", "i32", "i32", IR_CONSTANT);
    /* 3000000000 is uint32: dividing it uses the unsigned op */
    static const char src[] = PRELUDE
        "def k(Z):\n"
        "    c = 3000000000\n"
        "    z = c // 7\n"
        "    tl.store(Z, z)\n";
    ir_func *f = compile_ok(src, "k", "Z:*i64[1]");
    ck_assert_str_eq(vtype(f, find_named(f, "c")), "i32");
    ck_assert_int_eq(def_opc(f, find_named(f, "z")), IR_DIVUI);
    ir_func_free(f);
}
END_TEST

/* §2.3: unary minus on floats is 0.0 - x. */
/* semantic.py minus: 0 - x in Triton 3.6 and 3.7; 3.8+ negates floats with
 * fneg (test_lang39.c negation_is_fneg_from_38) */
START_TEST(unary_minus)
{
    front_set_triton_version(7);
    ir_func *f = zcheck("-x", "f32", "f32", "tensor<16xf32>", IR_SUBF);
    ir_op *op = ir_def(f, find_named(f, "z"));
    double c = 1;
    ck_assert_msg(const_of(f, op->opnd[0], &c) && c == 0.0, "-x must be 0.0 - x");
    ck_assert_int_eq(op->opnd[1], find_named(f, "x"));
    ir_func_free(f);
    zok("-x", "i32", "i32", "tensor<16xi32>", IR_SUBI);
    zok("~x", "i8", "i32", "tensor<16xi8>", IR_XORI);
    front_set_triton_version(-1);
    zok("-x", "f32", "f32", "tensor<16xf32>", IR_BITCAST);
    zok("-x", "i32", "i32", "tensor<16xi32>", IR_SUBI);
}
END_TEST

/* §2.4 pointer arithmetic */
START_TEST(pointer_arithmetic)
{
    static const char src[] = PRELUDE
        "def k(X, Z, o):\n"
        "    offs = tl.arange(0, 16)\n"
        "    p = X + offs\n"
        "    q = X + o\n"
        "    r = X - 3\n"
        "    tl.store(Z + offs, tl.load(p) + tl.load(q) + tl.load(r))\n";
    ir_func *f = compile_ok(src, "k", "X:*f16[64] Z:*f16[16] o:u32=3");
    ir_op *p = ir_def(f, find_named(f, "p"));
    ck_assert_int_eq(p->opc, IR_ADDPTR);
    ck_assert_str_eq(rtype(f, p), "tensor<16x!tt.ptr<f16>>");
    ck_assert_str_eq(vtype(f, p->opnd[1]), "tensor<16xi32>");         /* int32 offsets stay int32 */
    ir_op *q = ir_def(f, find_named(f, "q"));
    ck_assert_int_eq(q->opc, IR_ADDPTR);
    ck_assert_str_eq(rtype(f, q), "!tt.ptr<f16>");
    ck_assert_str_eq(vtype(f, q->opnd[1]), "i64");                    /* unsigned 32-bit offset: zero-extended */
    ck_assert_int_eq(def_opc(f, q->opnd[1]), IR_EXTUI);
    ir_op *r = ir_def(f, find_named(f, "r"));
    ck_assert_int_eq(r->opc, IR_ADDPTR);                               /* ptr - off = ptr + (-off) */
    double c;
    ck_assert_msg(const_of(f, r->opnd[1], &c) ? c == -3 : def_opc(f, r->opnd[1]) == IR_SUBI,
                  "ptr - 3 must add -3");
    ir_func_free(f);
    zerr("X + 1.5", "f32", "f32", NULL);                               /* ptr + float */
    zerr("X + Y", "f32", "f32", NULL);                                 /* ptr + ptr */
    zerr("X < Y", "f32", "f32", NULL);                                 /* any pointer comparison */
    zerr("(X + 1) == X", "f32", "f32", NULL);
}
END_TEST


/* ---- known bugs (see tc_known_bugs in main.c) ---- */

/* §2.2: a Python int operand must fit the computed integer type
 * (semantic.py binary_op_type_checking_impl: "Scalar ... is out of range"). */
START_TEST(scalar_range_check)
{
    zerr("x + 1000", "i8", "i8", "range");
    zerr("x * 256", "u8", "u8", "range");
    zerr("x + 3000000000", "i32", "i32", "range");
}
END_TEST

/* semantic.floordiv calls binary_op_type_checking_impl(div_or_mod=True):
 * `//` with mixed signedness is a TypeError like `/` and `%` (§2.2 rule 6). */
START_TEST(floordiv_mixed_signedness)
{
    zerr("x // y", "u32", "i32", "signedness");
    zerr("x // y", "i64", "u8", "signedness");
}
END_TEST

void add_promote_known_bugs(TCase *tc);
void add_promote_known_bugs(TCase *tc)
{
    (void)tc;
}

TCase *tc_promote(void)
{
    TCase *tc = tcase_create("promote");
    tcase_add_test(tc, scalar_keeps_tensor_type);
    tcase_add_test(tc, runtime_scalar_is_a_tensor);
    tcase_add_test(tc, zero_d_tensor_participates);
    tcase_add_test(tc, int_times_float_scalar);
    tcase_add_test(tc, float_tensor_rules);
    tcase_add_test(tc, integer_promotion);
    tcase_add_test(tc, signedness_of_comparisons);
    tcase_add_test(tc, integer_division_ops);
    tcase_add_test(tc, promotion_errors);
    tcase_add_test(tc, float_literal_dtype);
    tcase_add_test(tc, int_literal_dtype);
    tcase_add_test(tc, unary_minus);
    tcase_add_test(tc, pointer_arithmetic);
    tcase_add_test(tc, scalar_range_check);
    tcase_add_test(tc, floordiv_mixed_signedness);
    return tc;
}
