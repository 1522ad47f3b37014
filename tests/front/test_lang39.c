/* test_lang39.c — the language of Triton 3.7-3.9 and the release it follows
 * (settings.def TRITON_VERSION, compiler/front/sema_version.c). Each test
 * names the Triton source it follows; kernels run in the interpreter and
 * are compared with plain C expectations. */
#include <math.h>
#include "tfront.h"
#include "tritium/interp.h"

/* ---- running a kernel ------------------------------------------------------ */

static tt_tensor *targ(launch *l, const char *name)
{
    for (int i = 0; i < l->nargs; i++)
        if (!strcmp(l->args[i].name, name)) return l->args[i].tensor;
    ck_abort_msg("no argument %s", name);
    return NULL;
}

/* Compile kernel k of src for spec, let fill() set the inputs, run it in the
 * interpreter (no faults). The caller reads l's tensors and frees l. */
static void lrun(const char *src, const char *spec, launch *l, void (*fill)(launch *))
{
    mk_launch(l, spec);
    if (fill) fill(l);
    cap_start();
    front_module *m = front_load_text("k.py", src);
    ir_func *f = m ? front_compile(m, "k", l) : NULL;
    const char *d = cap_end();
    ck_assert_msg(f != NULL, "compile failed:\n%s\n--- source:\n%s", d, src);
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

static void fill_iota_f32(launch *l)
{
    tt_tensor *x = targ(l, "X");
    float *v = x->data;
    for (size_t i = 0; i < x->nbytes / 4; i++) v[i] = (float)i * 0.25f - 1.0f;
}

static void fill_small(launch *l)
{
    float *v = targ(l, "X")->data;
    for (int i = 0; i < 8; i++) v[i] = (float)(i % 3 + 1) * (i & 1 ? -1 : 1);
}

static void expect_err(const char *src, const char *spec, const char *want)
{
    const char *d = compile_err(src, "k", spec);
    ck_assert_msg(strstr(d, want), "expected '%s' in:\n%s", want, d);
}

/* expect_err under Triton 3.minor, then back to the default version */
static void expect_err_under(int minor, const char *src, const char *spec, const char *want)
{
    front_set_triton_version(minor);
    expect_err(src, spec, want);
    front_set_triton_version(-1);
}

/* ---- the followed release --------------------------------------------------- */

/* Default: the newest, 3.9 (settings.def TRITON_VERSION). */
START_TEST(version_default_is_newest)
{
    front_set_triton_version(-1);
    if (!getenv("TRITIUM_TRITON_VERSION")) ck_assert_int_eq(front_triton_version(), 9);
}
END_TEST

/* 3.9's core.py make_block_ptr/advance raise NotImplementedError("Block
 * pointers have been removed in favor of the tensor descriptor API"); 3.9's
 * load/store have no boundary_check/padding_option (keyword-only
 * cache_modifier, eviction_policy, volatile). 3.6-3.8 keep them. */
START_TEST(version_block_pointers_removed_in_39)
{
    static const char bp[] = PRELUDE
        "def k(X, Y):\n"
        "    p = tl.make_block_ptr(X, (16,), (1,), (0,), (16,), (0,))\n"
        "    x = tl.load(p, boundary_check=(0,))\n"
        "    tl.store(Y + tl.arange(0, 16), x)\n";
    front_set_triton_version(9);
    expect_err(bp, "X:*f32[16] Y:*f32[16]",
               "k.py:5:12: error: NotImplementedError: Block pointers have been removed in favor of the tensor "
               "descriptor API (tl.make_block_ptr was removed in Triton 3.9");
    expect_err(PRELUDE "def k(X):\n    x = tl.load(X + tl.arange(0, 16), boundary_check=(0,))\n", "X:*f32[16]",
               "load() got an unexpected keyword argument 'boundary_check' (removed in Triton 3.9");
    expect_err(PRELUDE "def k(X):\n    x = tl.load(X + tl.arange(0, 16), padding_option='zero')\n", "X:*f32[16]",
               "load() got an unexpected keyword argument 'padding_option'");
    expect_err(PRELUDE "def k(X):\n    tl.store(X + tl.arange(0, 16), 1.0, boundary_check=())\n", "X:*f32[16]",
               "store() got an unexpected keyword argument 'boundary_check'");
    for (int v = 6; v <= 8; v++) {
        front_set_triton_version(v);
        ir_func_free(compile_ok(bp, "k", "X:*f32[16] Y:*f32[16]"));
    }
    front_set_triton_version(-1);
}
END_TEST

/* Names a release lacks: squeeze/unsqueeze came in 3.7 (standard.py),
 * expect_zero in 3.8, atomic_load/atomic_store/atomic_poll in 3.9 (core.py). */
START_TEST(version_names_added_later)
{
    expect_err_under(6, PRELUDE "def k(X):\n    x = tl.load(X + tl.arange(0, 16))[None, :]\n    y = tl.squeeze(x, 0)\n",
                     "X:*f32[16]", "k.py:6:12: error: module 'triton.language' has no attribute 'squeeze': tl.squeeze was "
                     "added in Triton 3.7 (tritium follows Triton 3.6");
    expect_err_under(8, PRELUDE "def k(X):\n    x = tl.atomic_load(X)\n", "X:*f32[16]",
                     "tl.atomic_load was added in Triton 3.9");
    expect_err_under(7, PRELUDE "def k(X):\n    x = tl.load(X)\n    y = tl.expect_zero(x, x > 0)\n", "X:*f32[16]",
                     "tl.expect_zero was added in Triton 3.8");
}
END_TEST


/* ---- shapes ------------------------------------------------------------------ */

/* Triton 3.7's standard.py squeeze/unsqueeze: a reshape that drops / inserts
 * a length-1 dim (negative dims count from the end; a dim that is not 1 is
 * a static_assert failure). */
START_TEST(squeeze_unsqueeze)
{
    static const char src[] = PRELUDE
        "def k(X, Y, Z):\n"
        "    r = tl.arange(0, 4)\n"
        "    x = tl.load(X + r[:, None] * 8 + tl.arange(0, 8)[None, :])\n"
        "    u = tl.unsqueeze(x, -2)\n"
        "    tl.static_assert(u.shape[0] == 4 and u.shape[1] == 1 and u.shape[2] == 8)\n"
        "    s = tl.squeeze(tl.unsqueeze(x, 0), 0)\n"
        "    tl.store(Y + r[:, None] * 8 + tl.arange(0, 8)[None, :], s)\n"
        "    c = tl.sum(x, 1, keep_dims=True)\n"
        "    tl.store(Z + r, tl.squeeze(c, -1))\n";
    launch l;
    lrun(src, "X:*f32[32] Y:*f32[32] Z:*f32[4]", &l, fill_iota_f32);
    const float *x = targ(&l, "X")->data, *y = targ(&l, "Y")->data, *z = targ(&l, "Z")->data;
    for (int i = 0; i < 32; i++) ck_assert(y[i] == x[i]);
    for (int i = 0; i < 4; i++) {
        float want = 0;
        for (int j = 0; j < 8; j++) want += x[i * 8 + j];
        ck_assert_msg(fabsf(z[i] - want) < 1e-5f, "row %d: %g vs %g", i, z[i], want);
    }
    launch_free(&l);
    expect_err(PRELUDE "def k(X):\n    x = tl.load(X + tl.arange(0, 16))\n    y = tl.squeeze(x, 0)\n", "X:*f32[16]",
               "static_assert");
}
END_TEST

/* Triton 3.7+ core.py cat(can_reorder=False, dim=0): order-keeping (join,
 * permute, reshape); 3.6 asks for can_reorder=True and has no dim. */
START_TEST(cat_keeps_order_along_dim)
{
    static const char src[] = PRELUDE
        "def k(X, Y0, Y1):\n"
        "    r = tl.arange(0, 4)[:, None]\n"
        "    c = tl.arange(0, 8)[None, :]\n"
        "    a = tl.load(X + r * 8 + c)\n"
        "    b = a + 100.0\n"
        "    y0 = tl.cat(a, b)\n"
        "    tl.store(Y0 + tl.arange(0, 8)[:, None] * 8 + c, y0)\n"
        "    y1 = tl.cat(a, b, dim=-1)\n"
        "    tl.store(Y1 + r * 16 + tl.arange(0, 16)[None, :], y1)\n";
    launch l;
    lrun(src, "X:*f32[32] Y0:*f32[64] Y1:*f32[64]", &l, fill_iota_f32);
    const float *x = targ(&l, "X")->data, *y0 = targ(&l, "Y0")->data, *y1 = targ(&l, "Y1")->data;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            ck_assert_msg(y0[i * 8 + j] == (i < 4 ? x[i * 8 + j] : x[(i - 4) * 8 + j] + 100.0f), "dim 0 [%d,%d]", i, j);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 16; j++)
            ck_assert_msg(y1[i * 16 + j] == (j < 8 ? x[i * 8 + j] : x[i * 8 + j - 8] + 100.0f), "dim 1 [%d,%d]", i, j);
    launch_free(&l);
    expect_err_under(6, src, "X:*f32[32] Y0:*f32[64] Y1:*f32[64]", "always may reorder elements");
}
END_TEST

