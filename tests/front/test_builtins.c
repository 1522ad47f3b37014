/* test_builtins.c — tl.* builtins and tensor methods: arange, zeros, full,
 * where, minimum/maximum, min/max on constexprs, reductions (§2.10), tl.dot
 * (§2.11, and the acc + dot rewrite of §2.9), casts (§2.7), indexing, .T,
 * load/store (§2.6), hints, static_assert, unknown names. */
#include "tfront.h"

/* z = EXPR in a kernel with 1-D tiles x (X, 16 elements), y (Y), a mask m,
 * 2-D tiles x2 (X2, 16x32), and runtime scalar n (i32). */
static const char *bkernel(const char *expr)
{
    static char src[2048];
    snprintf(src, sizeof src, PRELUDE
             "def k(X, Y, X2, Z, n, B: tl.constexpr):\n"
             "    offs = tl.arange(0, 16)\n"
             "    x = tl.load(X + offs)\n"
             "    y = tl.load(Y + offs)\n"
             "    m = offs < n\n"
             "    x2 = tl.load(X2 + offs[:, None] * 32 + tl.arange(0, 32)[None, :])\n"
             "    z = %s\n"
             "    tl.store(Z, 0)\n", expr);
    return src;
}

static char bspec[256];
static const char *spec3(const char *xd, const char *yd, const char *x2d)
{
    snprintf(bspec, sizeof bspec, "X:*%s[16] Y:*%s[16] X2:*%s[16,32] Z:*f32[1] n:i32=10 B=64", xd, yd, x2d);
    return bspec;
}

/* Compile z = expr; check its type (and opcode when >= 0). Caller frees. */
static ir_func *bz(const char *expr, const char *spec, const char *want_type, int want_opc)
{
    ir_func *f = compile_ok(bkernel(expr), "k", spec);
    ir_value z = find_named(f, "z");
    ck_assert_msg(z >= 0, "no z for %s", expr);
    ck_assert_msg(!strcmp(vtype(f, z), want_type), "z = %s: type %s, expected %s", expr, vtype(f, z), want_type);
    if (want_opc >= 0)
        ck_assert_msg(def_opc(f, z) == want_opc, "z = %s: computed by %s, expected %s", expr,
                      def_opc(f, z) >= 0 ? ir_ops[def_opc(f, z)].name : "an argument", ir_ops[want_opc].name);
    return f;
}

static void bzok(const char *expr, const char *spec, const char *want_type, int want_opc)
{
    ir_func_free(bz(expr, spec, want_type, want_opc));
}

static void bzerr(const char *expr, const char *spec, const char *substr)
{
    const char *d = compile_err(bkernel(expr), "k", spec);
    ck_assert_msg(strstr(d, "k.py:10:"), "z = %s: error not on line 10:\n%s", expr, d);
    if (substr) ck_assert_msg(strstr(d, substr), "z = %s: message lacks '%s':\n%s", expr, substr, d);
}

#define F32 spec3("f32", "f32", "f32")

/* §2.5: both constexpr, end > start, end - start a power of two. */
START_TEST(arange_rules)
{
    ir_func *f = bz("tl.arange(4, 12)", F32, "tensor<8xi32>", IR_MAKE_RANGE);
    ir_op *r = ir_def(f, find_named(f, "z"));
    ck_assert_int_eq(r->attr[0], 4);                     /* start need not be a power of two */
    ck_assert_int_eq(r->attr[1], 12);
    ir_func_free(f);
    bzok("tl.arange(0, B)", F32, "tensor<64xi32>", IR_MAKE_RANGE);
    bzok("tl.arange(B)", F32, "tensor<64xi32>", IR_MAKE_RANGE);
    bzerr("tl.arange(0, 10)", F32, "power");
    bzerr("tl.arange(3, 8)", F32, "power");
    bzerr("tl.arange(8, 8)", F32, NULL);
    bzerr("tl.arange(16, 8)", F32, NULL);
    bzerr("tl.arange(0, n)", F32, NULL);                 /* runtime bound */
    bzerr("tl.arange(0, 2 ** 21)", F32, NULL);           /* > TRITON_MAX_TENSOR_NUMEL */
}
END_TEST

START_TEST(zeros_and_full)
{
    ir_func *f = bz("tl.zeros([16, 32], tl.float16)", F32, "tensor<16x32xf16>", IR_CONSTANT);
    double c = -1;
    ck_assert(const_of(f, find_named(f, "z"), &c) && c == 0);
    ir_func_free(f);
    bzok("tl.zeros((8,), dtype=tl.int64)", F32, "tensor<8xi64>", IR_CONSTANT);
    bzok("tl.zeros((B, 2), tl.int8)", F32, "tensor<64x2xi8>", IR_CONSTANT);
    f = bz("tl.full([8], 3, tl.int32)", F32, "tensor<8xi32>", IR_CONSTANT);
    ck_assert(const_of(f, find_named(f, "z"), &c) && c == 3);
    ir_func_free(f);
    f = bz("tl.full((4, 4), 1.5, tl.float16)", F32, "tensor<4x4xf16>", IR_CONSTANT);
    ck_assert(const_of(f, find_named(f, "z"), &c) && c == 1.5);
    ir_func_free(f);
    f = bz("tl.full([2, 8], -7, dtype=tl.float32)", F32, "tensor<2x8xf32>", -1);
    ck_assert(const_of(f, find_named(f, "z"), &c) && c == -7);
    ir_func_free(f);
    bzok("tl.zeros_like(x2)", F32, "tensor<16x32xf32>", IR_CONSTANT);
    bzerr("tl.zeros([16, 3], tl.float32)", F32, "Shape element 1 must be a power of 2, got 3");
    bzerr("tl.zeros([1048576, 2 ** 44], tl.float32)", F32, "maximum tensor numel");   /* 2^64: no wrap to 0 */
    bzerr("tl.full((2, 0), 1, tl.int32)", F32, "Shape element 1 must be a power of 2");
    bzerr("tl.zeros([16, n], tl.float32)", F32, NULL);   /* runtime shape */
    bzerr("tl.zeros([16])", F32, NULL);                  /* dtype is required */
}
END_TEST

/* semantic.where: x and y promoted together like a binary op (§2.3). */
START_TEST(where_promotion)
{
    ir_func *f = bz("tl.where(m, x, 1.0)", spec3("f16", "f16", "f32"), "tensor<16xf16>", IR_SELECT);
    ck_assert_str_eq(vtype(f, ir_def(f, find_named(f, "z"))->opnd[0]), "tensor<16xi1>");
    ir_func_free(f);
    bzok("tl.where(m, x, y)", spec3("i32", "f32", "f32"), "tensor<16xf32>", IR_SELECT);
    bzok("tl.where(m, x, y)", spec3("f16", "bf16", "f32"), "tensor<16xf16>", IR_SELECT);
    bzok("tl.where(m, x, 0)", spec3("i32", "f32", "f32"), "tensor<16xi32>", IR_SELECT);
    bzok("tl.where(m, 1.0, 0.0)", F32, "tensor<16xf32>", IR_SELECT);
    bzok("tl.where(m[:, None], x2, 0.0)", F32, "tensor<16x32xf32>", IR_SELECT);   /* broadcast */
    /* a non-bool condition is cast with != 0 */
    f = bz("tl.where(offs, x, y)", F32, "tensor<16xf32>", IR_SELECT);
    ir_op *c = ir_def(f, ir_def(f, find_named(f, "z"))->opnd[0]);
    ck_assert_int_eq(c->opc, IR_CMPI);
    ck_assert_int_eq(c->attr[0], CMPI_NE);
    ir_func_free(f);
}
END_TEST

