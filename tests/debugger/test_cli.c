/* test_cli.c — `tritium debug` as a program: gdb's options (-batch, -ex, -x,
 * exit statuses), the command table (aliases, unique prefixes, ambiguous and
 * unknown commands, help), commands read from a pipe (blank lines repeat,
 * end of input quits), and the launch commands (set arg/grid/const, load).
 *
 * usage: test_debugger_cli TRITIUM   (run from the source root) */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tritium/support.h"

static const char *g_tritium;

#define HELPERS "tests/debugger/kernels/helpers.py"
#define LAST_PID "tests/debugger/kernels/last_pid.py"

/* Run `tritium debug ARGS` (a shell fragment) with stdin from `input`
 * (NULL: /dev/null); returns stdout+stderr, *status the exit status. */
static char *run(const char *args, const char *input, int *status)
{
    char tmp[] = "/tmp/tritium-cli-XXXXXX";
    int fd = mkstemp(tmp);
    ck_assert(fd >= 0);
    if (input && write(fd, input, strlen(input)) < 0) ck_abort_msg("write");
    close(fd);
    char *sh = xasprintf("'%s' debug %s < %s 2>&1", g_tritium, args, input ? tmp : "/dev/null");
    FILE *p = popen(sh, "r");
    strbuf out = { 0 };
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf - 1, p)) > 0) {
        buf[n] = 0;
        sb_puts(&out, buf);
    }
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    free(sh);
    remove(tmp);
    return sb_take(&out);
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

#define HAS(out, s) ck_assert_msg(strstr(out, s), "missing <%s> in:\n%s", s, out)
#define HASNOT(out, s) ck_assert_msg(!strstr(out, s), "unexpected <%s> in:\n%s", s, out)

/* diff: the loaded launch against a second interpreter run (no GPU needed),
 * and without a driver a plain message and a failed command */
START_TEST(diff_command)
{
    int st;
    char *o = run("-batch -ex 'diff --against reverse --show 2' examples/order_bug.py", NULL, &st);
    if (strstr(o, "Undefined command: \"diff\"")) {   /* a build without the GPU compiler */
        free(o);
        return;
    }
    ck_assert_int_eq(st, 0);
    HAS(o, "out_ptr  f32[64]  MISMATCH: 63 of 64 elements differ");
    HAS(o, "program (1, 0, 0) at examples/order_bug.py:46");
    free(o);
    o = run("-batch -ex 'diff --against reverse' examples/vector_add.py", NULL, &st);
    ck_assert_int_eq(st, 0);
    HAS(o, "agree");
    HASNOT(o, "MISMATCH");
    free(o);
    o = run("-batch -ex 'diff --bogus' examples/vector_add.py", NULL, &st);
    ck_assert_int_eq(st, 1);
    free(o);
    if (access("/usr/lib/x86_64-linux-gnu/libcuda.so.1", F_OK) != 0) {
        o = run("-batch -ex diff examples/vector_add.py", NULL, &st);
        ck_assert_int_eq(st, 1);
        HAS(o, "no CUDA driver");
        free(o);
    }
}
END_TEST

START_TEST(aliases_and_prefixes)
{
    int st;
    char *o = run("-batch -ex 'b 25' -ex 'r' -ex 'n' -ex 'p pid' -ex 'bt' -ex 'i b' -ex 'inf prog' -ex 'brea 27' "
                  "-ex 'c' -ex 'disp pid' -ex 's' -ex 'tb 30' -ex 'cont' -ex 'whe' -ex 'k' " HELPERS, NULL, &st);
    ck_assert_int_eq(st, 0);
    HAS(o, "Breakpoint 1 at ");
    HAS(o, "Breakpoint 1, program (0,0,0) helpers_kernel () at ");
    HAS(o, "\n26\t    z = square(y)\n");              /* n */
    HAS(o, "$1 = 0\n");                               /* p */
    HAS(o, "#0  helpers_kernel () at ");             /* bt */
    HAS(o, "Num     Type            Disp Enb Address    What\n"); /* i b */
    HAS(o, "0 finished, 1 stopped, 3 pending.");     /* inf prog */
    HAS(o, "Breakpoint 2 at ");                       /* brea */
    HAS(o, "Breakpoint 2, program (0,0,0)");         /* c */
    HAS(o, "1: pid = 0\n");                           /* disp */
    HAS(o, "Temporary breakpoint 3, program (0,0,0)"); /* tb, cont */
    HAS(o, "[Launch killed");                         /* k */
    free(o);
    /* delete display, show */
    o = run("-batch -ex 'display 1 + 1' -ex 'display 2' -ex 'delete display 1' -ex 'info display' "
            "-ex 'show settings' -ex 'set print elements 5' -ex 'show print elements' -ex 'show version' " HELPERS,
            NULL, &st);
    ck_assert_int_eq(st, 0);
    HAS(o, "Num Enb Expression\n2:   y  2\n");
    HASNOT(o, "1:   y");
    HAS(o, "print elements: 1000\nstop-on-fault: on\nschedule: auto\n");
    HAS(o, "print elements: 5\n");
    HAS(o, "tritium ");
    free(o);
}
END_TEST