/* ---- standard.py ------------------------------------------------------------------ */

/* Triton 3.9's standard.py softmax keeps the shape (max/sum with
 * keep_dims=True); 3.6-3.8 drop the axis unless keep_dims=True. */
START_TEST(softmax_keeps_dims_in_39)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"
        "    r = tl.arange(0, 4)[:, None]\n"
        "    c = tl.arange(0, 8)[None, :]\n"
        "    x = tl.load(X + r * 8 + c)\n"
        "    y = tl.softmax(x, 1)\n"
        "    tl.store(Y + r * 8 + c, y)\n";
    launch l;
    lrun(src, "X:*f32[32] Y:*f32[32]", &l, fill_iota_f32);
    const float *x = targ(&l, "X")->data, *y = targ(&l, "Y")->data;
    for (int i = 0; i < 4; i++) {
        double m = -INFINITY, s = 0;
        for (int j = 0; j < 8; j++) m = fmax(m, x[i * 8 + j]);
        for (int j = 0; j < 8; j++) s += exp(x[i * 8 + j] - m);
        for (int j = 0; j < 8; j++)
            ck_assert_msg(fabs(y[i * 8 + j] - exp(x[i * 8 + j] - m) / s) < 1e-6, "[%d,%d]", i, j);
    }
    launch_free(&l);
    /* 3.9's keep_dims is keyword-only (softmax(x, dim=None, *, keep_dims=None, ...)) */
    expect_err(PRELUDE "def k(X):\n    x = tl.softmax(tl.load(X + tl.arange(0, 8)), 0, False)\n", "X:*f32[8]",
               "softmax() takes 2 positional arguments but 3 were given");
    front_set_triton_version(8);      /* 3.8: [4,8] - [4] does not broadcast */
    expect_err(src, "X:*f32[32] Y:*f32[32]", "error");
    front_set_triton_version(-1);
}
END_TEST

/* Triton 3.8's standard.py topk(descending=): False gives the k smallest,
 * in ascending order. */
START_TEST(topk_descending)
{
    static const char src[] = PRELUDE
        "def k(X, Y, Z):\n"
        "    x = tl.load(X + tl.arange(0, 16))\n"
        "    tl.store(Y + tl.arange(0, 4), tl.topk(x, 4))\n"
        "    tl.store(Z + tl.arange(0, 4), tl.topk(x, 4, descending=False))\n";
    launch l;
    lrun(src, "X:*f32[16] Y:*f32[4] Z:*f32[4]", &l, fill_iota_f32);
    const float *x = targ(&l, "X")->data, *y = targ(&l, "Y")->data, *z = targ(&l, "Z")->data;
    for (int i = 0; i < 4; i++) {
        ck_assert_msg(y[i] == x[15 - i], "largest %d: %g", i, y[i]);
        ck_assert_msg(z[i] == x[i], "smallest %d: %g", i, z[i]);
    }
    launch_free(&l);
    expect_err_under(7, src, "X:*f32[16] Y:*f32[4] Z:*f32[4]", "descending");
}
END_TEST


/* ---- syntax ------------------------------------------------------------------------ */

static void fill_iota_i32(launch *l)
{
    tt_tensor *x = targ(l, "X");
    int32_t *v = x->data;
    for (size_t i = 0; i < x->nbytes / 4; i++) v[i] = (int32_t)i;
}

/* Triton 3.9's code_generator.py visit_Compare: lo <= x < hi is
 * (lo <= x) and (x < hi), the middle evaluated once; constexpr chains fold
 * (a False ends the chain). 3.6-3.8: "simultaneous multiple comparison is
 * not supported". */
START_TEST(chained_comparisons_39)
{
    static const char src[] = PRELUDE
        "def k(X, Y, Z):\n"
        "    x = tl.load(X + tl.arange(0, 16))\n"
        "    tl.store(Y + tl.arange(0, 16), (2 <= x < 9).to(tl.int32) + (1 < 3 <= x).to(tl.int32) * 10)\n"
        "    tl.static_assert(1 < 2 < 3 and not (1 < 3 < 2))\n"
        "    tl.static_assert((x > 20 < 3) == False)\n"       /* a constexpr False ends the chain */
        "    tl.store(Z + tl.arange(0, 16), (x >= 0 > -1 > -2).to(tl.int32))\n";
    launch l;
    lrun(src, "X:*i32[16] Y:*i32[16] Z:*i32[16]", &l, fill_iota_i32);
    const int32_t *y = targ(&l, "Y")->data, *z = targ(&l, "Z")->data;
    for (int i = 0; i < 16; i++) {
        ck_assert_int_eq(y[i], (2 <= i && i < 9) + 10 * (3 <= i));
        ck_assert_int_eq(z[i], 1);
    }
    launch_free(&l);
}
END_TEST