START_TEST(minimum_maximum)
{
    bzok("tl.minimum(x, y)", F32, "tensor<16xf32>", IR_MINNUMF);    /* propagate_nan=NONE: minnum */
    bzok("tl.maximum(x, y)", F32, "tensor<16xf32>", IR_MAXNUMF);
    bzok("tl.maximum(x, 0.0)", spec3("f16", "f16", "f32"), "tensor<16xf16>", IR_MAXNUMF);
    bzok("tl.minimum(x, y)", spec3("i32", "i32", "f32"), "tensor<16xi32>", IR_MINSI);
    bzok("tl.maximum(x, y)", spec3("u32", "u32", "f32"), "tensor<16xi32>", IR_MAXUI);
    bzok("tl.minimum(x, y)", spec3("u8", "i32", "f32"), "tensor<16xi32>", IR_MINSI);
    bzok("min(x, y)", F32, "tensor<16xf32>", IR_MINNUMF);            /* builtin min on tensors */
    bzok("max(x, 1.0)", F32, "tensor<16xf32>", IR_MAXNUMF);
}
END_TEST

/* builtin min/max on constexprs are Python's: folded, still constexprs. */
START_TEST(builtin_min_on_constexprs_folds)
{
    static const char src[] = PRELUDE
        "def k(X, A: tl.constexpr, C: tl.constexpr):\n"
        "    N: tl.constexpr = min(A, C)\n"
        "    M: tl.constexpr = max(A, C, 8)\n"
        "    tl.store(X + tl.arange(0, N), 1.0)\n"
        "    tl.store(X + tl.arange(0, M), 2.0)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[128] A=64 C=32");
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 0)->attr[1], 32);
    ck_assert_int_eq(find_op(f, IR_MAKE_RANGE, 1)->attr[1], 64);
    ck_assert_int_eq(count_ops(f, IR_MINSI) + count_ops(f, IR_MAXSI), 0);
    ir_func_free(f);
}
END_TEST

/* §2.10 result dtypes of reductions */
START_TEST(reduction_dtypes)
{
    ir_func *f = bz("tl.sum(x, axis=0)", spec3("i8", "f32", "f32"), "i32", IR_REDUCE);
    ir_op *r = ir_def(f, find_named(f, "z"));
    ck_assert_int_eq(r->attr[0], 0);
    ck_assert_int_eq(r->attr[1], RED_ADD);
    ir_func_free(f);
    bzok("tl.sum(x, axis=0)", spec3("f16", "f32", "f32"), "f16", IR_REDUCE);   /* floats not promoted */
    bzok("tl.sum(x, 0)", spec3("bf16", "f32", "f32"), "bf16", IR_REDUCE);
    bzok("tl.sum(x, axis=0, dtype=tl.float32)", spec3("f16", "f32", "f32"), "f32", IR_REDUCE);
    bzok("x.sum(0)", spec3("i16", "f32", "f32"), "i32", IR_REDUCE);
    /* uint8 sums in uint32: unsigned afterwards */
    static const char u[] = PRELUDE
        "def k(X, Z):\n"
        "    s = tl.sum(tl.load(X + tl.arange(0, 16)), axis=0)\n"
        "    z = s // 3\n"
        "    tl.store(Z, z)\n";
    f = compile_ok(u, "k", "X:*u8[16] Z:*i32[1]");
    ck_assert_str_eq(vtype(f, find_named(f, "s")), "i32");
    ck_assert_int_eq(def_opc(f, find_named(f, "z")), IR_DIVUI);
    ir_func_free(f);

    f = bz("tl.max(x, axis=0)", spec3("f16", "f32", "f32"), "f32", IR_REDUCE);    /* fp16 max -> fp32 */
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[1], RED_MAX);
    ir_func_free(f);
    bzok("tl.min(x, axis=0)", spec3("bf16", "f32", "f32"), "f32", IR_REDUCE);
    bzok("tl.max(x, 0)", spec3("i8", "f32", "f32"), "i32", IR_REDUCE);
    bzok("tl.max(x2, axis=1)", F32, "tensor<16xf32>", IR_REDUCE);
    f = bz("tl.argmax(x, axis=0)", F32, "i32", IR_REDUCE);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[1], RED_ARGMAX);
    ir_func_free(f);
    f = bz("tl.argmin(x2, 1)", spec3("f32", "f32", "f16"), "tensor<16xi32>", IR_REDUCE);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[0], 1);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[1], RED_ARGMIN);
    ir_func_free(f);
    f = bz("x.argmax(0)", spec3("u32", "f32", "f32"), "i32", IR_REDUCE);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[1], RED_UARGMAX);
    ir_func_free(f);
    /* max with return_indices gives (values, int32 indices) */
    static const char mi[] = PRELUDE
        "def k(X, Z):\n"
        "    v, i = tl.max(tl.load(X + tl.arange(0, 16)), axis=0, return_indices=True)\n"
        "    tl.store(Z, v + i)\n";
    f = compile_ok(mi, "k", "X:*f32[16] Z:*f32[1]");
    ck_assert_str_eq(vtype(f, find_named(f, "v")), "f32");
    ck_assert_str_eq(vtype(f, find_named(f, "i")), "i32");
    ir_func_free(f);
    bzerr("tl.sum(x, axis=1)", F32, NULL);                /* axis out of range */
    bzerr("tl.sum(X, axis=0)", F32, NULL);                /* pointers */
}
END_TEST

START_TEST(reduction_axes)
{
    bzok("tl.sum(x2, axis=1, keep_dims=True)", F32, "tensor<16x1xf32>", -1);
    bzok("tl.max(x2, axis=0, keep_dims=True)", F32, "tensor<1x32xf32>", -1);
    bzok("tl.argmax(x2, axis=0, keep_dims=True)", F32, "tensor<1x32xi32>", -1);
    bzok("tl.sum(x2)", F32, "f32", IR_REDUCE);                           /* axis=None: everything */
    bzok("tl.sum(x2, axis=None)", F32, "f32", IR_REDUCE);
    bzok("tl.sum(x2, keep_dims=True)", F32, "tensor<1x1xf32>", -1);
    ir_func *f = bz("tl.sum(x2, axis=-1)", F32, "tensor<16xf32>", IR_REDUCE);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[0], 1);        /* negative axes wrap */
    ir_func_free(f);
    bzok("tl.sum(x, axis=0)", F32, "f32", IR_REDUCE);                    /* 1-D over axis 0: 0-d */
}
END_TEST

