/* test_cli.c — end-to-end tests of the `tritium` program (run, ir, help,
 * exit statuses) on the small kernels in tests/repl/kernels. Every test
 * spawns the real executable (argv[1]); outputs saved with --save are read
 * back with npy_read and compared with values computed here in plain C.
 *
 * usage: test_repl_cli TRITIUM_EXE        (TRITIUM_SRCDIR locates the kernels) */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tritium/tensor.h"

extern char **environ;

static const char *g_exe;
static char g_src[4096];           /* $TRITIUM_SRCDIR */
static char g_tmp[4096];           /* per-test scratch directory */

typedef struct result { int status; char *out, *err; } result;

static char *slurp(const char *path)
{
    char *s = read_file(path, NULL);
    return s ? s : xstrdup("");
}

/* Run tritium with the given arguments (NULL-terminated). */
static result run_v(const char *first, va_list ap)
{
    const char *argv[64];
    int n = 0;
    argv[n++] = g_exe;
    for (const char *a = first; a && n < 63; a = va_arg(ap, const char *)) argv[n++] = a;
    argv[n] = NULL;
    char *out = xasprintf("%s/stdout", g_tmp), *err = xasprintf("%s/stderr", g_tmp);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int r = posix_spawn(&pid, g_exe, &fa, NULL, (char *const *)argv, environ);
    ck_assert_msg(r == 0, "cannot start %s: %s", g_exe, strerror(r));
    posix_spawn_file_actions_destroy(&fa);
    int st;
    ck_assert(waitpid(pid, &st, 0) == pid);
    result res = { WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), slurp(out), slurp(err) };
    free(out);
    free(err);
    return res;
}

static result run(const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    result r = run_v(first, ap);
    va_end(ap);
    return r;
}

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

#define EXPECT_STATUS(r, want) \
    ck_assert_msg((r).status == (want), "exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", (r).status, (want), \
                  (r).out, (r).err)
#define EXPECT_IN(hay, needle) ck_assert_msg(strstr((hay), (needle)) != NULL, "'%s' not in:\n%s", (needle), (hay))

static char *kernel(const char *name) { return xasprintf("%s/tests/repl/kernels/%s", g_src, name); }
static char *tmp(const char *name) { return xasprintf("%s/%s", g_tmp, name); }

static void setup(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(g_tmp, sizeof g_tmp, "%s/tritium-cli-XXXXXX", base && *base ? base : "/tmp");
    ck_assert(mkdtemp(g_tmp) != NULL);
}

static void teardown(void)
{
    char *cmd = xasprintf("rm -rf '%s'", g_tmp);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", g_tmp);
    free(cmd);
}

static tt_tensor *load(const char *path)
{
    char err[256];
    tt_tensor *t = npy_read(path, err, sizeof err);
    ck_assert_msg(t != NULL, "%s: %s", path, err);
    return t;
}

static void save(const char *path, tt_tensor *t)
{
    char err[256];
    ck_assert_msg(npy_write(path, t, err, sizeof err), "%s: %s", path, err);
}

/* out of affine.py for x = arange(n): 2i + 1 */
static void check_affine(const char *path, tt_dtype d, int64_t n, double x0)
{
    tt_tensor *t = load(path);
    ck_assert_int_eq(t->dtype, d);
    ck_assert_int_eq(t->rank, 1);
    ck_assert_int_eq(t->shape[0], n);
    for (int64_t i = 0; i < n; i++) {
        double want = (x0 < 0 ? (double)i : x0) * 2 + 1;
        ck_assert_msg(tt_load_f64(t->data, d, i) == want, "out[%lld] = %g, want %g", (long long)i,
                      tt_load_f64(t->data, d, i), want);
    }
    tt_tensor_free(t);
}

