/* test_values.c — print (Triton expressions in the stopped program, value
 * history, formats), buffer reads, x, display, info locals/args/buffers,
 * whatis. References are computed here: helpers.py loads x = arange(64) and
 * program p owns elements 16p .. 16p+15. */
#include <math.h>
#include <string.h>
#include "tdbg.h"

#define HELPERS "tests/debugger/kernels/helpers.py"

static void stop_at_25_of(tk *k, int p)
{
    char b[64];
    snprintf(b, sizeof b, "25 pid (%d)", p);
    tk_do(k, dbg_cmd_tbreak, b);
    tk_do(k, dbg_cmd_run, "");
    dbg_stop_info st = tk_stop(k);
    ck_assert_int_eq(st.pid[0], p);
    ck_assert_int_eq(st.line, 25);
}

START_TEST(print_expressions)
{
    tk k;
    tk_open(&k, HELPERS, "");
    stop_at_25_of(&k, 2);
    dbg_value v;
    tk_eval(&k, "x", &v);
    ck_assert_int_eq(v.dt, TT_F32);
    ck_assert_int_eq(v.rank, 1);
    ck_assert_int_eq(v.shape[0], 16);
    for (int i = 0; i < 16; i++) ck_assert(tk_at(&v, i) == 32 + i);
    dbg_value_free(&v);
    tk_eval(&k, "x * 2 + 1", &v);
    for (int i = 0; i < 16; i++) ck_assert(tk_at(&v, i) == 2.0 * (32 + i) + 1);
    dbg_value_free(&v);
    tk_eval(&k, "tl.max(x, 0)", &v);
    ck_assert_int_eq(v.rank, 0);
    ck_assert(tk_at(&v, 0) == 47);
    dbg_value_free(&v);
    tk_eval(&k, "tl.sum(x, axis=0)", &v);
    double s = 0;
    for (int i = 0; i < 16; i++) s += 32 + i;
    ck_assert(tk_at(&v, 0) == s);
    dbg_value_free(&v);
    tk_eval(&k, "offs < 40", &v);
    ck_assert_int_eq(v.dt, TT_BOOL);
    for (int i = 0; i < 16; i++) ck_assert(tk_at(&v, i) == (32 + i < 40));
    dbg_value_free(&v);
    tk_eval(&k, "pid", &v);
    ck_assert(tk_at(&v, 0) == 2);
    dbg_value_free(&v);
    tk_eval(&k, "x[:, None] * x[None, :]", &v);
    ck_assert_int_eq(v.rank, 2);
    ck_assert_int_eq(v.shape[0], 16);
    ck_assert_int_eq(v.shape[1], 16);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) ck_assert(tk_at(&v, i * 16 + j) == (double)(32 + i) * (32 + j));
    dbg_value_free(&v);
    tk_eval(&k, "BLOCK * 2", &v);
    ck_assert(tk_at(&v, 0) == 32);
    dbg_value_free(&v);
    tk_eval(&k, "tl.program_id(0) + tl.num_programs(0)", &v);
    ck_assert(tk_at(&v, 0) == 2 + 4);
    dbg_value_free(&v);
    tk_eval(&k, "tl.where(x > 40, x, 0.0)", &v);
    for (int i = 0; i < 16; i++) ck_assert(tk_at(&v, i) == (32 + i > 40 ? 32 + i : 0));
    dbg_value_free(&v);
    /* a pointer tile: x_ptr + offs are the addresses the load used */
    tk_eval(&k, "x_ptr + offs", &v);
    ck_assert(v.is_ptr);
    ck_assert_int_eq(v.pt, TT_F32);
    uint64_t base = ((uint64_t *)v.data)[0];
    for (int i = 1; i < 16; i++) ck_assert(((uint64_t *)v.data)[i] == base + 4u * (unsigned)i);
    dbg_value_free(&v);
    tk_close(&k);
}
END_TEST

