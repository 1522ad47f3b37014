/* test_optable.c — walks every op of the op table (include/tritium/ops.def)
 * through the verifier, the text form's print -> parse -> print round trip,
 * the interpreter and gpu_compile (PTX, no GPU needed). An op whose row was
 * added without its verifier rule, its family's evaluator or lowering, or
 * (for math functions) its ops_math.def row fails here; so does an op that
 * no kernel of this file exercises (docs/adding-an-op.md).
 *
 * Ops with a generic signature get a kernel built from the signature alone
 * (out[i] = OP(in0[i], ...)); ops with S_CUSTOM rules are covered by Triton
 * kernels compiled with the front end. Math functions (ops_math.def) are
 * walked variant by variant, in kernels of up to 16 variants; float
 * functions are also checked for value: the interpreter's f32 variant
 * against its f64 variant on the same inputs, to the row's ULP bound. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../interp/tinterp.h"
#include "gpu_util.h"

enum { N = 64 };

static bool covered[IR_OP_COUNT];

static void mark_region(const ir_func *f, int r)
{
    const ir_region *rg = &f->regions.v[r];
    for (int i = 0; i < rg->nops; i++) {
        const ir_op *o = &rg->ops[i];
        covered[o->opc] = true;
        for (int k = 0; k < o->nregions; k++) mark_region(f, o->region[k]);
    }
}

static char *print_str(const ir_func *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ir_print(m, f);
    fclose(m);
    return buf;
}

/* Verifier and print -> parse -> print; marks the ops as covered. */
static void walk_text(ir_func *f, const char *what)
{
    ck_assert_msg(ir_verify(f) == 0, "%s: the verifier rejects it", what);
    char *t1 = print_str(f);
    ir_func *g = ir_parse(what, t1);
    ck_assert_msg(g != NULL, "%s: its text does not parse:\n%s", what, t1);
    char *t2 = print_str(g);
    ck_assert_msg(!strcmp(t1, t2), "%s: print -> parse -> print differs", what);
    ck_assert_msg(ir_verify(g) == 0, "%s: the parsed text does not verify", what);
    free(t1);
    free(t2);
    ir_func_free(g);
    mark_region(f, IR_BODY);
}

static void walk_ptx(ir_func *f, const char *what)
{
    gpu_options go;
    gpu_options_default(&go);
    go.no_cache = true;
    gpu_kernel k;
    char err[1024];
    int rc = gpu_compile(f, &go, NULL, &k, err, sizeof err);
    ck_assert_msg(rc == 0, "%s: gpu_compile: %s", what, err);
    ck_assert_msg(strstr(k.ptx, ".entry") != NULL, "%s: no kernel entry in the PTX", what);
    gpu_kernel_free(&k);
}

/* The four passes. Returns after the interpreter ran (its results in l);
 * what the kernel printed (tt.print) goes to *printed when not NULL. */
static void walk_out(ir_func *f, launch *l, const char *what, char **printed)
{
    walk_text(f, what);
    char *rep = NULL, *out = NULL;
    size_t rlen = 0, olen = 0;
    interp_options o;
    interp_options_default(&o);
    o.report = open_memstream(&rep, &rlen);
    o.output = open_memstream(&out, &olen);
    interp_session *s = interp_session_new(f, l, &o);
    ck_assert_msg(s != NULL, "%s: no interpreter session", what);
    int rc = interp_run_launch(s);
    interp_stats st;
    interp_get_stats(s, &st);
    interp_session_free(s);
    fclose(o.report);
    fclose(o.output);
    ck_assert_msg(rc == 0 && st.faults == 0, "%s: the interpreter reports:\n%s", what, rep ? rep : "");
    free(rep);
    if (printed) *printed = out;
    else free(out);
    walk_ptx(f, what);
}

static void walk(ir_func *f, launch *l, const char *what) { walk_out(f, l, what, NULL); }

/* ---- ops with a generic signature ---- */

typedef struct sigshape { int nin; tt_dtype in, out; } sigshape;

