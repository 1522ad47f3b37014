/* test_expr.c — launch-spec values that go through the front end's host
 * expression evaluator (front_eval_host): shapes, strides, numel, grids,
 * dependency order through expressions, and caret diagnostics. Expected
 * values are worked out by hand. */
#include <string.h>
#include "trepl.h"

/* mm(a, b, c, M, N, K, stride_am, n, BLOCK_M: constexpr, BLOCK_N: constexpr = 16) */
static const front_param mm_params[] = {
    { .name = "a" }, { .name = "b" }, { .name = "c" }, { .name = "M" }, { .name = "N" }, { .name = "K" },
    { .name = "stride_am" }, { .name = "n" },
    { .name = "BLOCK_M", .is_constexpr = true },
    { .name = "BLOCK_N", .is_constexpr = true, .has_default = true, .def = { .kind = CONST_INT, .i = 16 } },
};
#define NP ((int)(sizeof mm_params / sizeof mm_params[0]))

static bool run(const char *line, launch *l, const char **msg)
{
    repl_spec s;
    repl_spec_init(&s);
    repl_resolve_opts o = { .kernel = "mm", .need_grid = true };
    cap_start();
    bool ok = parse_line(&s, line, REPL_OPT_LAUNCH, false, NULL) && repl_resolve(&s, mm_params, NP, &o, l);
    *msg = cap_end();
    repl_spec_free(&s);
    return ok;
}

static const launch_arg *arg(const launch *l, const char *name)
{
    for (int i = 0; i < l->nargs; i++)
        if (!strcmp(l->args[i].name, name)) return &l->args[i];
    return NULL;
}

START_TEST(shapes_strides_grid)
{
    launch l;
    const char *msg;
    /* listed in reverse dependency order on purpose */
    ck_assert_msg(run("--grid 'cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)' --arg n='numel(a) + b.shape[1]' "
                      "--arg stride_am='a.stride(0)' --arg c='empty:f32[M, N]' --arg b='randn:f16[K, N]' "
                      "--arg a='zeros:f16[M, 2 * K // 2]' --arg M=30 --arg N='K + 5' --arg K=20 --const BLOCK_M=8",
                      &l, &msg), "%s", msg);
    ck_assert_int_eq(arg(&l, "a")->tensor->shape[0], 30);
    ck_assert_int_eq(arg(&l, "a")->tensor->shape[1], 20);
    ck_assert_int_eq(arg(&l, "b")->tensor->shape[1], 25);
    ck_assert_int_eq(arg(&l, "c")->tensor->shape[0], 30);
    ck_assert_int_eq(arg(&l, "c")->tensor->shape[1], 25);
    ck_assert_int_eq(arg(&l, "N")->i, 25);
    ck_assert_int_eq(arg(&l, "stride_am")->i, 20);
    ck_assert_int_eq(arg(&l, "n")->i, 600 + 25);
    ck_assert_int_eq(arg(&l, "n")->dtype, TT_I32);
    /* ceil(30/8) * ceil(25/16) = 4 * 2 */
    ck_assert_int_eq(l.grid[0], 8);
    ck_assert_int_eq(l.grid[1], 1);
    launch_free(&l);
}
END_TEST

START_TEST(grid_forms)
{
    static const struct { const char *g; int64_t d[3]; } cases[] = {
        { "(4, 8)", { 4, 8, 1 } },
        { "cdiv(M, 16), 2", { 2, 2, 1 } },
        { "(cdiv(M, 16), N // 2, 3)", { 2, 2, 3 } },
        { "M // 7", { 4, 1, 1 } },
        { "-(-M // 4)", { 8, 1, 1 } },
        { "max(M, 40) - 1", { 39, 1, 1 } },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        launch l;
        const char *msg;
        char *line = xasprintf("--arg a=zeros:f32[1] --arg b=zeros:f32[1] --arg c=zeros:f32[1] --arg M=30 --arg N=4 "
                               "--arg K=1 --arg stride_am=1 --arg n=1 --const BLOCK_M=1 --grid '%s'", cases[k].g);
        ck_assert_msg(run(line, &l, &msg), "%s: %s", line, msg);
        for (int d = 0; d < 3; d++) ck_assert_msg(l.grid[d] == cases[k].d[d], "%s: dim %d is %lld", cases[k].g, d,
                                                  (long long)l.grid[d]);
        launch_free(&l);
        free(line);
    }
}
END_TEST

