/* test_break.c — breakpoints: pid, line, function, conditions, ignore
 * counts, temporary, enable/disable/delete, info breakpoints. The kernel is
 * tests/debugger/kernels/helpers.py (grid 4, BLOCK 16): line 22 `pid = ...`,
 * 25 `y = twice(x)`, 26 `z = square(y)`, 29 the loop body; square (lines
 * 9-10) is inlined twice per program (through twice, and directly). */
#include <string.h>
#include "tdbg.h"

#define HELPERS "tests/debugger/kernels/helpers.py"

/* Continue to the end, collecting the pid and line of every stop. */
static int run_all(tk *k, int64_t *pids, int *lines, int *depths, int max)
{
    int n = 0;
    ck_assert_int_eq(tk_do(k, dbg_cmd_run, ""), 0);
    while (dbg_get_state(k->d) == DBG_STOPPED && n < max) {
        dbg_stop_info st = tk_stop(k);
        pids[n] = st.pid[0] + 100 * st.pid[1];
        lines[n] = st.line;
        if (depths) depths[n] = st.depth;
        n++;
        tk_do(k, dbg_cmd_continue, "");
    }
    ck_assert_int_eq(dbg_get_state(k->d), DBG_IDLE);
    return n;
}

START_TEST(pid_breakpoint_runs_first)
{
    tk k;
    tk_open(&k, HELPERS, "");
    ck_assert_int_eq(tk_do(&k, dbg_cmd_break, "pid (2)"), 0);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Breakpoint 1 at program (2,0,0)"));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_run, ""), 0);
    dbg_stop_info st = tk_stop(&k);
    ck_assert_int_eq(st.reason, DBG_STOP_BREAKPOINT);
    ck_assert_int_eq(st.bp, 1);
    ck_assert_int_eq(st.pid[0], 2);
    ck_assert_int_eq(st.line, 22);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Breakpoint 1, program (2,0,0) helpers_kernel () at "));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "22\t    pid = tl.program_id(0)\n"));
    /* the default schedule ran the broken-on program first */
    tk_do(&k, dbg_cmd_info_programs, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "0 finished, 1 stopped, 3 pending."));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "(0,0,0)-(1,0,0)"));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "* (2,0,0)"));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "pid breakpoints first"));
    tk_do(&k, dbg_cmd_continue, "");
    ck_assert_int_eq(dbg_get_state(k.d), DBG_IDLE);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "[Launch finished normally: 4 programs]"));
    tk_close(&k);
}
END_TEST

START_TEST(pid_breakpoint_in_order)
{
    tk k;
    tk_open(&k, HELPERS, "");
    tk_do(&k, dbg_cmd_schedule, "in-order");
    tk_do(&k, dbg_cmd_break, "pid 2");
    tk_do(&k, dbg_cmd_run, "");
    ck_assert_int_eq(tk_stop(&k).pid[0], 2);
    tk_do(&k, dbg_cmd_info_programs, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "2 finished, 1 stopped, 1 pending."));
    tk_close(&k);
}
END_TEST

START_TEST(pid_breakpoint_wildcard)
{
    tk k;
    tk_open(&k, HELPERS, "--grid 3,2");
    tk_do(&k, dbg_cmd_set_stop_on_fault, "off");   /* (x,0) and (x,1) store to the same elements */
    tk_do(&k, dbg_cmd_break, "pid (*, 1)");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "program (*,1,0)"));
    int64_t pids[16];
    int lines[16];
    int n = run_all(&k, pids, lines, NULL, 16);
    /* (x, 1) for x = 0, 1, 2, first in the auto schedule */
    ck_assert_int_eq(n, 3);
    for (int i = 0; i < 3; i++) ck_assert_int_eq(pids[i], i + 100);
    tk_close(&k);
}
END_TEST

START_TEST(line_breakpoint_every_program)
{
    tk k;
    tk_open(&k, HELPERS, "");
    tk_do(&k, dbg_cmd_break, "25");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "helpers.py:25."));
    int64_t pids[16];
    int lines[16];
    int n = run_all(&k, pids, lines, NULL, 16);
    ck_assert_int_eq(n, 4);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(pids[i], i);
        ck_assert_int_eq(lines[i], 25);
    }
    tk_do(&k, dbg_cmd_info_breakpoints, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Num     Type            Disp Enb Address    What\n"));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "1       breakpoint      keep y   op 0:9     in helpers_kernel at "));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "\tbreakpoint already hit 4 times\n"));
    tk_close(&k);
}
END_TEST