static bool sig_shape(int sig, sigshape *s)
{
    switch (sig) {
    case S_INT_BINARY: *s = (sigshape){ 2, TT_I32, TT_I32 }; return true;
    case S_FLOAT_BINARY: *s = (sigshape){ 2, TT_F32, TT_F32 }; return true;
    case S_INT_CMP: *s = (sigshape){ 2, TT_I32, TT_BOOL }; return true;
    case S_FLOAT_CMP: *s = (sigshape){ 2, TT_F32, TT_BOOL }; return true;
    case S_FP32_UNARY: case S_FLOAT_UNARY: *s = (sigshape){ 1, TT_F32, TT_F32 }; return true;
    case S_INT_UNARY: *s = (sigshape){ 1, TT_I32, TT_I32 }; return true;
    case S_FLOAT_TERNARY: *s = (sigshape){ 3, TT_F32, TT_F32 }; return true;
    case S_INT_WIDEN: *s = (sigshape){ 1, TT_I32, TT_I64 }; return true;
    case S_INT_NARROW: *s = (sigshape){ 1, TT_I32, TT_I16 }; return true;
    case S_FLOAT_WIDEN: *s = (sigshape){ 1, TT_F32, TT_F64 }; return true;
    case S_FLOAT_NARROW: *s = (sigshape){ 1, TT_F32, TT_F16 }; return true;
    case S_INT_TO_FLOAT: *s = (sigshape){ 1, TT_I32, TT_F32 }; return true;
    case S_FLOAT_TO_INT: *s = (sigshape){ 1, TT_F32, TT_I32 }; return true;
    default: return false;
    }
}

/* Inputs: floats in [0.5, 2.5) (valid for log, sqrt, ...), ints in 1..N
 * (valid divisors and shift amounts). */
static tt_tensor *input(const char *name, tt_dtype d, int k)
{
    int64_t n = N;
    tt_tensor *t = tt_tensor_new(name, d, 1, &n);
    for (int i = 0; i < N; i++) {
        if (d == TT_F32) ((float *)t->data)[i] = 0.5f + (float)((i * 7 + k * 13) % N) / N * 2.0f;
        else ((int32_t *)t->data)[i] = 1 + (i * 5 + k * 11) % N;
    }
    return t;
}

START_TEST(signature_ops)
{
    int nsig = 0;
    for (int opc = 0; opc < IR_OP_COUNT; opc++) {
        sigshape ss;
        if (!sig_shape(ir_ops[opc].sig, &ss)) continue;
        nsig++;
        kb k;
        kb_init(&k, "sig_op");
        ir_value in[3];
        for (int i = 0; i < ss.nin; i++) {
            char nm[16];
            snprintf(nm, sizeof nm, "in%d", i);
            in[i] = kb_tensor_arg(&k, nm, input(nm, ss.in, i));
        }
        tt_dtype stored = ss.out == TT_BOOL ? TT_I32 : ss.out;
        int64_t n = N;
        ir_value out = kb_tensor_arg(&k, "out", tt_tensor_new("out", stored, 1, &n));
        ir_value offs = range(&k, 0, N);
        ir_value x[3];
        for (int i = 0; i < ss.nin; i++) x[i] = load(&k, ptrs(&k, in[i], offs), -1, -1);
        ir_type rt = TYT(ss.out, N);
        ir_value r = ir_emit1(&k.b, opc, rt, ss.nin, x);
        if (ir_ops[opc].sig == S_INT_CMP) ir_attr_set(ir_def(k.f, r), "predicate", CMPI_SLT);
        if (ir_ops[opc].sig == S_FLOAT_CMP) ir_attr_set(ir_def(k.f, r), "predicate", CMPF_OLT);
        if (ss.out == TT_BOOL) r = op(&k, IR_EXTUI, TYT(TT_I32, N), 1, r);
        store(&k, ptrs(&k, out, offs), r, -1);
        ret(&k);
        walk(k.f, &k.l, ir_ops[opc].name);
        kb_free(&k);
    }
    ck_assert_int_ge(nsig, 40);
}
END_TEST

/* ---- ops_math.def: every variant of every row ---- */

enum { MF_CHUNK = 16 };

static tt_dtype storage(tt_dtype d) { return d == TT_U32 ? TT_I32 : d == TT_U64 ? TT_I64 : d == TT_BOOL ? TT_I32 : d; }

/* Inputs of variant operand i: floats in [0.5, 2.5), ints 1..N. */
static tt_tensor *mf_input(const char *name, tt_dtype d, int k)
{
    int64_t n = N;
    tt_tensor *t = tt_tensor_new(name, storage(d), 1, &n);
    for (int i = 0; i < N; i++) {
        double v = tt_dtype_is_float(d) ? 0.5 + (double)((i * 7 + k * 13) % N) / N * 2.0 : 1 + (i * 5 + k * 11) % N;
        tt_store_f64(t->data, storage(d), i, v);
    }
    return t;
}

