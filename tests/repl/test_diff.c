/* test_diff.c — the diff engine and the GPU sub-commands without a GPU.
 *
 *   engine:  dbg_diff_ulp against hand-computed distances; dbg_diff_compare
 *            on two interpreter runs of examples/order_bug.py (in order vs
 *            reversed: the planted order dependence shows without a GPU) and
 *            checked against sums computed here in plain C; written-tensor
 *            detection through the shadow state; tolerances and --ulp.
 *   CLI:     `tritium diff` and `tritium run --device gpu` without a driver
 *            (exit 2, "no CUDA driver: ..."), `tritium ptx` (PTX with .entry,
 *            --arch, --numerics fast, --llvm), option errors.
 *
 * usage: test_repl_diff TRITIUM_EXE     (TRITIUM_SRCDIR locates examples/) */
#include <check.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "tritium/diff.h"
#include "repl.h"
#include "tritium/diag.h"

extern char **environ;

static const char *g_exe;
static char g_src[4096];

/* ---- helpers ---------------------------------------------------------------- */

static char *example(const char *name) { return xasprintf("%s/examples/%s", g_src, name); }

static uint64_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

typedef struct result { int status; char *out, *err; } result;

static char *slurp(const char *path)
{
    char *s = read_file(path, NULL);
    return s ? s : xstrdup("");
}

/* Run tritium with `env_extra` ("NAME=VALUE" or NULL) added to the environment. */
static result run_env(const char *env_extra, const char *first, ...)
{
    const char *argv[64];
    int n = 0;
    argv[n++] = g_exe;
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && n < 63; a = va_arg(ap, const char *)) argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    int ne = 0;
    while (environ[ne]) ne++;
    char **env = xcalloc((size_t)ne + 2, sizeof *env);
    memcpy(env, environ, (size_t)ne * sizeof *env);
    if (env_extra) env[ne++] = (char *)env_extra;
    char dir[] = "/tmp/tritium-diff-XXXXXX";
    ck_assert(mkdtemp(dir) != NULL);
    char *out = xasprintf("%s/stdout", dir), *err = xasprintf("%s/stderr", dir);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int r = posix_spawn(&pid, g_exe, &fa, NULL, (char *const *)argv, env);
    ck_assert_msg(r == 0, "cannot start %s: %s", g_exe, strerror(r));
    posix_spawn_file_actions_destroy(&fa);
    int st;
    ck_assert(waitpid(pid, &st, 0) == pid);
    result res = { WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), slurp(out), slurp(err) };
    unlink(out);
    unlink(err);
    rmdir(dir);
    free(out);
    free(err);
    free(env);
    return res;
}

static void result_free(result *r) { free(r->out); free(r->err); }

#define EXPECT_STATUS(r, want) \
    ck_assert_msg((r).status == (want), "exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", (r).status, (want), \
                  (r).out, (r).err)
#define EXPECT_IN(hay, needle) ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' not in:\n%s", (needle), (hay))

static bool have_driver(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h) dlclose(h);
    return h != NULL;
}

/* A launch of an example, resolved as `tritium run` would; extra options after the file. */
typedef struct target { repl_target t; ir_func *fn; } target;

static void target_open_path(target *x, const char *path, int nextra, const char *const *extra)
{
    const char *argv[32];
    int n = 0;
    argv[n++] = path;
    for (int i = 0; i < nextra; i++) argv[n++] = extra[i];
    repl_resolve_opts ro = { .need_grid = true };
    ck_assert_int_eq(repl_target_open(&x->t, n, (char *const *)argv, REPL_OPT_LAUNCH | REPL_OPT_RUN, &ro), 0);
    x->fn = front_compile(x->t.mod, x->t.kernel, &x->t.launch);
    ck_assert(x->fn != NULL);
}

static void target_open(target *x, const char *file, int nextra, const char *const *extra)
{
    char *path = example(file);
    target_open_path(x, path, nextra, extra);
    free(path);
}

static void target_close(target *x)
{
    ir_func_free(x->fn);
    repl_target_close(&x->t);
}

/* Run a copy of the launch in the interpreter under `sched`; the session is
 * returned (reports go to a scratch stream). */
static interp_session *interp_run(const target *x, launch *copy, interp_sched sched, FILE *rep)
{
    launch_copy(copy, &x->t.launch);
    interp_options io;
    interp_options_default(&io);
    io.sched = sched;
    io.report = rep;
    interp_session *s = interp_session_new(x->fn, copy, &io);
    ck_assert(s != NULL);
    ck_assert_int_eq(interp_run_launch(s), 0);
    return s;
}

/* 1-based line of a file holding `needle` (first occurrence). */
static int line_of(const char *file, const char *needle)
{
    char *path = example(file);
    char *text = read_file(path, NULL);
    ck_assert(text != NULL);
    char *at = strstr(text, needle);
    ck_assert(at != NULL);
    int line = 1;
    for (char *p = text; p < at; p++) line += *p == '\n';
    free(text);
    free(path);
    return line;
}