/* Triton 3.8's visit_NamedExpr: an assignment (numbers become tensors),
 * then the name's value; a walrus in a loop body carries its name. 3.6 and
 * 3.7: unsupported AST node type: NamedExpr. */
START_TEST(walrus_38)
{
    static const char src[] = PRELUDE
        "def k(X, Y, Z):\n"
        "    tl.store(Y + tl.arange(0, 16), (x := tl.load(X + tl.arange(0, 16))) * x)\n"
        "    acc = 0\n"
        "    last = 0\n"
        "    for i in range(4):\n"
        "        acc += (last := i * 2)\n"
        "    tl.store(Z, acc + last * 100)\n"
        /* a while condition's target: its new value reaches the body and the code after
         * the loop, as in Python (scf.condition forwards it) */
        "    j = 0\n"
        "    s = tl.load(X + 3)\n"
        "    while (j := j + 1) < 4:\n"
        "        s += j\n"
        "    tl.store(Z + 1, s + j * 100)\n";
    launch l;
    lrun(src, "X:*i32[16] Y:*i32[16] Z:*i32[2]", &l, fill_iota_i32);
    const int32_t *y = targ(&l, "Y")->data, *z = targ(&l, "Z")->data;
    for (int i = 0; i < 16; i++) ck_assert_int_eq(y[i], i * i);
    ck_assert_int_eq(z[0], 0 + 2 + 4 + 6 + 600);
    ck_assert_int_eq(z[1], 3 + 1 + 2 + 3 + 400);
    launch_free(&l);
    expect_err_under(7, src, "X:*i32[16] Y:*i32[16] Z:*i32[2]", "unsupported AST node type: NamedExpr");
}
END_TEST

/* Triton 3.9's visit_ListComp: tuple targets are unpacked and `if` filters
 * (constexprs) keep items; 3.6-3.8 read comp.target.id and ignore `if`. */
START_TEST(comprehension_filters_and_tuple_targets_39)
{
    static const char src[] = PRELUDE
        "def k(Y):\n"
        "    s = [a + b for a, b in ((1, 10), (2, 20), (3, 30), (4, 40)) if a % 2 == 0]\n"
        "    tl.static_assert(len(s) == 2)\n"
        "    t = [v for v in (1, 2, 3, 4, 5) if v > 1 if v < 5]\n"
        "    tl.static_assert(len(t) == 3)\n"
        "    tl.store(Y, s[0] + s[1] + t[2])\n";
    launch l;
    lrun(src, "Y:*i32[1]", &l, NULL);
    ck_assert_int_eq(((int32_t *)targ(&l, "Y")->data)[0], 22 + 44 + 4);
    launch_free(&l);
    /* no release compiles generator expressions (code_generator.py has no visit_GeneratorExp) */
    expect_err(PRELUDE "def k(Y):\n    t = tuple(v for v in (1, 2))\n", "Y:*i32[1]",
               "unsupported AST node type: GeneratorExp");
    expect_err_under(8, src, "Y:*i32[1]", "a comprehension's target must be one name before Triton 3.9");
}
END_TEST

/* core.py tensor.logical_and/logical_or (every release, 3.6 included):
 * int1 operands, and_/or_. */
START_TEST(logical_and_or_methods)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"
        "    x = tl.load(X + tl.arange(0, 16))\n"
        "    a = (x > 2).logical_and(x < 9)\n"
        "    o = (x < 2).logical_or(x > 12)\n"
        "    tl.store(Y + tl.arange(0, 16), a.to(tl.int32) + o.to(tl.int32) * 2)\n";
    for (int v = 6; v <= 9; v += 3) {
        front_set_triton_version(v);
        launch l;
        lrun(src, "X:*i32[16] Y:*i32[16]", &l, fill_iota_i32);
        const int32_t *y = targ(&l, "Y")->data;
        for (int i = 0; i < 16; i++) ck_assert_int_eq(y[i], (i > 2 && i < 9) + 2 * (i < 2 || i > 12));
        launch_free(&l);
    }
    front_set_triton_version(-1);
}
END_TEST


static void fill_iota_i16(launch *l)
{
    int16_t *v = targ(l, "X")->data;
    for (int i = 0; i < 16; i++) v[i] = (int16_t)(i * 1000 - 7000);
}

/* semantic.py bitwise_op_type_checking_impl (3.6-3.9): a Python int takes
 * the integer tensor's type (computation_type_impl), so `bits ^ -32768` on
 * int16 stays int16 and can be bitcast to fp16; a literal out of the
 * tensor type's range is an error. */
START_TEST(bitwise_literal_keeps_int16)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"
        "    b = tl.load(X + tl.arange(0, 16))\n"
        "    z = b ^ -32768\n"
        "    tl.static_assert(z.dtype == tl.int16 and (b << 1).dtype == tl.int16 and (b & 1).dtype == tl.int16)\n"
        "    tl.store(Y + tl.arange(0, 16), z.to(tl.float16, bitcast=True))\n";
    launch l;
    lrun(src, "X:*i16[16] Y:*f16[16]", &l, fill_iota_i16);
    const int16_t *x = targ(&l, "X")->data;
    const uint16_t *y = targ(&l, "Y")->data;
    for (int i = 0; i < 16; i++) ck_assert_int_eq(y[i], (uint16_t)(x[i] ^ 0x8000));
    launch_free(&l);
    expect_err(PRELUDE "def k(X):\n    b = tl.load(X + tl.arange(0, 16))\n    z = b & 0x1ffff\n", "X:*i16[16]",
               "out of range for type int16");
}
END_TEST


/* Keyword-only parameters and *args (code_generator.py visit_arguments:
 * *args bound from 3.8, keyword-only from 3.9; call_JitFunction binds as
 * Python's signature.bind). A kernel's keyword-only parameters are launch
 * arguments like any other (the launch binds by name). */