START_TEST(version_help_usage)
{
    result r = run("--version", NULL);
    EXPECT_STATUS(r, 0);
    ck_assert_str_eq(r.out, "tritium 0.1.0\n");
    result_free(&r);
    r = run("--help", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "usage: tritium COMMAND");
    result_free(&r);
    r = run("run", "--help", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "usage: tritium run FILE.py[:KERNEL]");
    EXPECT_IN(r.out, "--expect NAME=FILE.npy[,rtol=R][,atol=A]");
    result_free(&r);
    r = run(NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "usage: tritium COMMAND");
    result_free(&r);
    r = run("rnu", "x.py", NULL);
    EXPECT_STATUS(r, 2);
    ck_assert_str_eq(r.err, "tritium: error: unknown command 'rnu' (did you mean 'run'?)\n");
    result_free(&r);
}
END_TEST

START_TEST(run_from_comment)
{
    char *k = kernel("affine.py"), *o = tmp("o.npy");
    char *save_arg = xasprintf("out=%s", o);
    result r = run("run", k, "--save", save_arg, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "kernel   affine_kernel (");
    EXPECT_IN(r.out, "grid     (4, 1, 1): 4 programs run");     /* cdiv(1000, 256) */
    EXPECT_IN(r.out, "checks   0 faults (0 lanes), 0 races, 0 uninitialized reads\n");
    EXPECT_IN(r.out, "  out    f32[1000]        min 1  max 1999  mean 1000\n");
    EXPECT_IN(r.out, "  n      i32              1000\n");
    EXPECT_IN(r.out, "  BLOCK  constexpr        256\n");
    check_affine(o, TT_F32, 1000, -1);
    result_free(&r);
    free(k);
    free(o);
    free(save_arg);
}
END_TEST

START_TEST(command_line_overrides_comment)
{
    char *k = kernel("affine.py"), *o = tmp("o.npy");
    char *save_arg = xasprintf("out=%s", o);
    /* new x and out; n and the grid still come from the comment's expressions */
    result r = run("run", k, "--arg", "x=full(3):f16[300]", "--arg=out=empty:f16[300]", "--save", save_arg,
                   "--const", "BLOCK=128", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "grid     (3, 1, 1): 3 programs run");     /* cdiv(300, 128) */
    check_affine(o, TT_F16, 300, 3);
    result_free(&r);
    /* --grid replaces the comment's grid: 1 program covers 128 of 300 */
    r = run("run", k, "--arg", "x=full(3):f16[300]", "--arg=out=zeros:f16[300]", "--save", save_arg,
            "--const", "BLOCK=128", "--grid", "1", NULL);
    EXPECT_STATUS(r, 0);
    tt_tensor *t = load(o);
    for (int i = 0; i < 300; i++) ck_assert(tt_load_f64(t->data, TT_F16, i) == (i < 128 ? 7.0 : 0.0));
    tt_tensor_free(t);
    result_free(&r);
    free(k);
    free(o);
    free(save_arg);
}
END_TEST

