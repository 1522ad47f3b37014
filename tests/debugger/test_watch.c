/* test_watch.c — watchpoints on tests/debugger/kernels/atomic.py: x =
 * arange(100) in blocks of 32 (4 programs), every program atomically adds
 * the sum of its block to total[0] (line 14) and stores 2x to out (line 17);
 * line 16 is a store that never runs. */
#include <stdio.h>
#include <string.h>
#include "tdbg.h"

#define ATOMIC "tests/debugger/kernels/atomic.py"

START_TEST(watch_atomic_writes)
{
    tk k;
    tk_open(&k, ATOMIC, "");
    ck_assert_int_eq(tk_do(&k, dbg_cmd_watch, "total_ptr[0]"), 0);
    ck_assert_str_eq(tk_out(&k), "Watchpoint 1: total_ptr[0]\n");
    tk_do(&k, dbg_cmd_run, "");
    double total = 0;
    for (int p = 0; p < 4; p++) {
        dbg_stop_info st = tk_stop(&k);
        ck_assert_int_eq(st.reason, DBG_STOP_WATCH);
        ck_assert_int_eq(st.bp, 1);
        ck_assert_int_eq(st.pid[0], p);
        double sum = 0;
        for (int i = p * 32; i < p * 32 + 32 && i < 100; i++) sum += i;
        char want[160];
        snprintf(want, sizeof want, "Old value = %.0f.\nNew value = %.0f.\nWritten by program (%d,0,0) (tt.atomic_rmw) at ",
                 total, total + sum, p);
        ck_assert_msg(strstr(tk_out(&k), want), "want <%s> in <%s>", want, tk_out(&k));
        ck_assert_ptr_nonnull(strstr(tk_out(&k), "atomic.py:14\n"));
        total += sum;
        tk_do(&k, dbg_cmd_continue, "");
    }
    ck_assert_int_eq(dbg_get_state(k.d), DBG_IDLE);
    tk_do(&k, dbg_cmd_info_watchpoints, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "1       watchpoint      keep y              total_ptr[0]\n\twatchpoint already hit 4 times\n"));
    tk_close(&k);
}
END_TEST

START_TEST(watch_slice_and_masked_lanes)
{
    tk k;
    tk_open(&k, ATOMIC, "");
    /* out[95:100] is written by program 2 (95) and program 3 (96..99);
     * program 3's lanes 100..127 are masked off and must not count */
    tk_do(&k, dbg_cmd_watch, "out_ptr[95:100]");
    tk_do(&k, dbg_cmd_run, "");
    dbg_stop_info st = tk_stop(&k);
    ck_assert_int_eq(st.pid[0], 2);
    ck_assert_int_eq(st.line, 17);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "out_ptr[95]: old value = 0., new value = 190.\n"));
    tk_do(&k, dbg_cmd_continue, "");
    st = tk_stop(&k);
    ck_assert_int_eq(st.pid[0], 3);
    for (int e = 96; e < 100; e++) {
        char want[96];
        snprintf(want, sizeof want, "out_ptr[%d]: old value = 0., new value = %d.\n", e, 2 * e);
        ck_assert_ptr_nonnull(strstr(tk_out(&k), want));
    }
    tk_do(&k, dbg_cmd_continue, "");
    ck_assert_int_eq(dbg_get_state(k.d), DBG_IDLE);
    tk_close(&k);
}
END_TEST

START_TEST(rwatch_and_awatch)
{
    tk k;
    tk_open(&k, ATOMIC, "");
    tk_do(&k, dbg_cmd_rwatch, "x_ptr[40]");
    ck_assert_str_eq(tk_out(&k), "Read watchpoint 1: x_ptr[40]\n");
    tk_do(&k, dbg_cmd_run, "");
    dbg_stop_info st = tk_stop(&k);
    ck_assert_int_eq(st.reason, DBG_STOP_WATCH);
    ck_assert_int_eq(st.pid[0], 1);
    ck_assert_int_eq(st.line, 13);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Read watchpoint 1: x_ptr[40]\n\nValue = 40.\n"));
    tk_do(&k, dbg_cmd_continue, "");
    ck_assert_int_eq(dbg_get_state(k.d), DBG_IDLE);
    /* awatch: reads and writes of the accumulator (an atomic does both) */
    tk_do(&k, dbg_cmd_delete, "");
    tk_do(&k, dbg_cmd_awatch, "total_ptr[0]");
    tk_do(&k, dbg_cmd_run, "");
    int stops = 0;
    while (dbg_get_state(k.d) == DBG_STOPPED) {
        stops++;
        tk_do(&k, dbg_cmd_continue, "");
    }
    ck_assert_int_eq(stops, 4);
    tk_close(&k);
}
END_TEST

START_TEST(watch_errors)
{
    tk k;
    tk_open(&k, ATOMIC, "");
    ck_assert_int_eq(tk_do(&k, dbg_cmd_watch, "nosuch[3]"), -1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_watch, "out_ptr[100]"), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "out of bounds"));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_watch, ""), -1);
    /* never written: the launch runs to its end */
    tk_do(&k, dbg_cmd_watch, "x_ptr[5]");
    tk_do(&k, dbg_cmd_run, "");
    ck_assert_int_eq(dbg_get_state(k.d), DBG_IDLE);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "[Launch finished normally: 4 programs]"));
    tk_close(&k);
}
END_TEST

TCase *watch_tcase(void)
{
    TCase *tc = tcase_create("watch");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, watch_atomic_writes);
    tcase_add_test(tc, watch_slice_and_masked_lanes);
    tcase_add_test(tc, rwatch_and_awatch);
    tcase_add_test(tc, watch_errors);
    return tc;
}