START_TEST(kwonly_and_varargs_helpers)
{
    static const char src[] = PRELUDE
        "def scale(a, *, s, bias=1):\n"
        "    return a * s + bias\n"
        "\n"
        "@triton.jit\n"
        "def total(first, *rest):\n"
        "    acc = first\n"
        "    for i in tl.static_range(len(rest)):\n"
        "        acc = acc + rest[i]\n"
        "    return acc\n"
        "\n"
        "@triton.jit\n"
        "def k(X, Y, *, S: tl.constexpr):\n"
        "    x = tl.load(X + tl.arange(0, 16))\n"
        "    tl.store(Y + tl.arange(0, 16), total(scale(x, s=S), x, 100) + total(x))\n";
    launch l;
    lrun(src, "X:*i32[16] Y:*i32[16] S=3", &l, fill_iota_i32);
    const int32_t *y = targ(&l, "Y")->data;
    for (int i = 0; i < 16; i++) ck_assert_int_eq(y[i], (i * 3 + 1) + i + 100 + i);
    launch_free(&l);
    expect_err(PRELUDE "def h(a, *, s):\n    return a * s\n\n@triton.jit\ndef k(X):\n    tl.store(X, h(1, 2))\n",
               "X:*i32[1]", "h() takes 1 positional arguments but 2 were given");
    expect_err_under(8, src, "X:*i32[16] Y:*i32[16] S=3",
                     "keyword-only parameters of jit functions ('s') are bound from Triton 3.9");
    expect_err_under(7, PRELUDE "def h(*r):\n    return r[0]\n\n@triton.jit\ndef k(X):\n    tl.store(X, h(1, 2))\n",
                     "X:*i32[1]", "*r parameters of jit functions are bound from Triton 3.8");
}
END_TEST


/* semantic.py minus: Triton 3.8+ negates floats with fneg (-(+0.0) is -0.0,
 * NaN keeps its payload with the sign flipped); 3.6 and 3.7 compute 0 - x. */
START_TEST(negation_is_fneg_from_38)
{
    static const char src[] = PRELUDE
        "def k(X, Y, H):\n"
        "    x = tl.load(X + tl.arange(0, 16))\n"
        "    tl.store(Y + tl.arange(0, 16), -x)\n"
        "    tl.store(H + tl.arange(0, 16), -(x.to(tl.float16)))\n";
    for (int v = 7; v <= 9; v++) {
        front_set_triton_version(v);
        launch l;
        lrun(src, "X:*f32[16] Y:*f32[16] H:*f16[16]", &l, NULL);   /* X: +0.0 */
        const uint32_t *y = targ(&l, "Y")->data;
        const uint16_t *h = targ(&l, "H")->data;
        for (int i = 0; i < 16; i++) {
            ck_assert_uint_eq(y[i], v >= 8 ? 0x80000000u : 0u);
            ck_assert_uint_eq(h[i], v >= 8 ? 0x8000u : 0u);
        }
        launch_free(&l);
    }
    front_set_triton_version(-1);
    launch l;
    lrun(src, "X:*f32[16] Y:*f32[16] H:*f16[16]", &l, fill_iota_f32);
    const float *x = targ(&l, "X")->data, *y = targ(&l, "Y")->data;
    for (int i = 0; i < 16; i++) ck_assert(y[i] == -x[i]);
    launch_free(&l);
}
END_TEST


/* standard.py cumsum/cumprod in 3.9: bf16 stays bf16, ints below 32 bits
 * widen to (u)int32 for both, cumprod takes dtype=; 3.6-3.8 scan bf16 in
 * fp32, widen only cumsum's ints and have no cumprod dtype=. */
START_TEST(scan_dtypes_39)
{
    static const char src[] = PRELUDE
        "def k(X, Y, Z):\n"
        "    x = tl.load(X + tl.arange(0, 8))\n"
        "    b = tl.cumsum(x.to(tl.bfloat16), 0)\n"
        "    i = tl.cumprod(x.to(tl.int8), 0)\n"
        "    f = tl.cumprod(x, 0, dtype=tl.float64)\n"
        "    tl.static_assert(b.dtype == tl.bfloat16 and i.dtype == tl.int32 and f.dtype == tl.float64)\n"
        "    tl.store(Y + tl.arange(0, 8), i)\n"
        "    tl.store(Z + tl.arange(0, 8), f.to(tl.float32))\n";
    launch l;
    lrun(src, "X:*f32[8] Y:*i32[8] Z:*f32[8]", &l, fill_small);
    const float *x = targ(&l, "X")->data, *z = targ(&l, "Z")->data;
    const int32_t *y = targ(&l, "Y")->data;
    int32_t pi = 1;
    double pf = 1;
    for (int i = 0; i < 8; i++) {
        pi *= (int8_t)x[i];     /* int8 inputs, products in int32: 3 ** 8 does not wrap */
        pf *= x[i];
        ck_assert_int_eq(y[i], pi);
        ck_assert(z[i] == (float)pf);
    }
    launch_free(&l);
    front_set_triton_version(8);
    expect_err(src, "X:*f32[8] Y:*i32[8] Z:*f32[8]", "cumprod() got an unexpected keyword argument 'dtype'");
    ir_func *f = compile_ok(PRELUDE "def k(X):\n    x = tl.load(X + tl.arange(0, 8))\n"
                            "    b = tl.cumsum(x.to(tl.bfloat16), 0)\n    i = tl.cumprod(x.to(tl.int8), 0)\n"
                            "    tl.static_assert(b.dtype == tl.float32 and i.dtype == tl.int8)\n", "k", "X:*f32[8]");
    ir_func_free(f);
    front_set_triton_version(-1);
}
END_TEST


/* Triton 3.9 math.py fdiv(approx=, ieee_rounding=): promoted as `/`,
 * not both; approx needs fp32. 3.6-3.8 have no approx. */
START_TEST(fdiv_approx_39)
{
    static const char src[] = PRELUDE
        "def k(X, Y, Z):\n"
        "    x = tl.load(X + tl.arange(0, 16))\n"
        "    tl.store(Y + tl.arange(0, 16), tl.fdiv(x, 3.0, approx=True))\n"
        "    tl.store(Z + tl.arange(0, 16), tl.fdiv(x, 7, ieee_rounding=True))\n";
    launch l;
    lrun(src, "X:*f32[16] Y:*f32[16] Z:*f32[16]", &l, fill_iota_f32);
    const float *x = targ(&l, "X")->data, *y = targ(&l, "Y")->data, *z = targ(&l, "Z")->data;
    for (int i = 0; i < 16; i++) {
        ck_assert(fabsf(y[i] - x[i] / 3.0f) <= 2 * 1.2e-7f * fabsf(x[i] / 3.0f));
        ck_assert(z[i] == x[i] / 7.0f);
    }
    launch_free(&l);
    expect_err(PRELUDE "def k(X):\n    x = tl.load(X)\n    y = tl.fdiv(x, 2.0, approx=True, ieee_rounding=True)\n",
               "X:*f32[1]", "approx and ieee_rounding cannot both be True");
    expect_err(PRELUDE "def k(X):\n    x = tl.load(X)\n    y = tl.fdiv(x, 2.0, approx=True)\n", "X:*f64[1]",
               "approx division requires float32 operands");
    expect_err_under(8, src, "X:*f32[16] Y:*f32[16] Z:*f32[16]", "fdiv() got an unexpected keyword argument 'approx'");
}
END_TEST

/* semantic.py dot: from Triton 3.8 out_dtype defaults to the accumulator's
 * dtype (fp16 inputs, fp16 acc: an fp16 result); 3.6 and 3.7 default to
 * float32 and refuse an fp16 acc without out_dtype=. */