/* Walks variants [first, first + count) of the flattened (row, variant)
 * list in one kernel; results land in res[...] (f32/f64 results as double). */
static void mf_chunk(const int *opcs, const int *vars, int count, double res[][N])
{
    kb k;
    kb_init(&k, "math_fns");
    ir_value offs = range(&k, 0, N);
    int args = 0, outarg[MF_CHUNK];
    for (int j = 0; j < count; j++) {
        const ir_mathfn *m = &ir_mathfns[opcs[j]];
        const ir_mathvar *v = &m->var[vars[j]];
        ir_value x[4];
        for (int i = 0; i < m->arity; i++) {
            char nm[16];
            snprintf(nm, sizeof nm, "in%d_%d", j, i);
            ir_value a = kb_tensor_arg(&k, nm, mf_input(nm, v->opnd[i], i));
            args++;
            x[i] = load(&k, ptrs(&k, a, offs), -1, -1);
        }
        int64_t n = N;
        char nm[16];
        snprintf(nm, sizeof nm, "out%d", j);
        ir_value out = kb_tensor_arg(&k, nm, tt_tensor_new(nm, storage(v->res), 1, &n));
        outarg[j] = args++;
        ir_value r = ir_emit1(&k.b, opcs[j], TYT(v->res == TT_BOOL ? TT_BOOL : storage(v->res), N), m->arity, x);
        if (v->res == TT_BOOL) r = op(&k, IR_EXTUI, TYT(TT_I32, N), 1, r);
        store(&k, ptrs(&k, out, offs), r, -1);
    }
    ret(&k);
    walk(k.f, &k.l, "math_fns");
    for (int j = 0; j < count; j++) {
        const tt_tensor *t = kb_tensor(&k, outarg[j]);
        for (int i = 0; i < N; i++) res[j][i] = tt_load_f64(t->data, t->dtype, i);
    }
    kb_free(&k);
}

START_TEST(math_functions)
{
    static int opcs[2 * IR_OP_COUNT], vars[2 * IR_OP_COUNT];
    static double res[2 * IR_OP_COUNT][N];
    int nv = 0, nrows = 0;
    for (int opc = 0; opc < IR_OP_COUNT; opc++) {
        const ir_mathfn *m = &ir_mathfns[opc];
        if (!m->arity) continue;
        nrows++;
        ck_assert_msg(ir_ops[opc].sig == S_MATHFN && ir_ops[opc].min_opnd == m->arity, "%s: row and op disagree",
                      ir_ops[opc].name);
        int have = 0;
        for (int k = 0; k < 2; k++) {
            if (!*m->var[k].gpu) continue;
            opcs[nv] = opc;
            vars[nv++] = k;
            have++;
        }
        ck_assert_msg(have > 0, "%s: no variant", ir_ops[opc].name);
    }
    for (int j = 0; j < nv; j += MF_CHUNK) mf_chunk(opcs + j, vars + j, nv - j < MF_CHUNK ? nv - j : MF_CHUNK, res + j);
    /* float rows: variant 0 (f32) against variant 1 (f64) on the same inputs */
    int checked = 0;
    for (int j = 0; j + 1 < nv; j++) {
        const ir_mathfn *m = &ir_mathfns[opcs[j]];
        if (opcs[j + 1] != opcs[j] || m->var[0].res != TT_F32 || m->var[1].res != TT_F64) continue;
        double tol = (double)(m->var[0].ulp + 2) * 0x1p-23;
        for (int i = 0; i < N; i++) {
            float got = (float)res[j][i], want = (float)res[j + 1][i];
            bool ok = (isnan(got) && isnan(want)) || got == want || fabs((double)got - want) <= tol * fabs(want) + 1e-30;
            ck_assert_msg(ok, "%s lane %d: f32 %.9g, f64 %.17g", ir_ops[opcs[j]].name, i, (double)got, res[j + 1][i]);
        }
        checked++;
    }
    ck_assert_int_ge(nrows, 190);
    ck_assert_int_ge(checked, 60);
}
END_TEST

/* ---- ops with rules of their own: Triton kernels through the front end ---- */