START_TEST(print_command_and_history)
{
    tk k;
    tk_open(&k, HELPERS, "");
    stop_at_25_of(&k, 1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_print, "pid"), 0);
    ck_assert_str_eq(tk_out(&k), "$1 = 1\n");
    tk_do(&k, dbg_cmd_print, "offs");
    ck_assert_str_eq(tk_out(&k), "$2 = i32[16] [16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31]\n");
    tk_do(&k, dbg_cmd_print, "$1 + 10");
    ck_assert_str_eq(tk_out(&k), "$3 = 11\n");
    tk_do(&k, dbg_cmd_print, "$ * 2");
    ck_assert_str_eq(tk_out(&k), "$4 = 22\n");
    tk_do(&k, dbg_cmd_print, "$$2");
    ck_assert_str_eq(tk_out(&k), "$5 = i32[16] [16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31]\n");
    tk_do(&k, dbg_cmd_print, "");
    ck_assert(!strncmp(tk_out(&k), "$6 = i32[16] [16", 16));
    tk_do(&k, dbg_cmd_print, "/x offs");
    ck_assert_str_eq(tk_out(&k), "$7 = i32[16]\n[0x10 0x11 0x12 0x13 0x14 0x15 0x16 0x17 0x18 0x19 0x1a 0x1b 0x1c 0x1d 0x1e\n 0x1f]\n");
    tk_do(&k, dbg_cmd_print, "/x x");
    ck_assert(!strncmp(tk_out(&k), "$8 = f32[16]\n[0x41800000 0x41880000", 35));   /* 16.0, 17.0 */
    tk_do(&k, dbg_cmd_print, "x > 20");
    ck_assert_str_eq(tk_out(&k), "$9 = bool[16]\n[False False False False False  True  True  True  True  True  True  True  True\n"
                                 "  True  True  True]\n");
    ck_assert_int_eq(tk_do(&k, dbg_cmd_print, "$99"), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "History has not yet reached $99."));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_print, "nosuch + 1"), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "nosuch"));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_print, "x +"), -1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_print, "/q x"), -1);
    /* the session goes on after errors */
    tk_do(&k, dbg_cmd_print, "pid + 1");
    ck_assert_str_eq(tk_out(&k), "$10 = 2\n");
    tk_do(&k, dbg_cmd_whatis, "x[:, None]");
    ck_assert_str_eq(tk_out(&k), "type = f32[16, 1]\n");
    tk_do(&k, dbg_cmd_output, "pid");
    ck_assert_str_eq(tk_out(&k), "1");
    tk_close(&k);
}
END_TEST

START_TEST(buffers_after_the_launch)
{
    tk k;
    tk_open(&k, HELPERS, "");
    tk_do(&k, dbg_cmd_run, "");
    ck_assert_int_eq(dbg_get_state(k.d), DBG_IDLE);
    dbg_value v;
    tk_eval(&k, "out_ptr[0:64]", &v);
    ck_assert_int_eq(v.numel, 64);
    for (int i = 0; i < 64; i++) ck_assert_msg((float)tk_at(&v, i) == helpers_ref((float)i), "out[%d]", i);
    dbg_value_free(&v);
    tk_eval(&k, "out_ptr[-1]", &v);
    ck_assert(tk_at(&v, 0) == helpers_ref(63));
    dbg_value_free(&v);
    tk_do(&k, dbg_cmd_print, "x_ptr[17:20]");
    ck_assert_str_eq(tk_out(&k), "$1 = f32[3] [17. 18. 19.]\n");
    tk_do(&k, dbg_cmd_x, "/3 x_ptr[17]");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), " <x_ptr[17]>:\t17.\t18.\t19.\n"));
    tk_do(&k, dbg_cmd_x, "/2x x_ptr[1]");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "<x_ptr[1]>:\t0x3f800000\t0x40000000\n"));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_print, "x_ptr[64]"), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "index 64 is out of bounds"));
    tk_do(&k, dbg_cmd_info_buffers, "");
    const char *o = tk_out(&k);
    ck_assert_ptr_nonnull(strstr(o, "Arg Name    Dtype  Shape            Elements   Address range\n"));
    ck_assert_ptr_nonnull(strstr(o, "0   x_ptr   f32    [64]             64         0x"));
    ck_assert_ptr_nonnull(strstr(o, "1   out_ptr f32    [64]             64         0x"));
    tk_close(&k);
}
END_TEST

