/* test_resolve.c — repl_resolve with fixed parameter lists (no kernel file):
 * typing of scalars (Triton's specialize.cc rules), generated tensors
 * checked against plain loops, constexprs, name references, cycles, grids,
 * .npy arguments and the exact error messages. Nothing here needs
 * front_eval_host: every value is a literal or a bare parameter name. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trepl.h"

/* add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 128) */
static const front_param add_params[] = {
    { .name = "x_ptr" }, { .name = "y_ptr" }, { .name = "out_ptr" }, { .name = "n" },
    { .name = "BLOCK", .is_constexpr = true, .has_default = true, .def = { .kind = CONST_INT, .i = 128 } },
};
/* k(m: tl.int64, u: tl.uint8, f: tl.float64, A: constexpr, B: constexpr, DT: constexpr) */
static const front_param typed_params[] = {
    { .name = "m", .annotated_dtype = true, .annot = TT_I64 },
    { .name = "u", .annotated_dtype = true, .annot = TT_U8 },
    { .name = "f", .annotated_dtype = true, .annot = TT_F64 },
    { .name = "A", .is_constexpr = true },
    { .name = "B", .is_constexpr = true },
    { .name = "DT", .is_constexpr = true, .has_default = true, .def = { .kind = CONST_DTYPE, .i = TT_F32 } },
};

static bool resolve_line(const char *line, const front_param *p, int np, const repl_resolve_opts *o0,
                         launch *l, const char **msg)
{
    repl_spec s;
    repl_spec_init(&s);
    repl_resolve_opts o = o0 ? *o0 : (repl_resolve_opts){ 0 };
    if (!o.kernel) o.kernel = "add";
    cap_start();
    bool ok = parse_line(&s, line, REPL_OPT_LAUNCH, false, NULL) && repl_resolve(&s, p, np, &o, l);
    const char *m = cap_end();
    if (msg) *msg = m;
    repl_spec_free(&s);
    return ok;
}

#define ADD add_params, 5
#define TYPED typed_params, 6
#define BASE "--arg x_ptr=zeros:f32[4] --arg y_ptr=zeros:f32[4] --arg out_ptr=zeros:f32[4] "

static void expect_error(const char *line, const front_param *p, int np, const repl_resolve_opts *o,
                         const char *want)
{
    launch l;
    const char *msg;
    ck_assert_msg(!resolve_line(line, p, np, o, &l, &msg), "'%s' resolved", line);
    ck_assert_msg(!strcmp(msg, want), "'%s':\n got  %s want %s", line, msg, want);
    ck_assert_int_eq(l.nargs, 0);
}

START_TEST(tensors_in_kernel_order)
{
    launch l;
    const char *msg;
    ck_assert_msg(resolve_line("--grid 3 --arg n=10 --arg out_ptr=zeros:f32[5] --arg y_ptr=full(2.5):f16[4] "
                               "--arg x_ptr=arange:i32[2,3]", ADD, NULL, &l, &msg), "%s", msg);
    ck_assert_int_eq(l.nargs, 4);
    ck_assert_int_eq(l.nconsts, 0);               /* BLOCK keeps its default */
    ck_assert_str_eq(l.args[0].name, "x_ptr");
    ck_assert_str_eq(l.args[1].name, "y_ptr");
    ck_assert_str_eq(l.args[2].name, "out_ptr");
    ck_assert_str_eq(l.args[3].name, "n");
    const tt_tensor *x = l.args[0].tensor;
    ck_assert_int_eq(l.args[0].kind, ARG_TENSOR);
    ck_assert_int_eq(x->dtype, TT_I32);
    ck_assert_int_eq(x->rank, 2);
    ck_assert_int_eq(x->shape[0], 2);
    ck_assert_int_eq(x->shape[1], 3);
    ck_assert_int_eq(x->strides[0], 3);
    ck_assert_int_eq(x->strides[1], 1);
    ck_assert_str_eq(x->name, "x_ptr");
    for (int i = 0; i < 6; i++) ck_assert_int_eq(((int32_t *)x->data)[i], i);
    const tt_tensor *y = l.args[1].tensor;
    ck_assert_int_eq(y->dtype, TT_F16);
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(((uint16_t *)y->data)[i], 0x4100);   /* 2.5 in binary16 */
    const tt_tensor *o = l.args[2].tensor;
    for (int i = 0; i < 5; i++) ck_assert(((float *)o->data)[i] == 0.0f);
    ck_assert_int_eq(l.args[3].kind, ARG_INT);
    ck_assert_int_eq(l.args[3].dtype, TT_I32);
    ck_assert_int_eq(l.args[3].i, 10);
    ck_assert_int_eq(l.grid[0], 3);
    ck_assert_int_eq(l.grid[1], 1);
    ck_assert_int_eq(l.grid[2], 1);
    ck_assert_int_eq(l.num_warps, 4);
    ck_assert_uint_eq(l.seed, 0);
    launch_free(&l);
}
END_TEST

