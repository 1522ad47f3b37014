/* test_step.c — step, next, stepi, finish, until, advance, and frames
 * (backtrace, up, down, frame) on tests/debugger/kernels/helpers.py:
 *
 *    9  t = v * v          (square)        15  a = square(v)   (twice)
 *   10  return t + 1.0                     16  b = a * 2.0
 *   22 pid, 23 offs, 24 x = load, 25 y = twice(x), 26 z = square(y),
 *   27 acc = zeros, 28 for, 29 acc += z, 30-31 store */
#include <string.h>
#include "tdbg.h"

#define HELPERS "tests/debugger/kernels/helpers.py"

typedef struct where { int line; const char *func; int depth; } where;

static void expect(tk *k, int (*cmd)(dbg_session *, const char *), const char *args, where w)
{
    ck_assert_int_eq(tk_do(k, cmd, args), 0);
    dbg_stop_info st = tk_stop(k);
    ck_assert_msg(st.reason != DBG_STOP_NONE, "not stopped after %s", args);
    ck_assert_msg(st.line == w.line && !strcmp(st.func, w.func) && st.depth == w.depth,
                  "expected %s:%d depth %d, got %s:%d depth %d", w.func, w.line, w.depth, st.func, st.line, st.depth);
}

static void start_at(tk *k, const char *line)
{
    tk_do(k, dbg_cmd_tbreak, line);
    tk_do(k, dbg_cmd_run, "");
    ck_assert_int_eq(tk_stop(k).reason, DBG_STOP_BREAKPOINT);
}

START_TEST(step_into_helpers)
{
    tk k;
    tk_open(&k, HELPERS, "");
    start_at(&k, "24");
    /* the call line first, then each inlined frame, as gdb shows inline calls */
    expect(&k, dbg_cmd_step, "", (where){ 25, "helpers_kernel", 0 });
    expect(&k, dbg_cmd_step, "", (where){ 15, "twice", 1 });
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "program (0,0,0) twice () at "));
    expect(&k, dbg_cmd_step, "", (where){ 9, "square", 2 });
    expect(&k, dbg_cmd_step, "", (where){ 10, "square", 2 });
    ck_assert_str_eq(tk_out(&k), "10\t    return t + 1.0\n");
    expect(&k, dbg_cmd_step, "", (where){ 16, "twice", 1 });
    expect(&k, dbg_cmd_step, "", (where){ 26, "helpers_kernel", 0 });
    expect(&k, dbg_cmd_step, "2", (where){ 10, "square", 1 });
    tk_close(&k);
}
END_TEST

START_TEST(next_over_helpers_and_programs)
{
    tk k;
    tk_open(&k, HELPERS, "--grid 2");
    start_at(&k, "24");
    int lines[] = { 25, 26, 27, 28, 29, 29, 29, 30 };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        expect(&k, dbg_cmd_next, "", (where){ lines[i], "helpers_kernel", 0 });
    /* off the end of program 0: the first line of the next program */
    expect(&k, dbg_cmd_next, "", (where){ 22, "helpers_kernel", 0 });
    ck_assert_int_eq(tk_stop(&k).pid[0], 1);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "[Switching to program (1,0,0)]"));
    expect(&k, dbg_cmd_next, "3", (where){ 25, "helpers_kernel", 0 });
    /* next inside a helper stays in it, then returns to the caller */
    expect(&k, dbg_cmd_step, "", (where){ 15, "twice", 1 });
    expect(&k, dbg_cmd_next, "", (where){ 16, "twice", 1 });
    expect(&k, dbg_cmd_next, "", (where){ 26, "helpers_kernel", 0 });
    tk_do(&k, dbg_cmd_next, "100");
    ck_assert_int_eq(dbg_get_state(k.d), DBG_IDLE);
    tk_close(&k);
}
END_TEST

START_TEST(finish_until_advance)
{
    tk k;
    tk_open(&k, HELPERS, "");
    start_at(&k, "10");
    ck_assert_int_eq(tk_stop(&k).depth, 2);
    expect(&k, dbg_cmd_finish, "", (where){ 16, "twice", 1 });
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Run till exit from #0  square () at "));
    expect(&k, dbg_cmd_finish, "", (where){ 26, "helpers_kernel", 0 });
    ck_assert_int_eq(tk_do(&k, dbg_cmd_finish, ""), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "\"finish\" not meaningful in the outermost frame."));
    /* finish from an outer frame selected with up */
    tk_do(&k, dbg_cmd_step, "");
    tk_do(&k, dbg_cmd_step, "");
    ck_assert_str_eq(tk_stop(&k).func, "square");
    expect(&k, dbg_cmd_next, "", (where){ 27, "helpers_kernel", 0 });
    expect(&k, dbg_cmd_next, "", (where){ 28, "helpers_kernel", 0 });
    expect(&k, dbg_cmd_next, "", (where){ 29, "helpers_kernel", 0 });
    /* until leaves the loop, next does not */
    expect(&k, dbg_cmd_until, "", (where){ 30, "helpers_kernel", 0 });
    ck_assert_int_eq(tk_stop(&k).pid[0], 0);
    start_at(&k, "23");
    expect(&k, dbg_cmd_advance, "29", (where){ 29, "helpers_kernel", 0 });
    expect(&k, dbg_cmd_until, "30", (where){ 30, "helpers_kernel", 0 });
    /* program 0 calls square no more: its end stops in the next program */
    expect(&k, dbg_cmd_advance, "square", (where){ 22, "helpers_kernel", 0 });
    ck_assert_int_eq(tk_stop(&k).pid[0], 1);
    expect(&k, dbg_cmd_advance, "square", (where){ 9, "square", 2 });
    tk_close(&k);
}
END_TEST