START_TEST(errors_and_exit_status)
{
    int st;
    char *o = run("-batch -ex 'di' -ex 'frobnicate' -ex 'info frob' -ex 'print 6 * 7' -ex 'print (' " HELPERS, NULL, &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "Ambiguous command \"di\": disable, display");   /* then diff in GPU builds */
    HAS(o, "Undefined command: \"frobnicate\".  Try \"help\".\n");
    HAS(o, "Undefined info command: \"frob\".  Try \"help info\".\n");
    HAS(o, "$1 = 42\n");                             /* the session goes on */
    free(o);
    o = run("-batch -ex 'print 1' -ex 'info programs' " HELPERS, NULL, &st);
    ck_assert_int_eq(st, 0);
    free(o);
    o = run("-batch -ex 'quit 3' -ex 'print 1' " HELPERS, NULL, &st);
    ck_assert_int_eq(st, 3);
    HASNOT(o, "$1");
    free(o);
    /* no kernel, a missing file, help */
    o = run("-batch -ex run", NULL, &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "No kernel loaded");
    free(o);
    o = run("-batch nosuch.py", NULL, &st);
    ck_assert_int_eq(st, 2);
    HAS(o, "cannot read 'nosuch.py'");
    free(o);
    o = run("--help", NULL, &st);
    ck_assert_int_eq(st, 0);
    HAS(o, "usage: tritium debug [-batch] [-ex CMD]...");
    HAS(o, "--arg NAME=SPEC");
    free(o);
}
END_TEST

START_TEST(x_file_stops_at_first_error)
{
    char tmp[] = "/tmp/tritium-cmds-XXXXXX";
    int fd = mkstemp(tmp);
    const char *cmds = "print 1\n# a comment\n\nbogus\nprint 2\n";
    if (write(fd, cmds, strlen(cmds)) < 0) ck_abort_msg("write");
    close(fd);
    char *args = xasprintf("-batch -ex 'print 0' -x %s -ex 'print 3' " HELPERS, tmp);
    int st;
    char *o = run(args, NULL, &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "$1 = 0\n$2 = 1\nUndefined command: \"bogus\".");
    HAS(o, "$3 = 3\n");                              /* -ex goes on */
    HASNOT(o, "= 2\n");
    /* source: the same rule inside the debugger */
    free(o);
    free(args);
    args = xasprintf("-batch -ex 'source %s' -ex 'echo done\\n' " HELPERS, tmp);
    o = run(args, NULL, &st);
    HAS(o, "$1 = 1\n");
    HASNOT(o, "$2 = 2");
    HAS(o, "done\n");
    ck_assert_int_eq(st, 1);
    free(o);
    free(args);
    remove(tmp);
}
END_TEST

START_TEST(help_from_the_table)
{
    int st;
    char *o = run("-batch -ex help -ex 'help info' -ex 'help b' -ex 'help set arg' -ex 'h n'", NULL, &st);
    ck_assert_int_eq(st, 0);
    HAS(o, "Running:\n  run          -- Start the launch from fresh inputs");
    HAS(o, "Breakpoints:\n");
    HAS(o, "  watch        -- Stop when any program writes these elements");
    HAS(o, "List of \"info\" subcommands:");
    HAS(o, "info programs                -- Which programs finished");
    HAS(o, "Usage: break [LOCATION] [pid (x[,y[,z]])] [if COND]");
    HAS(o, "Aliases: b br bre brea\n");
    HAS(o, "Usage: set arg NAME=SPEC\n");
    HAS(o, "Usage: next [N]\n");
    free(o);
}
END_TEST

START_TEST(piped_input_repeats_and_eof_quits)
{
    int st;
    /* blank lines repeat `next`; end of input leaves with status 0 */
    char *o = run(HELPERS, "break 26\nrun\nnext\n\n\nprint i\n", &st);
    ck_assert_int_eq(st, 0);
    HAS(o, "\n27\t    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n28\t    for i in range(3):\n29\t        acc += z\n");
    HAS(o, "$1 = 0\n");
    HASNOT(o, "(tritium)");                          /* no prompt when not a terminal */
    free(o);
    /* a blank line after `list` lists the next lines */
    o = run(HELPERS, "list 5\n\n", &st);
    HAS(o, "\n10\t    return t + 1.0\n11\t\n");
    HAS(o, "\n19\t\n");
    free(o);
    /* a blank line after a command that does not repeat does nothing */
    o = run(HELPERS, "print 5\n\n\n", &st);
    ck_assert_int_eq(count_of(o, "= 5"), 1);
    free(o);
}
END_TEST