/* 2-D tiles a (MxK) and b (KxN) of dtype dt for tl.dot tests. */
static const char *dkernel(const char *body, int M, int K, int N)
{
    static char src[2048];
    snprintf(src, sizeof src, PRELUDE
             "def k(A, B, C, n):\n"
             "    rm = tl.arange(0, %d)\n"
             "    rk = tl.arange(0, %d)\n"
             "    rn = tl.arange(0, %d)\n"
             "    a = tl.load(A + rm[:, None] * %d + rk[None, :])\n"
             "    b = tl.load(B + rk[:, None] * %d + rn[None, :])\n"
             "%s"
             "    tl.store(C + rm[:, None] * %d + rn[None, :], z)\n", M, K, N, K, N, body, N);
    return src;
}

static char dspec_buf[256];
static const char *dspec(const char *dt, const char *cdt)
{
    snprintf(dspec_buf, sizeof dspec_buf, "A:*%s[4096] B:*%s[4096] C:*%s[4096] n:i32=4", dt, dt, cdt);
    return dspec_buf;
}

static void dot_type(const char *body, const char *dt, int M, int K, int N, const char *want)
{
    ir_func *f = compile_ok(dkernel(body, M, K, N), "k", dspec(dt, "f32"));
    ir_op *d = find_op(f, IR_DOT, 0);
    ck_assert_ptr_nonnull(d);
    ck_assert_msg(!strcmp(rtype(f, d), want), "%s: dot type %s, expected %s", body, rtype(f, d), want);
    ir_func_free(f);
}

static void dot_err(const char *body, const char *dt, int M, int K, int N)
{
    compile_err(dkernel(body, M, K, N), "k", dspec(dt, "f32"));
}

START_TEST(dot_result_types)
{
    dot_type("    z = tl.dot(a, b)\n", "f16", 16, 16, 16, "tensor<16x16xf32>");
    dot_type("    z = tl.dot(a, b, out_dtype=tl.float16)\n", "f16", 16, 32, 64, "tensor<16x64xf16>");
    dot_type("    z = tl.dot(a, b)\n", "bf16", 32, 16, 16, "tensor<32x16xf32>");
    dot_type("    z = tl.dot(a, b)\n", "f32", 16, 16, 16, "tensor<16x16xf32>");
    dot_type("    z = tl.dot(a, b)\n", "f64", 16, 16, 16, "tensor<16x16xf64>");
    dot_type("    z = tl.dot(a, b)\n", "i8", 16, 32, 16, "tensor<16x16xi32>");
    dot_type("    z = tl.dot(a, b)\n", "f16", 1, 16, 2, "tensor<1x2xf32>");          /* M, N >= 1 */
    dot_type("    acc = tl.zeros((16, 16), tl.float16)\n    z = tl.dot(a, b, acc, out_dtype=tl.float16)\n",
             "f16", 16, 16, 16, "tensor<16x16xf16>");
    /* fp32 inputs default to tf32; input_precision="ieee" overrides */
    ir_func *f = compile_ok(dkernel("    z = tl.dot(a, b)\n", 16, 16, 16), "k", dspec("f32", "f32"));
    ck_assert_int_eq(find_op(f, IR_DOT, 0)->attr[0], PREC_TF32);
    ir_func_free(f);
    f = compile_ok(dkernel("    z = tl.dot(a, b, input_precision='ieee')\n", 16, 16, 16), "k", dspec("f32", "f32"));
    ck_assert_int_eq(find_op(f, IR_DOT, 0)->attr[0], PREC_IEEE);
    ir_func_free(f);
}
END_TEST

START_TEST(dot_errors)
{
    dot_err("    z = tl.dot(a, b)\n", "f16", 16, 8, 16);                        /* K < 16 */
    front_set_triton_version(7);     /* 3.8+ takes out_dtype from acc (test_lang39.c) */
    dot_err("    acc = tl.zeros((16, 16), tl.float16)\n    z = tl.dot(a, b, acc)\n", "f16", 16, 16, 16);
    front_set_triton_version(-1);
    dot_err("    acc = tl.zeros((16, 16), tl.float32)\n    z = tl.dot(a, b, acc, out_dtype=tl.float16)\n",
            "f16", 16, 16, 16);                                                /* acc must be out_dtype */
    dot_err("    acc = tl.zeros((16, 32), tl.float32)\n    z = tl.dot(a, b, acc)\n", "f16", 16, 16, 16);
    dot_err("    z = tl.dot(a, b, out_dtype=tl.bfloat16)\n", "f16", 16, 16, 16);
    dot_err("    z = tl.dot(a, b.to(tl.float32))\n", "f16", 16, 16, 16);      /* same dtype required */
}
END_TEST

/* Combine.cpp: acc + dot(a, b) -> dot(a, b, acc) (§2.9). */
START_TEST(dot_accumulate_rewrite)
{
    static const char *const forms[] = { "acc += tl.dot(a, b)", "acc = acc + tl.dot(a, b)", "acc = tl.dot(a, b) + acc" };
    for (int i = 0; i < 3; i++) {
        char body[256];
        snprintf(body, sizeof body,
                 "    acc = tl.zeros((16, 16), tl.float32)\n"
                 "    for i in range(n):\n"
                 "        %s\n"
                 "    z = acc\n", forms[i]);
        ir_func *f = compile_ok(dkernel(body, 16, 16, 16), "k", dspec("f16", "f32"));
        ck_assert_int_eq(count_ops(f, IR_DOT), 1);
        ck_assert_msg(count_ops(f, IR_ADDF) == 0, "%s: the add must be folded into the dot", forms[i]);
        ir_op *fo = find_op(f, IR_FOR, 0);
        int reg;
        ir_op *d = find_op_at(f, IR_DOT, 0, &reg, NULL);
        ck_assert_int_eq(reg, fo->region[0]);
        ck_assert_int_eq(d->opnd[2], f->regions.v[fo->region[0]].args[1]);    /* acc is the 3rd operand */
        ck_assert_int_eq(last_op(f, fo->region[0])->opnd[0], d->res);
        ir_func_free(f);
    }
}
END_TEST

