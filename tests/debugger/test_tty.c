/* test_tty.c — `tritium debug` in a real terminal, driven through tmux
 * (send-keys / capture-pane): readline editing, completion of commands and
 * variable names, a blank line repeating `next`, Ctrl-C at the prompt and
 * during a long launch, Ctrl-D, and the history file
 * ($XDG_STATE_HOME/tritium/history) read back by a second session.
 *
 * usage: test_debugger_tty TRITIUM   (run from the source root; exits 77
 * when tmux is not installed) */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tritium/support.h"

static const char *g_tritium;
static char g_sock[64], g_state[64];

static void tmux(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void tmux(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *args;
    if (vasprintf(&args, fmt, ap) < 0) abort();
    va_end(ap);
    char *cmd = xasprintf("tmux -L %s %s >/dev/null 2>&1", g_sock, args);
    if (system(cmd)) { /* checked through the screen */ }
    free(cmd);
    free(args);
}

static char *screen(void)
{
    char *cmd = xasprintf("tmux -L %s capture-pane -p -J -t dbg -S -300 2>/dev/null", g_sock);
    FILE *p = popen(cmd, "r");
    strbuf b = { 0 };
    char buf[4096];
    size_t n;
    while (p && (n = fread(buf, 1, sizeof buf - 1, p)) > 0) {
        buf[n] = 0;
        sb_puts(&b, buf);
    }
    if (p) pclose(p);
    free(cmd);
    return sb_take(&b);
}

static void nap(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* Wait until `text` appears at least `times` times on the screen. */
static void wait_for(const char *text, int times)
{
    for (int i = 0; i < 400; i++) {
        char *s = screen();
        int n = count_of(s, text);
        if (n >= times) {
            free(s);
            return;
        }
        if (i == 399) ck_abort_msg("timed out waiting for <%s> x%d; screen:\n%s", text, times, s);
        free(s);
        nap(50);
    }
}

/* The line being edited (the last line of the screen that has a prompt). */
static char *prompt_line(void)
{
    char *s = screen();
    char *last = NULL;
    for (char *p = s; (p = strstr(p, "(tritium) ")); p++) last = p;
    char *r = last ? xstrndup(last, strcspn(last, "\n")) : xstrdup("");
    /* trailing blanks of the pane */
    size_t n = strlen(r);
    while (n && r[n - 1] == ' ') r[--n] = 0;
    free(s);
    return r;
}

static void start(void)
{
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) strcpy(cwd, ".");
    tmux("kill-session -t dbg");
    tmux("new-session -d -s dbg -x 150 -y 50 -c '%s' \"env XDG_STATE_HOME=%s TERM=xterm '%s' debug "
         "tests/debugger/kernels/helpers.py\"", cwd, g_state, g_tritium);
    tmux("set-option -t dbg remain-on-exit on");
    wait_for("(tritium) ", 1);
}

static void keys(const char *k) { tmux("send-keys -t dbg %s", k); }
static void type(const char *text) { tmux("send-keys -t dbg -l '%s'", text); }

static bool pane_dead(void)
{
    char *cmd = xasprintf("tmux -L %s display-message -p -t dbg '#{pane_dead}'", g_sock);
    FILE *p = popen(cmd, "r");
    char buf[16] = "";
    if (p) {
        if (!fgets(buf, sizeof buf, p)) buf[0] = 0;
        pclose(p);
    }
    free(cmd);
    return buf[0] == '1';
}

START_TEST(terminal_session)
{
    start();
    /* completion of a command */
    type("brea");
    keys("Tab");
    nap(200);
    char *l = prompt_line();
    ck_assert_str_eq(l, "(tritium) break");
    free(l);
    type("25");
    keys("Enter");
    wait_for("Breakpoint 1 at ", 1);
    /* readline editing: fix "pint" into "print" at the start of the line */
    type("pint 40+2");
    keys("C-a");
    keys("Right");
    type("r");
    keys("Enter");
    wait_for("$1 = 42", 1);
    type("run");
    keys("Enter");
    wait_for("Breakpoint 1, program (0,0,0)", 1);
    /* completion of a variable name */
    type("print of");
    keys("Tab");
    nap(200);
    l = prompt_line();
    ck_assert_str_eq(l, "(tritium) print offs");
    free(l);
    keys("Enter");
    wait_for("$2 = i32[16] [ 0  1  2", 1);
    /* a blank line repeats next */
    type("next");
    keys("Enter");
    wait_for("    z = square(y)\n", 1);   /* capture-pane shows the tab as spaces */
    keys("Enter");
    wait_for("    acc = tl.zeros", 1);
    /* Ctrl-C at the prompt drops the line */
    type("garbage that is never run");
    keys("C-c");
    wait_for("Quit", 1);
    type("print 7");
    keys("Enter");
    wait_for("$3 = 7", 1);
    char *s = screen();
    ck_assert_ptr_null(strstr(s, "Undefined command: \"garbage"));
    free(s);
    /* Ctrl-C stops a long launch and returns to the prompt */
    type("set launch --grid 2000000 --const BLOCK=1 --arg x_ptr=zeros:f32[2000000] --arg out_ptr=zeros:f32[2000000]");
    keys("Enter");
    type("delete");
    keys("Enter");
    type("run");
    keys("Enter");
    wait_for("Starting launch: helpers_kernel, grid (2000000,1,1)", 1);
    nap(300);
    keys("C-c");
    wait_for("Program received signal SIGINT, Interrupt.", 1);
    type("info programs");
    keys("Enter");
    wait_for(" stopped, ", 1);
    s = screen();
    ck_assert_ptr_null(strstr(s, "[Launch finished"));
    free(s);
    type("kill");
    keys("Enter");
    wait_for("[Launch killed", 1);
    /* Ctrl-C stops any long command (500000 lines of x), not only launches */
    type("x/2000000 out_ptr[0]");
    keys("Enter");
    wait_for("<out_ptr[", 1);
    keys("C-c");
    type("print 9");
    keys("Enter");
    wait_for("$4 = 9", 1);
    s = screen();
    ck_assert_ptr_nonnull(strstr(s, "Quit"));
    ck_assert_ptr_null(strstr(s, "<out_ptr[1999996]>"));
    free(s);
    /* completion of breakpoint locations: files and functions */
    type("tbreak helpers.");
    keys("Tab");
    nap(200);
    l = prompt_line();
    ck_assert_str_eq(l, "(tritium) tbreak helpers.py:");
    free(l);
    keys("C-u");
    type("tbreak sq");
    keys("Tab");
    nap(200);
    l = prompt_line();
    ck_assert_str_eq(l, "(tritium) tbreak square");
    free(l);
    keys("C-u");
    /* subcommands */
    type("info prog");
    keys("Tab");
    nap(200);
    l = prompt_line();
    ck_assert_str_eq(l, "(tritium) info programs");
    free(l);
    keys("C-u");
    /* history: Up brings back the last line */
    keys("Up");
    nap(200);
    l = prompt_line();
    ck_assert_str_eq(l, "(tritium) print 9");
    free(l);
    keys("C-u");
    /* Ctrl-D on an empty line quits */
    keys("C-d");
    for (int i = 0; i < 100 && !pane_dead(); i++) nap(50);
    ck_assert(pane_dead());
    s = screen();
    ck_assert_msg(strstr(s, "quit\n"), "screen:\n%s", s);
    free(s);
    /* the history file, and a second session reading it */
    char *hist = xasprintf("%s/tritium/history", g_state);
    char *h = read_file(hist, NULL);
    ck_assert_msg(h != NULL, "no history file %s", hist);
    ck_assert_ptr_nonnull(strstr(h, "print 40+2\n"));
    ck_assert_ptr_nonnull(strstr(h, "print offs"));
    free(h);
    free(hist);
    start();
    keys("Up");
    keys("Up");
    nap(200);
    l = prompt_line();
    ck_assert_str_eq(l, "(tritium) x/2000000 out_ptr[0]");
    free(l);
    keys("C-u");
    type("quit");
    keys("Enter");
    for (int i = 0; i < 100 && !pane_dead(); i++) nap(50);
    ck_assert(pane_dead());
    tmux("kill-server");
}
END_TEST

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TRITIUM\n", argv[0]);
        return 2;
    }
    if (system("command -v tmux >/dev/null 2>&1") != 0) {
        fprintf(stderr, "tmux is not installed: skipped\n");
        return 77;
    }
    /* an absolute path: tmux starts the program in its own environment */
    g_tritium = realpath(argv[1], NULL);
    snprintf(g_sock, sizeof g_sock, "tritium-test-%d", (int)getpid());
    snprintf(g_state, sizeof g_state, "/tmp/tritium-tty-XXXXXX");
    if (!mkdtemp(g_state)) return 1;
    Suite *s = suite_create("debugger-tty");
    TCase *tc = tcase_create("tty");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, terminal_session);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    tmux("kill-server");
    char *rm = xasprintf("rm -rf '%s'", g_state);
    if (system(rm)) { /* best effort */ }
    free(rm);
    return failed ? 1 : 0;
}