static const char custom_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add1(a, b):\n"
    "    return a + b\n"
    "\n"
    "@triton.jit\n"
    "def sign(a, b):\n"
    "    if a < b:\n"
    "        return -1.0\n"
    "    return 1.0\n"
    "\n"
    "@triton.jit(debug=True)\n"
    "def custom_ops(x_ptr, i_ptr, out_ptr, iout_ptr, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    nprog = tl.num_programs(0)\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n"
    "    iv = tl.load(i_ptr + offs)\n"
    "    tl.assume(n > 0)\n"
    "    x2 = tl.reshape(x, (16, 16))\n"
    "    d = tl.dot(x2, tl.trans(x2))\n"
    "    r = tl.expand_dims(tl.sum(d, 1), 1)\n"
    "    z = tl.reshape(tl.broadcast_to(r, (16, 16)), (BLOCK,))\n"
    "    bits = x.to(tl.int32, bitcast=True)\n"
    "    addr = (x_ptr + offs).to(tl.int64)\n"
    "    p2 = addr.to(tl.pointer_type(tl.float32))\n"
    "    x3 = tl.load(p2)\n"
    "    acc = 0.0\n"
    "    for i in range(0, n):\n"
    "        acc += 1.0\n"
    "    k = 0\n"
    "    while k < n:\n"
    "        k += 7\n"
    "    if pid == nprog - 1:\n"
    "        tl.atomic_add(out_ptr + offs, 1.0)\n"
    "        tl.atomic_cas(iout_ptr + offs, bits * 0, iv)\n"
    "        tl.atomic_poll(iout_ptr + offs, iv, timeout_ns=0)\n"
    "    tl.debug_barrier()\n"
    "    cs = tl.associative_scan(x, 0, add1)\n"
    "    lo, hi = tl.split(tl.join(x, cs))\n"
    "    cc = tl.cat(lo, hi, can_reorder=True)\n"
    "    g = tl.gather(x, BLOCK - 1 - offs, 0)\n"
    "    h = tl.histogram(iv & 7, 8, mask)\n"
    "    moved = lo - tl.flip(g, 0) + (hi - cs) + tl.sum(cc) * 0.0 + tl.sum(h) * 0.0\n"
    "    moved += tl.map_elementwise(sign, x, x - 1.0) - 1.0\n"
    "    y = tl.where(mask, x + z * 0.0 + x3 * 0.0 + cs * 0.0 + tl.reduce(x, 0, add1) * 0.0 + moved, acc + k)\n"
    "    tl.store(out_ptr + offs, y)\n"
    "    tl.device_assert(y == y, 'no NaN')\n"
    "    tl.device_print('n', n)\n";

START_TEST(custom_ops)
{
    launch l;
    lb_init(&l, 1, 1, 1);
    lb_tensor1(&l, "x_ptr", TT_F32, 256);
    lb_tensor1(&l, "i_ptr", TT_I32, 256);
    lb_tensor1(&l, "out_ptr", TT_F32, 256);
    lb_tensor1(&l, "iout_ptr", TT_I32, 256);
    lb_int(&l, "n", 200);
    lb_const(&l, "BLOCK", 256);
    ir_func *f = compile_py(custom_src, "custom_ops", &l);
    ck_assert_ptr_nonnull(f);
    char *printed = NULL;
    walk_out(f, &l, "custom_ops", &printed);
    ck_assert_str_eq(printed, "pid (0, 0, 0) idx () n: 200\n");   /* Triton's PrintOpToLLVM format */
    free(printed);
    /* the kernel's own result, against a C loop: masked-off lanes get
     * acc + k = 200 + 203, the others x (the store overwrites atomic_add's) */
    const float *x = l.args[0].tensor->data, *out = l.args[2].tensor->data;
    for (int i = 0; i < 256; i++) {
        float want = i < 200 ? x[i] : 403.0f;
        ck_assert_msg(i >= 200 ? out[i] == want : fabsf(out[i] - want) < 1e-6f, "out[%d] = %g, want %g", i,
                      (double)out[i], (double)want);
    }
    launch_free(&l);
}
END_TEST

/* tt.elementwise_inline_asm: PTX, which the interpreter refuses (a located
 * error, no session) and the GPU path compiles. */