/* §2.7 casts */
START_TEST(casts)
{
    bzok("x.to(tl.float16)", F32, "tensor<16xf16>", IR_TRUNCF);
    ir_func *f = bz("x.to(tl.int32)", spec3("f16", "f32", "f32"), "tensor<16xi32>", IR_FPTOSI);
    ir_op *c = ir_def(f, find_named(f, "z"));
    ck_assert_int_eq(def_opc(f, c->opnd[0]), IR_EXTF);       /* fp16 -> int goes through fp32 */
    ck_assert_str_eq(vtype(f, c->opnd[0]), "tensor<16xf32>");
    ir_func_free(f);
    f = bz("x.to(tl.int1)", spec3("i32", "f32", "f32"), "tensor<16xi1>", IR_CMPI);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[0], CMPI_NE);
    double k = -1;
    ck_assert(const_of(f, ir_def(f, find_named(f, "z"))->opnd[1], &k) && k == 0);
    ir_func_free(f);
    f = bz("x.to(tl.int1)", F32, "tensor<16xi1>", IR_CMPF);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[0], CMPF_UNE);   /* NaN -> True */
    ir_func_free(f);
    bzok("x.to(tl.int32)", spec3("i8", "f32", "f32"), "tensor<16xi32>", IR_EXTSI);
    bzok("x.to(tl.int32)", spec3("u8", "f32", "f32"), "tensor<16xi32>", IR_EXTUI);
    bzok("x.to(tl.int32)", spec3("bool", "f32", "f32"), "tensor<16xi32>", IR_EXTUI);
    bzok("x.to(tl.int8)", spec3("i32", "f32", "f32"), "tensor<16xi8>", IR_TRUNCI);
    bzok("x.to(tl.uint8)", F32, "tensor<16xi8>", IR_FPTOUI);
    bzok("x.to(tl.float32)", spec3("u32", "f32", "f32"), "tensor<16xf32>", IR_UITOFP);
    bzok("x.to(tl.float32)", spec3("bool", "f32", "f32"), "tensor<16xf32>", IR_UITOFP);
    bzok("x.to(tl.float64)", spec3("i64", "f32", "f32"), "tensor<16xf64>", IR_SITOFP);
    f = bz("x.to(tl.float64)", spec3("f16", "f32", "f32"), "tensor<16xf64>", IR_EXTF);
    ck_assert_str_eq(vtype(f, ir_def(f, find_named(f, "z"))->opnd[0]), "tensor<16xf32>");
    ir_func_free(f);
    f = bz("x.to(tl.float16)", spec3("bf16", "f32", "f32"), "tensor<16xf16>", IR_TRUNCF);
    ck_assert_int_eq(def_opc(f, ir_def(f, find_named(f, "z"))->opnd[0]), IR_EXTF);
    ir_func_free(f);
    bzok("tl.cast(x, tl.bfloat16)", F32, "tensor<16xbf16>", IR_TRUNCF);
    bzok("x.to(tl.float32, bitcast=True)", spec3("i32", "f32", "f32"), "tensor<16xf32>", IR_BITCAST);
    bzerr("x.to(tl.float32, bitcast=True)", spec3("i16", "f32", "f32"), NULL);
    bzok("X.to(tl.int64)", F32, "i64", IR_PTR_TO_INT);
    bzok("X.to(tl.pointer_type(tl.int8))", F32, "!tt.ptr<i8>", IR_BITCAST);
    bzerr("tl.float32(x)", F32, NULL);                    /* a dtype is not callable */
    /* a dtype passed as a constexpr */
    static const char dt[] = PRELUDE
        "def k(X, Y, DT: tl.constexpr):\n"
        "    z = tl.load(X + tl.arange(0, 16)).to(DT)\n"
        "    tl.store(Y + tl.arange(0, 16), z)\n";
    ir_func *g = compile_ok(dt, "k", "X:*f32[16] Y:*f32[16] DT=tl.bfloat16");
    ck_assert_str_eq(vtype(g, find_named(g, "z")), "tensor<16xbf16>");
    ir_func_free(g);
}
END_TEST

START_TEST(indexing_and_transpose)
{
    ir_func *f = bz("x[:, None]", F32, "tensor<16x1xf32>", IR_EXPAND_DIMS);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[0], 1);
    ir_func_free(f);
    f = bz("x[None, :]", F32, "tensor<1x16xf32>", IR_EXPAND_DIMS);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[0], 0);
    ir_func_free(f);
    bzok("x2[:, :, None]", F32, "tensor<16x32x1xf32>", IR_EXPAND_DIMS);
    f = bz("x2.T", F32, "tensor<32x16xf32>", IR_TRANS);
    int64_t order[IR_ATTR_ARRAY_MAX];
    ck_assert_int_eq(ir_attr_array_get(f, ir_def(f, find_named(f, "z"))->attr[0], order), 2);
    ck_assert_int_eq(order[0], 1);
    ck_assert_int_eq(order[1], 0);
    ir_func_free(f);
    bzok("tl.trans(x2)", F32, "tensor<32x16xf32>", IR_TRANS);
    bzok("tl.expand_dims(x, 0)", F32, "tensor<1x16xf32>", IR_EXPAND_DIMS);
    bzok("tl.reshape(x2, (32, 16))", F32, "tensor<32x16xf32>", IR_RESHAPE);
    bzok("tl.broadcast_to(x[None, :], (8, 16))", F32, "tensor<8x16xf32>", IR_BROADCAST);
    bzerr("x[0]", F32, "unsupported tensor index");      /* integer indexing is unsupported */
    /* ':' is a no-op (core.py tensor.__getitem__): x[:, :] is x, but a None
     * at position 2 of a rank-1 tensor is expand_dims's axis error */
    bzok("x[:, :] + 0", F32, "tensor<16xf32>", -1);
    bzerr("x[:, :, None]", F32, "invalid axis 2");
}
END_TEST

/* core.py tensor.__getitem__: None and ':' whose bounds are None; anything
 * else is "unsupported tensor index" (Triton's words) */
START_TEST(slices_with_none_bounds)
{
    bzok("x[None, None:]", F32, "tensor<1x16xf32>", IR_EXPAND_DIMS);
    bzok("x[None, :None]", F32, "tensor<1x16xf32>", IR_EXPAND_DIMS);
    bzok("x[None, None:None:None, None]", F32, "tensor<1x16x1xf32>", IR_EXPAND_DIMS);
    bzok("x[None, ::None, None]", F32, "tensor<1x16x1xf32>", IR_EXPAND_DIMS);
    bzok("tl.sum(x, 0)[None, None]", F32, "tensor<1x1xf32>", -1);
    bzerr("x[1:]", F32, "unsupported tensor index: slice bound");
    bzerr("x[None, :4]", F32, "unsupported tensor index");
    bzerr("x[::2]", F32, "unsupported tensor index");
    bzerr("x[0]", F32, "unsupported tensor index");
    bzok("x[None, None, :, :]", F32, "tensor<1x1x16xf32>", IR_EXPAND_DIMS);   /* ':' past the rank: no-op */
}
END_TEST

/* core.py expand_dims: axes index the result, may be negative, are inserted
 * smallest first and must be distinct (the messages are Triton's) */
START_TEST(expand_dims_axes)
{
    bzok("tl.expand_dims(x, -1)", F32, "tensor<16x1xf32>", IR_EXPAND_DIMS);
    bzok("tl.expand_dims(x, -2)", F32, "tensor<1x16xf32>", IR_EXPAND_DIMS);
    bzok("tl.expand_dims(x, (0, -1))", F32, "tensor<1x16x1xf32>", IR_EXPAND_DIMS);
    bzok("tl.expand_dims(x, (-4, 2, -1))", F32, "tensor<1x16x1x1xf32>", IR_EXPAND_DIMS);
    bzok("tl.expand_dims(x, (3, 1, 2))", F32, "tensor<16x1x1x1xf32>", IR_EXPAND_DIMS);
    bzok("x2.expand_dims(-2)", F32, "tensor<16x1x32xf32>", IR_EXPAND_DIMS);
    bzok("tl.expand_dims(B, -1)", F32, "tensor<1xi32>", -1);
    bzerr("tl.expand_dims(x, -3)", F32, "invalid axis -3. Expected -2 <= axis < 2");
    bzerr("tl.expand_dims(x, 2)", F32, "invalid axis 2");
    bzerr("tl.expand_dims(tl.sum(x, 0), 1)", F32, "invalid axis 1");
    bzerr("tl.expand_dims(x, (0, 0))", F32, "duplicate axes, normalized axes = [0, 0]");
    bzerr("tl.expand_dims(x, (0, -3))", F32, "duplicate axes, normalized axes = [0, 0]");
}
END_TEST

