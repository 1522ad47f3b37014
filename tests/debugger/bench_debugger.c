/* bench_debugger.c — the two numbers the debugger promises (`meson test
 * --benchmark --suite debugger`, or run it directly from the source root):
 *
 *   1. time from `run` to the stop at `break pid (2^20 - 1)` on vector add
 *      with 2^20 programs of one element (target: under 100 ms; the auto
 *      schedule runs the broken-on program first);
 *   2. the cost of the debugger on a launch whose breakpoints never stop it,
 *      against the same launch run without the debugger (matmul example;
 *      target: under 10%), for several kinds of breakpoints.
 *
 * Each time is the median of several runs. Prints a table. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "repl.h"
#include "tritium/debugger.h"
#include "tritium/diag.h"

static char *src(const char *rel)
{
    const char *root = getenv("TRITIUM_SRCDIR");
    return xasprintf("%s/%s", root && *root ? root : ".", rel);
}

static bool open_target(repl_target *t, const char *file, const char *spec)
{
    char *path = src(file);
    int wc;
    char **w;
    char err[64];
    repl_split_words(spec, &wc, &w, err, sizeof err);
    char **argv = xcalloc((size_t)wc + 2, sizeof *argv);
    argv[0] = path;
    for (int i = 0; i < wc; i++) argv[i + 1] = w[i];
    repl_resolve_opts ro = { .need_grid = true };
    int rc = repl_target_open(t, wc + 1, argv, REPL_OPT_LAUNCH, &ro);
    free(argv);
    repl_words_free(wc, w);
    free(path);
    return rc == REPL_EXIT_OK;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

#define REPS 11

/* The launch without the debugger: fresh inputs, a session, every program.
 * Like `run` in the debugger, the previous launch's inputs are freed just
 * before the new copy is made (so both reuse the same memory). */
static launch g_prev;
static bool g_have_prev;
typedef struct plain_arg { const repl_target *t; const ir_func *fn; } plain_arg;
static void *plain_thread(void *p)
{
    plain_arg *a = p;
    if (g_have_prev) launch_free(&g_prev);
    launch_copy(&g_prev, &a->t->launch);
    g_have_prev = true;
    interp_session *s = interp_session_new(a->fn, &g_prev, NULL);
    interp_run_launch(s);
    interp_session_free(s);
    return NULL;
}
/* on a thread of its own, as the debugger's launches run */
static double plain_once(const repl_target *t, const ir_func *fn)
{
    plain_arg a = { t, fn };
    pthread_t th;
    double t0 = now_seconds();
    pthread_create(&th, NULL, plain_thread, &a);
    pthread_join(th, NULL);
    return now_seconds() - t0;
}

typedef struct setup { const char *what; const char *cmds[4]; } setup;

static double debug_once(const repl_target *t, FILE *devnull, const setup *su)
{
    dbg_session *d = dbg_new(devnull, devnull);
    dbg_load(d, t->mod, t->kernel, &t->launch);
    for (int i = 0; i < 4 && su->cmds[i]; i++) {
        const char *c = su->cmds[i];
        if (!strncmp(c, "break ", 6)) dbg_cmd_break(d, c + 6);
        else if (!strncmp(c, "ignore ", 7)) dbg_cmd_ignore(d, c + 7);
        else if (!strncmp(c, "watch ", 6)) dbg_cmd_watch(d, c + 6);
    }
    double t0 = now_seconds();
    dbg_cmd_run(d, "");
    double dt = now_seconds() - t0;
    if (dbg_get_state(d) != DBG_IDLE) {
        fprintf(stderr, "bench: '%s' stopped the launch\n", su->what);
        exit(1);
    }
    dbg_free(d);
    return dt;
}