/* ---- ULPs ------------------------------------------------------------------- */

START_TEST(ulp_known_values)
{
    ck_assert_uint_eq(dbg_diff_ulp(TT_F32, f32_bits(1.0f), f32_bits(1.0f)), 0);
    ck_assert_uint_eq(dbg_diff_ulp(TT_F32, f32_bits(1.0f), f32_bits(nextafterf(1.0f, 2.0f))), 1);
    ck_assert_uint_eq(dbg_diff_ulp(TT_F32, f32_bits(1.0f), f32_bits(nextafterf(nextafterf(1.0f, 0), 0))), 2);
    /* +0 and -0 are equal; the smallest denormals on either side of 0 are 2 apart */
    ck_assert_uint_eq(dbg_diff_ulp(TT_F32, f32_bits(0.0f), f32_bits(-0.0f)), 0);
    ck_assert_uint_eq(dbg_diff_ulp(TT_F32, f32_bits(1e-45f), f32_bits(-1e-45f)), 2);
    /* 1.0 and 2.0: 2^23 f32 values apart, 2^52 f64 values */
    ck_assert_uint_eq(dbg_diff_ulp(TT_F32, f32_bits(1.0f), f32_bits(2.0f)), 1u << 23);
    ck_assert_uint_eq(dbg_diff_ulp(TT_F64, f64_bits(1.0), f64_bits(2.0)), 1ull << 52);
    ck_assert_uint_eq(dbg_diff_ulp(TT_F64, f64_bits(-1.0), f64_bits(1.0)), 2 * 0x3ff0000000000000ull);
    /* f16: 1.0 = 0x3c00, 2.0 = 0x4000: 1024 apart; bf16 1.0 = 0x3f80, 2.0 = 0x4000: 128 */
    ck_assert_uint_eq(dbg_diff_ulp(TT_F16, 0x3c00, 0x4000), 1024);
    ck_assert_uint_eq(dbg_diff_ulp(TT_BF16, 0x3f80, 0x4000), 128);
    /* NaN: equal to NaN, infinitely far from a number */
    ck_assert_uint_eq(dbg_diff_ulp(TT_F32, f32_bits(NAN), f32_bits(-NAN)), 0);
    ck_assert_uint_eq(dbg_diff_ulp(TT_F32, f32_bits(NAN), f32_bits(1.0f)), UINT64_MAX);
    /* integers: |a - b| */
    int32_t a = -5, b = 7;
    ck_assert_uint_eq(dbg_diff_ulp(TT_I32, (uint32_t)a, (uint32_t)b), 12);
    ck_assert_uint_eq(dbg_diff_ulp(TT_I64, (uint64_t)INT64_MIN, (uint64_t)INT64_MAX), UINT64_MAX);
    ck_assert_uint_eq(dbg_diff_ulp(TT_U8, 250, 3), 247);
}
END_TEST

START_TEST(default_tolerances)
{
    double r, a;
    dbg_diff_default_tol(TT_I32, NUMERICS_IEEE, &r, &a);
    ck_assert(r == 0 && a == 0);
    dbg_diff_default_tol(TT_BOOL, NUMERICS_FAST, &r, &a);
    ck_assert(r == 0 && a == 0);
    dbg_diff_default_tol(TT_F32, NUMERICS_IEEE, &r, &a);
    ck_assert(r == 1e-5 && a == 1e-6);
    dbg_diff_default_tol(TT_F16, NUMERICS_IEEE, &r, &a);
    ck_assert(r == 1e-2 && a == 1e-2);
    dbg_diff_default_tol(TT_BF16, NUMERICS_FAST, &r, &a);
    ck_assert(r == 1e-2 && a == 1e-2);
}
END_TEST

/* ---- compare: two interpreter schedules of order_bug.py --------------------- */