/* core.py trans/permute: dims as a tuple or individual arguments (axis 0
 * included); trans() swaps the last two axes of any rank >= 2 */
START_TEST(permute_dims)
{
    int64_t order[IR_ATTR_ARRAY_MAX];
    ir_func *f = bz("tl.permute(x2, 1, 0)", F32, "tensor<32x16xf32>", IR_TRANS);
    ck_assert_int_eq(ir_attr_array_get(f, ir_def(f, find_named(f, "z"))->attr[0], order), 2);
    ck_assert(order[0] == 1 && order[1] == 0);
    ir_func_free(f);
    bzok("x2.permute((1, 0))", F32, "tensor<32x16xf32>", IR_TRANS);
    bzok("x2.permute(0, 1)", F32, "tensor<16x32xf32>", IR_TRANS);
    bzok("tl.permute(x, 0)", F32, "tensor<16xf32>", IR_TRANS);
    f = bz("tl.reshape(x2, (2, 8, 32)).trans()", F32, "tensor<2x32x8xf32>", IR_TRANS);
    ck_assert_int_eq(ir_attr_array_get(f, ir_def(f, find_named(f, "z"))->attr[0], order), 3);
    ck_assert(order[0] == 0 && order[1] == 2 && order[2] == 1);
    ir_func_free(f);
    bzok("tl.reshape(x2, (2, 8, 32)).trans(2, 0, 1)", F32, "tensor<32x2x8xf32>", IR_TRANS);
    bzerr("tl.permute(x2, 0, 0)", F32, "must be a permutation of 0, 1, ..., 1");
    bzerr("tl.permute(x2, (1, 0, 2))", F32, "same length as input shape");
    bzerr("x.trans()", F32, "0- or 1-dimensional");
}
END_TEST

/* semantic.py: program_id/num_programs axes and the 16-byte TMA box row */
START_TEST(triton_value_errors)
{
    bzerr("tl.program_id(3)", F32, "program_id axis must be 0, 1, or 2 but got 3");
    bzerr("tl.num_programs(-1)", F32, "num_programs axis must be 0, 1, or 2 but got -1");
    bzerr("tl.make_tensor_descriptor(X, [16, 16], [16, 1], [8, 2])", F32,
          "Descriptor block shape must have at least 16 bytes in the last dimension, but got 2 * 4 = 8 bytes");
    bzok("tl.make_tensor_descriptor(X, [16, 16], [16, 1], [8, 4]).load([0, 0])", F32, "tensor<8x4xf32>", -1);
}
END_TEST

/* §2.6 load/store */
START_TEST(load_mask_other)
{
    ir_func *f = bz("tl.load(X + offs, mask=m, other=0.0)", spec3("f16", "f32", "f32"), "tensor<16xf16>", IR_LOAD);
    ir_op *ld = ir_def(f, find_named(f, "z"));
    ck_assert_int_eq(ld->nopnd, 3);
    ck_assert_str_eq(vtype(f, ld->opnd[1]), "tensor<16xi1>");
    ck_assert_str_eq(vtype(f, ld->opnd[2]), "tensor<16xf16>");     /* other cast to the pointee type */
    double c = -1;
    ck_assert(const_of(f, ld->opnd[2], &c) ? c == 0 : true);
    ir_func_free(f);
    f = bz("tl.load(X + offs, mask=m, other=-float('inf'))", spec3("f32", "f32", "f32"), "tensor<16xf32>", IR_LOAD);
    ld = ir_def(f, find_named(f, "z"));
    ck_assert(const_of(f, ld->opnd[2], &c) && c < 0 && c * 0 != 0);   /* -inf */
    ir_func_free(f);
    f = bz("tl.load(X + offs, mask=m)", spec3("i32", "f32", "f32"), "tensor<16xi32>", IR_LOAD);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->nopnd, 2);
    ir_func_free(f);
    bzok("tl.load(X)", spec3("f16", "f32", "f32"), "f16", IR_LOAD);      /* scalar pointer: scalar */
    bzok("tl.load(X2 + offs[:, None] * 32 + tl.arange(0, 32)[None, :], mask=m[:, None], other=1)",
         spec3("f32", "f32", "i8"), "tensor<16x32xi8>", IR_LOAD);          /* mask broadcast to the pointer */
    bzerr("tl.load(X + offs, other=0.0)", F32, "mask");                    /* other without mask */
    bzerr("tl.load(x)", F32, NULL);                                        /* not a pointer */
}
END_TEST

START_TEST(store_casts_to_pointee)
{
    static const char src[] = PRELUDE
        "def k(X, H, I, n):\n"
        "    offs = tl.arange(0, 16)\n"
        "    x = tl.load(X + offs)\n"
        "    tl.store(H + offs, x, mask=offs < n)\n"
        "    tl.store(I + offs, x)\n"
        "    tl.store(I + offs, 0)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] H:*f16[16] I:*i32[16] n:i32=3");
    ck_assert_int_eq(count_ops(f, IR_STORE), 3);
    ir_op *s0 = find_op(f, IR_STORE, 0);
    ck_assert_int_eq(s0->nopnd, 3);
    ck_assert_str_eq(vtype(f, s0->opnd[1]), "tensor<16xf16>");
    ck_assert_int_eq(def_opc(f, s0->opnd[1]), IR_TRUNCF);
    ir_op *s1 = find_op(f, IR_STORE, 1);
    ck_assert_int_eq(s1->nopnd, 2);
    ck_assert_str_eq(vtype(f, s1->opnd[1]), "tensor<16xi32>");
    ck_assert_int_eq(def_opc(f, s1->opnd[1]), IR_FPTOSI);          /* float -> int truncates */
    ir_op *s2 = find_op(f, IR_STORE, 2);
    ck_assert_str_eq(vtype(f, s2->opnd[1]), "tensor<16xi32>");      /* scalar broadcast to the pointer */
    ir_func_free(f);
}
END_TEST

/* tl.multiple_of / max_contiguous / max_constancy are pure hints: no ops. */
START_TEST(hints_are_noops)
{
    static const char with[] = PRELUDE
        "def k(X, n):\n"
        "    offs = tl.arange(0, 16)\n"
        "    offs = tl.max_contiguous(tl.multiple_of(offs, 16), 16)\n"
        "    n = tl.multiple_of(n, 8)\n"
        "    offs = tl.max_constancy(offs, [1])\n"
        "    tl.store(X + offs, 1.0, mask=offs < n)\n";
    static const char without[] = PRELUDE
        "def k(X, n):\n"
        "    offs = tl.arange(0, 16)\n"
        "    tl.store(X + offs, 1.0, mask=offs < n)\n";
    ir_func *a = compile_ok(with, "k", "X:*f32[16] n:i32=3");
    ir_func *b = compile_ok(without, "k", "X:*f32[16] n:i32=3");
    ck_assert_int_eq(total_ops(a), total_ops(b));
    ir_func_free(a);
    ir_func_free(b);
}
END_TEST

