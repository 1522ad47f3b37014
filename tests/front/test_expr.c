/* test_expr.c — front_compile_expr: debugger expressions compiled against a
 * stopped program's variables into a kernel "__expr" whose parameters are
 * the used tensor variables, then __out (front.h). */
#include <stdlib.h>
#include "tfront.h"

static const char mod_src[] = PRELUDE
    "def sq(v):\n"
    "    return v * v\n";

/* x: f32[16], BLOCK = 16, y: i32[16], acc: f32[4, 8], p: pointers to f16 [16] */
static const front_var vars[] = {
    { .name = "x", .dt = TT_F32, .rank = 1, .shape = { 16 } },
    { .name = "BLOCK", .is_const = true, .cval = { .kind = CONST_INT, .i = 16 } },
    { .name = "y", .dt = TT_I32, .rank = 1, .shape = { 16 } },
    { .name = "acc", .dt = TT_F32, .rank = 2, .shape = { 4, 8 } },
    { .name = "p", .dt = TT_PTR, .pt = TT_F16, .rank = 1, .shape = { 16 } },
};
#define NV ((int)TT_COUNTOF(vars))

typedef struct res {
    ir_func *f;
    int *used, nused;
    tt_dtype dt;
    int rank;
    int64_t shape[IR_MAX_RANK];
    const char *diag;
} res;

static front_module *mod;

static void setup(void)
{
    cap_start();
    mod = front_load_text("mod.py", mod_src);
    cap_end();
    ck_assert_ptr_nonnull(mod);
}

static void teardown(void)
{
    front_module_free(mod);
    mod = NULL;
}

static res cx(const char *text)
{
    res r = {0};
    cap_start();
    r.f = front_compile_expr(mod, "<print>", text, vars, NV, &r.used, &r.nused, &r.dt, &r.rank, r.shape, NULL);
    r.diag = cap_end();
    return r;
}

static res cx_ok(const char *text)
{
    res r = cx(text);
    ck_assert_msg(r.f != NULL, "'%s' failed:\n%s", text, r.diag);
    /* parameters: one pointer per used tensor variable, in order, then __out */
    ck_assert_int_eq(r.f->nargs, r.nused + 1);
    ir_region *body = &r.f->regions.v[IR_BODY];
    for (int i = 0; i < r.nused; i++) {
        ck_assert_int_ge(r.used[i], 0);
        ck_assert_int_lt(r.used[i], NV);
        ck_assert_str_eq(r.f->values.v[body->args[i]].name, vars[r.used[i]].name);
        ck_assert(r.f->arg_is_ptr[i]);
    }
    ck_assert_str_eq(r.f->values.v[body->args[r.nused]].name, "__out");
    ck_assert(r.f->arg_is_ptr[r.nused]);
    ck_assert_int_eq(count_ops(r.f, IR_STORE), 1);
    return r;
}

static void res_free(res *r)
{
    ir_func_free(r->f);
    free(r->used);
}

START_TEST(simple_expression)
{
    res r = cx_ok("x * 2 + BLOCK");
    ck_assert_int_eq(r.nused, 1);
    ck_assert_int_eq(r.used[0], 0);
    ck_assert_int_eq(r.dt, TT_F32);
    ck_assert_int_eq(r.rank, 1);
    ck_assert_int_eq(r.shape[0], 16);
    ir_region *body = &r.f->regions.v[IR_BODY];
    ck_assert_str_eq(vtype(r.f, body->args[0]), "!tt.ptr<f32>");
    ck_assert_str_eq(vtype(r.f, body->args[1]), "!tt.ptr<f32>");
    ck_assert_int_eq(count_ops(r.f, IR_LOAD), 1);
    ck_assert_str_eq(rtype(r.f, find_op(r.f, IR_LOAD, 0)), "tensor<16xf32>");
    ck_assert_str_eq(vtype(r.f, find_op(r.f, IR_STORE, 0)->opnd[1]), "tensor<16xf32>");
    /* BLOCK is a constexpr 16: added as a constant */
    ir_op *add = find_op(r.f, IR_ADDF, 0);
    double c;
    ck_assert(const_of(r.f, add->opnd[1], &c) && c == 16);
    res_free(&r);
}
END_TEST

START_TEST(two_variables_broadcast)
{
    res r = cx_ok("x[:, None] * y[None, :]");
    ck_assert_int_eq(r.nused, 2);
    bool has_x = false, has_y = false;
    for (int i = 0; i < 2; i++) {
        has_x |= r.used[i] == 0;
        has_y |= r.used[i] == 2;
    }
    ck_assert(has_x && has_y);
    ck_assert_int_eq(r.dt, TT_F32);                       /* f32 * i32 -> f32 */
    ck_assert_int_eq(r.rank, 2);
    ck_assert_int_eq(r.shape[0], 16);
    ck_assert_int_eq(r.shape[1], 16);
    res_free(&r);
}
END_TEST

START_TEST(reductions_helpers_constants)
{
    res r = cx_ok("tl.sum(acc, axis=1)");
    ck_assert_int_eq(r.nused, 1);
    ck_assert_int_eq(r.used[0], 3);
    ck_assert_int_eq(r.rank, 1);
    ck_assert_int_eq(r.shape[0], 4);
    ck_assert_str_eq(rtype(r.f, find_op(r.f, IR_LOAD, 0)), "tensor<4x8xf32>");
    res_free(&r);

    r = cx_ok("sq(x)");                                    /* jit helpers of the module */
    ck_assert_int_eq(count_ops(r.f, IR_MULF), 1);
    res_free(&r);

    r = cx_ok("BLOCK * 2");                                /* no tensor used */
    ck_assert_int_eq(r.nused, 0);
    ck_assert_int_eq(r.dt, TT_I32);
    ck_assert_int_eq(r.rank, 0);
    res_free(&r);

    r = cx_ok("x > 0");
    ck_assert_int_eq(r.dt, TT_BOOL);
    res_free(&r);

    r = cx_ok("p + 1");                                    /* pointer tiles come back as u64 */
    ck_assert_int_eq(r.nused, 1);
    ck_assert_int_eq(r.used[0], 4);
    ck_assert_int_eq(r.dt, TT_U64);
    ck_assert_int_eq(count_ops(r.f, IR_ADDPTR) >= 1, 1);
    res_free(&r);
}
END_TEST

START_TEST(expression_errors)
{
    static const char *const bad[] = { "x +", "undefined_var * 2", "x y", "x[0]", "tl.arange(0, 10)", "" };
    for (size_t i = 0; i < TT_COUNTOF(bad); i++) {
        res r = cx(bad[i]);
        ck_assert_msg(r.f == NULL, "'%s' must fail", bad[i]);
        ck_assert_msg(strstr(r.diag, "<print>:1:") && strstr(r.diag, "error:"), "'%s': %s", bad[i], r.diag);
    }
    res r = cx("undefined_var * 2");
    ck_assert_msg(strstr(r.diag, "'undefined_var'"), "%s", r.diag);
}
END_TEST

TCase *tc_expr(void)
{
    TCase *tc = tcase_create("expr");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, simple_expression);
    tcase_add_test(tc, two_variables_broadcast);
    tcase_add_test(tc, reductions_helpers_constants);
    tcase_add_test(tc, expression_errors);
    return tc;
}