int main(void)
{
    FILE *devnull = fopen("/dev/null", "w");
    diag_set_stream(devnull);

    /* 1. time to the stop */
    repl_target va;
    if (!open_target(&va, "examples/vector_add.py",
                     "--grid 1048576 --const BLOCK_SIZE=1 --arg x_ptr=randn:f32[1048576] "
                     "--arg y_ptr=randn:f32[1048576] --arg output_ptr=zeros:f32[1048576]")) {
        fprintf(stderr, "bench: cannot open examples/vector_add.py (set TRITIUM_SRCDIR)\n");
        return 1;
    }
    double ts[REPS];
    for (int r = 0; r < REPS; r++) {
        dbg_session *d = dbg_new(devnull, devnull);
        dbg_load(d, va.mod, va.kernel, &va.launch);
        dbg_cmd_break(d, "pid (1048575)");
        double t0 = now_seconds();
        dbg_cmd_run(d, "");
        ts[r] = now_seconds() - t0;
        dbg_stop_info st;
        dbg_get_stop(d, &st);
        if (st.pid[0] != 1048575) {
            fprintf(stderr, "bench: did not stop at program 1048575\n");
            return 1;
        }
        dbg_free(d);
    }
    double stop_time = median(ts, REPS);
    /* the same with the in-order schedule, for comparison */
    dbg_session *d = dbg_new(devnull, devnull);
    dbg_load(d, va.mod, va.kernel, &va.launch);
    dbg_cmd_schedule(d, "in-order");
    dbg_cmd_break(d, "pid (1048575)");
    double t0 = now_seconds();
    dbg_cmd_run(d, "");
    double inorder_time = now_seconds() - t0;
    dbg_free(d);
    repl_target_close(&va);

    /* 2. overhead of breakpoints that never stop the launch */
    repl_target mm;
    /* bigger than the file's default launch, so that per-op costs show */
    if (!open_target(&mm, "examples/matmul.py",
                     "--arg a_ptr=randn:f16[512,512] --arg b_ptr=randn:f16[512,512] --arg c_ptr=zeros:f16[512,512]"))
        return 1;
    ir_func *fn = front_compile(mm.mod, mm.kernel, &mm.launch);
    static const setup setups[] = {
        { "no breakpoints", { NULL } },
        { "break pid (999999)  (outside the grid)", { "break pid (999999)", NULL } },
        { "break 70 pid (999)  (a line, other programs)", { "break 70 pid (999)", NULL } },
        { "break 70 + ignore   (hit every iteration, never stops)", { "break 70", "ignore 1 100000000", NULL } },
        { "break 70 if pid < 0 (condition evaluated at every hit)", { "break 70 if pid < 0", NULL } },
        { "watch a_ptr[7]      (read, never written)", { "watch a_ptr[7]", NULL } },
    };
    enum { NS = sizeof setups / sizeof *setups };
    /* interleaved, best of REPS: other processes on the machine only add time */
    double base = 1e9, best[NS];
    for (int i = 0; i < NS; i++) best[i] = 1e9;
    for (int r = 0; r < REPS; r++) {
        double b = plain_once(&mm, fn);
        if (b < base) base = b;
        for (int i = 0; i < NS; i++) {
            double t = debug_once(&mm, devnull, &setups[i]);
            if (t < best[i]) best[i] = t;
        }
    }
    printf("debugger benchmarks\n\n");
    printf("time to the stop at break pid (1048575), vector add, 2^20 programs (median of %d):\n", REPS);
    printf("  auto schedule (default)   %8.2f ms   target < 100 ms\n", stop_time * 1e3);
    printf("  in-order schedule         %8.2f ms   (interprets the 2^20 - 1 programs before it)\n\n",
           inorder_time * 1e3);
    printf("matmul example (512x512x512, %lld programs), best of %d interleaved runs\n",
           (long long)(mm.launch.grid[0] * mm.launch.grid[1] * mm.launch.grid[2]), REPS);
    printf("  %-62s %9.2f ms\n", "without the debugger (interp_run_launch)", base * 1e3);
    printf("  %-62s %12s %9s\n", "in the debugger, breakpoints that never stop it:", "", "overhead");
    for (int i = 0; i < NS; i++)
        printf("  %-62s %9.2f ms %8.1f%%\n", setups[i].what, best[i] * 1e3, (best[i] / base - 1) * 100);
    ir_func_free(fn);
    repl_target_close(&mm);
    fclose(devnull);
    return 0;
}