START_TEST(expect_pass_and_fail)
{
    char *k = kernel("affine.py"), *ref = tmp("ref.npy");
    int64_t n = 1000;
    tt_tensor *want = tt_tensor_new("ref", TT_F64, 1, &n);
    for (int i = 0; i < 1000; i++) ((double *)want->data)[i] = 2.0 * i + 1;
    save(ref, want);
    char *exp = xasprintf("out=%s", ref);
    result r = run("run", k, "--expect", exp, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "expect   out: ok (1000 elements, max abs error 0, max rel error 0)\n");
    result_free(&r);
    /* one element off: exit 1 and a per-element report */
    ((double *)want->data)[17] = 36;
    save(ref, want);
    r = run("run", k, "--expect", exp, NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_IN(r.err, "tritium: error: --expect out: 1 of 1000 elements differ (rtol=1e-05, atol=1e-08)\n");
    EXPECT_IN(r.err, "  max abs error 1 at [17], max rel error 0.0277778 at [17]\n");
    EXPECT_IN(r.err, "    [17]                 35                         36\n");
    EXPECT_IN(r.out, "expect   out: FAILED, 1 of 1000 elements differ\n");
    result_free(&r);
    /* a tolerance that covers it: 1 <= 0 + 0.03 * 36 */
    char *loose = xasprintf("out=%s,rtol=0.03", ref);
    r = run("run", k, "--expect", loose, NULL);
    EXPECT_STATUS(r, 0);
    result_free(&r);
    /* a shape that does not match is bad input */
    int64_t n2 = 999;
    tt_tensor *short_ref = tt_tensor_new("ref", TT_F32, 1, &n2);
    save(ref, short_ref);
    r = run("run", k, "--expect", exp, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "' holds f32[999] but out is f32[1000]\n");
    result_free(&r);
    unlink(ref);
    r = run("run", k, "--expect", exp, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "tritium: error: --expect out: cannot read '");
    result_free(&r);
    tt_tensor_free(want);
    tt_tensor_free(short_ref);
    free(k);
    free(ref);
    free(exp);
    free(loose);
}
END_TEST

START_TEST(json_summary)
{
    char *k = kernel("affine.py");
    result r = run("run", k, "--json", "--seed", "5", NULL);
    EXPECT_STATUS(r, 0);
    json_error_t e;
    json_t *o = json_loads(r.out, 0, &e);
    ck_assert_msg(o != NULL, "not JSON (%s): %s", e.text, r.out);
    ck_assert_str_eq(json_string_value(json_object_get(o, "kernel")), "affine_kernel");
    ck_assert_int_eq(json_integer_value(json_object_get(o, "programs")), 4);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(o, "grid"), 0)), 4);
    ck_assert_int_eq(json_integer_value(json_object_get(o, "faults")), 0);
    ck_assert_int_eq(json_integer_value(json_object_get(o, "seed")), 5);
    ck_assert_int_eq(json_integer_value(json_object_get(o, "status")), 0);
    json_t *args = json_object_get(o, "args");
    ck_assert_int_eq(json_array_size(args), 3);
    json_t *out = json_array_get(args, 1);
    ck_assert_str_eq(json_string_value(json_object_get(out, "name")), "out");
    ck_assert_str_eq(json_string_value(json_object_get(out, "kind")), "tensor");
    ck_assert(json_real_value(json_object_get(out, "max")) == 1999.0);
    ck_assert(json_real_value(json_object_get(out, "mean")) == 1000.0);
    ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(out, "shape"), 0)), 1000);
    json_t *n = json_array_get(args, 2);
    ck_assert_str_eq(json_string_value(json_object_get(n, "dtype")), "i32");
    ck_assert_int_eq(json_integer_value(json_object_get(n, "value")), 1000);
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(o, "consts"), "BLOCK")), 256);
    json_decref(o);
    result_free(&r);
    /* a faulting run: status 1 in the JSON and the exit status */
    char *f = kernel("fault.py");
    r = run("run", f, "--json", NULL);
    EXPECT_STATUS(r, 1);
    o = json_loads(r.out, 0, &e);
    ck_assert_msg(o != NULL, "not JSON: %s", r.out);
    ck_assert_int_eq(json_integer_value(json_object_get(o, "faults")), 2);          /* the load and the store */
    ck_assert_int_eq(json_integer_value(json_object_get(o, "fault_lanes")), 2 * 28); /* 128 - 100 lanes each */
    ck_assert_int_eq(json_integer_value(json_object_get(o, "status")), 1);
    json_decref(o);
    result_free(&r);
    free(k);
    free(f);
}
END_TEST

/* --bench N in the interpreter: N more launches, each from the tensors as
 * they were before the first, and what is saved is one launch's result (an
 * in-place kernel would show a second application: 4i + 3). */