START_TEST(dot_follows_acc_from_38)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"
        "    r = tl.arange(0, 16)\n"
        "    a = tl.load(X + r[:, None] * 16 + r[None, :])\n"
        "    acc = tl.zeros((16, 16), tl.float16) + 1.0\n"
        "    d = tl.dot(a, a, acc)\n"
        "    tl.static_assert(d.dtype == tl.float16)\n"
        "    tl.store(Y + r[:, None] * 16 + r[None, :], d)\n";
    launch l;
    lrun(src, "X:*f16[256] Y:*f16[256]", &l, NULL);
    const uint16_t *y = targ(&l, "Y")->data;
    for (int i = 0; i < 256; i++) ck_assert_uint_eq(y[i], 0x3c00);   /* 0 @ 0 + 1.0 */
    launch_free(&l);
    expect_err_under(7, src, "X:*f16[256] Y:*f16[256]", "acc must be fp32");
}
END_TEST

/* core.py/semantic.py dot_scaled (3.6-3.9; interpreter.py create_dot_scaled
 * from 3.8): e2m1 x e2m1 with E8M0 scales, decomposed in the front end
 * (sema_dot_scaled.c) into unpacking, bfloat16 upcasts, scale products and
 * one tt.dot. The result against a C reference from the e2m1 table; byte
 * 255 makes its row NaN; Triton's messages for a wrong format, a wrong
 * scale dtype and a wrong scale shape. */
static void fill_mx(launch *l)
{
    uint8_t *a = targ(l, "A")->data, *b = targ(l, "B")->data, *sa = targ(l, "SA")->data, *sb = targ(l, "SB")->data;
    for (int i = 0; i < 16 * 32; i++) a[i] = (uint8_t)(i * 37 + 11), b[i] = (uint8_t)(i * 53 + 5);
    for (int i = 0; i < 16 * 2; i++) sa[i] = (uint8_t)(124 + i % 7), sb[i] = (uint8_t)(125 + i % 5);
    sa[3 * 2 + 1] = 255;   /* row 3: NaN */
}

static double e2m1(int nib)
{
    static const double t[8] = { 0, 0.5, 1, 1.5, 2, 3, 4, 6 };
    return (nib & 8 ? -1 : 1) * t[nib & 7];
}

START_TEST(dot_scaled_mxfp4)
{
    static const char src[] = PRELUDE
        "def k(A, SA, B, SB, O):\n"
        "    r = tl.arange(0, 16)\n"
        "    h = tl.arange(0, 32)\n"
        "    s = tl.arange(0, 2)\n"
        "    a = tl.load(A + r[:, None] * 32 + h[None, :])\n"
        "    b = tl.load(B + h[:, None] * 16 + r[None, :])\n"
        "    sa = tl.load(SA + r[:, None] * 2 + s[None, :])\n"
        "    sb = tl.load(SB + r[:, None] * 2 + s[None, :])\n"
        "    tl.store(O + r[:, None] * 16 + r[None, :], tl.dot_scaled(a, sa, 'e2m1', b, sb, 'e2m1'))\n";
    const char *spec = "A:*u8[512] SA:*u8[32] B:*u8[512] SB:*u8[32] O:*f32[256]";
    ir_func *f = compile_ok(src, "k", spec);
    ck_assert_int_eq(count_ops(f, IR_DOT), 1);
    ir_op *d = find_op(f, IR_DOT, 0);
    ck_assert_str_eq(vtype(f, d->opnd[0]), "tensor<16x64xbf16>");
    ck_assert_str_eq(vtype(f, d->opnd[1]), "tensor<64x16xbf16>");
    ck_assert_int_eq(count_ops(f, IR_JOIN), 2);
    ir_func_free(f);
    launch l;
    lrun(src, spec, &l, fill_mx);
    const uint8_t *a = targ(&l, "A")->data, *b = targ(&l, "B")->data, *sa = targ(&l, "SA")->data,
                  *sb = targ(&l, "SB")->data;
    const float *o = targ(&l, "O")->data;
    for (int m = 0; m < 16; m++)
        for (int n = 0; n < 16; n++) {
            double ref = 0, mag = 0;
            for (int k = 0; k < 64; k++) {
                double x = e2m1(a[m * 32 + k / 2] >> (k % 2 * 4) & 15) * ldexp(1, sa[m * 2 + k / 32] - 127);
                double y = e2m1(b[(k / 2) * 16 + n] >> (k % 2 * 4) & 15) * ldexp(1, sb[n * 2 + k / 32] - 127);
                if (sa[m * 2 + k / 32] == 255) x = NAN;
                ref += x * y, mag += fabs(x * y);
            }
            if (m == 3) ck_assert_msg(isnan(o[m * 16 + n]), "O[3][%d] = %g, want NaN", n, o[m * 16 + n]);
            else ck_assert_msg(fabs(o[m * 16 + n] - ref) <= 1e-6 * mag, "O[%d][%d] = %.9g, want %.9g", m, n, o[m * 16 + n], ref);
        }
    launch_free(&l);
    static const char fmt[] = PRELUDE
        "def k(A, O):\n"
        "    r = tl.arange(0, 32)\n"
        "    a = tl.load(A + r[:, None] * 32 + r[None, :])\n"
        "    o = tl.dot_scaled(a, None, 'e3m1', a, None, 'e4m3')\n";
    expect_err(fmt, "A:*u8[1024] O:*f32[1024]", "k.py:7:12: error: ValueError: Invalid float format: e3m1.");
    static const char pack[] = PRELUDE
        "def k(A, O):\n"
        "    r = tl.arange(0, 32)\n"
        "    a = tl.load(A + r[:, None] * 32 + r[None, :])\n"
        "    o = tl.dot_scaled(a, None, 'e2m1', a, None, 'e4m3')\n";
    expect_err(pack, "A:*u8[1024] O:*f32[1024]",
               "k.py:7:12: error: Reduction dimension should pack the same number of elements; (lhs: [32, 32] vs rhs: [32, 32])");
    static const char scale[] = PRELUDE
        "def k(A, S, O):\n"
        "    r = tl.arange(0, 32)\n"
        "    a = tl.load(A + r[:, None] * 32 + r[None, :])\n"
        "    s = tl.load(S + r[:, None] + tl.arange(0, 1)[None, :])\n"
        "    o = tl.dot_scaled(a, s, 'e4m3', a, s, 'e4m3')\n";
    expect_err(scale, "A:*u8[1024] S:*f32[32] O:*f32[1024]", "k.py:8:12: error: lhs_scale must be a uint8 tensor of E8M0 exponents");
    static const char shape[] = PRELUDE
        "def k(A, S, O):\n"
        "    r = tl.arange(0, 32)\n"
        "    a = tl.load(A + r[:, None] * 32 + r[None, :])\n"
        "    s = tl.load(S + tl.arange(0, 16)[:, None] + tl.arange(0, 1)[None, :])\n"
        "    o = tl.dot_scaled(a, None, 'e4m3', a, s, 'e4m3')\n";
    expect_err(shape, "A:*u8[1024] S:*u8[32] O:*f32[1024]", "rhs_scale must be a tensor of shape [..., 32, 1]. Got [16, 1]");
    /* uint8 scales over groups of 16: from 3.8 (deduce_scale_factor); 3.6 and 3.7 take 32 only */
    static const char g16[] = PRELUDE
        "def k(A, S, O):\n"
        "    r = tl.arange(0, 32)\n"
        "    a = tl.load(A + r[:, None] * 32 + r[None, :])\n"
        "    s = tl.load(S + r[:, None] * 2 + tl.arange(0, 2)[None, :])\n"
        "    tl.store(O + r[:, None] * 32 + r[None, :], tl.dot_scaled(a, s, 'e4m3', a, s, 'e4m3'))\n";
    expect_err_under(7, g16, "A:*u8[1024] S:*u8[64] O:*f32[1024]",
                     "lhs_scale must be a tensor of shape [..., 32, 1]. Got [32, 2]");
    front_set_triton_version(8);
    ir_func_free(compile_ok(g16, "k", "A:*u8[1024] S:*u8[64] O:*f32[1024]"));
    front_set_triton_version(-1);
}
END_TEST

