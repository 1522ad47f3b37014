/* test_robust.c — hostile input to `tritium debug` (issue 9): option errors
 * in `diff`, huge and overflowing numbers in x, enable/delete, print $N,
 * up/down and list, and oversized or odd command files. Each case failed
 * (crash, hang, wrong breakpoint, foreign memory) before its fix; every run
 * has a time limit so that a hang fails instead of stalling the suite.
 *
 * usage: test_debugger_robust TRITIUM   (run from the source root) */
#include <check.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tritium/support.h"

static const char *g_tritium;

#define HELPERS "tests/debugger/kernels/helpers.py"

/* `timeout 20 tritium ARGS`; stdout+stderr, *status the exit status
 * (137: it hung, 128+N: killed by signal N). */
static char *run_cmd(const char *args, int *status)
{
    char *sh = xasprintf("timeout -s KILL 20 '%s' %s < /dev/null 2>&1", g_tritium, args);
    FILE *p = popen(sh, "r");
    strbuf out = { 0 };
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf - 1, p)) > 0) {
        buf[n] = 0;
        if (out.len < 1 << 20) sb_puts(&out, buf);   /* a runaway print must not eat memory */
    }
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    free(sh);
    return sb_take(&out);
}

/* `tritium debug ARGS` */
static char *run(const char *args, int *status)
{
    char *a = xasprintf("debug %s", args);
    char *o = run_cmd(a, status);
    free(a);
    return o;
}

#define HAS(out, s) ck_assert_msg(strstr(out, s), "missing <%s> in:\n%.4000s", s, out)
#define HASNOT(out, s) ck_assert_msg(!strstr(out, s), "unexpected <%s> in:\n%.4000s", s, out)

/* item 1: a bad diff option freed an uninitialized pointer */
START_TEST(diff_bad_options)
{
    const char *cmds[] = { "diff --rtol -1", "diff --against bogus", "diff --rtol" };
    for (size_t i = 0; i < TT_COUNTOF(cmds); i++) {
        int st;
        char *c = xasprintf("-ex '%s' -ex 'echo alive\\n' " HELPERS, cmds[i]);
        char *o = run(c, &st);
        if (!strstr(o, "Undefined command: \"diff\"")) HAS(o, "error:");
        HAS(o, "alive");            /* not -batch: the session goes on after the error */
        ck_assert_int_lt(st, 2);
        free(o);
        free(c);
    }
}
END_TEST

/* item 2: x/HUGE read past the buffer; item 4: x/2^64+1 acted as x/1 */
START_TEST(x_huge_count)
{
    int st;
    char *o = run("-batch -ex 'b 25' -ex r -ex 'x/9223372036854775807 x_ptr[2]' " HELPERS, &st);
    ck_assert_int_eq(st, 0);
    HAS(o, "warning: only 62 elements left in x_ptr");
    HAS(o, "<x_ptr[62]>:\t62.\t63.\n");
    HASNOT(o, "x_ptr[64]");
    free(o);
    o = run("-batch -ex 'b 25' -ex r -ex 'x/18446744073709551617 x_ptr' " HELPERS, &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "the count 18446744073709551617 is too large");
    HASNOT(o, "<x_ptr[0]>");
    free(o);
}
END_TEST

/* item 3: enable INT64_MAX looped forever, a huge delete range spun, and
 * delete 2^32+1 deleted breakpoint 1 */
START_TEST(breakpoint_numbers)
{
    int st;
    char *o = run("-batch -ex 'b 25' -ex 'enable 9223372036854775807' -ex 'info breakpoints' " HELPERS, &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "No breakpoint number 9223372036854775807.");
    ck_assert_ptr_null(strstr(strstr(o, "9223372036854775807.") + 1, "No breakpoint number"));
    free(o);
    o = run("-batch -ex 'b 25' -ex 'delete 4294967297' -ex 'info breakpoints' " HELPERS, &st);
    HAS(o, "No breakpoint number 4294967297.");
    HAS(o, "1       breakpoint      keep y");
    free(o);
    o = run("-batch -ex 'b 25' -ex 'b 26' -ex 'b 27' -ex 'delete 2-100000000000000' -ex 'info breakpoints' "
            "-ex 'disable -5-9223372036854775807' -ex 'info breakpoints' " HELPERS, &st);
    ck_assert_int_eq(st, 0);
    HAS(o, "1       breakpoint      keep n");
    HASNOT(o, "\n2       breakpoint");
    HASNOT(o, "\n3       breakpoint");
    free(o);
    o = run("-batch -ex 'break 4294967321' -ex 'info breakpoints' " HELPERS, &st);
    HAS(o, "out of range");
    HAS(o, "No breakpoints or watchpoints.");
    free(o);
}
END_TEST