START_TEST(launch_commands)
{
    int st;
    char *o = run("-batch -ex 'set grid 2' -ex 'info programs' -ex 'set arg x_ptr=ones:f32[64]' -ex run "
                  "-ex 'print out_ptr[0:4]' -ex 'set const BLOCK=32' -ex 'set grid 1' -ex run -ex 'print out_ptr[30:34]' "
                  "-ex 'set arg nosuch=3' -ex 'info launch' " HELPERS, NULL, &st);
    ck_assert_int_eq(st, 1);                         /* nosuch */
    HAS(o, "Grid (2,1,1): 2 programs.");
    /* x = 1: square(1) = 2, twice = 4, square(4) = 17, three times: 51 */
    HAS(o, "$1 = f32[4] [51. 51. 51. 51.]\n");
    HAS(o, "$2 = f32[4] [51. 51.  0.  0.]\n");       /* one program of 32 now */
    HAS(o, "nosuch");
    HAS(o, "The launch is unchanged.");
    HAS(o, "Grid       (1,1,1), 1 programs");
    HAS(o, "Options    --arg x_ptr=ones:f32[64] --const BLOCK=32 --grid 1\n");
    free(o);
    o = run("-batch -ex 'break 25' -ex 'load examples/vector_add.py' -ex 'info launch' -ex 'info breakpoints' -ex run "
            "-ex 'load " HELPERS "' -ex 'info breakpoints' -ex run " HELPERS, NULL, &st);
    ck_assert_int_eq(st, 0);
    HAS(o, "Loaded add_kernel from examples/vector_add.py: grid (97,1,1).");
    HAS(o, "Kernel     add_kernel (examples/vector_add.py)");
    /* the breakpoint belongs to helpers.py: pending in vector_add.py, back after loading helpers.py */
    HAS(o, "1       breakpoint      keep y   <PENDING>  tests/debugger/kernels/helpers.py:25\n");
    HAS(o, "[Launch finished normally: 97 programs]");
    HAS(o, "in helpers_kernel at tests/debugger/kernels/helpers.py:25\n");
    HAS(o, "Breakpoint 1, program (0,0,0) helpers_kernel () at tests/debugger/kernels/helpers.py:25");
    free(o);
}
END_TEST

/* One scheduler: `tritium run --schedule random:S` and the debugger's
 * `schedule random S` run the programs in the same order, so a race seen
 * with `run` replays in the debugger. Every program of last_pid.py stores its
 * id to out[0]; the last one to run wins. The known values pin the order
 * (interp_order_at: 4-round Feistel, keys from splitmix64(S)) so that it
 * does not change silently between releases. */
START_TEST(same_seed_same_order)
{
    static const struct { int seed, last; } known[] = { { 1, 45 }, { 7, 41 }, { 42, 36 } };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        char *sh = xasprintf("'%s' run " LAST_PID " --schedule random:%d --json 2>/dev/null", g_tritium, known[i].seed);
        FILE *p = popen(sh, "r");
        strbuf out = { 0 };
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf - 1, p)) > 0) {
            buf[n] = 0;
            sb_puts(&out, buf);
        }
        pclose(p);
        free(sh);
        char want[64];
        snprintf(want, sizeof want, "\"min\": %d.0,", known[i].last);
        HAS(out.s, want);
        sb_free(&out);
        char *args = xasprintf("-batch -ex 'set stop-on-fault off' -ex 'schedule random %d' -ex run "
                               "-ex 'print out_ptr[0]' " LAST_PID, known[i].seed);
        int st;
        char *o = run(args, NULL, &st);
        snprintf(want, sizeof want, "$1 = %d\n", known[i].last);
        HAS(o, want);
        free(o);
        free(args);
        /* the launch spec's --schedule gives the debugger the same order */
        args = xasprintf("-batch -ex 'set stop-on-fault off' -ex run -ex 'print out_ptr[0]' " LAST_PID
                         " --schedule random:%d", known[i].seed);
        o = run(args, NULL, &st);
        HAS(o, want);
        free(o);
        free(args);
    }
}
END_TEST

/* Tensors made with `empty` are uninitialized in every run of the
 * debugger (the flag travels on the launch argument): reading one stops. */
START_TEST(empty_tensor_reads_stop)
{
    int st;
    char *o = run("-batch -ex run -ex run examples/vector_add.py --arg x_ptr=empty:f32[98432]", NULL, &st);
    ck_assert_int_eq(count_of(o, "warning: uninitialized load of memory in program (0, 0, 0)"), 2);
    HAS(o, "reads x_ptr[0], which was created with `empty` and has not been written");
    free(o);
    o = run("-batch -ex run examples/vector_add.py --arg x_ptr=zeros:f32[98432]", NULL, &st);
    HASNOT(o, "uninitialized");
    free(o);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRITIUM\n", argv[0]);
        return 2;
    }
    g_tritium = argv[1];
    Suite *s = suite_create("debugger-cli");
    TCase *tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, aliases_and_prefixes);
    tcase_add_test(tc, errors_and_exit_status);
    tcase_add_test(tc, x_file_stops_at_first_error);
    tcase_add_test(tc, help_from_the_table);
    tcase_add_test(tc, piped_input_repeats_and_eof_quits);
    tcase_add_test(tc, launch_commands);
    tcase_add_test(tc, diff_command);
    tcase_add_test(tc, same_seed_same_order);
    tcase_add_test(tc, empty_tensor_reads_stop);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