START_TEST(static_assert_message)
{
    static const char src[] = PRELUDE
        "def k(X, BLOCK: tl.constexpr):\n"
        "    tl.static_assert(BLOCK % 32 == 0, \"BLOCK must be a multiple of 32\")\n"
        "    tl.store(X + tl.arange(0, BLOCK), 1.0)\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[64] BLOCK=64");
    ir_func_free(f);
    const char *d = compile_err(src, "k", "X:*f32[64] BLOCK=16");
    ck_assert_msg(strstr(d, "k.py:5:") && strstr(d, "BLOCK must be a multiple of 32"), "%s", d);
}
END_TEST

START_TEST(unknown_names)
{
    bzerr("tl.frobnicate(x)", F32, "frobnicate");
    bzerr("x.frobnicate()", F32, "frobnicate");
    bzerr("tl.math.tanh(x)", F32, "tanh");               /* tl.math has no tanh in 3.6 */
    /* nor minimum/maximum/clamp/sigmoid (core.py and standard.py define them):
     * not a "does not support yet" either, Triton refuses them too */
    bzerr("tl.math.maximum(x, x)", F32, "'maximum' is not supported (no such function");
    bzerr("tl.math.minimum(x, x)", F32, "'minimum' is not supported (no such function");
    bzerr("tl.math.clamp(x, x, x)", F32, "'clamp' is not supported (no such function");
    bzerr("tl.math.sigmoid(x)", F32, "'sigmoid' is not supported (no such function");
    bzok("tl.sigmoid(x)", F32, "tensor<16xf32>", -1);
    bzerr("tl.libdevice.tanh(x)", F32, "libdevice");     /* the 2.x namespace is gone */
    bzerr("frobnicate(x)", F32, "frobnicate");
}
END_TEST

/* join/split/cat/gather/histogram (core.py, semantic.py) and the prelude's
 * sort/flip (standard.py): result types, and misuse as a located error
 * (inside the prelude: a note at the user's call on line 10). */
START_TEST(shape_builtins)
{
    ir_func_free(bz("tl.join(x, y)", F32, "tensor<16x2xf32>", IR_JOIN));
    ir_func_free(bz("tl.cat(x, y, can_reorder=True)", F32, "tensor<32xf32>", IR_CAT));
    ir_func_free(bz("tl.gather(x2, offs[:, None] + tl.zeros((16, 4), tl.int32), 1)", F32, "tensor<16x4xf32>", IR_GATHER));
    ir_func_free(bz("tl.histogram(offs, 8, m)", F32, "tensor<8xi32>", IR_HISTOGRAM));
    ir_func_free(compile_ok(bkernel("x2.sort()"), "k", F32));
    ir_func_free(compile_ok(bkernel("tl.topk(x2, 4) + tl.zeros((16, 4), tl.float32)"), "k", F32));
    front_set_triton_version(6);     /* 3.6's semantic.py cat; 3.7+ keeps order (test_lang39.c) */
    bzerr("tl.cat(x, y)", F32, "can_reorder=True");
    front_set_triton_version(-1);
    bzerr("tl.cat(x, x2, can_reorder=True)", F32, "1-D tensors");
    bzerr("tl.split(x)", F32, "size 2");
    bzerr("tl.join(x, offs)", F32, "same dtype");
    bzerr("tl.gather(x2, offs, 1)", F32, "same rank");
    bzerr("tl.gather(x, x, 0)", F32, "integer");
    bzerr("tl.gather(x, offs, 1)", F32, "axis 1");
    bzerr("tl.histogram(x, 16)", F32, "integer input");
    bzerr("tl.histogram(offs, 12)", F32, "power of two");
    bzerr("tl.histogram(offs, 16, x)", F32, "boolean");
    bzerr("tl.sort(x2, dim=0)", F32, "only minor dimension");
    bzerr("tl.flip(x2, 2)", F32, "dim out of range");
    bzerr("tl.map_elementwise(x, y)", F32, "scalar_fn");
}
END_TEST

/* §2.8: tl.math functions take fp32/fp64 only. */
START_TEST(math_dtypes)
{
    bzok("tl.exp(x)", F32, "tensor<16xf32>", IR_EXP);
    bzok("tl.sqrt(x)", spec3("f64", "f32", "f32"), "tensor<16xf64>", IR_SQRT);
    bzok("x.exp2()", F32, "tensor<16xf32>", IR_EXP2);
    bzerr("tl.exp(x)", spec3("f16", "f32", "f32"), "fp32");
    bzerr("tl.sigmoid(x)", spec3("bf16", "f32", "f32"), NULL);
    bzerr("tl.log(x)", spec3("i32", "f32", "f32"), NULL);
    bzok("tl.abs(x)", F32, "tensor<16xf32>", IR_ABSF);
    bzok("tl.abs(x)", spec3("i32", "f32", "f32"), "tensor<16xi32>", IR_ABSI);
    bzok("tl.fma(x, y, x)", F32, "tensor<16xf32>", IR_FMA);
}
END_TEST

/* math.py div_rn / sqrt_rn (fp32 only), fdiv, propagate_nan, libdevice's
 * exact-overload rule (core.py extern_elementwise). */
START_TEST(rounded_and_libdevice)
{
    bzok("tl.div_rn(x, y)", F32, "tensor<16xf32>", IR_DIV_RN);
    bzok("tl.math.div_rn(x, 2)", F32, "tensor<16xf32>", IR_DIV_RN);
    bzerr("tl.div_rn(x, y)", spec3("f64", "f64", "f32"), "div_rn: expected dtype ['fp32'] but got fp64");
    bzok("tl.fdiv(x, y)", F32, "tensor<16xf32>", IR_DIVF);
    front_set_triton_version(8);     /* 3.9's fdiv promotes as `/` (test_lang39.c) */
    bzerr("tl.fdiv(x, y)", spec3("f32", "i32", "f32"), "both operands of fdiv must have floating scalar type");
    front_set_triton_version(-1);
    bzerr("tl.fdiv(y, y)", spec3("f32", "i32", "f32"), "fdiv requires floating-point operands after type promotion");
    bzok("tl.sqrt_rn(x)", F32, "tensor<16xf32>", IR_SQRT_RN);
    bzok("x.sqrt_rn()", F32, "tensor<16xf32>", IR_SQRT_RN);
    bzerr("tl.sqrt_rn(x)", spec3("f16", "f32", "f32"), "sqrt_rn: expected dtype ['fp32'] but got fp16");
    bzok("tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)", F32, "tensor<16xf32>", IR_MAXIMUMF);
    bzok("tl.minimum(x, y, tl.PropagateNan.NONE)", F32, "tensor<16xf32>", IR_MINNUMF);
    bzok("tl.clamp(x, y, y + 1, propagate_nan=tl.PropagateNan.ALL)", F32, "tensor<16xf32>", IR_MINIMUMF);
    bzerr("tl.maximum(x, y, propagate_nan=3)", F32, "propagate_nan must be tl.PropagateNan.NONE or tl.PropagateNan.ALL");
    bzok("tl.extra.cuda.libdevice.tanh(x)", F32, "tensor<16xf32>", IR_TANH);
    bzok("tl.extra.cuda.libdevice.pow(x, 2)", F32, "tensor<16xf32>", IR_POWI);
    bzok("tl.extra.cuda.libdevice.pow(x, 2.0)", F32, "tensor<16xf32>", IR_POW);
    bzok("tl.extra.cuda.libdevice.isnan(x)", F32, "tensor<16xi1>", IR_ISNAN);
    bzok("tl.extra.cuda.libdevice.mulhi(x.to(tl.uint32, bitcast=True), y.to(tl.uint32, bitcast=True))", F32,
         "tensor<16xi32>", IR_UMULHI);
    bzok("tl.extra.cuda.libdevice.float2int_rd(x)", F32, "tensor<16xi32>", IR_FLOAT2INT_RD);
    bzok("tl.extra.cuda.libdevice.norm4d(x, y, x, 1.0)", F32, "tensor<16xf32>", IR_NORM4D);
    bzerr("tl.extra.cuda.libdevice.tanh(x)", spec3("f16", "f32", "f32"), "libdevice.tanh has no overload for (fp16): it takes (fp32) or (fp64)");
    bzerr("tl.extra.cuda.libdevice.add_rd(x, y)", spec3("f32", "f64", "f32"), "no overload for (fp32, fp64)");
    bzerr("tl.extra.cuda.libdevice.fmod(x)", F32, "missing argument 'arg1'");
    bzerr("tl.extra.cuda.libdevice.fmod(x, y, x)", F32, "libdevice.fmod takes 2 arguments, got 3");
}
END_TEST