/* core.py expect_zero (3.8+): x itself; under debug a device_assert. */
START_TEST(expect_zero_38)
{
    static const char src[] = PRELUDE
        "def k(X, Y):\n"
        "    x = tl.load(X + tl.arange(0, 16))\n"
        "    tl.store(Y + tl.arange(0, 16), tl.expect_zero(x, x < 0) + 1)\n";
    launch l;
    lrun(src, "X:*f32[16] Y:*f32[16]", &l, fill_iota_f32);
    const float *x = targ(&l, "X")->data, *y = targ(&l, "Y")->data;
    for (int i = 0; i < 16; i++) ck_assert(y[i] == x[i] + 1);
    launch_free(&l);
}
END_TEST

/* @triton.aggregate classes (3.8+ core.py _aggregate) read from a file:
 * the generated __init__ (position, keyword, a base's default), inheritance
 * (the base's fields first; an overriding method calling the base's by
 * name), jit methods bound to the instance, an operator method, a tensor
 * tuple field carried by a runtime loop through tl.aggregate_replace while
 * the constexpr field stays one; before 3.8 the class is an error naming
 * the release. */
static const char agg_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "@triton.aggregate\n"
    "class Affine:\n"
    "    \"\"\"y = x * w * n + shift\"\"\"\n"
    "    w: tl.tensor\n"
    "    n: tl.constexpr\n"
    "    shift: tl.constexpr = 4\n"
    "    @triton.jit\n"
    "    def apply(self, x):\n"
    "        return x * self.w * self.n + self.shift\n"
    "@triton.aggregate\n"
    "class Biased(Affine):\n"
    "    bias: tl.tuple = (1.0, 2.0)\n"
    "    @triton.jit\n"
    "    def apply(self, x):\n"
    "        return Affine.apply(self, x) + self.bias[0] + self.bias[1]\n"
    "    @triton.jit\n"
    "    def __add__(self, other):\n"
    "        return tl.aggregate_replace(self, w=self.w + other)\n"
    "@triton.jit\n"
    "def make(w, b):\n"
    "    return Biased(w, 2, bias=(b, b * 2))\n"
    "@triton.jit\n"
    "def k(X, Y, n):\n"
    "    o = tl.arange(0, 8)\n"
    "    x = tl.load(X + o)\n"
    "    a = Affine(tl.load(X), 3)\n"
    "    tl.static_assert(a.n == 3 and a.shift == 4)\n"
    "    tl.store(Y + o, a.apply(x))\n"
    "    b = make(tl.load(X + 1), tl.load(X + 2))\n"
    "    for i in range(n):\n"
    "        b = tl.aggregate_replace(b, w=b.w + 1.0, bias=(b.bias[0] + 1.0, b.bias[1]))\n"
    "    tl.static_assert(b.n == 2)\n"
    "    tl.store(Y + 8 + o, (b + 10.0).apply(x))\n";

START_TEST(aggregates_38)
{
    front_set_triton_version(9);
    launch l;
    lrun(agg_src, "X:*f32[8] Y:*f32[16] n:i32=3", &l, fill_small);
    const float *x = targ(&l, "X")->data, *y = targ(&l, "Y")->data;
    float w1 = x[1] + 3, b0 = x[2] + 3, b1 = x[2] * 2;
    for (int i = 0; i < 8; i++) {
        ck_assert_msg(fabsf(y[i] - (x[i] * x[0] * 3 + 4)) < 1e-5f, "Y[%d] = %g", i, y[i]);
        float want = x[i] * (w1 + 10) * 2 + 4 + b0 + b1;
        ck_assert_msg(fabsf(y[8 + i] - want) < 1e-4f, "Y[%d] = %g, want %g", 8 + i, y[8 + i], want);
    }
    launch_free(&l);
    static const char head[] = "import triton\nimport triton.language as tl\n"
                               "@triton.aggregate\nclass P:\n    w: tl.tensor\n    n: tl.constexpr = 2\n@triton.jit\n";
    char buf[1024];
    snprintf(buf, sizeof buf, "%sdef k(X):\n    p = P()\n", head);
    expect_err(buf, "X:*f32[1]", "P.__init__() missing required argument: 'w'");
    snprintf(buf, sizeof buf, "%sdef k(X):\n    p = P(1.0)\n", head);
    expect_err(buf, "X:*f32[1]", "Expected <class 'triton.language.core.tensor'> for attribute 'w', got "
                                 "<class 'triton.language.core.constexpr'>");
    snprintf(buf, sizeof buf, "%sdef k(X):\n    p = P(tl.load(X), m=1)\n", head);
    expect_err(buf, "X:*f32[1]", "P.__init__() got an unexpected keyword argument 'm'");
    snprintf(buf, sizeof buf, "%sdef k(X):\n    p = tl.aggregate_replace(P(tl.load(X)), v=1)\n", head);
    expect_err(buf, "X:*f32[1]", "P has no field 'v'");
    snprintf(buf, sizeof buf, "%sdef k(X):\n    p = tl.aggregate_replace(tl.load(X), n=1)\n", head);
    expect_err(buf, "X:*f32[1]", "aggregate_replace() expects an aggregate instance");
    snprintf(buf, sizeof buf, "%sdef k(X):\n    p = P(tl.load(X))\n    p.w = p.w + 1\n", head);
    expect_err(buf, "X:*f32[1]", "Attribute assignment is not supported in triton");
    snprintf(buf, sizeof buf, "%sdef k(X):\n    p = P(tl.load(X))\n    a, b = p\n", head);
    expect_err(buf, "X:*f32[1]", "cannot unpack non-iterable value");
    snprintf(buf, sizeof buf, "%sdef k(X):\n    p = P(tl.load(X))\n    q = p[0]\n", head);
    expect_err(buf, "X:*f32[1]", "'P' object is not subscriptable");
    snprintf(buf, sizeof buf, "%sdef k(X, n):\n    p = P(tl.load(X))\n    for i in range(n):\n        p = P(p.w, 3)\n",
             head);
    expect_err(buf, "X:*f32[1] n:i32=2", "its constexpr field 'n' is constexpr int 2 on one path but constexpr int 3");
    expect_err_under(7, agg_src, "X:*f32[8] Y:*f32[16] n:i32=3",
                     "@triton.aggregate (class Affine) was added in Triton 3.8");
}
END_TEST