START_TEST(stepi_one_op)
{
    tk k;
    tk_open(&k, HELPERS, "");
    start_at(&k, "23");
    dbg_stop_info a = tk_stop(&k);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_stepi, ""), 0);
    dbg_stop_info b = tk_stop(&k);
    ck_assert_int_eq(b.region, a.region);
    ck_assert_int_eq(b.op, a.op + 1);
    tk_do(&k, dbg_cmd_stepi, "3");
    ck_assert_int_eq(tk_stop(&k).op, a.op + 4);
    /* ir marks the op about to run */
    tk_do(&k, dbg_cmd_ir, "");
    ck_assert_int_eq(count_of(tk_out(&k), "\n=> "), 1);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "helpers.py:23, program (0,0,0), region 0:\n"));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "tt.make_range"));
    tk_do(&k, dbg_cmd_ir, "region");
    ck_assert_int_eq(count_of(tk_out(&k), "=> "), 1);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "scf.for"));
    tk_do(&k, dbg_cmd_ir, "all");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "tt.func public @helpers_kernel("));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_ir, "bogus"), -1);
    /* info line: ops on a line; info source */
    tk_do(&k, dbg_cmd_info_line, "24");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Line 24 of \""));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "\" has 3 ops.\n"));
    tk_do(&k, dbg_cmd_info_source, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Contains 31 lines."));
    tk_close(&k);
}
END_TEST

START_TEST(frames)
{
    tk k;
    tk_open(&k, HELPERS, "");
    start_at(&k, "9");
    ck_assert_int_eq(tk_do(&k, dbg_cmd_backtrace, ""), 0);
    const char *bt = tk_out(&k);
    ck_assert_ptr_nonnull(strstr(bt, "#0  square () at "));
    ck_assert_ptr_nonnull(strstr(bt, "helpers.py:9\n#1  twice () at "));
    ck_assert_ptr_nonnull(strstr(bt, "helpers.py:15\n#2  helpers_kernel () at "));
    ck_assert_ptr_nonnull(strstr(bt, "helpers.py:25, program (0,0,0)\n"));
    ck_assert_int_eq(count_of(bt, "\n"), 3);
    tk_do(&k, dbg_cmd_backtrace, "1");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "(More stack frames follow...)"));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_up, ""), 0);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "#1  twice () at "));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "15\t    a = square(v)\n"));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_up, "1"), 0);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "#2  helpers_kernel () at "));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_up, ""), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "Initial frame selected; you cannot go up."));
    /* locals follow the selected frame */
    tk_do(&k, dbg_cmd_info_locals, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "offs"));
    ck_assert_ptr_null(strstr(tk_out(&k), "\nt "));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_down, "2"), 0);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "#0  square () at "));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_down, ""), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "Bottom (innermost) frame selected; you cannot go down."));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_frame, "1"), 0);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "#1  twice () at "));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_frame, "7"), -1);
    tk_do(&k, dbg_cmd_info_frame, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "Stack level 1, program (0,0,0), function twice"));
    /* list is around the selected frame's line */
    tk_do(&k, dbg_cmd_list, "");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "10\t    return t + 1.0\n"));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "15\t    a = square(v)\n"));
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "19\t\n"));
    ck_assert_ptr_null(strstr(tk_out(&k), "20\t"));
    tk_do(&k, dbg_cmd_list, "");
    ck_assert(!strncmp(tk_out(&k), "20\t@triton.jit\n", 15));
    tk_do(&k, dbg_cmd_list, "square");
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "8\tdef square(v):\n"));
    tk_do(&k, dbg_cmd_list, "24,25");
    ck_assert_str_eq(tk_out(&k), "24\t    x = tl.load(x_ptr + offs)\n25\t    y = twice(x)\n");
    tk_close(&k);
}
END_TEST

START_TEST(not_running_errors)
{
    tk k;
    tk_open(&k, HELPERS, "");
    ck_assert_int_eq(tk_do(&k, dbg_cmd_next, ""), -1);
    ck_assert_ptr_nonnull(strstr(tk_err(&k), "The program is not being run."));
    ck_assert_int_eq(tk_do(&k, dbg_cmd_continue, ""), -1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_step, ""), -1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_finish, ""), -1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_kill, ""), -1);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_backtrace, ""), -1);
    /* start: the first line of the first program */
    ck_assert_int_eq(tk_do(&k, dbg_cmd_start, ""), 0);
    dbg_stop_info st = tk_stop(&k);
    ck_assert_int_eq(st.pid[0], 0);
    ck_assert_int_eq(st.line, 22);
    ck_assert_int_eq(tk_do(&k, dbg_cmd_kill, ""), 0);
    ck_assert_ptr_nonnull(strstr(tk_out(&k), "[Launch killed"));
    ck_assert_int_eq(dbg_get_state(k.d), DBG_IDLE);
    tk_close(&k);
}
END_TEST

TCase *step_tcase(void)
{
    TCase *tc = tcase_create("step");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, step_into_helpers);
    tcase_add_test(tc, next_over_helpers_and_programs);
    tcase_add_test(tc, finish_until_advance);
    tcase_add_test(tc, stepi_one_op);
    tcase_add_test(tc, frames);
    tcase_add_test(tc, not_running_errors);
    return tc;
}