START_TEST(bench_in_the_interpreter)
{
    char *k = kernel("inplace.py"), *xp = tmp("x.npy");
    char *save_arg = xasprintf("x=%s", xp);
    result r = run("run", k, "--bench", "3", "--json", "--save", save_arg, NULL);
    EXPECT_STATUS(r, 0);
    json_error_t e;
    json_t *o = json_loads(r.out, 0, &e);
    ck_assert_msg(o != NULL, "not JSON (%s): %s", e.text, r.out);
    json_t *b = json_object_get(o, "bench");
    ck_assert_int_eq(json_integer_value(json_object_get(b, "iters")), 3);
    double lo = json_real_value(json_object_get(b, "min_seconds")), med = json_real_value(json_object_get(b, "median_seconds")),
           hi = json_real_value(json_object_get(b, "max_seconds"));
    ck_assert(lo > 0 && lo <= med && med <= hi);
    json_decref(o);
    check_affine(xp, TT_F32, 1000, -1);               /* 2i + 1: once, not four times */
    result_free(&r);
    r = run("run", k, "--bench", "2", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "bench    2 launches: median ");
    result_free(&r);
    free(save_arg);
    free(xp);
    free(k);
}
END_TEST

START_TEST(kernel_selection)
{
    char *two = kernel("two_kernels.py"), *o = tmp("o.npy");
    result r = run("run", two, NULL);
    EXPECT_STATUS(r, 2);
    char *want = xasprintf("tritium: error: %s has 2 @triton.jit functions (copy_kernel, scale_kernel); name one as "
                           "%s:KERNEL\n", two, two);
    ck_assert_str_eq(r.err, want);
    free(want);
    result_free(&r);
    char *target = xasprintf("%s:scale_kernel", two), *save_arg = xasprintf("dst=%s", o);
    r = run("run", target, "--grid", "4", "--arg", "src=arange:f64[100]", "--arg", "dst=empty:f64[100]", "--arg",
            "factor=0.5", "--arg", "n=100", "--const", "BLOCK=32", "--save", save_arg, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "  factor  f32              0.5\n");
    tt_tensor *t = load(o);
    for (int i = 0; i < 100; i++) ck_assert(((double *)t->data)[i] == i * 0.5);
    tt_tensor_free(t);
    result_free(&r);
    /* --kernel works as :KERNEL does */
    r = run("run", two, "--kernel", "copy_kernel", "--grid", "1", "--arg", "src=ones:u8[8]", "--arg", "dst=zeros:u8[8]",
            "--arg", "n=8", "--const", "BLOCK=8", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "kernel   copy_kernel (");
    result_free(&r);
    char *wrong = xasprintf("%s:scale", two);
    r = run("run", wrong, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, ": no @triton.jit function 'scale' (functions: copy_kernel, scale_kernel)\n");
    result_free(&r);
    /* the launch comment names its kernel */
    char *picked = kernel("picked.py");
    r = run("run", picked, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "kernel   negate_kernel (");
    EXPECT_IN(r.out, "  b      i32[64]          min -63  max 0  mean -31.5\n");
    result_free(&r);
    /* another kernel of that file does not inherit the comment's launch */
    char *other = xasprintf("%s:helper_like", picked);
    r = run("run", other, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "tritium: error: kernel 'helper_like': no value for parameter 'a' (add --arg a=SPEC)\n");
    result_free(&r);
    free(two);
    free(o);
    free(target);
    free(save_arg);
    free(wrong);
    free(picked);
    free(other);
}
END_TEST