/* item 4: history and frame numbers wrapped */
START_TEST(user_numbers_wrap)
{
    int st;
    char *o = run("-batch -ex 'print 7' -ex 'print $18446744073709551617' " HELPERS, &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "History has not yet reached $18446744073709551617.");
    ck_assert_ptr_null(strstr(o, "$2 = 7"));
    free(o);
    o = run("-batch -ex 'b square' -ex r -ex 'down -2147483648' -ex 'up -9223372036854775808' "
            "-ex 'up 9223372036854775807' -ex 'frame' " HELPERS, &st);
    HAS(o, "Initial frame selected; you cannot go up.");
    HAS(o, "Bottom (innermost) frame selected; you cannot go down.");
    HAS(o, "#0  square (");
    free(o);
    o = run("-batch -ex 'list -2147483648' -ex 'list 4294967297' -ex 'list 10,11' " HELPERS, &st);
    HAS(o, "Line number -2147483648 out of range; \"" HELPERS "\" has 31 lines.");
    HAS(o, "Line number 4294967297 out of range");
    HAS(o, "10\t    return t + 1.0\n11\t\n");
    free(o);
}
END_TEST

/* item 7: files were read whole with no limit; item 10: a directory gave
 * "Input/output error" and `debug -x DIR` exited 0 silently */
START_TEST(file_limits)
{
    int st;
    char *o = run_cmd("run /dev/zero", &st);
    ck_assert_int_eq(st, 2);
    HAS(o, "cannot read '/dev/zero': a kernel source file exceeds the limit of 8 MiB (set TRITIUM_MAX_SOURCE_BYTES");
    free(o);
    o = run_cmd("run tests", &st);
    ck_assert_int_eq(st, 2);
    HAS(o, "cannot read 'tests': Is a directory");
    free(o);
    o = run_cmd("run --arg x_ptr=@/dev/zero examples/vector_add.py", &st);
    ck_assert_int_eq(st, 2);
    HAS(o, "/dev/zero: not a .npy file (bad magic)");   /* at once, not after 4 GiB */
    free(o);
    /* a file past the limit that starts like an .npy */
    FILE *f = fopen("/tmp/tritium-robust-big.npy", "wb");
    ck_assert_ptr_nonnull(f);
    fputs("\x93NUMPY", f);
    for (int i = 0; i < 2048; i++) fwrite((char[1024]){ 0 }, 1, 1024, f);
    fclose(f);
    setenv("TRITIUM_MAX_NPY_BYTES", "1M", 1);
    o = run_cmd("run --arg x_ptr=@/tmp/tritium-robust-big.npy examples/vector_add.py", &st);
    unsetenv("TRITIUM_MAX_NPY_BYTES");
    remove("/tmp/tritium-robust-big.npy");
    ck_assert_int_eq(st, 2);
    HAS(o, "exceeds the limit of 1 MiB (set TRITIUM_MAX_NPY_BYTES to raise it)");
    free(o);
    o = run("-batch -x /dev/zero", &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "/dev/zero: a debugger command file or line exceeds the limit of 8 MiB (set TRITIUM_MAX_SCRIPT_BYTES");
    free(o);
    o = run("-batch -x tests", &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "tests: Is a directory.");
    free(o);
    o = run("-batch -ex 'load /dev/zero' -ex 'info launch'", &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "TRITIUM_MAX_SOURCE_BYTES");
    free(o);
    /* the variable sets the limit: 100 bytes refuse the example, the default takes it */
    setenv("TRITIUM_MAX_SOURCE_BYTES", "100", 1);
    o = run_cmd("run examples/vector_add.py", &st);
    unsetenv("TRITIUM_MAX_SOURCE_BYTES");
    ck_assert_int_eq(st, 2);
    HAS(o, "exceeds the limit of 100 bytes");
    free(o);
    o = run_cmd("run examples/vector_add.py", &st);
    ck_assert_int_eq(st, 0);
    free(o);
    /* the memory budget of a launch: a 12 GB tensor is refused before it is allocated */
    o = run_cmd("run --arg x_ptr=zeros:f32[3000000000] examples/vector_add.py", &st);
    ck_assert_int_eq(st, 2);
    HAS(o, "--arg x_ptr: 12000000000 more bytes: the memory of a launch's tensors exceeds the limit of 8 GiB "
           "(set TRITIUM_MAX_LAUNCH_BYTES to raise it)");
    free(o);
    setenv("TRITIUM_MAX_LAUNCH_BYTES", "400000", 1);            /* vector_add: 3 x 393,728 bytes */
    o = run_cmd("run examples/vector_add.py", &st);
    unsetenv("TRITIUM_MAX_LAUNCH_BYTES");
    ck_assert_int_eq(st, 2);
    HAS(o, "--arg y_ptr: 393728 more bytes: the memory of a launch's tensors exceeds the limit of 400000 bytes");
    free(o);
    o = run_cmd("run --arg x_ptr=@/dev/null examples/vector_add.py", &st);   /* empty: a parse error, not a limit */
    ck_assert_int_eq(st, 2);
    HASNOT(o, "limit");
    free(o);
}
END_TEST