static const char asm_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def asm_op(x_ptr, out_ptr, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    y, z = tl.inline_asm_elementwise('shl.b32 $0, $2, 1; add.s32 $1, $2, 1;', '=r,=r,r', [x],\n"
    "                                     dtype=(tl.int32, tl.int32), is_pure=True, pack=1)\n"
    "    tl.store(out_ptr + offs, y + z)\n";

START_TEST(inline_asm_op)
{
    launch l;
    lb_init(&l, 1, 1, 1);
    lb_tensor1(&l, "x_ptr", TT_I32, 128);
    lb_tensor1(&l, "out_ptr", TT_I32, 128);
    lb_const(&l, "BLOCK", 128);
    ir_func *f = compile_py(asm_src, "asm_op", &l);
    ck_assert_ptr_nonnull(f);
    walk_text(f, "asm_op");
    interp_session *s = interp_session_new(f, &l, NULL);
    ck_assert_msg(s == NULL, "the interpreter ran inline PTX");
    walk_ptx(f, "asm_op");
    launch_free(&l);
}
END_TEST

/* tt.fp_to_fp: fp8 round trips and an rtz downcast; every value of x (in
 * [-1, 1)) survives f32 -> fp8e4nv -> f32 within one fp8 step. */
static const char fp8_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def fp8_ops(x_ptr, out_ptr, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    a = x.to(tl.float8e4nv).to(tl.float32)\n"
    "    b = x.to(tl.float8e5, fp_downcast_rounding='rtz').to(tl.float32)\n"
    "    c = x.to(tl.float16, fp_downcast_rounding='rtz').to(tl.float8e4b15).to(tl.float32)\n"
    "    tl.store(out_ptr + offs, a + (b - b) + (c - c))\n";

START_TEST(fp8_ops)
{
    launch l;
    lb_init(&l, 1, 1, 1);
    lb_tensor1(&l, "x_ptr", TT_F32, N);
    lb_tensor1(&l, "out_ptr", TT_F32, N);
    lb_const(&l, "BLOCK", N);
    ir_func *f = compile_py(fp8_src, "fp8_ops", &l);
    ck_assert_ptr_nonnull(f);
    walk(f, &l, "fp8_ops");
    const float *x = l.args[0].tensor->data, *out = l.args[1].tensor->data;
    for (int i = 0; i < N; i++)
        ck_assert_msg(fabsf(out[i] - x[i]) <= fabsf(x[i]) / 16 + 0x1p-10f, "out[%d] = %g, x %g", i, (double)out[i], (double)x[i]);
    launch_free(&l);
}
END_TEST

/* Every op of the table was walked by one of the tests above; runs last. */
START_TEST(every_op_covered)
{
    for (int opc = 0; opc < IR_OP_COUNT; opc++)
        ck_assert_msg(covered[opc], "%s is in ops.def but no kernel of test_optable.c uses it", ir_ops[opc].name);
}
END_TEST

/* The operand roles of each row agree with its operand counts, every op has
 * a signature, and the families and signatures are in range. */
START_TEST(rows_consistent)
{
    for (int opc = 0; opc < IR_OP_COUNT; opc++) {
        const ir_opdesc *d = &ir_ops[opc];
        int req = 0, opt = 0;
        bool var = false;
        const char *r = d->roles;
        while (*r) {
            const char *e = strchr(r, ',');
            size_t len = e ? (size_t)(e - r) : strlen(r);
            if (r[len - 1] == '?') opt++;
            else if (r[len - 1] == '*') var = true;
            else req++;
            r += len + (e ? 1 : 0);
        }
        ck_assert_msg(req == d->min_opnd, "%s: %d required roles but min operands %d", d->name, req, d->min_opnd);
        ck_assert_msg(var ? d->max_opnd == -1 : d->max_opnd == req + opt, "%s: roles '%s' disagree with max operands %d",
                      d->name, d->roles, d->max_opnd);
        ck_assert_msg(d->family >= 0 && d->family < F_COUNT, "%s: bad family", d->name);
        ck_assert_msg(d->sig > S_NONE && d->sig < S_COUNT, "%s: no signature", d->name);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("optable");
    TCase *tc = tcase_create("walk");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, rows_consistent);
    tcase_add_test(tc, signature_ops);
    tcase_add_test(tc, custom_ops);
    tcase_add_test(tc, inline_asm_op);
    tcase_add_test(tc, math_functions);
    tcase_add_test(tc, fp8_ops);
    tcase_add_test(tc, every_op_covered);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);    /* coverage is shared between the tests */
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