START_TEST(line_breakpoint_in_every_inlined_copy)
{
    tk k;
    tk_open(&k, HELPERS, "--grid 2");
    tk_do(&k, dbg_cmd_break, "helpers.py:10");
    /* gdb lists one row per location: one per inlined copy */
    tk_do(&k, dbg_cmd_info_breakpoints, "");
    const char *o = tk_out(&k);
    ck_assert_ptr_nonnull(strstr(o, "1       breakpoint      keep y   <MULTIPLE>\n"));
    ck_assert_ptr_nonnull(strstr(o, "\n1.1                          y   op 0:"));
    ck_assert_ptr_nonnull(strstr(o, "helpers.py:10, inlined from twice at :15, helpers_kernel at :25\n"));
    ck_assert_ptr_nonnull(strstr(o, "\n1.2                          y   op 0:"));
    ck_assert_ptr_nonnull(strstr(o, "helpers.py:10, inlined from helpers_kernel at :26\n"));
    int64_t pids[16];
    int lines[16], depths[16];
    int n = run_all(&k, pids, lines, depths, 16);
    /* square runs twice per program: inside twice (3 frames), then directly (2) */
    ck_assert_int_eq(n, 4);
    int want_pid[] = { 0, 0, 1, 1 }, want_depth[] = { 2, 1, 2, 1 };
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(pids[i], want_pid[i]);
        ck_assert_int_eq(lines[i], 10);
        ck_assert_int_eq(depths[i], want_depth[i]);
    }
    tk_close(&k);
}
END_TEST

START_TEST(function_breakpoints)
{
    tk k;
    tk_open(&k, HELPERS, "--grid 2");
    tk_do(&k, dbg_cmd_break, "square");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "square (2 inlined calls)"));
    tk_do(&k, dbg_cmd_run, "");
    dbg_stop_info st = tk_stop(&k);
    ck_assert_str_eq(st.func, "square");
    ck_assert_int_eq(st.line, 9);
    ck_assert_int_eq(st.depth, 2);
    tk_do(&k, dbg_cmd_continue, "");
    st = tk_stop(&k);
    ck_assert_str_eq(st.func, "square");
    ck_assert_int_eq(st.depth, 1);
    tk_do(&k, dbg_cmd_delete, "");
    /* the kernel's name: every program's start */
    tk_do(&k, dbg_cmd_break, "helpers_kernel");
    tk_do(&k, dbg_cmd_continue, "");
    st = tk_stop(&k);
    ck_assert_int_eq(st.reason, DBG_STOP_BREAKPOINT);
    ck_assert_int_eq(st.pid[0], 1);
    ck_assert_int_eq(st.line, 22);
    /* a jit function this launch does not call, and an unknown one */
    ck_assert_int_eq(tk_do(&k, dbg_cmd_break, "nosuch"), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "Function \"nosuch\" not defined."));
    tk_close(&k);
}
END_TEST

START_TEST(pid_filter_on_line)
{
    tk k;
    tk_open(&k, HELPERS, "");
    tk_do(&k, dbg_cmd_break, "29 pid (3)");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "helpers.py:29, program (3,0,0)."));
    int64_t pids[16];
    int lines[16];
    int n = run_all(&k, pids, lines, NULL, 16);
    ck_assert_int_eq(n, 3);                    /* the loop body, three iterations */
    for (int i = 0; i < n; i++) ck_assert_int_eq(pids[i], 3);
    tk_close(&k);
}
END_TEST

START_TEST(conditions)
{
    tk k;
    tk_open(&k, HELPERS, "");
    /* a tile condition holds when any element is nonzero */
    tk_do(&k, dbg_cmd_break, "25 if x > 40");
    int64_t pids[16];
    int lines[16];
    int n = run_all(&k, pids, lines, NULL, 16);
    int want = 0;
    for (int p = 0; p < 4; p++) {
        bool any = false;
        for (int i = 0; i < 16; i++) any |= p * 16 + i > 40;
        if (any) ck_assert_int_eq(pids[want++], p);
    }
    ck_assert_int_eq(n, want);
    /* condition N COND replaces it; the loop variable is in scope */
    tk_do(&k, dbg_cmd_delete, "1");
    tk_do(&k, dbg_cmd_break, "29");
    ck_assert_int_eq(tk_do(&k, dbg_cmd_condition, "2 (i == 2) & (pid == 1)"), 0);
    tk_do(&k, dbg_cmd_info_breakpoints, "2");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "\tstop only if (i == 2) & (pid == 1)\n"));
    n = run_all(&k, pids, lines, NULL, 16);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(pids[0], 1);
    tk_do(&k, dbg_cmd_condition, "2");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Breakpoint 2 now unconditional."));
    n = run_all(&k, pids, lines, NULL, 16);
    ck_assert_int_eq(n, 12);
    /* names of the calling frame are visible in a helper's condition */
    tk_do(&k, dbg_cmd_delete, "");
    tk_do(&k, dbg_cmd_break, "10 if pid == 3");
    n = run_all(&k, pids, lines, NULL, 16);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(pids[0], 3);
    ck_assert_int_eq(pids[1], 3);
    tk_close(&k);
}
END_TEST

START_TEST(bad_condition_stops)
{
    tk k;
    tk_open(&k, HELPERS, "");
    tk_do(&k, dbg_cmd_break, "25 if nosuch > 1");
    tk_do(&k, dbg_cmd_run, "");
    ck_assert_int_eq(tk_stop(&k).reason, DBG_STOP_BREAKPOINT);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "Error in testing condition for breakpoint 1"));
    tk_close(&k);
}
END_TEST