START_TEST(program_ids)
{
    ir_func *f = bz("tl.program_id(axis=1)", F32, "i32", IR_GET_PID);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[0], 1);
    ir_func_free(f);
    f = bz("tl.num_programs(2)", F32, "i32", IR_GET_NPROG);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[0], 2);
    ir_func_free(f);
    bzerr("tl.program_id(3)", F32, NULL);
    bzok("tl.cdiv(n, 16)", F32, "i32", IR_DIVSI);
}
END_TEST

/* §2.13 atomics: return the old value; defaults acq_rel / gpu; val cast to
 * the pointee type and broadcast. */
static const char *akernel(const char *expr)
{
    static char src[1024];
    snprintf(src, sizeof src, PRELUDE
             "def k(F, I, U, n):\n"
             "    offs = tl.arange(0, 16)\n"
             "    m = offs < n\n"
             "    z = %s\n", expr);
    return src;
}
#define ASPEC "F:*f32[16] I:*i32[16] U:*u32[16] n:i32=4"

static ir_op *aop(ir_func *f, int opc)
{
    ir_op *op = ir_def(f, find_named(f, "z"));
    ck_assert_int_eq(op->opc, opc);
    return op;
}

START_TEST(atomics)
{
    ir_func *f = compile_ok(akernel("tl.atomic_add(F + offs, 1, mask=m)"), "k", ASPEC);
    ir_op *op = aop(f, IR_ATOMIC_RMW);
    ck_assert_str_eq(rtype(f, op), "tensor<16xf32>");              /* the old values */
    ck_assert_int_eq(op->nopnd, 3);
    ck_assert_str_eq(vtype(f, op->opnd[1]), "tensor<16xf32>");     /* val cast to the pointee */
    ck_assert_int_eq(op->attr[0], RMW_FADD);
    ck_assert_int_eq(op->attr[1], SEM_ACQ_REL);
    ck_assert_int_eq(op->attr[2], SCOPE_GPU);
    ir_func_free(f);
    f = compile_ok(akernel("tl.atomic_max(I + offs, 3, sem='relaxed', scope='cta')"), "k", ASPEC);
    op = aop(f, IR_ATOMIC_RMW);
    ck_assert_int_eq(op->nopnd, 2);
    ck_assert_int_eq(op->attr[0], RMW_MAX);
    ck_assert_int_eq(op->attr[1], SEM_RELAXED);
    ck_assert_int_eq(op->attr[2], SCOPE_CTA);
    ir_func_free(f);
    f = compile_ok(akernel("tl.atomic_min(U + offs, 3, sem='release', scope='sys')"), "k", ASPEC);
    op = aop(f, IR_ATOMIC_RMW);
    ck_assert_int_eq(op->attr[0], RMW_UMIN);
    ck_assert_int_eq(op->attr[1], SEM_RELEASE);
    ck_assert_int_eq(op->attr[2], SCOPE_SYS);
    ir_func_free(f);
    f = compile_ok(akernel("tl.atomic_xchg(I, 5)"), "k", ASPEC);   /* scalar pointer: once per program */
    op = aop(f, IR_ATOMIC_RMW);
    ck_assert_str_eq(rtype(f, op), "i32");
    ck_assert_int_eq(op->attr[0], RMW_XCHG);
    ir_func_free(f);
    f = compile_ok(akernel("tl.atomic_cas(I + offs, 0, 1)"), "k", ASPEC);
    op = aop(f, IR_ATOMIC_CAS);
    ck_assert_int_eq(op->nopnd, 3);
    ck_assert_str_eq(rtype(f, op), "tensor<16xi32>");
    ir_func_free(f);
    compile_err(akernel("tl.atomic_add(F + offs, 1, sem='weird')"), "k", ASPEC);
    compile_err(akernel("tl.atomic_add(F + offs, 1, scope='planet')"), "k", ASPEC);
    compile_err(akernel("tl.atomic_and(F + offs, 1)"), "k", ASPEC);   /* bitwise on floats */
    compile_err(akernel("tl.atomic_add(offs, 1)"), "k", ASPEC);       /* not a pointer */
}
END_TEST


/* ---- known bugs ---- */

/* standard.py max: ints narrower than 32 bits go to int32 (signed), so
 * tl.max(uint8) compares against a negative scalar as signed. */
START_TEST(max_uint8_is_int32)
{
    ir_func *f = bz("tl.max(x, axis=0) > -1", spec3("u8", "f32", "f32"), "i1", IR_CMPI);
    ck_assert_int_eq(ir_def(f, find_named(f, "z"))->attr[0], CMPI_SGT);
    ir_func_free(f);
}
END_TEST

/* standard.py max(return_indices=True) promotes only bf16 (core
 * _promote_bfloat16_to_float32): the fp16 values stay fp16. */
START_TEST(max_indices_keeps_fp16)
{
    static const char mi[] = PRELUDE
        "def k(X, Z):\n"
        "    v, i = tl.max(tl.load(X + tl.arange(0, 16)), axis=0, return_indices=True)\n"
        "    tl.store(Z, v)\n";
    ir_func *f = compile_ok(mi, "k", "X:*f16[16] Z:*f32[1]");
    ck_assert_str_eq(vtype(f, find_named(f, "v")), "f16");
    ir_func_free(f);
}
END_TEST

/* Combine.cpp folds acc + dot only when the dot has ONE use. Here d is also
 * stored, so the value stored through Q must be a @ b alone, not acc + a @ b. */
