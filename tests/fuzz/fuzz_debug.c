/* fuzz_debug.c — libFuzzer harness for the debugger's command language: the
 * input is a command script (one command a line, at most 64 lines) run by
 * the REPL's own executor (repl_dbg_execute, as `tritium debug` runs -x
 * files, but going on after a failed command) against a fixed small launch:
 * helpers.py below (inlined helpers, a loop, grid 4), so run, step, break,
 * watch, print, x, set grid/arg/const, load, diff --against ... all reach
 * the engine and the interpreter.
 *
 * A launch that runs longer than a second of CPU time (`set grid 100000000`
 * then `run`) is interrupted as Ctrl-C would (dbg_interrupt from SIGVTALRM:
 * SIGALRM and ITIMER_REAL belong to libFuzzer's -timeout), and the rest of
 * the script is dropped; so a slow but legitimate input is not reported as a
 * timeout, while a command that cannot be interrupted still is. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include "debug_repl.h"
#include "tritium/diag.h"

static const char kernel_text[] =
    "# tritium: --kernel helpers_kernel --grid 4 --arg x_ptr=arange:f32[64] --arg out_ptr=zeros:f32[64]"
    " --arg tmp=empty:f32[64] --const BLOCK=16\n"
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def square(v):\n"
    "    t = v * v\n"
    "    return t + 1.0\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def twice(v):\n"
    "    a = square(v)\n"
    "    b = a * 2.0\n"
    "    return b\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def helpers_kernel(x_ptr, out_ptr, tmp, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs)\n"
    "    y = twice(x)\n"
    "    z = square(y)\n"
    "    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n"
    "    for i in range(3):\n"
    "        acc += z\n"
    "    tl.store(tmp + offs, acc)\n"
    "    w = tl.load(tmp + (offs + 1) % 64)\n"
    "    tl.store(out_ptr + offs,\n"
    "             acc + w)\n";

static char g_path[64];
static repl_dbg *volatile g_r;
static volatile sig_atomic_t g_timed_out;

static void on_alarm(int sig)
{
    (void)sig;
    g_timed_out = 1;
    if (g_r && g_r->d) dbg_interrupt(g_r->d);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(g_path, sizeof g_path, "/tmp/tritium-fuzz-debug-%d.py", (int)getpid());
    FILE *f = fopen(g_path, "w");
    if (!f || fputs(kernel_text, f) < 0 || fclose(f)) abort();
    struct sigaction sa = { 0 };
    sa.sa_handler = on_alarm;
    sigaction(SIGVTALRM, &sa, NULL);
    /* the launch budget of limits.h, small: a fuzzer's `set arg` must not take gigabytes */
    setenv("TRITIUM_MAX_LAUNCH_BYTES", "256M", 1);
    setenv("TRITIUM_MAX_NPY_BYTES", "64M", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    diag_set_stream(devnull);
    if (size > 4096) return 0;
    char *text = xstrndup((const char *)data, size);
    repl_dbg r = { 0 };
    r.d = dbg_new(devnull, devnull);
    r.target = xstrdup(g_path);
    if (repl_dbg_open(&r, r.target, 0, NULL)) {
        repl_dbg_add_words(&r, 0, NULL);
        g_timed_out = 0;
        g_r = &r;
        /* interrupt anything that runs longer than a second, every second */
        struct itimerval it = { { 1, 0 }, { 1, 0 } };
        setitimer(ITIMER_VIRTUAL, &it, NULL);
        int lines = 0;
        for (char *line = text, *next; line && !r.quit && !g_timed_out && lines < 64; line = next, lines++) {
            next = strchr(line, '\n');
            if (next) *next++ = 0;
            repl_dbg_execute(&r, line, lines > 0);   /* blank lines repeat, as from a terminal */
        }
        struct itimerval off = { { 0, 0 }, { 0, 0 } };
        setitimer(ITIMER_VIRTUAL, &off, NULL);
        g_r = NULL;
    }
    dbg_free(r.d);
    r.d = NULL;
    repl_dbg_close(&r);
    free(r.repeat);
    free(text);
    return 0;
}