START_TEST(expression_values)
{
    launch l;
    const char *msg;
    ck_assert_msg(run("--arg a=zeros:f32[1] --arg b=zeros:f32[1] --arg c=zeros:f32[1] --arg M='2**40' "
                      "--arg N='7 / 2' --arg K='-7 // 2' --arg stride_am='-7 % 3' --arg n='M > 5' "
                      "--const BLOCK_M='next_power_of_2(100)' --const BLOCK_N='1.5 * 2' --grid 1",
                      &l, &msg), "%s", msg);
    ck_assert_int_eq(arg(&l, "M")->dtype, TT_I64);
    ck_assert_int_eq(arg(&l, "M")->i, INT64_C(1) << 40);
    ck_assert_int_eq(arg(&l, "N")->kind, ARG_FLOAT);          /* Python: 7 / 2 = 3.5 */
    ck_assert(arg(&l, "N")->f == 3.5);
    ck_assert_int_eq(arg(&l, "K")->i, -4);                   /* floor division */
    ck_assert_int_eq(arg(&l, "stride_am")->i, 2);            /* Python's modulo */
    ck_assert_int_eq(arg(&l, "n")->dtype, TT_BOOL);
    ck_assert_int_eq(arg(&l, "n")->i, 1);
    ck_assert_int_eq(l.consts[0].kind, CONST_INT);
    ck_assert_int_eq(l.consts[0].i, 128);
    ck_assert_int_eq(l.consts[1].kind, CONST_FLOAT);
    ck_assert(l.consts[1].f == 3.0);
    launch_free(&l);
}
END_TEST

START_TEST(expression_errors)
{
    launch l;
    const char *msg;
    /* cycles through expressions */
    ck_assert(!run("--arg a=zeros:f32[1] --arg b=zeros:f32[1] --arg c=zeros:f32[1] --arg M='K + 1' --arg N=1 "
                   "--arg K='M * 2' --arg stride_am=1 --arg n=1 --const BLOCK_M=1 --grid 1", &l, &msg));
    ck_assert_str_eq(msg, "tritium: error: --arg M: circular dependency: M -> K -> M\n");
    /* an unknown name: a caret under it */
    ck_assert(!run("--arg a=zeros:f32[1] --arg b=zeros:f32[1] --arg c=zeros:f32[1] --arg M=1 --arg N=1 "
                   "--arg K=1 --arg stride_am=1 --arg n='numel(q) + 1' --const BLOCK_M=1 --grid 1", &l, &msg));
    ck_assert_msg(strstr(msg, "--arg n:1:7: error: ") == msg, "%s", msg);
    ck_assert_msg(strstr(msg, "\n    1 | numel(q) + 1\n      |       ^\n") != NULL, "%s", msg);
    /* a shape dimension that is not an integer */
    ck_assert(!run("--arg a='zeros:f32[M / 2]' --arg b=zeros:f32[1] --arg c=zeros:f32[1] --arg M=4 --arg N=1 "
                   "--arg K=1 --arg stride_am=1 --arg n=1 --const BLOCK_M=1 --grid 1", &l, &msg));
    ck_assert_str_eq(msg, "tritium: error: --arg a (shape): expected an integer, 'M / 2' is a float\n");
    /* a grid that is a tensor */
    ck_assert(!run("--arg a=zeros:f32[1] --arg b=zeros:f32[1] --arg c=zeros:f32[1] --arg M=1 --arg N=1 "
                   "--arg K=1 --arg stride_am=1 --arg n=1 --const BLOCK_M=1 --grid 'a'", &l, &msg));
    ck_assert_str_eq(msg, "tritium: error: --grid: 'a' is a tensor, expected an integer\n");
    /* syntax error in the grid */
    ck_assert(!run("--arg a=zeros:f32[1] --arg b=zeros:f32[1] --arg c=zeros:f32[1] --arg M=1 --arg N=1 "
                   "--arg K=1 --arg stride_am=1 --arg n=1 --const BLOCK_M=1 --grid 'cdiv(M, '", &l, &msg));
    ck_assert_msg(strstr(msg, "--grid:1:") == msg, "%s", msg);
}
END_TEST

TCase *expr_tcase(void)
{
    TCase *tc = tcase_create("expr");
    tcase_add_test(tc, shapes_strides_grid);
    tcase_add_test(tc, grid_forms);
    tcase_add_test(tc, expression_values);
    tcase_add_test(tc, expression_errors);
    return tc;
}