START_TEST(compare_order_bug)
{
    target x;
    target_open(&x, "order_bug.py", 0, NULL);
    FILE *rep = tmpfile();
    launch ref, got;
    interp_session *s = interp_run(&x, &ref, SCHED_IN_ORDER, rep);
    interp_session *s2 = interp_run(&x, &got, SCHED_REVERSE, rep);
    dbg_diff_options o;
    dbg_diff_options_default(&o);
    dbg_diff_report r;
    memset(&r, 0, sizeof r);
    dbg_diff_compare(x.fn, &x.t.launch, &ref, s, &got, &o, &r);

    /* independent reference: block sums of x in double */
    const tt_tensor *xt = x.t.launch.args[0].tensor;
    ck_assert_int_eq(tt_tensor_numel(xt), 65536);
    double bs[64], prefix[64], acc = 0;
    for (int p = 0; p < 64; p++) {
        bs[p] = 0;
        for (int i = 0; i < 1024; i++) bs[p] += tt_load_f64(xt->data, TT_F32, p * 1024 + i);
        acc += bs[p];
        prefix[p] = acc;
    }
    /* only out_ptr is written; x_ptr is reported unchanged */
    ck_assert_int_eq(r.ntensors, 1);
    ck_assert_int_eq(r.nunwritten, 1);
    ck_assert_str_eq(r.unwritten[0], "x_ptr");
    const dbg_diff_tensor *t = &r.tensors[0];
    ck_assert_str_eq(t->name, "out_ptr");
    ck_assert(t->written_interp && t->written_gpu);
    /* in order: prefix sums; reversed: each program saw out[p-1] == 0, so
     * out[p] is its own block sum: every element but [0] differs */
    ck_assert_int_eq(t->mismatches, 63);
    ck_assert_int_eq(r.mismatches, 63);
    ck_assert(!t->ok);
    /* the per-element verdicts the page draws: every element but [0] */
    ck_assert_ptr_nonnull(t->bad);
    for (int i = 0; i < 64; i++) ck_assert_int_eq(t->bad[i >> 3] >> (i & 7) & 1, i != 0);
    ck_assert_int_eq(t->nfirst, DBG_DIFF_MAX_SHOW);
    int store_line = line_of("order_bug.py", "tl.store(out_ptr + pid");
    for (int k = 0; k < t->nfirst; k++) {
        const dbg_diff_elem *e = &t->first[k];
        ck_assert_int_eq(e->elem, k + 1);
        ck_assert_int_eq(e->index[0], k + 1);
        ck_assert_msg(fabs(e->ref - prefix[k + 1]) <= 1e-3 * prefix[k + 1], "ref %g, want %g", e->ref, prefix[k + 1]);
        ck_assert_msg(fabs(e->got - bs[k + 1]) <= 1e-3 * bs[k + 1], "got %g, want %g", e->got, bs[k + 1]);
        ck_assert(e->abs_err > 100);
        ck_assert(e->has_writer);
        ck_assert_int_eq(e->program, k + 1);
        ck_assert_int_eq(e->pid[0], k + 1);
        ck_assert_int_eq(e->pid[1], 0);
        ck_assert_int_eq(e->line, store_line);
        ck_assert(strstr(diag_file_name(e->file), "order_bug.py") != NULL);
    }
    /* the largest error is at the last element: prefix[63] - bs[63] */
    ck_assert_int_eq(t->max_abs_at, 63);
    ck_assert(fabs(t->max_abs - (prefix[63] - bs[63])) <= 1e-3 * prefix[63]);

    /* the text report names the element, both values, the program and the line */
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    r.status = 1;
    r.gpu_ran = true;
    dbg_diff_print(m, &r);
    fclose(m);
    char want[4300];
    if (getenv("SHOW_DIFF")) fputs(buf, stderr);
    EXPECT_IN(buf, "out_ptr");
    EXPECT_IN(buf, "MISMATCH: 63 of 64 elements differ");
    EXPECT_IN(buf, "[1] ");
    snprintf(want, sizeof want, "program (1, 0, 0) at %s/examples/order_bug.py:%d", g_src, store_line);
    EXPECT_IN(buf, want);
    snprintf(want, sizeof want, "order_bug.py:%d:", store_line);
    EXPECT_IN(buf, want);
    EXPECT_IN(buf, "tl.store(out_ptr + pid, prev + tl.sum(x, axis=0))");
    free(buf);
    dbg_diff_report_free(&r);

    /* a generous --ulp accepts everything */
    o.ulp = INT64_MAX;
    memset(&r, 0, sizeof r);
    dbg_diff_compare(x.fn, &x.t.launch, &ref, s, &got, &o, &r);
    ck_assert_int_eq(r.mismatches, 0);
    ck_assert(r.tensors[0].ok);
    dbg_diff_report_free(&r);

    /* a huge absolute tolerance too; a small one does not */
    dbg_diff_options_default(&o);
    o.has_atol = true;
    o.atol = 1e9;
    memset(&r, 0, sizeof r);
    dbg_diff_compare(x.fn, &x.t.launch, &ref, s, &got, &o, &r);
    ck_assert_int_eq(r.mismatches, 0);
    dbg_diff_report_free(&r);
    o.atol = 1.0;
    o.max_show = 3;
    memset(&r, 0, sizeof r);
    dbg_diff_compare(x.fn, &x.t.launch, &ref, s, &got, &o, &r);
    ck_assert_int_eq(r.mismatches, 63);
    ck_assert_int_eq(r.tensors[0].nfirst, 3);
    dbg_diff_report_free(&r);

    interp_session_free(s);
    interp_session_free(s2);
    launch_free(&ref);
    launch_free(&got);
    fclose(rep);
    target_close(&x);
}
END_TEST