START_TEST(x_follows_pointers)
{
    tk k;
    tk_open(&k, HELPERS, "");
    stop_at_25_of(&k, 3);
    tk_do(&k, dbg_cmd_x, "x_ptr + offs");
    const char *o = tk_out(&k);
    ck_assert_ptr_nonnull(strstr(o, "[0] 0x"));
    ck_assert_ptr_nonnull(strstr(o, " <x_ptr[48]>:\t48.\n"));
    ck_assert_ptr_nonnull(strstr(o, " <x_ptr[63]>:\t63.\n"));
    tk_do(&k, dbg_cmd_x, "/2 x_ptr + 62");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), " <x_ptr[62]>:\t62.\t63.\n"));
    tk_do(&k, dbg_cmd_x, "x_ptr + 64");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "<not in any buffer>"));
    tk_close(&k);
}
END_TEST

START_TEST(display_at_each_stop)
{
    tk k;
    tk_open(&k, HELPERS, "--grid 2");
    tk_do(&k, dbg_cmd_break, "29");
    tk_do(&k, dbg_cmd_display, "i");
    tk_do(&k, dbg_cmd_display, "/x pid");
    tk_do(&k, dbg_cmd_run, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "\n1: i = 0\n2: /x pid = 0x0\n"));
    tk_do(&k, dbg_cmd_continue, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "\n1: i = 1\n"));
    tk_do(&k, dbg_cmd_info_display, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "1:   y  i\n2:   y  /x pid\n"));
    tk_do(&k, dbg_cmd_undisplay, "1");
    tk_do(&k, dbg_cmd_continue, "");
    ck_assert_ptr_null(strstr(tk_out(&k), "1: i ="));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "2: /x pid = 0x0\n"));
    /* an expression out of scope shows as an error, the stop goes on */
    tk_do(&k, dbg_cmd_display, "t");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "3: t = <error: "));
    tk_do(&k, dbg_cmd_undisplay, "");
    tk_do(&k, dbg_cmd_info_display, "");
    ck_assert_str_eq(tk_out(&k), "There are no auto-display expressions now.\n");
    tk_close(&k);
}
END_TEST

START_TEST(info_locals_args)
{
    tk k;
    tk_open(&k, HELPERS, "");
    tk_do(&k, dbg_cmd_info_args, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "x_ptr = f32[64]\n"));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "BLOCK = 16 (constexpr)\n"));
    tk_do(&k, dbg_cmd_break, "29");
    tk_do(&k, dbg_cmd_run, "");
    tk_do(&k, dbg_cmd_info_locals, "");
    const char *o = tk_out(&k);
    ck_assert_ptr_nonnull(strstr(o, "pid   i32      0\n"));
    ck_assert_ptr_nonnull(strstr(o, "offs  i32[16]  [0 1 2 ... 13 14 15]\n"));
    ck_assert_ptr_nonnull(strstr(o, "x     f32[16]  [0. 1. 2. ... 13. 14. 15.]\n"));
    /* helper results under the caller's names */
    ck_assert_ptr_nonnull(strstr(o, "\ny     f32[16]  [2. 4. 10. ... 340. 394. 452.]\n"));
    ck_assert_ptr_nonnull(strstr(o, "\nz     f32[16]"));
    ck_assert_ptr_nonnull(strstr(o, "\ni     i32      0\n"));
    ck_assert_ptr_nonnull(strstr(o, "\nacc   f32[16]  [0. 0. 0. ... 0. 0. 0.]\n"));
    /* helper internals are not the kernel's */
    ck_assert_ptr_null(strstr(o, "\nt "));
    ck_assert_ptr_null(strstr(o, "\nb "));
    tk_do(&k, dbg_cmd_info_args, "");
    o = tk_out(&k);
    ck_assert_ptr_nonnull(strstr(o, "x_ptr    ptr<f32>   0x"));
    ck_assert_ptr_nonnull(strstr(o, "BLOCK    constexpr  16\n"));
    tk_close(&k);
}
END_TEST

TCase *values_tcase(void)
{
    TCase *tc = tcase_create("values");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, print_expressions);
    tcase_add_test(tc, print_command_and_history);
    tcase_add_test(tc, buffers_after_the_launch);
    tcase_add_test(tc, x_follows_pointers);
    tcase_add_test(tc, display_at_each_stop);
    tcase_add_test(tc, info_locals_args);
    return tc;
}