START_TEST(faults_races_compile_errors)
{
    char *f = kernel("fault.py");
    result r = run("run", f, NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_IN(r.err, "out-of-bounds load in program (1, 0, 0)");
    EXPECT_IN(r.out, "checks   2 faults (56 lanes), 0 races");
    result_free(&r);
    char *race = kernel("race.py");
    r = run("run", race, NULL);
    EXPECT_STATUS(r, 1);
    EXPECT_IN(r.err, "write-write race");
    EXPECT_IN(r.out, " 0 faults (0 lanes), 48 races,");   /* programs 1..3 rewrite 16 elements each */
    result_free(&r);
    char *bad = kernel("bad.py");
    r = run("run", bad, NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "bad.py:11:24: error: ");
    ck_assert_str_eq(r.out, "");
    result_free(&r);
    /* an uninitialized read is a warning, not a failure */
    char *k = kernel("affine.py");
    r = run("run", k, "--arg", "x=empty:f32[1000]", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "0 faults (0 lanes), 0 races, 1000 uninitialized reads");
    result_free(&r);
    free(f);
    free(race);
    free(bad);
    free(k);
}
END_TEST

START_TEST(bad_input)
{
    char *k = kernel("affine.py");
    result r = run("run", "/nonexistent/k.py", NULL);
    EXPECT_STATUS(r, 2);
    ck_assert_str_eq(r.err, "tritium: error: cannot read '/nonexistent/k.py': No such file or directory\n");
    result_free(&r);
    r = run("run", NULL);
    EXPECT_STATUS(r, 2);
    ck_assert_str_eq(r.err, "tritium: error: missing kernel file (FILE.py[:KERNEL])\n");
    result_free(&r);
    r = run("run", k, "--gird", "3", NULL);
    EXPECT_STATUS(r, 2);
    ck_assert_str_eq(r.err, "tritium: error: unknown option '--gird' (did you mean '--grid'?)\n");
    result_free(&r);
    r = run("run", k, "--arg", "x=randn:f33[4]", NULL);
    EXPECT_STATUS(r, 2);
    ck_assert_str_eq(r.err, "tritium: error: --arg x: unknown dtype 'f33' (expected one of f16, bf16, f32, f64, i8, "
                            "i16, i32, i64, u8, u16, u32, u64, bool, f8e4nv, f8e5, f8e4b15, f8e4b8, f8e5b16)\n");
    result_free(&r);
    r = run("run", k, "--arg", "y=1", NULL);
    EXPECT_STATUS(r, 2);
    ck_assert_str_eq(r.err, "tritium: error: --arg y: kernel 'affine_kernel' has no parameter 'y' (its parameters: "
                            "x, out, n, BLOCK)\n");
    result_free(&r);
    r = run("run", k, "--arg", "n=numel(q)", NULL);
    EXPECT_STATUS(r, 2);
    EXPECT_IN(r.err, "--arg n:1:7: error: ");
    EXPECT_IN(r.err, "    1 | numel(q)\n      |       ^\n");
    result_free(&r);
    r = run("run", k, "--json", "--schedule", "sideways", NULL);
    EXPECT_STATUS(r, 2);
    result_free(&r);
    r = run("ir", k, "--json", NULL);
    EXPECT_STATUS(r, 2);
    ck_assert_str_eq(r.err, "tritium: error: option '--json' cannot be used here\n");
    result_free(&r);
    free(k);
}
END_TEST

START_TEST(ir_command)
{
    char *k = kernel("affine.py");
    result r = run("ir", k, NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "tt.func public @affine_kernel(");
    EXPECT_IN(r.out, "!tt.ptr<f32>");
    EXPECT_IN(r.out, "tt.make_range {start = 0, end = 256}");
    result_free(&r);
    /* the launch decides the types and constexprs */
    r = run("ir", k, "--arg", "x=zeros:f16[4]", "--const", "BLOCK=64", NULL);
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "!tt.ptr<f16>");
    EXPECT_IN(r.out, "tt.make_range {start = 0, end = 64}");
    result_free(&r);
    char *bad = kernel("bad.py");
    r = run("ir", bad, NULL);
    EXPECT_STATUS(r, 2);
    result_free(&r);
    free(k);
    free(bad);
}
END_TEST