/* The same launch twice (in order, parallel): bit-identical, nothing to show. */
START_TEST(compare_identical)
{
    target x;
    target_open(&x, "vector_add.py", 0, NULL);
    launch ref, got;
    interp_session *s = interp_run(&x, &ref, SCHED_IN_ORDER, NULL);
    interp_session *s2 = interp_run(&x, &got, SCHED_PARALLEL, NULL);
    dbg_diff_report r;
    memset(&r, 0, sizeof r);
    dbg_diff_compare(x.fn, &x.t.launch, &ref, s, &got, NULL, &r);
    ck_assert_int_eq(r.ntensors, 1);
    ck_assert_str_eq(r.tensors[0].name, "output_ptr");
    ck_assert_int_eq(r.tensors[0].mismatches, 0);
    ck_assert_int_eq(r.tensors[0].max_abs_at, -1);
    ck_assert_int_eq(r.tensors[0].max_ulp_at, -1);
    ck_assert(r.tensors[0].max_abs == 0 && r.tensors[0].max_ulp == 0);
    ck_assert_int_eq(r.nunwritten, 2);
    /* and the output is x + y, computed here */
    const launch *l = &x.t.launch;
    for (int64_t i = 0; i < 98432; i += 977) {
        float want = (float)tt_load_f64(l->args[0].tensor->data, TT_F32, i) + (float)tt_load_f64(l->args[1].tensor->data, TT_F32, i);
        ck_assert(tt_load_f64(ref.args[2].tensor->data, TT_F32, i) == want);
    }
    dbg_diff_report_free(&r);
    interp_session_free(s);
    interp_session_free(s2);
    launch_free(&ref);
    launch_free(&got);
    target_close(&x);
}
END_TEST

/* A kernel that stores the values already there still counts as writing:
 * order_bug with x = 0 leaves out == 0, found written through the shadow. */
START_TEST(written_by_shadow)
{
    const char *extra[] = { "--arg", "x_ptr=zeros:f32[65536]" };
    target x;
    target_open(&x, "order_bug.py", 2, extra);
    FILE *rep = tmpfile();
    launch ref, got;
    interp_session *s = interp_run(&x, &ref, SCHED_IN_ORDER, rep);
    interp_session *s2 = interp_run(&x, &got, SCHED_REVERSE, rep);
    dbg_diff_report r;
    memset(&r, 0, sizeof r);
    dbg_diff_compare(x.fn, &x.t.launch, &ref, s, &got, NULL, &r);
    ck_assert_int_eq(r.ntensors, 1);
    ck_assert_str_eq(r.tensors[0].name, "out_ptr");
    ck_assert(r.tensors[0].written_interp);
    ck_assert(!r.tensors[0].written_gpu);
    ck_assert_int_eq(r.tensors[0].mismatches, 0);
    /* without the session nothing says it was written */
    dbg_diff_report_free(&r);
    memset(&r, 0, sizeof r);
    dbg_diff_compare(x.fn, &x.t.launch, &ref, NULL, &got, NULL, &r);
    ck_assert_int_eq(r.ntensors, 0);
    ck_assert_int_eq(r.nunwritten, 2);
    dbg_diff_report_free(&r);
    interp_session_free(s);
    interp_session_free(s2);
    launch_free(&ref);
    launch_free(&got);
    fclose(rep);
    target_close(&x);
}
END_TEST

/* ---- tolerances from the math functions' ULP bounds ----------------------- */

/* ULPs of one float format in another, by hand: f32 -> f64 is 2^29 f64 ULPs
 * per f32 ULP; narrowing divides by 2^(fraction bits lost), rounds up and
 * adds one ULP for the two roundings. */
START_TEST(ulp_in_known_values)
{
    ck_assert_int_eq(dbg_diff_ulp_in(3, TT_F32, TT_F32), 3);
    ck_assert_int_eq(dbg_diff_ulp_in(3, TT_F32, TT_F64), 3ll << 29);
    ck_assert_int_eq(dbg_diff_ulp_in(3, TT_F32, TT_F16), 2);          /* ceil(3 / 2^13) + 1 */
    ck_assert_int_eq(dbg_diff_ulp_in(256, TT_F32, TT_BF16), 2);       /* ceil(256 / 2^16) + 1 */
    ck_assert_int_eq(dbg_diff_ulp_in(1 << 14, TT_F32, TT_F16), 3);    /* 2^14 / 2^13 + 1 */
    ck_assert_int_eq(dbg_diff_ulp_in(1ll << 34, TT_F64, TT_F32), 33); /* 2^34 / 2^29 + 1 */
    ck_assert_int_eq(dbg_diff_ulp_in(2, TT_F64, TT_F8E4NV), 2);
    ck_assert_int_eq(dbg_diff_ulp_in(0, TT_F32, TT_F32), 0);
    ck_assert_int_eq(dbg_diff_ulp_in(3, TT_F32, TT_I32), 0);
    ck_assert_int_eq(dbg_diff_ulp_in(1ll << 40, TT_F32, TT_F64), INT64_MAX >> 1);   /* saturated */
}
END_TEST