/* 3.9 core.py _aggregate with the class's own __init__ (a constexpr_function
 * or a builtin taking _semantic): it runs on an instance whose fields are
 * unset (aggregate_value.__new__) and must set them all; `self.f = v` is
 * checked against the annotation (__setattr__); builtin methods run in the
 * code generator like jit ones. */
START_TEST(aggregate_user_init_39)
{
    static const char src[] = "import triton\nimport triton.language as tl\n"
        "@triton.aggregate\nclass Pair:\n    a: tl.tensor\n    b: tl.tensor\n    s: tl.constexpr\n"
        "    @triton.constexpr_function\n    def __init__(self, a, b, s=2):\n"
        "        self.a = a\n        self.b = b\n        self.s = tl.constexpr(s)\n"
        "    @tl.core.builtin\n    def second(self, _semantic=None):\n        return self.b\n"
        "    @triton.jit\n    def combine(self):\n        return self.a * self.s + self.second()\n"
        "@triton.aggregate\nclass Ramp:\n    v: tl.tensor\n"
        "    @tl.core.builtin\n    def __init__(self, _semantic=None):\n"
        "        self.v = tl.arange(0, 8, _semantic=_semantic).to(tl.float32)\n"
        "@triton.jit\ndef k(X, Y):\n    o = tl.arange(0, 8)\n    x = tl.load(X + o)\n"
        "    tl.store(Y + o, Pair(x, Ramp().v).combine() + Pair(x, x, s=5).combine())\n";
    front_set_triton_version(9);
    launch l;
    lrun(src, "X:*f32[8] Y:*f32[8]", &l, fill_small);
    const float *x = targ(&l, "X")->data, *y = targ(&l, "Y")->data;
    for (int i = 0; i < 8; i++)
        ck_assert_msg(y[i] == x[i] * 2 + (float)i + (x[i] * 5 + x[i]), "Y[%d] = %g", i, y[i]);
    launch_free(&l);
    static const char head[] = "import triton\nimport triton.language as tl\n"
                               "@triton.aggregate\nclass P:\n    w: tl.tensor\n    n: tl.constexpr\n"
                               "    @triton.constexpr_function\n    def __init__(self, w):\n";
    char buf[1024];
    snprintf(buf, sizeof buf, "%s        self.w = w\n@triton.jit\ndef k(X):\n    p = P(tl.load(X))\n", head);
    expect_err(buf, "X:*f32[1]", "constructor for P did not initialize attribute 'n'");
    snprintf(buf, sizeof buf, "%s        self.w = w\n        self.n = w\n@triton.jit\ndef k(X):\n    p = P(tl.load(X))\n",
             head);
    expect_err(buf, "X:*f32[1]", "Expected <class 'triton.language.core.constexpr'> for attribute 'n'");
    snprintf(buf, sizeof buf, "%s        self.v = w\n@triton.jit\ndef k(X):\n    p = P(tl.load(X))\n", head);
    expect_err(buf, "X:*f32[1]", "AttributeError: P has no attribute 'v'");
    snprintf(buf, sizeof buf, "%s        self.w = self.n\n@triton.jit\ndef k(X):\n    p = P(tl.load(X))\n", head);
    expect_err(buf, "X:*f32[1]", "'P' object has no attribute 'n'");
    front_set_triton_version(-1);
}
END_TEST

/* histogram of values outside [0, num_bins): 3.9's lowering drops them
 * (HistogramOpToLLVM's unsigned compare; interpreter.py create_histogram),
 * 3.6-3.8's count value & (num_bins - 1). */
static void fill_hist(launch *l)
{
    int32_t *x = targ(l, "X")->data;
    for (int i = 0; i < 32; i++) x[i] = i % 13 - 3;      /* -3..9 */
}

START_TEST(histogram_range_39)
{
    static const char src[] = PRELUDE "def k(X, H):\n    o = tl.arange(0, 32)\n"
                                      "    tl.store(H + tl.arange(0, 8), tl.histogram(tl.load(X + o), 8, mask=o < 30))\n";
    for (int v = 8; v <= 9; v++) {
        front_set_triton_version(v);
        launch l;
        lrun(src, "X:*i32[32] H:*i32[8]", &l, fill_hist);
        const int32_t *x = targ(&l, "X")->data, *h = targ(&l, "H")->data;
        int want[8] = { 0 };
        for (int i = 0; i < 30; i++)
            if (v == 8) want[x[i] & 7]++;
            else if (x[i] >= 0 && x[i] < 8) want[x[i]]++;
        for (int b = 0; b < 8; b++) ck_assert_msg(h[b] == want[b], "3.%d bin %d: %d, want %d", v, b, h[b], want[b]);
        launch_free(&l);
    }
    front_set_triton_version(-1);
}
END_TEST

/* core.py must_use_result over @triton.jit (and tl.advance, which core.py
 * marks): an expression statement dropping the call's result is
 * code_generator.py call_Function's error; under @triton.jit it is not seen. */
START_TEST(must_use_result)
{
    static const char head[] = "import triton\nimport triton.language as tl\n"
                               "@triton.must_use_result(\"Keep it.\")\n@triton.jit\ndef f(x):\n    return x + 1\n"
                               "@triton.jit\n@triton.must_use_result\ndef g(x):\n    return x + 1\n@triton.jit\n";
    char buf[1024];
    snprintf(buf, sizeof buf, "%sdef k(X):\n    x = tl.load(X)\n    f(x)\n", head);
    expect_err(buf, "X:*f32[1]", "k.py:14:5: error: The result of f is not being used. Keep it.");
    snprintf(buf, sizeof buf, "%sdef k(X):\n    x = tl.load(X)\n    g(x)\n    tl.store(X, f(x))\n", head);
    launch l;
    lrun(buf, "X:*f32[1]", &l, NULL);
    launch_free(&l);
    expect_err_under(8, PRELUDE "def k(X):\n    p = tl.make_block_ptr(X, (8,), (1,), (0,), (8,), (0,))\n"
                     "    tl.advance(p, (1,))\n",
                     "X:*f32[8]", "The result of tl.advance is not being used. Note that tl.advance does not have any side");
}
END_TEST