#define LONG "tests/debugger/kernels/long_loop.py"

/* argv of `tritium` plus ARGS split at blanks ('...' groups words) */
static char **split_args(const char *args)
{
    VEC(char *) v = { 0 };
    vec_push(&v, xstrdup(g_tritium));
    for (const char *p = args; *p; ) {
        while (*p == ' ') p++;
        if (!*p) break;
        strbuf w = { 0 };
        sb_puts(&w, "");
        while (*p && *p != ' ') {
            if (*p == '\'') {
                for (p++; *p && *p != '\''; p++) sb_putc(&w, *p);
                if (*p) p++;
            } else {
                sb_putc(&w, *p++);
            }
        }
        vec_push(&v, sb_take(&w));
    }
    vec_push(&v, NULL);
    return v.v;
}

/* Whether process pid has a SIGINT handler installed (/proc/PID/status SigCgt). */
static bool catches_sigint(pid_t pid)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    bool yes = false;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "SigCgt:", 7)) yes = (strtoull(line + 7, NULL, 16) >> (SIGINT - 1)) & 1;
    fclose(f);
    return yes;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Run `tritium ARGS` (stdout and stderr together) and send it one SIGINT
 * once (a) its SIGINT handler is installed, (b) MARKER (if not NULL) has
 * appeared in its output, and (c) WAIT_S more seconds have passed. No fixed
 * delay from the start: a loaded machine only makes the test slower (a
 * signal before the handler exists would end the process silently, which
 * is what made the older timeout-based version flaky). *status is the exit
 * status (128+N: killed by signal N; 137 also when it ran past 100 s).
 * Output beyond 4 MiB is read and dropped. */
static char *run_signalled(const char *args, const char *marker, double wait_s, int *status)
{
    int fd[2];
    ck_assert(pipe(fd) == 0);
    char **argv = split_args(args);
    pid_t pid = fork();
    ck_assert(pid >= 0);
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        int in = open("/dev/null", O_RDONLY);
        dup2(in, 0);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    for (char **a = argv; *a; a++) free(*a);
    free(argv);
    strbuf out = { 0 };
    sb_puts(&out, "");
    bool sent = false, killed = false;
    double t0 = now_s(), ready = -1;
    for (;;) {
        struct pollfd pf = { fd[0], POLLIN, 0 };
        int r = poll(&pf, 1, 10);
        if (r > 0) {
            char buf[65536];
            ssize_t n = read(fd[0], buf, sizeof buf - 1);
            if (n <= 0) break;
            buf[n] = 0;
            if (out.len < (4u << 20)) sb_puts(&out, buf);
        }
        double t = now_s();
        if (!sent && ready < 0 && catches_sigint(pid) && (!marker || strstr(out.s, marker))) ready = t;
        if (!sent && ready >= 0 && t - ready >= wait_s) {
            kill(pid, SIGINT);
            sent = true;
        }
        if (!killed && t - t0 > 100) {
            kill(pid, SIGKILL);
            killed = true;
        }
    }
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    *status = killed ? 137 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    ck_assert_msg(sent, "the signal was never sent (no handler or no <%s>):\n%.4000s", marker ? marker : "", out.s);
    return out.s;
}

/* item 3: Ctrl-C stops a launch; `tritium run` prints a partial summary and
 * exits 130 (programs 0-2 loop 1000 times, the others 2e9 times: minutes).
 * The handler is there from the start of the command: a signal while the
 * kernel compiles stops the launch before its first program. */
START_TEST(interrupt_run)
{
    const char *scheds[] = { "in-order", "parallel" };
    for (int i = 0; i < 2; i++) {
        char *args = xasprintf("run --schedule %s " LONG, scheds[i]);
        int st;
        char *o = NULL;
        /* programs 0-2 take milliseconds; a loaded machine may need longer */
        const double waits[] = { 0.5, 2, 6 };
        for (int attempt = 0; attempt < 3; attempt++) {
            free(o);
            o = run_signalled(args, NULL, waits[attempt], &st);
            ck_assert_msg(st == 130, "%s: status %d\n%s", scheds[i], st, o);
            HAS(o, "tritium: interrupted ");
            if (strstr(o, "interrupted after 3 programs")) break;
        }
        HAS(o, "tritium: interrupted after 3 programs");
        HAS(o, "status   interrupted after 3 of 64 programs; the results are partial");
        HAS(o, "Z     f32[64]          min 0  max 1000");
        free(args);
        free(o);
    }
    /* at once: during start-up or compilation, never a silent death */
    int st;
    char *o = run_signalled("run " LONG, NULL, 0, &st);
    ck_assert_msg(st == 130, "status %d\n%s", st, o);
    HAS(o, "tritium: interrupted after ");
    HAS(o, "the results are partial");
    free(o);
}
END_TEST