static const char math_kernels[] =
    "import triton\n"
    "import triton.language as tl\n"
    "from triton.language.extra import libdevice\n"
    "@triton.jit\n"
    "def k_exp(X, Y, N: tl.constexpr):\n"
    "    offs = tl.arange(0, N)\n"
    "    tl.store(Y + offs, tl.exp(tl.load(X + offs)))\n"
    "@triton.jit\n"
    "def k_pow(X, Y, N: tl.constexpr):\n"
    "    offs = tl.arange(0, N)\n"
    "    x = tl.load(X + offs)\n"
    "    tl.store(Y + offs, libdevice.fast_powf(x, x) + tl.exp(x))\n"
    "@triton.jit\n"
    "def k_tgamma(X, Y, N: tl.constexpr):\n"
    "    offs = tl.arange(0, N)\n"
    "    tl.store(Y + offs, libdevice.tgamma(tl.load(X + offs).to(tl.float64)))\n"
    "@triton.jit\n"
    "def k_plain(X, Y, N: tl.constexpr):\n"
    "    offs = tl.arange(0, N)\n"
    "    tl.store(Y + offs, tl.load(X + offs) * 2.0 + 1.0)\n";

/* A file holding math_kernels; free the path with free() after unlink(). */
static char *math_file(void)
{
    char *path = xstrdup("/tmp/tritium_test_diff_math_XXXXXX.py");
    int fd = mkstemps(path, 3);
    ck_assert(fd >= 0);
    ck_assert(write(fd, math_kernels, sizeof math_kernels - 1) == (ssize_t)(sizeof math_kernels - 1));
    close(fd);
    return path;
}

static void math_target(target *x, const char *path, const char *kernel, const char *ydt)
{
    char yarg[64];
    snprintf(yarg, sizeof yarg, "Y=empty:%s[64]", ydt);
    const char *extra[] = { "--kernel", kernel, "--grid", "1", "--arg", "X=ones:f32[64]", "--arg", yarg,
                            "--const", "N=64" };
    target_open_path(x, path, 10, extra);
}

/* The bound of a kernel's math functions, per output dtype: ops_math.def
 * documents expf as 3 ulps (2 from CUDA's guide, 1 from glibc), fast_powf
 * 256, f64 tgamma 19 (10 + glibc's 9); arithmetic alone has none. */
START_TEST(math_ulp_of_kernels)
{
    char *path = math_file();
    target x;
    math_target(&x, path, "k_exp", "f32");
    ck_assert_int_eq(dbg_diff_math_ulp(x.fn, TT_F32), 3);
    ck_assert_int_eq(dbg_diff_math_ulp(x.fn, TT_F16), 2);
    ck_assert_int_eq(dbg_diff_math_ulp(x.fn, TT_F64), 3ll << 29);
    ck_assert_int_eq(dbg_diff_math_ulp(x.fn, TT_I32), 0);
    target_close(&x);
    math_target(&x, path, "k_pow", "f32");
    ck_assert_int_eq(dbg_diff_math_ulp(x.fn, TT_F32), 256);
    target_close(&x);
    math_target(&x, path, "k_tgamma", "f64");
    ck_assert_int_eq(dbg_diff_math_ulp(x.fn, TT_F64), 19);
    ck_assert_int_eq(dbg_diff_math_ulp(x.fn, TT_F32), 2);
    target_close(&x);
    math_target(&x, path, "k_plain", "f32");
    ck_assert_int_eq(dbg_diff_math_ulp(x.fn, TT_F32), 0);
    target_close(&x);
    unlink(path);
    free(path);
}
END_TEST

/* Nudge element i of an f32 tensor by k ULPs (k may be negative). */
static void nudge_f32(tt_tensor *t, int64_t i, int k)
{
    uint32_t u;
    memcpy(&u, (char *)t->data + 4 * i, 4);
    u = (uint32_t)((int64_t)u + k);
    memcpy((char *)t->data + 4 * i, &u, 4);
}

/* The engine on two result buffers: the interpreter's, and a copy moved by
 * a few hundred ULPs as fast_powf on the GPU may be (ops_math.def: 256).
 * Y = fast_powf(1, 1) + exp(1) = 3.718..., where one f32 ULP is 2^-22, so
 * 200 ULPs are a relative error of 1.3e-5, beyond the default rtol 1e-5. */