/* Triton 3.9 semantic.py atomic_load/atomic_store: masked lanes are not
 * performed; sem acquire/relaxed (load), release/relaxed (store); any int or
 * float element. Lowered to atomic RMWs on the bits (or 0, exchange). */
START_TEST(atomic_load_store_39)
{
    static const char src[] = PRELUDE
        "def k(X, Y, H, F):\n"
        "    o = tl.arange(0, 16)\n"
        "    x = tl.atomic_load(X + o, mask=o < 12, sem='relaxed')\n"
        "    tl.atomic_store(Y + o, tl.where(o < 12, x, 0.0) * 2, mask=o % 2 == 0)\n"
        "    h = (X + o).atomic_load().to(tl.float16)\n"
        "    tl.atomic_store(H + o, h, scope='cta')\n"
        "    tl.atomic_store(F + o, x > 0, sem='release')\n";
    launch l;
    lrun(src, "X:*f32[16] Y:*f32[16] H:*f16[16] F:*i1[16]", &l, fill_iota_f32);
    const float *x = targ(&l, "X")->data, *y = targ(&l, "Y")->data;
    const uint8_t *f = targ(&l, "F")->data;
    for (int i = 0; i < 16; i++) {
        ck_assert_msg(y[i] == (i % 2 == 0 ? (i < 12 ? x[i] * 2 : 0.0f) : 0.0f), "Y[%d] = %g", i, y[i]);
        if (i < 12) ck_assert_int_eq(f[i], x[i] > 0);
    }
    launch_free(&l);
    expect_err(PRELUDE "def k(X):\n    x = tl.atomic_load(X, sem='release')\n", "X:*i32[1]",
               "atomic_load only supports acquire and relaxed semantics");
    expect_err(PRELUDE "def k(X):\n    tl.atomic_store(X, 1, sem='acquire')\n", "X:*i32[1]",
               "atomic_store only supports release and relaxed semantics");
    expect_err(PRELUDE "def k(X):\n    x = tl.atomic_load(X, sem='bogus')\n", "X:*i32[1]",
               "Memory semantic bogus not supported");
    expect_err(PRELUDE "def k(X):\n    tl.atomic_store(X, 1, scope='grid')\n", "X:*i32[1]", "Memory scope grid not supported");
    /* atomic_add & co. read sem and scope through the same helper, with their own messages */
    expect_err(PRELUDE "def k(X):\n    tl.atomic_add(X, 1, sem='bogus')\n", "X:*i32[1]",
               "unknown sem 'bogus' (acq_rel, acquire, release, relaxed)");
    expect_err(PRELUDE "def k(X):\n    tl.atomic_add(X, 1, scope='grid')\n", "X:*i32[1]", "unknown scope 'grid' (gpu, cta, sys)");
}
END_TEST

/* Triton 3.9 semantic.py atomic_poll / interpreter.py create_atomic_poll:
 * true where the value equals the expected one (cast to the element type
 * and broadcast); a timeout of 0 still reads every element once; 16-, 32-
 * and 64-bit integers only, sem acquire or relaxed. */
static void fill_poll(launch *l)
{
    int16_t *x = targ(l, "X")->data;
    for (int i = 0; i < 16; i++) x[i] = (int16_t)(i % 5 - 2);
}

START_TEST(atomic_poll_39)
{
    static const char src[] = PRELUDE
        "def k(X, Y, T):\n"
        "    o = tl.arange(0, 16)\n"
        "    hit = tl.atomic_poll(X + o, o % 3 - 1, timeout_ns=T, sem='relaxed', scope='cta')\n"
        "    tl.store(Y + o, hit.to(tl.int32) + (X + 2).atomic_poll(0).to(tl.int32) * 2)\n";
    launch l;
    lrun(src, "X:*i16[16] Y:*i32[16] T:i64=0", &l, fill_poll);
    const int32_t *y = targ(&l, "Y")->data;
    for (int i = 0; i < 16; i++)
        ck_assert_msg(y[i] == (i % 5 - 2 == i % 3 - 1) + 2, "Y[%d] = %d", i, y[i]);
    launch_free(&l);
    expect_err(PRELUDE "def k(X):\n    tl.atomic_poll(X, 1)\n", "X:*i8[1]",
               "atomic_poll only supports integer elements with width {16, 32, 64}");
    expect_err(PRELUDE "def k(X):\n    tl.atomic_poll(X, 1)\n", "X:*f32[1]",
               "atomic_poll only supports integer elements with width {16, 32, 64}");
    expect_err(PRELUDE "def k(X):\n    tl.atomic_poll(X, 1, sem='release')\n", "X:*i32[1]",
               "atomic_poll only supports acquire and relaxed semantics");
    expect_err(PRELUDE "def k(X):\n    tl.atomic_poll(X, 1, timeout_ns=-1)\n", "X:*i32[1]",
               "atomic_poll timeout_ns must be non-negative");
    expect_err(PRELUDE "def k(X):\n    tl.atomic_poll(X, 1, timeout_ns=tl.arange(0, 4))\n", "X:*i32[1]",
               "atomic_poll timeout_ns must be a scalar integer");
    expect_err_under(8, PRELUDE "def k(X):\n    tl.atomic_poll(X, 1)\n", "X:*i32[1]",
                     "tl.atomic_poll was added in Triton 3.9");
}
END_TEST

TCase *tc_lang39(void)
{
    TCase *tc = tcase_create("lang39");
    tcase_add_test(tc, version_default_is_newest);
    tcase_add_test(tc, version_block_pointers_removed_in_39);
    tcase_add_test(tc, version_names_added_later);
    tcase_add_test(tc, squeeze_unsqueeze);
    tcase_add_test(tc, cat_keeps_order_along_dim);
    tcase_add_test(tc, softmax_keeps_dims_in_39);
    tcase_add_test(tc, topk_descending);
    tcase_add_test(tc, chained_comparisons_39);
    tcase_add_test(tc, walrus_38);
    tcase_add_test(tc, comprehension_filters_and_tuple_targets_39);
    tcase_add_test(tc, logical_and_or_methods);
    tcase_add_test(tc, bitwise_literal_keeps_int16);
    tcase_add_test(tc, kwonly_and_varargs_helpers);
    tcase_add_test(tc, negation_is_fneg_from_38);
    tcase_add_test(tc, scan_dtypes_39);
    tcase_add_test(tc, fdiv_approx_39);
    tcase_add_test(tc, dot_follows_acc_from_38);
    tcase_add_test(tc, dot_scaled_mxfp4);
    tcase_add_test(tc, expect_zero_38);
    tcase_add_test(tc, aggregates_38);
    tcase_add_test(tc, aggregate_user_init_39);
    tcase_add_test(tc, atomic_load_store_39);
    tcase_add_test(tc, atomic_poll_39);
    tcase_add_test(tc, must_use_result);
    tcase_add_test(tc, histogram_range_39);
    return tc;
}