START_TEST(npy_inputs_and_schedules)
{
    char *two = kernel("two_kernels.py"), *x = tmp("x.npy"), *o = tmp("o.npy");
    int64_t n = 50;
    tt_tensor *t = tt_tensor_new("x", TT_I32, 1, &n);
    for (int i = 0; i < 50; i++) ((int32_t *)t->data)[i] = 3 * i - 7;
    save(x, t);
    char *target = xasprintf("%s:copy_kernel", two), *src = xasprintf("src=@%s", x), *save_arg = xasprintf("dst=%s", o);
    static const char *const scheds[][4] = {
        { "--schedule", "in-order", NULL }, { "--schedule", "reverse", NULL }, { "--schedule", "random:3", NULL },
        { "--schedule", "parallel", "--threads", "2" },
    };
    for (int s = 0; s < 4; s++) {
        unlink(o);
        result r = run("run", target, "--grid", "cdiv(n, BLOCK)", "--arg", src, "--arg", "dst=zeros:i32[n]",
                       "--arg", "n=src.shape[0]", "--const", "BLOCK=16", "--save", save_arg,
                       scheds[s][0], scheds[s][1], scheds[s][2], scheds[s][3], NULL);
        EXPECT_STATUS(r, 0);
        EXPECT_IN(r.out, "grid     (4, 1, 1): 4 programs run");
        tt_tensor *g = load(o);
        ck_assert_int_eq(g->dtype, TT_I32);
        for (int i = 0; i < 50; i++) ck_assert_int_eq(((int32_t *)g->data)[i], 3 * i - 7);
        tt_tensor_free(g);
        result_free(&r);
    }
    tt_tensor_free(t);
    free(two);
    free(x);
    free(o);
    free(target);
    free(src);
    free(save_arg);
}
END_TEST

START_TEST(comment_paths_are_relative_to_the_file)
{
    /* a copy of affine.py whose comment expects ref.npy next to it */
    char *kpath = kernel("affine.py");
    char *src = slurp(kpath);
    free(kpath);
    char *copy = tmp("k.py");
    FILE *f = fopen(copy, "w");
    ck_assert(f != NULL);
    fprintf(f, "%s# tritium: --expect out=ref.npy\n", src);
    fclose(f);
    char *ref = tmp("ref.npy");
    int64_t n = 1000;
    tt_tensor *want = tt_tensor_new("ref", TT_F32, 1, &n);
    for (int i = 0; i < 1000; i++) ((float *)want->data)[i] = 2.0f * i + 1;
    save(ref, want);
    result r = run("run", copy, NULL);      /* our cwd is not the file's directory */
    EXPECT_STATUS(r, 0);
    EXPECT_IN(r.out, "expect   out: ok");
    result_free(&r);
    tt_tensor_free(want);
    free(src);
    free(copy);
    free(ref);
}
END_TEST

int main(int argc, char **argv)
{
    g_exe = argc > 1 ? argv[1] : getenv("TRITIUM_BIN");
    const char *src = getenv("TRITIUM_SRCDIR");
    if (!g_exe || !src) {
        fprintf(stderr, "usage: %s TRITIUM_EXE (with TRITIUM_SRCDIR set)\n", argv[0]);
        return 2;
    }
    snprintf(g_src, sizeof g_src, "%s", src);
    Suite *s = suite_create("repl-cli");
    TCase *tc = tcase_create("cli");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, version_help_usage);
    tcase_add_test(tc, run_from_comment);
    tcase_add_test(tc, command_line_overrides_comment);
    tcase_add_test(tc, expect_pass_and_fail);
    tcase_add_test(tc, json_summary);
    tcase_add_test(tc, bench_in_the_interpreter);
    tcase_add_test(tc, kernel_selection);
    tcase_add_test(tc, faults_races_compile_errors);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, ir_command);
    tcase_add_test(tc, npy_inputs_and_schedules);
    tcase_add_test(tc, comment_paths_are_relative_to_the_file);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