START_TEST(compare_with_math_ulp)
{
    char *path = math_file();
    static const char *const kernels[] = { "k_pow", "k_plain" };
    for (int kk = 0; kk < 2; kk++) {
        target x;
        math_target(&x, path, kernels[kk], "f32");
        launch ref, got;
        interp_session *s = interp_run(&x, &ref, SCHED_IN_ORDER, NULL);
        launch_copy(&got, &ref);
        tt_tensor *gy = got.args[1].tensor;
        double y0 = tt_load_f64(ref.args[1].tensor->data, TT_F32, 0);
        ck_assert(fabs(y0 - (kk == 0 ? 1.0 + exp(1.0) : 3.0)) < 1e-6);
        nudge_f32(gy, 0, 200);                 /* within 256 */
        nudge_f32(gy, 1, -256);                /* at the bound */
        nudge_f32(gy, 2, 300);                 /* beyond */
        dbg_diff_options o;
        dbg_diff_options_default(&o);
        dbg_diff_report r;
        memset(&r, 0, sizeof r);
        dbg_diff_compare(x.fn, &x.t.launch, &ref, s, &got, &o, &r);
        ck_assert_int_eq(r.ntensors, 1);
        const dbg_diff_tensor *t = &r.tensors[0];
        if (kk == 0) {
            ck_assert_int_eq(t->math_ulp, 256);
            ck_assert_int_eq(t->ulp, 256);
            ck_assert_int_eq(t->mismatches, 1);
            ck_assert_int_eq(t->first[0].elem, 2);
            ck_assert_uint_eq(t->first[0].ulp, 300);
            char *buf = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&buf, &len);
            dbg_diff_print(m, &r);
            fclose(m);
            EXPECT_IN(buf, "ulp 256 from the math functions' bounds");
            free(buf);
        } else {                               /* no math function: rtol alone */
            ck_assert_int_eq(t->math_ulp, 0);
            ck_assert_int_eq(t->ulp, -1);
            ck_assert_int_eq(t->mismatches, 3);
        }
        dbg_diff_report_free(&r);
        /* --ulp given: it replaces the bound */
        o.ulp = 0;
        memset(&r, 0, sizeof r);
        dbg_diff_compare(x.fn, &x.t.launch, &ref, s, &got, &o, &r);
        ck_assert_int_eq(r.tensors[0].ulp, 0);
        ck_assert_int_eq(r.tensors[0].mismatches, 3);
        dbg_diff_report_free(&r);
        /* against a second interpreter run: no bound (same math) */
        dbg_diff_options_default(&o);
        o.against_interp = true;
        memset(&r, 0, sizeof r);
        dbg_diff_compare(x.fn, &x.t.launch, &ref, s, &got, &o, &r);
        ck_assert_int_eq(r.tensors[0].mismatches, 3);
        dbg_diff_report_free(&r);
        interp_session_free(s);
        launch_free(&ref);
        launch_free(&got);
        target_close(&x);
    }
    unlink(path);
    free(path);
}
END_TEST

/* dbg_diff_run without a driver: status 2, nothing compared. */
START_TEST(run_without_driver)
{
    if (have_driver()) return;
    target x;
    target_open(&x, "vector_add.py", 0, NULL);
    dbg_diff_report r;
    ck_assert_int_eq(dbg_diff_run(x.fn, &x.t.launch, NULL, &r), 2);
    ck_assert_str_eq(r.message, "no CUDA driver: libcuda.so.1 not found");
    ck_assert(!r.gpu_ran && !r.interp_ran);
    ck_assert_int_eq(r.ntensors, 0);
    dbg_diff_report_free(&r);
    target_close(&x);
}
END_TEST

/* ---- the command line --------------------------------------------------------- */

START_TEST(cli_no_driver)
{
    char *va = example("vector_add.py");
    /* a driver that cannot be loaded, on any machine */
    const char *nodrv = "TRITIUM_LIBCUDA=libtritium-no-such-driver.so.1";
    result r = run_env(nodrv, "diff", va, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "tritium: error: no CUDA driver: libtritium-no-such-driver.so.1 not found");
    ck_assert_str_eq(r.out, "");            /* nothing ran */
    result_free(&r);
    r = run_env(nodrv, "run", va, "--device", "gpu", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "no CUDA driver");
    result_free(&r);
    if (!have_driver()) {
        r = run_env(NULL, "diff", va, "--trials", "3", NULL);
        EXPECT_STATUS(r, 2);
        ck_assert_str_eq(r.err, "tritium: error: no CUDA driver: libcuda.so.1 not found\n");
        result_free(&r);
        r = run_env(NULL, "run", "--device=gpu", va, "--bench", "10", NULL);
        EXPECT_STATUS(r, 2);
        ck_assert_str_eq(r.err, "tritium: error: no CUDA driver: libcuda.so.1 not found\n");
        result_free(&r);
    }
    free(va);
}
END_TEST

START_TEST(cli_ptx)
{
    char *va = example("vector_add.py");
    result r = run_env(NULL, "ptx", va, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, ".visible .entry add_kernel(");
    EXPECT_IN(r.out, ".target sm_90");
    EXPECT_IN(r.out, ".maxntid 128, 1, 1");        /* num_warps 4 */
    ck_assert_str_eq(r.err, "");
    result_free(&r);
    r = run_env(NULL, "ptx", va, "--arch", "sm_80", "--num-warps", "8", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, ".target sm_80");
    EXPECT_IN(r.out, ".maxntid 256, 1, 1");
    result_free(&r);
    r = run_env(NULL, "ptx", va, "--llvm", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "define");
    EXPECT_IN(r.out, "add_kernel");
    result_free(&r);
    free(va);
    /* fast numerics: e / total is div.full.f32 (Triton's choice); ieee: div.rn.f32 */
    char *sm = example("softmax.py");
    r = run_env(NULL, "ptx", sm, "--numerics", "fast", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "div.full.f32");
    ck_assert_msg(strstr(r.out, "div.rn.f32") == NULL, "fast PTX uses div.rn.f32");
    result_free(&r);
    r = run_env(NULL, "ptx", sm, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "div.rn.f32");
    ck_assert_msg(strstr(r.out, "div.full.f32") == NULL, "ieee PTX uses div.full.f32");
    result_free(&r);
    free(sm);
}
END_TEST

