/* test_launch.c — launch_copy is deep and launch_free releases everything
 * (ASan's leak checker verifies the latter). */
#include <string.h>
#include "tsupport.h"
#include "tritium/launch.h"

START_TEST(copy_is_deep)
{
    launch l = { .grid = { 4, 2, 1 }, .num_warps = 8, .seed = 99 };
    l.nargs = 2;
    l.args = xcalloc(2, sizeof *l.args);
    l.args[0] = (launch_arg){ .name = xstrdup("x"), .kind = ARG_TENSOR,
                              .tensor = tt_tensor_new("x", TT_F32, 1, (int64_t[]){ 8 }) };
    ((float *)l.args[0].tensor->data)[3] = 1.5f;
    l.args[1] = (launch_arg){ .name = xstrdup("n"), .kind = ARG_INT, .dtype = TT_I32, .i = 8 };
    l.nconsts = 2;
    l.consts = xcalloc(2, sizeof *l.consts);
    l.consts[0] = (launch_const){ .name = xstrdup("BLOCK"), .kind = CONST_INT, .i = 128 };
    l.consts[1] = (launch_const){ .name = xstrdup("ACT"), .kind = CONST_STR, .s = xstrdup("relu") };

    launch c;
    launch_copy(&c, &l);
    ck_assert_int_eq(c.nargs, 2);
    ck_assert_int_eq(c.grid[0], 4);
    ck_assert_int_eq(c.num_warps, 8);
    ck_assert(c.seed == 99);
    ck_assert_ptr_ne(c.args, l.args);
    ck_assert_ptr_ne(c.args[0].tensor, l.args[0].tensor);
    ck_assert_ptr_ne(c.args[0].tensor->data, l.args[0].tensor->data);
    ck_assert(((float *)c.args[0].tensor->data)[3] == 1.5f);
    ck_assert_ptr_ne(c.args[0].name, l.args[0].name);
    ck_assert_str_eq(c.args[1].name, "n");
    ck_assert_int_eq(c.args[1].i, 8);
    ck_assert_ptr_null(c.args[1].tensor);
    ck_assert_str_eq(c.consts[1].s, "relu");
    ck_assert_ptr_ne(c.consts[1].s, l.consts[1].s);
    ck_assert_ptr_null(c.consts[0].s);
    launch_free(&l);
    ck_assert_int_eq(l.nargs, 0);
    ck_assert(((float *)c.args[0].tensor->data)[3] == 1.5f);   /* still valid */
    launch_free(&c);
    launch_free(&c);                                           /* idempotent */

    launch e = { 0 };
    launch_copy(&c, &e);
    ck_assert_ptr_null(c.args);
    launch_free(&c);
}
END_TEST

TCase *launch_tcase(void)
{
    TCase *tc = tcase_create("launch");
    tcase_add_test(tc, copy_is_deep);
    return tc;
}