START_TEST(random_streams_and_seed)
{
    launch a, b, c;
    const char *line = "--arg x_ptr=randn:f32[64] --arg y_ptr=randn:f32[64] --arg out_ptr=rand:f32[64] --arg n=64";
    ck_assert(resolve_line(line, ADD, NULL, &a, NULL));
    ck_assert(resolve_line(line, ADD, NULL, &b, NULL));
    char *seeded = xasprintf("%s --seed 1", line);
    ck_assert(resolve_line(seeded, ADD, NULL, &c, NULL));
    free(seeded);
    /* reproducible, one stream per argument, and --seed changes the draw */
    ck_assert(!memcmp(a.args[0].tensor->data, b.args[0].tensor->data, 64 * 4));
    ck_assert(memcmp(a.args[0].tensor->data, a.args[1].tensor->data, 64 * 4));
    ck_assert(memcmp(a.args[0].tensor->data, c.args[0].tensor->data, 64 * 4));
    ck_assert_uint_eq(c.seed, 1);
    const float *r = a.args[2].tensor->data;
    for (int i = 0; i < 64; i++) ck_assert(r[i] >= 0.0f && r[i] < 1.0f);
    launch_free(&a);
    launch_free(&b);
    launch_free(&c);
}
END_TEST

START_TEST(int_specialization)
{
    static const struct { const char *v; tt_dtype d; int64_t i; } cases[] = {
        { "0", TT_I32, 0 },
        { "2147483647", TT_I32, INT32_MAX },
        { "2147483648", TT_I64, INT64_C(2147483648) },
        { "-2147483648", TT_I32, INT32_MIN },
        { "-2147483649", TT_I64, INT64_C(-2147483649) },
        { "9223372036854775807", TT_I64, INT64_MAX },
        { "9223372036854775808", TT_U64, INT64_MIN },        /* bits of 2**63 */
        { "18446744073709551615", TT_U64, -1 },              /* bits of 2**64-1 */
        { "0x10", TT_I32, 16 },
        { "True", TT_BOOL, 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        launch l;
        char *line = xasprintf(BASE "--arg n=%s", cases[k].v);
        ck_assert_msg(resolve_line(line, ADD, NULL, &l, NULL), "%s", line);
        ck_assert_int_eq(l.args[3].kind, ARG_INT);
        ck_assert_msg(l.args[3].dtype == cases[k].d, "%s: dtype %d", cases[k].v, l.args[3].dtype);
        ck_assert_msg(l.args[3].i == cases[k].i, "%s", cases[k].v);
        launch_free(&l);
        free(line);
    }
    launch l;
    ck_assert(resolve_line(BASE "--arg n=1.5e-3", ADD, NULL, &l, NULL));
    ck_assert_int_eq(l.args[3].kind, ARG_FLOAT);
    ck_assert_int_eq(l.args[3].dtype, TT_F32);
    ck_assert(l.args[3].f == 1.5e-3);
    launch_free(&l);
}
END_TEST

START_TEST(annotated_types)
{
    launch l;
    const char *msg;
    ck_assert_msg(resolve_line("--arg m=5 --arg u=255 --arg f=2 --const A=1 --const B=2", TYPED, NULL, &l, &msg),
                  "%s", msg);
    ck_assert_int_eq(l.nargs, 3);
    ck_assert_int_eq(l.args[0].dtype, TT_I64);
    ck_assert_int_eq(l.args[0].i, 5);
    ck_assert_int_eq(l.args[1].dtype, TT_U8);
    ck_assert_int_eq(l.args[1].i, 255);
    ck_assert_int_eq(l.args[2].kind, ARG_FLOAT);
    ck_assert_int_eq(l.args[2].dtype, TT_F64);
    ck_assert(l.args[2].f == 2.0);
    launch_free(&l);
    expect_error("--arg m=5 --arg u=256 --arg f=2 --const A=1 --const B=2", TYPED, NULL,
                 "tritium: error: --arg u: value 256 does not fit the declared type uint8 of 'u'\n");
    expect_error("--arg m=0.5 --arg u=1 --arg f=2 --const A=1 --const B=2", TYPED, NULL,
                 "tritium: error: --arg m: parameter 'm' is declared int64 but the value is a float\n");
}
END_TEST

static const launch_const *find_const(const launch *l, const char *name)
{
    for (int i = 0; i < l->nconsts; i++)
        if (!strcmp(l->consts[i].name, name)) return &l->consts[i];
    return NULL;
}

START_TEST(constexpr_values)
{
    static const struct { const char *v; const_kind k; int64_t i; double f; const char *s; } cases[] = {
        { "64", CONST_INT, 64, 0, NULL },
        { "-3", CONST_INT, -3, 0, NULL },
        { "1e-6", CONST_FLOAT, 0, 1e-6, NULL },
        { "True", CONST_BOOL, 1, 0, NULL },
        { "False", CONST_BOOL, 0, 0, NULL },
        { "None", CONST_NONE, 0, 0, NULL },
        { "tl.float16", CONST_DTYPE, TT_F16, 0, NULL },
        { "tl.bfloat16", CONST_DTYPE, TT_BF16, 0, NULL },
        { "triton.language.int8", CONST_DTYPE, TT_I8, 0, NULL },
        { "float32", CONST_DTYPE, TT_F32, 0, NULL },
        { "relu", CONST_STR, 0, 0, "relu" },
        { "\"'gelu'\"", CONST_STR, 0, 0, "gelu" },
        { "'\"tanh\"'", CONST_STR, 0, 0, "tanh" },
        { "jit:relu", CONST_FUNC, 0, 0, "relu" },          /* a jit function: the front end looks it up */
        { "jit:relu@12", CONST_FUNC, 0, 0, "relu@12" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        launch l;
        const char *msg;
        char *line = xasprintf("--arg m=1 --arg u=1 --arg f=1 --const A=%s --arg B=7", cases[k].v);
        ck_assert_msg(resolve_line(line, TYPED, NULL, &l, &msg), "%s: %s", line, msg);
        ck_assert_int_eq(l.nconsts, 2);           /* DT keeps its default */
        const launch_const *a = find_const(&l, "A");
        ck_assert_msg(a && a->kind == cases[k].k, "%s", cases[k].v);
        ck_assert_msg(a->i == cases[k].i && a->f == cases[k].f, "%s", cases[k].v);
        if (cases[k].s) ck_assert_str_eq(a->s, cases[k].s);
        const launch_const *b = find_const(&l, "B");    /* --arg works for a constexpr */
        ck_assert(b && b->kind == CONST_INT && b->i == 7);
        ck_assert_ptr_null(find_const(&l, "DT"));
        launch_free(&l);
        free(line);
    }
    expect_error("--arg m=1 --arg u=1 --arg f=1 --const A=tl.float17 --const B=1", TYPED, NULL,
                 "tritium: error: --const A: unknown dtype 'tl.float17' (expected one of tl.float16, tl.bfloat16, "
                 "tl.float32, tl.float64, tl.int8, ..., tl.uint64, tl.int1)\n");
    expect_error("--arg m=1 --arg u=1 --arg f=1 --const A=jit:1x --const B=1", TYPED, NULL,
                 "tritium: error: --const A: 'jit:1x' must name a @triton.jit function of the kernel's file "
                 "(jit:NAME or jit:NAME@LINE)\n");
    expect_error("--arg m=1 --arg u=1 --arg f=1 --const A=jit:f@0 --const B=1", TYPED, NULL,
                 "tritium: error: --const A: 'jit:f@0' must name a @triton.jit function of the kernel's file "
                 "(jit:NAME or jit:NAME@LINE)\n");
    expect_error("--arg m=1 --arg u=1 --arg f=1 --const A=9223372036854775808 --const B=1", TYPED, NULL,
                 "tritium: error: --const A: 9223372036854775808 is too large for a constexpr (at most 2**63-1)\n");
}
END_TEST

START_TEST(references_by_name)
{
    launch l;
    const char *msg;
    /* any order: out_ptr names y_ptr before y_ptr is given; n names BLOCK's default */
    ck_assert_msg(resolve_line("--arg out_ptr=y_ptr --arg n=BLOCK --arg y_ptr=x_ptr --arg x_ptr=arange:f32[6]", ADD,
                               NULL, &l, &msg), "%s", msg);
    ck_assert_int_eq(l.args[3].kind, ARG_INT);
    ck_assert_int_eq(l.args[3].i, 128);
    ck_assert_int_eq(l.args[3].dtype, TT_I32);
    const tt_tensor *x = l.args[0].tensor, *o = l.args[2].tensor;
    ck_assert_ptr_ne(x->data, o->data);            /* a copy, not an alias */
    ck_assert_str_eq(o->name, "out_ptr");
    ck_assert_int_eq(o->shape[0], 6);
    for (int i = 0; i < 6; i++) ck_assert(((float *)o->data)[i] == (float)i);
    launch_free(&l);
    /* constexpr from constexpr, and from a default */
    ck_assert_msg(resolve_line("--arg m=1 --arg u=1 --arg f=1 --const A=DT --const B=A", TYPED, NULL, &l, &msg),
                  "%s", msg);
    ck_assert_int_eq(find_const(&l, "A")->kind, CONST_DTYPE);
    ck_assert_int_eq(find_const(&l, "A")->i, TT_F32);
    ck_assert_int_eq(find_const(&l, "B")->kind, CONST_DTYPE);
    launch_free(&l);
}
END_TEST

START_TEST(cycles_and_names)
{
    expect_error("--arg m=1 --arg u=1 --arg f=1 --const A=B --const B=A", TYPED, NULL,
                 "tritium: error: --const A: circular dependency: A -> B -> A\n");
    expect_error(BASE "--arg n=n", ADD, NULL, "tritium: error: --arg n: circular dependency: n -> n\n");
    expect_error("--arg x_ptr=zeros:f32[4] --arg y_ptr=zeros:f32[4]", ADD, NULL,
                 "tritium: error: kernel 'add': no value for parameter 'out_ptr' (add --arg out_ptr=SPEC)\n"
                 "tritium: error: kernel 'add': no value for parameter 'n' (add --arg n=SPEC)\n");
    expect_error("--arg m=1 --arg u=1 --arg f=1 --const A=1", TYPED, NULL,
                 "tritium: error: kernel 'add': no value for constexpr parameter 'B' (add --const B=VALUE)\n");
    expect_error(BASE "--arg n=1 --arg x_pt=1", ADD, NULL,
                 "tritium: error: --arg x_pt: kernel 'add' has no parameter 'x_pt' (did you mean 'x_ptr'?)\n");
    expect_error(BASE "--arg n=1 --arg q=1", ADD, NULL,
                 "tritium: error: --arg q: kernel 'add' has no parameter 'q' (its parameters: x_ptr, y_ptr, out_ptr, "
                 "n, BLOCK)\n");
    expect_error(BASE "--const n=1", ADD, NULL,
                 "tritium: error: --const n: 'n' is a runtime parameter of kernel 'add', not a tl.constexpr; use "
                 "--arg n=...\n");
    expect_error(BASE "--arg n=1 --arg BLOCK=zeros:i32[4]", ADD, NULL,
                 "tritium: error: --arg BLOCK: 'BLOCK' is a tl.constexpr parameter and cannot be a tensor\n");
    expect_error(BASE "--arg n=1 --const BLOCK=x_ptr", ADD, NULL,
                 "tritium: error: --const BLOCK: 'x_ptr' is a tensor; a constexpr needs a number, bool, string or "
                 "dtype\n");
    expect_error("--arg m=1 --arg u=DT --arg f=1 --const A=1 --const B=1", TYPED, NULL,
                 "tritium: error: --arg u: 'DT' is a string; parameter 'u' needs a tensor or a number\n");
}
END_TEST

START_TEST(grids)
{
    static const struct { const char *g; int64_t d[3]; } ok[] = {
        { "4", { 4, 1, 1 } }, { "4,8", { 4, 8, 1 } }, { "(2, 3, 4)", { 2, 3, 4 } }, { "[5, 6]", { 5, 6, 1 } },
        { "(7,)", { 7, 1, 1 } }, { "0", { 0, 1, 1 } }, { "2147483647,65535,65535", { INT32_MAX, 65535, 65535 } },
        { "n", { 12, 1, 1 } }, { "n, BLOCK", { 12, 128, 1 } },
    };
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
        launch l;
        const char *msg;
        char *line = xasprintf(BASE "--arg n=12 --grid '%s'", ok[k].g);
        ck_assert_msg(resolve_line(line, ADD, NULL, &l, &msg), "%s: %s", line, msg);
        for (int d = 0; d < 3; d++) ck_assert_msg(l.grid[d] == ok[k].d[d], "%s dim %d", ok[k].g, d);
        launch_free(&l);
        free(line);
    }
    expect_error(BASE "--arg n=1 --grid 1,2,3,4", ADD, NULL, "tritium: error: --grid: expected 1 to 3 dimensions, got 4\n");
    expect_error(BASE "--arg n=1 --grid -1", ADD, NULL,
                 "tritium: error: --grid: dimension 0 is -1; grid sizes must be >= 0\n");
    expect_error(BASE "--arg n=1 --grid 1,70000", ADD, NULL,
                 "tritium: error: --grid: dimension 1 is 70000; CUDA allows at most 65535\n");
    expect_error(BASE "--arg n=1 --grid 4.5", ADD, NULL,
                 "tritium: error: --grid: '4.5' is a float, expected an integer\n");
    expect_error(BASE "--arg n=1 --grid 1,,2", ADD, NULL, "tritium: error: --grid: empty dimension in '1,,2'\n");
    repl_resolve_opts need = { .need_grid = true };
    expect_error(BASE "--arg n=1", ADD, &need,
                 "tritium: error: no grid given: add --grid (or a '# tritium: --grid ...' line to the kernel file)\n");
    launch l;
    ck_assert(resolve_line(BASE "--arg n=1", ADD, NULL, &l, NULL));     /* tritium ir needs none */
    ck_assert(l.grid[0] == 1 && l.grid[1] == 1 && l.grid[2] == 1);
    launch_free(&l);
}
END_TEST

START_TEST(npy_arguments)
{
    char path[] = "/tmp/tritium-repl-XXXXXX.npy";
    int fd = mkstemps(path, 4);
    ck_assert(fd >= 0);
    close(fd);
    int64_t shape[2] = { 2, 3 };
    tt_tensor *t = tt_tensor_new("w", TT_F64, 2, shape);
    for (int i = 0; i < 6; i++) ((double *)t->data)[i] = i * 0.25 - 1;
    char err[256];
    ck_assert_msg(npy_write(path, t, err, sizeof err), "%s", err);
    launch l;
    const char *msg;
    char *line = xasprintf("--arg x_ptr=@%s --arg y_ptr=%s --arg out_ptr=zeros:f32[1] --arg n=1", path, path);
    ck_assert_msg(resolve_line(line, ADD, NULL, &l, &msg), "%s", msg);
    for (int a = 0; a < 2; a++) {
        const tt_tensor *x = l.args[a].tensor;
        ck_assert_str_eq(x->name, a ? "y_ptr" : "x_ptr");
        ck_assert_int_eq(x->dtype, TT_F64);
        ck_assert_int_eq(x->rank, 2);
        ck_assert_int_eq(x->shape[1], 3);
        for (int i = 0; i < 6; i++) ck_assert(((double *)x->data)[i] == i * 0.25 - 1);
    }
    launch_free(&l);
    repl_resolve_opts nofiles = { .no_files = true };
    expect_error(line, ADD, &nofiles, "tritium: error: --arg x_ptr: .npy files cannot be used here\n");
    free(line);
    unlink(path);
    tt_tensor_free(t);
    ck_assert(!resolve_line("--arg x_ptr=/nonexistent/a.npy --arg y_ptr=zeros:f32[1] --arg out_ptr=zeros:f32[1] "
                            "--arg n=1", ADD, NULL, &l, &msg));
    ck_assert_msg(!strncmp(msg, "tritium: error: --arg x_ptr: cannot read '/nonexistent/a.npy': ", 63), "%s", msg);
}
END_TEST

START_TEST(limits_and_checks)
{
    repl_resolve_opts small = { .max_numel = 100 };
    expect_error("--arg x_ptr=zeros:f32[10,11] --arg y_ptr=zeros:f32[4] --arg out_ptr=zeros:f32[4] --arg n=1", ADD,
                 &small, "tritium: error: --arg x_ptr: tensor zeros:f32[10,11] is too large\n");
    expect_error("--arg x_ptr=zeros:f32[4611686018427387904,4] --arg y_ptr=zeros:f32[4] --arg out_ptr=zeros:f32[4] "
                 "--arg n=1", ADD, NULL,
                 "tritium: error: --arg x_ptr: tensor zeros:f32[4611686018427387904,4] is too large\n");
    expect_error("--arg x_ptr=zeros:f32[-1] --arg y_ptr=zeros:f32[4] --arg out_ptr=zeros:f32[4] --arg n=1", ADD, NULL,
                 "tritium: error: --arg x_ptr: dimension 0 of the shape is -1; dimensions must be >= 0\n");
    expect_error(BASE "--arg n=1 --save n=o.npy", ADD, NULL, "tritium: error: --save n: 'n' is a scalar, not a tensor\n");
    expect_error(BASE "--arg n=1 --expect q=o.npy", ADD, NULL,
                 "tritium: error: --expect q: kernel 'add' has no tensor parameter 'q'\n");
    /* types only: shapes and dtypes, no data drawn */
    repl_resolve_opts types = { .types_only = true };
    launch l;
    ck_assert(resolve_line("--arg x_ptr=full(3):i16[5] --arg y_ptr=randn:f32[8] --arg out_ptr=ones:f32[2] --arg n=1 "
                           "--num-warps 8 --seed 9", ADD, &types, &l, NULL));
    ck_assert_int_eq(l.args[0].tensor->dtype, TT_I16);
    for (int i = 0; i < 5; i++) ck_assert_int_eq(((int16_t *)l.args[0].tensor->data)[i], 0);
    for (int i = 0; i < 8; i++) ck_assert(((float *)l.args[1].tensor->data)[i] == 0.0f);
    ck_assert_int_eq(l.num_warps, 8);
    ck_assert_uint_eq(l.seed, 9);
    launch_free(&l);
}
END_TEST

TCase *resolve_tcase(void)
{
    TCase *tc = tcase_create("resolve");
    tcase_add_test(tc, tensors_in_kernel_order);
    tcase_add_test(tc, random_streams_and_seed);
    tcase_add_test(tc, int_specialization);
    tcase_add_test(tc, annotated_types);
    tcase_add_test(tc, constexpr_values);
    tcase_add_test(tc, references_by_name);
    tcase_add_test(tc, cycles_and_names);
    tcase_add_test(tc, grids);
    tcase_add_test(tc, npy_arguments);
    tcase_add_test(tc, limits_and_checks);
    return tc;
}