/* sm_90's dots: wgmma by default (target sm_90a), mma.sync with --mma sync
 * or $TRITIUM_WGMMA=0 (target sm_90); the option wins over the variable. */
START_TEST(cli_ptx_mma)
{
    char *mm = example("matmul.py");
    struct { const char *env, *opt; bool sync; } c[] = {
        { NULL, NULL, false }, { NULL, "sync", true }, { "TRITIUM_WGMMA=0", NULL, true },
        { "TRITIUM_WGMMA=0", "wgmma", false }, { "TRITIUM_WGMMA=1", "sync", true }, { "TRITIUM_WGMMA=2", NULL, false },
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        result r = c[i].opt ? run_env(c[i].env, "ptx", mm, "--mma", c[i].opt, NULL) : run_env(c[i].env, "ptx", mm, NULL);
        EXPECT_STATUS(r, 0);
        EXPECT_IN(r.out, c[i].sync ? ".target sm_90\n" : ".target sm_90a\n");
        EXPECT_IN(r.out, c[i].sync ? "mma.sync.aligned.m16n8k16" : "wgmma.mma_async.sync.aligned.m64n");
        ck_assert_msg(!strstr(r.out, c[i].sync ? "wgmma" : "mma.sync"), "case %zu: both paths", i);
        if (i == 5) EXPECT_IN(r.err, "TRITIUM_WGMMA=2 ignored");
        result_free(&r);
    }
    result r = run_env(NULL, "ptx", mm, "--arch", "sm_80", NULL);   /* before Hopper: mma.sync */
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "mma.sync.aligned.m16n8k16");
    ck_assert(!strstr(r.out, "wgmma"));
    result_free(&r);
    free(mm);
}
END_TEST