START_TEST(ignore_tbreak_continue_n)
{
    tk k;
    tk_open(&k, HELPERS, "");
    tk_do(&k, dbg_cmd_break, "25");
    ck_assert_int_eq(tk_do(&k, dbg_cmd_ignore, "1 2"), 0);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Will ignore next 2 crossings of breakpoint 1."));
    tk_do(&k, dbg_cmd_run, "");
    ck_assert_int_eq(tk_stop(&k).pid[0], 2);
    tk_do(&k, dbg_cmd_info_breakpoints, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "already hit 3 times"));
    /* continue N: ignore this breakpoint N-1 more times */
    tk_do(&k, dbg_cmd_run, "");
    ck_assert_int_eq(tk_stop(&k).pid[0], 0);
    tk_do(&k, dbg_cmd_continue, "3");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Will ignore next 2 crossings of breakpoint 1.  Continuing."));
    ck_assert_int_eq(tk_stop(&k).pid[0], 3);
    /* tbreak: deleted when hit */
    tk_do(&k, dbg_cmd_delete, "");
    tk_do(&k, dbg_cmd_tbreak, "26");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Temporary breakpoint 2 at"));
    tk_do(&k, dbg_cmd_run, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Temporary breakpoint 2, program (0,0,0)"));
    ck_assert_int_eq(tk_stop(&k).line, 26);
    tk_do(&k, dbg_cmd_info_breakpoints, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "No breakpoints or watchpoints."));
    tk_do(&k, dbg_cmd_continue, "");
    ck_assert_int_eq(dbg_get_state(k.d), DBG_IDLE);
    tk_close(&k);
}
END_TEST

START_TEST(enable_disable_delete)
{
    tk k;
    tk_open(&k, HELPERS, "--grid 2");
    tk_do(&k, dbg_cmd_break, "24");
    tk_do(&k, dbg_cmd_break, "27");
    tk_do(&k, dbg_cmd_break, "30");
    tk_do(&k, dbg_cmd_disable, "1 3");
    tk_do(&k, dbg_cmd_info_breakpoints, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "1       breakpoint      keep n"));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "2       breakpoint      keep y"));
    int64_t pids[16];
    int lines[16];
    int n = run_all(&k, pids, lines, NULL, 16);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(lines[0], 27);
    tk_do(&k, dbg_cmd_enable, "1-3");
    tk_do(&k, dbg_cmd_delete, "2");
    n = run_all(&k, pids, lines, NULL, 16);
    ck_assert_int_eq(n, 4);
    ck_assert_int_eq(lines[0], 24);
    ck_assert_int_eq(lines[1], 30);
    /* enable once: disabled again after one stop */
    tk_do(&k, dbg_cmd_enable, "once 1");
    tk_do(&k, dbg_cmd_disable, "3");
    n = run_all(&k, pids, lines, NULL, 16);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_delete, "7"), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "No breakpoint number 7."));
    tk_do(&k, dbg_cmd_delete, "");
    tk_do(&k, dbg_cmd_info_breakpoints, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "No breakpoints or watchpoints."));
    tk_close(&k);
}
END_TEST

START_TEST(line_without_code_moves)
{
    tk k;
    tk_open(&k, HELPERS, "");
    /* the decorator line: the first line with code after it is 22 */
    tk_do(&k, dbg_cmd_break, "20");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "helpers.py:22."));
    /* the second line of a statement belongs to the statement's first line */
    tk_do(&k, dbg_cmd_break, "31");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "helpers.py:30."));
    /* a call line with no op of its own stops at the call */
    tk_do(&k, dbg_cmd_break, "15");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "helpers.py:15."));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_break, "9999"), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "out of range"));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_break, "pid (x)"), -1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_break, "25 junk"), -1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_break, "nofile.py:3"), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "No source file named nofile.py."));
    tk_do(&k, dbg_cmd_run, "");
    dbg_stop_info st = tk_stop(&k);
    ck_assert_int_eq(st.line, 22);
    tk_do(&k, dbg_cmd_continue, "");
    st = tk_stop(&k);
    ck_assert_int_eq(st.line, 15);
    ck_assert_str_eq(st.func, "twice");
    tk_close(&k);
}
END_TEST

TCase *break_tcase(void)
{
    TCase *tc = tcase_create("break");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pid_breakpoint_runs_first);
    tcase_add_test(tc, pid_breakpoint_in_order);
    tcase_add_test(tc, pid_breakpoint_wildcard);
    tcase_add_test(tc, line_breakpoint_every_program);
    tcase_add_test(tc, line_breakpoint_in_every_inlined_copy);
    tcase_add_test(tc, function_breakpoints);
    tcase_add_test(tc, pid_filter_on_line);
    tcase_add_test(tc, conditions);
    tcase_add_test(tc, bad_condition_stops);
    tcase_add_test(tc, ignore_tbreak_continue_n);
    tcase_add_test(tc, enable_disable_delete);
    tcase_add_test(tc, line_without_code_moves);
    return tc;
}