/* item 10: after SIGINT in -batch the stop showed `?:0` (an op of the
 * loop's bookkeeping, which has no line); several timings, as the signal
 * lands on a random op */
START_TEST(interrupt_debug_location)
{
    const double when[] = { 0.3, 0.45, 0.6 };
    for (int i = 0; i < 3; i++) {
        char *o = NULL;
        for (int attempt = 0; attempt < 3; attempt++) {
            free(o);
            int st;
            o = run_signalled("debug -batch -ex run -ex bt " LONG, "Starting launch:", when[i] + 2 * attempt, &st);
            HASNOT(o, "?:0");
            HAS(o, "Program received signal SIGINT, Interrupt.");
            /* still in programs 0-2 (a loaded machine): later */
            if (strstr(o, "long_loop () at " LONG ":11\n") && strstr(o, "program (3,0,0)")) break;
        }
        HAS(o, "long_loop () at " LONG ":11\n");
        free(o);
    }
}
END_TEST

/* issue 9: Ctrl-C stops any long command, not only launches: "Quit", the
 * command fails and the next one runs. The signal goes out once the
 * command's output has begun: x's first lines, print's header line (a big
 * tile's header comes before its elements are formatted). The whole output
 * would be about 1M lines. */
#define BIG "--arg Z=zeros:f32[4194304] " LONG
START_TEST(interrupt_any_command)
{
    int st;
    char *o = run_signalled("debug -batch -ex 'x/4194304 Z[0]' -ex 'print 6 * 7' " BIG, "<Z[8]>:", 0, &st);
    HAS(o, "<Z[0]>:");
    HAS(o, "Quit\n");
    HASNOT(o, "<Z[4194300]>");           /* the dump stopped */
    HAS(o, "$1 = 42\n");                 /* and the next command ran */
    ck_assert_msg(st == 1, "status %d (batch: a failed command)\n%.4000s", st, o);
    free(o);
    o = run_signalled("debug -batch -ex 'set print elements unlimited' -ex 'print Z[:]' -ex 'print 6 * 7' " BIG,
                      "$1 = f32[4194304]\n", 0, &st);
    HAS(o, "Quit\n");
    ck_assert_msg(strlen(o) < (1u << 20), "the print was not cut short: %zu bytes", strlen(o));
    HAS(o, "$2 = 42\n");                 /* $1 (Z) is in the history; its printing was cut short */
    ck_assert_int_eq(st, 1);
    free(o);
}
END_TEST

/* item 10: `quit 256` exited 0; a failed write of the summary exited 0 */
START_TEST(exit_statuses)
{
    int st;
    char *o = run("-batch -ex 'quit 256' " HELPERS, &st);
    ck_assert_int_eq(st, 1);
    HAS(o, "quit: the exit status must be between 0 and 255");
    free(o);
    o = run("-batch -ex 'quit 7' " HELPERS, &st);
    ck_assert_int_eq(st, 7);
    free(o);
    char *sh = xasprintf("'%s' run examples/vector_add.py > /dev/full 2>/tmp/tritium-robust-full.txt", g_tritium);
    int rc = system(sh);
    free(sh);
    ck_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
    char *err = read_file("/tmp/tritium-robust-full.txt", NULL);
    HAS(err, "tritium: error: writing the output failed: No space left on device");
    free(err);
    remove("/tmp/tritium-robust-full.txt");
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("debugger-robust");
    TCase *tc = tcase_create("hostile");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, diff_bad_options);
    tcase_add_test(tc, x_huge_count);
    tcase_add_test(tc, breakpoint_numbers);
    tcase_add_test(tc, user_numbers_wrap);
    tcase_add_test(tc, file_limits);
    tcase_add_test(tc, interrupt_run);
    tcase_add_test(tc, interrupt_debug_location);
    tcase_add_test(tc, interrupt_any_command);
    tcase_add_test(tc, exit_statuses);
    suite_add_tcase(s, tc);
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s TRITIUM\n", argv[0]);
        return 2;
    }
    g_tritium = argv[1];
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