START_TEST(cli_errors)
{
    char *va = example("vector_add.py");
    result r = run_env(NULL, "diff", va, "--sizes", "nope=1:10", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "'nope' is not a parameter of add_kernel");
    result_free(&r);
    r = run_env(NULL, "diff", va, "--sizes", "x_ptr=1:10", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "'x_ptr' is a tensor");
    result_free(&r);
    r = run_env(NULL, "diff", va, "--sizes", "n_elements=10:1", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "LO is larger than HI");
    result_free(&r);
    r = run_env(NULL, "diff", va, "--rtol", "abc", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--rtol abc: expected a non-negative number");
    result_free(&r);
    r = run_env(NULL, "diff", va, "--numerics", "fastest", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--numerics fastest: expected one of ieee, fast, gpu");
    result_free(&r);
    r = run_env(NULL, "run", va, "--arch", "sm_80", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--arch needs --device gpu");
    result_free(&r);
    r = run_env(NULL, "run", va, "--device", "tpu", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--device tpu: expected one of cpu, gpu, cuda");
    result_free(&r);
    r = run_env(NULL, "ptx", va, "--arch", "90", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--arch 90: expected sm_NN");
    result_free(&r);
    r = run_env(NULL, "ptx", va, "--arch", "sm_80a", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--arch sm_80a: expected sm_NN");
    result_free(&r);
    r = run_env(NULL, "ptx", va, "--mma", "fast", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--mma fast: expected one of wgmma, sync, 1, 0");
    result_free(&r);
    r = run_env(NULL, "run", va, "--mma", "sync", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--mma needs --device gpu");
    result_free(&r);
    r = run_env(NULL, "run", va, "--persistent", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--persistent needs --device gpu");
    result_free(&r);
    r = run_env(NULL, "ptx", va, "--persistent=1", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "option '--persistent' takes no value");
    result_free(&r);
    /* the value of a launch-spec option is not taken as a GPU option */
    r = run_env(NULL, "ptx", va, "--kernel", "--llvm", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--kernel");
    result_free(&r);
    /* --device cpu is the interpreter, as without the option */
    r = run_env(NULL, "run", va, "--device", "cpu", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "97 programs run");
    result_free(&r);
    r = run_env(NULL, "diff", "--help", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "--ulp N");
    EXPECT_IN(r.out, "--sizes NAME=LO:HI");
    result_free(&r);
    r = run_env(NULL, "run", "--help", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "--bench N");
    EXPECT_IN(r.out, "--check WHAT");                  /* every option of run, from settings.def */
    EXPECT_IN(r.out, "--device D");
    result_free(&r);
    free(va);
}
END_TEST


/* --against: the engine end to end without a GPU (a second interpreter run). */
START_TEST(cli_against)
{
    char *ob = example("order_bug.py");
    int store_line = line_of("order_bug.py", "tl.store(out_ptr + pid");
    char want[64];
    result r = run_env(NULL, "diff", ob, "--against", "reverse", NULL);
    EXPECT_STATUS(r, 1);
    snprintf(want, sizeof want, "order_bug.py:%d", store_line);
    EXPECT_IN(r.out, want);
    EXPECT_IN(r.out, "MISMATCH: 63 of 64 elements differ");
    EXPECT_IN(r.out, "program (1, 0, 0)");
    EXPECT_IN(r.out, "[1] ");
    EXPECT_IN(r.out, "the interpreter again, schedule reverse");
    EXPECT_IN(r.err, "race");                  /* the interpreter's own report */
    result_free(&r);
    /* in order against in order agrees */
    r = run_env(NULL, "diff", ob, "--against", "in-order", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "result   ok: 1 written tensor agree");
    EXPECT_IN(r.out, "note     the interpreter found 63 races");
    result_free(&r);

    /* JSON over trials: every trial differs, the writer is the store line */
    r = run_env(NULL, "diff", ob, "--against", "reverse", "--trials", "2", "--json", "--show", "2", NULL);
    EXPECT_STATUS(r, 1);
    json_error_t je;
    json_t *j = json_loads(r.out, 0, &je);
    ck_assert_msg(j != NULL, "bad JSON: %s\n%s", je.text, r.out);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "differ")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "status")), 1);
    json_t *runs = json_object_get(j, "runs");
    ck_assert_int_eq(json_array_size(runs), 2);
    for (size_t i = 0; i < 2; i++) {
        json_t *run = json_array_get(runs, i);
        ck_assert_int_eq(json_integer_value(json_object_get(run, "seed")), (json_int_t)i);
        json_t *t = json_array_get(json_object_get(run, "tensors"), 0);
        ck_assert_str_eq(json_string_value(json_object_get(t, "name")), "out_ptr");
        ck_assert_int_eq(json_integer_value(json_object_get(t, "mismatches")), 63);
        json_t *first = json_object_get(t, "first");
        ck_assert_int_eq(json_array_size(first), 2);
        json_t *e = json_array_get(first, 0);
        ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(e, "index"), 0)), 1);
        json_t *w = json_object_get(e, "written_by");
        ck_assert_int_eq(json_integer_value(json_object_get(w, "line")), store_line);
        ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(w, "program"), 0)), 1);
    }
    json_decref(j);
    result_free(&r);
    free(ob);

    /* --sizes: n_elements redrawn each trial, shapes follow it */
    char *va = example("vector_add.py");
    r = run_env(NULL, "diff", va, "--against", "parallel", "--rtol", "0", "--atol", "0", "--trials", "4",
                "--seed", "7", "--arg", "n_elements=1000", "--arg", "x_ptr=randn:f32[n_elements]",
                "--arg", "y_ptr=randn:f32[n_elements]", "--arg", "output_ptr=empty:f32[n_elements]",
                "--sizes", "n_elements=1:5000", "--json", NULL);
    EXPECT_STATUS(r, 0);
    j = json_loads(r.out, 0, &je);
    ck_assert_msg(j != NULL, "bad JSON: %s\n%s", je.text, r.out);
    runs = json_object_get(j, "runs");
    ck_assert_int_eq(json_array_size(runs), 4);
    json_int_t seen[4];
    for (size_t i = 0; i < 4; i++) {
        json_t *run = json_array_get(runs, i);
        ck_assert_int_eq(json_integer_value(json_object_get(run, "seed")), 7 + (json_int_t)i);
        json_int_t n = json_integer_value(json_object_get(json_object_get(run, "sizes"), "n_elements"));
        ck_assert(n >= 1 && n <= 5000);
        seen[i] = n;
        json_t *t = json_array_get(json_object_get(run, "tensors"), 0);
        ck_assert_str_eq(json_string_value(json_object_get(t, "name")), "output_ptr");
        ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(t, "shape"), 0)), n);
        ck_assert_int_eq(json_integer_value(json_object_get(t, "max_ulp")), 0);
        /* grid = cdiv(n, 1024) follows the size */
        ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(run, "grid"), 0)), (n + 1023) / 1024);
    }
    ck_assert_msg(seen[0] != seen[1] || seen[1] != seen[2] || seen[2] != seen[3], "sizes never change");
    json_decref(j);
    result_free(&r);
    free(va);
}
END_TEST

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_repl_diff TRITIUM_EXE\n");
        return 2;
    }
    g_exe = argv[1];
    const char *src = getenv("TRITIUM_SRCDIR");
    snprintf(g_src, sizeof g_src, "%s", src && *src ? src : ".");
    Suite *s = suite_create("repl-diff");
    TCase *tc = tcase_create("engine");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, ulp_known_values);
    tcase_add_test(tc, default_tolerances);
    tcase_add_test(tc, compare_order_bug);
    tcase_add_test(tc, compare_identical);
    tcase_add_test(tc, written_by_shadow);
    tcase_add_test(tc, ulp_in_known_values);
    tcase_add_test(tc, math_ulp_of_kernels);
    tcase_add_test(tc, compare_with_math_ulp);
    tcase_add_test(tc, run_without_driver);
    suite_add_tcase(s, tc);
    tc = tcase_create("cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, cli_no_driver);
    tcase_add_test(tc, cli_ptx);
    tcase_add_test(tc, cli_ptx_mma);
    tcase_add_test(tc, cli_errors);
    tcase_add_test(tc, cli_against);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