START_TEST(dot_fold_with_other_use)
{
    static const char body[] =
        "    acc = tl.load(C + rm[:, None] * 16 + rn[None, :])\n"
        "    d = tl.dot(a, b)\n"
        "    acc += d\n"
        "    tl.store(C + rm[:, None] * 16 + rn[None, :], d)\n"
        "    z = acc\n";
    ir_func *f = compile_ok(dkernel(body, 16, 16, 16), "k", dspec("f16", "f32"));
    ir_op *s0 = find_op(f, IR_STORE, 0), *s1 = find_op(f, IR_STORE, 1);
    ck_assert_msg(s0->opnd[1] != s1->opnd[1], "d and acc + d are stored as the same value");
    ir_op *d = ir_def(f, s0->opnd[1]);
    ck_assert_int_eq(d->opc, IR_DOT);
    double c = -1;
    ck_assert_msg(const_of(f, d->opnd[2], &c) && c == 0, "the stored d must have a zero accumulator");
    ir_func_free(f);
}
END_TEST

/* semantic.where / minimum / maximum promote their operands with
 * binary_op_type_checking_impl, so its scalar checks (negative scalar with
 * an unsigned tensor, scalar out of range) apply (§2.2, §2.3). */
START_TEST(where_minmax_scalar_checks)
{
    bzerr("tl.minimum(x, -1)", spec3("u32", "f32", "f32"), "negative");
    bzerr("tl.maximum(x, 300)", spec3("u8", "f32", "f32"), "range");
    bzerr("tl.where(m, x, -1)", spec3("u32", "f32", "f32"), "negative");
    bzerr("tl.where(m, x, 1000)", spec3("i8", "f32", "f32"), "range");
}
END_TEST

/* nvidia compiler.py min_dot_size: 8-bit operands need K >= 32 (§2.11). */
START_TEST(dot_int8_min_k)
{
    dot_err("    z = tl.dot(a, b)\n", "i8", 16, 16, 16);
}
END_TEST

/* semantic._load_legacy: "Mask argument cannot be block type if pointer
 * argument is not a block"; mask and other are broadcast TO the pointer
 * shape (§2.6), and a store's pointer shape may not grow either. */
START_TEST(mask_cannot_grow_pointer)
{
    bzerr("tl.load(X, mask=m)", F32, NULL);
    bzerr("tl.load(X + offs[:, None], mask=m[:, None] & m[None, :])", F32, NULL);
    bzerr("tl.store(X + offs[:, None], 1.0, mask=m[:, None] & m[None, :])", F32, NULL);
}
END_TEST

/* d + d with d = tl.dot(a, b): folding d into its own accumulator makes the
 * dot use its result ("used before its definition", an internal error). */
START_TEST(dot_plus_itself)
{
    ir_func *f = compile_ok(dkernel("    d = tl.dot(a, b)\n    z = d + d\n", 16, 16, 16), "k", dspec("f16", "f32"));
    ir_op *d = find_op(f, IR_DOT, 0);
    ck_assert_int_ne(d->opnd[2], d->res);
    ir_func_free(f);
}
END_TEST

/* §2.13: float atomic_max/min work on fp32/fp64 (sign trick); today they
 * reach the verifier ("internal error"). fp16 max and 8/16-bit
 * max/min/and/or/xor/xchg must be rejected with a clear error. */
START_TEST(known_bug_atomic_dtypes)
{
    ir_func *f = compile_ok(akernel("tl.atomic_max(F + offs, 1.0)"), "k", ASPEC);
    ir_func_free(f);
    f = compile_ok(akernel("tl.atomic_min(F + offs, 1.0, mask=m)"), "k", ASPEC);
    ir_func_free(f);
    static const char src[] = PRELUDE
        "def k(H, B, S):\n"
        "    offs = tl.arange(0, 16)\n"
        "    z = tl.atomic_%s(%s + offs, 1)\n";
    static const char *const bad[][2] = { { "max", "H" }, { "xchg", "B" }, { "or", "S" }, { "max", "B" } };
    for (size_t i = 0; i < TT_COUNTOF(bad); i++) {
        char s[512];
        snprintf(s, sizeof s, src, bad[i][0], bad[i][1]);
        const char *d = compile_err(s, "k", "H:*f16[16] B:*i8[16] S:*i16[16]");
        ck_assert_msg(!strstr(d, "internal error"), "atomic_%s on %s: %s", bad[i][0], bad[i][1], d);
    }
}
END_TEST

/* §2.4/§2.6: *i1 pointers are stored as int8 (semantic._store_legacy casts
 * the value to int8), so 0.5 stored into a bool buffer is 0 (False), not
 * 0.5 != 0. */
START_TEST(store_to_bool_goes_through_int8)
{
    static const char src[] = PRELUDE
        "def k(X, B):\n"
        "    offs = tl.arange(0, 16)\n"
        "    tl.store(B + offs, tl.load(X + offs))\n";
    ir_func *f = compile_ok(src, "k", "X:*f32[16] B:*bool[16]");
    ck_assert_int_eq(count_ops(f, IR_CMPF), 0);
    ck_assert_int_eq(count_ops(f, IR_FPTOSI), 1);
    ir_func_free(f);
}
END_TEST

void add_builtins_known_bugs(TCase *tc);
void add_builtins_known_bugs(TCase *tc)
{
    tcase_add_test(tc, known_bug_atomic_dtypes);
}

TCase *tc_builtins(void)
{
    TCase *tc = tcase_create("builtins");
    tcase_add_test(tc, arange_rules);
    tcase_add_test(tc, rounded_and_libdevice);
    tcase_add_test(tc, zeros_and_full);
    tcase_add_test(tc, where_promotion);
    tcase_add_test(tc, minimum_maximum);
    tcase_add_test(tc, builtin_min_on_constexprs_folds);
    tcase_add_test(tc, reduction_dtypes);
    tcase_add_test(tc, reduction_axes);
    tcase_add_test(tc, dot_result_types);
    tcase_add_test(tc, dot_errors);
    tcase_add_test(tc, dot_accumulate_rewrite);
    tcase_add_test(tc, casts);
    tcase_add_test(tc, indexing_and_transpose);
    tcase_add_test(tc, slices_with_none_bounds);
    tcase_add_test(tc, expand_dims_axes);
    tcase_add_test(tc, permute_dims);
    tcase_add_test(tc, triton_value_errors);
    tcase_add_test(tc, load_mask_other);
    tcase_add_test(tc, store_casts_to_pointee);
    tcase_add_test(tc, hints_are_noops);
    tcase_add_test(tc, static_assert_message);
    tcase_add_test(tc, unknown_names);
    tcase_add_test(tc, shape_builtins);
    tcase_add_test(tc, math_dtypes);
    tcase_add_test(tc, program_ids);
    tcase_add_test(tc, atomics);
    tcase_add_test(tc, max_uint8_is_int32);
    tcase_add_test(tc, max_indices_keeps_fp16);
    tcase_add_test(tc, dot_fold_with_other_use);
    tcase_add_test(tc, where_minmax_scalar_checks);
    tcase_add_test(tc, dot_int8_min_k);
    tcase_add_test(tc, mask_cannot_grow_pointer);
    tcase_add_test(tc, dot_plus_itself);
    tcase_add_test(tc, store_to_bool_goes_through_int8);
    return tc;
}
