/* test_examples.c — suite 'examples': end-to-end runs of the examples/ kernels.
 *
 * Every test runs the real `tritium` executable as a subprocess:
 *     tritium run examples/X.py --kernel K --grid G --arg NAME=in.npy ...
 *             --const ... --save NAME=out.npy
 * with deterministic inputs generated here and written as .npy (own writer,
 * format 1.0), reads the saved outputs back (own reader) and compares them
 * with a plain C reference of the algorithm computed in double precision:
 *   vector add   exact (an f32 sum is correctly rounded)
 *   softmax      1e-5 relative, elementwise
 *   layer norm   1e-5 relative to the magnitude of the terms (Y, Mean, Rstd)
 *   matmul       1e-2 relative (f16 result) plus 1e-4 of sum|a||b| near zero
 * Output buffers are passed in pre-filled with NaN, so an element the kernel
 * fails to write is a mismatch.
 *
 * Sizes include ones that are not multiples of the block sizes, strided rows
 * (padded input rows, a transposed B), grids smaller and larger than the
 * number of rows, and one-element problems.
 *
 * Also: oob_bug.py must exit 1 and name the faulting program, line, buffer and
 * element; and every example must run with no flags (its "# tritium:" launch
 * comment) and exit 0 (oob_bug: 1).
 *
 * Usage: test_examples TRITIUM_EXE [TCASE]. TRITIUM_SRCDIR (meson test env)
 * locates examples/. With TCASE only that test case runs (CK_RUN_CASE).
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *g_tritium;          /* path of the tritium executable */
static const char *g_srcdir;           /* repository root */
static char g_tmp[PATH_MAX];           /* per-test scratch directory */
static const char *g_schedule;         /* --schedule for the run, NULL: default */

/* ------------------------------------------------------------------------ */
/* Deterministic inputs: splitmix64, uniform [0,1) and Box-Muller normals.   */

static uint64_t g_rng;

static void rng_seed(uint64_t s) { g_rng = s * 0x9E3779B97F4A7C15ull + 12345; }

static uint64_t rng_next(void)
{
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double rng_uniform(void) { return (double)(rng_next() >> 11) * 0x1.0p-53; }

static double rng_normal(void)
{
    double u1 = rng_uniform(), u2 = rng_uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* ------------------------------------------------------------------------ */
/* IEEE binary16, written here so the test does not trust the code under test. */

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff, bits;
    if (e == 0) {
        float v = ldexpf((float)m, -24);
        return sign ? -v : v;
    }
    if (e == 31)
        bits = sign | 0x7f800000u | (m << 13);
    else
        bits = sign | ((e - 15 + 127) << 23) | (m << 13);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Round to nearest even. */
static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u)
        return sign | (ax > 0x7f800000u ? 0x7e00 : 0x7c00);
    if (ax >= 0x477ff000u)                 /* >= 65520: rounds to inf */
        return sign | 0x7c00;
    if (ax < 0x38800000u) {                /* below 2^-14: subnormal half */
        float a;
        memcpy(&a, &ax, 4);
        return sign | (uint16_t)nearbyintf(a * 16777216.0f);
    }
    uint32_t h = ((((ax >> 23) - 127 + 15) << 10) | ((ax & 0x7fffff) >> 13));
    uint32_t rem = ax & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
        h++;
    return sign | (uint16_t)h;
}

/* ------------------------------------------------------------------------ */
/* .npy I/O (little-endian, C order).                                        */

static void path_in_tmp(char *buf, size_t n, const char *name)
{
    int r = snprintf(buf, n, "%s/%s", g_tmp, name);
    ck_assert_msg(r > 0 && (size_t)r < n, "path too long");
}

/* Write a format-1.0 .npy file. descr: "<f4" or "<f2". */
static void npy_save(const char *name, const char *descr, size_t esize, int rank,
                     const int64_t *shape, const void *data)
{
    char path[PATH_MAX], shp[128] = "", hdr[256];
    size_t numel = 1;
    path_in_tmp(path, sizeof path, name);
    for (int i = 0; i < rank; i++) {
        size_t len = strlen(shp);
        snprintf(shp + len, sizeof shp - len, i ? ", %lld" : "%lld", (long long)shape[i]);
        numel *= (size_t)shape[i];
    }
    if (rank == 1)
        strcat(shp, ",");
    int n = snprintf(hdr, sizeof hdr, "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }",
                     descr, shp);
    ck_assert(n > 0 && n < 200);
    while ((10 + n + 1) % 64)
        hdr[n++] = ' ';
    hdr[n++] = '\n';
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                             (unsigned char)(n & 0xff), (unsigned char)(n >> 8)};
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot create %s: %s", path, strerror(errno));
    size_t nbytes = numel * esize;
    bool ok = fwrite(pre, 1, 10, f) == 10 && fwrite(hdr, 1, (size_t)n, f) == (size_t)n &&
              (nbytes == 0 || fwrite(data, 1, nbytes, f) == nbytes);
    ok = (fclose(f) == 0) && ok;
    ck_assert_msg(ok, "cannot write %s", path);
}

typedef struct npy_file {
    char descr[16];
    int rank;
    int64_t shape[8];
    int64_t numel;
    unsigned char *buf;            /* whole file */
    const unsigned char *data;     /* into buf */
} npy_file;

/* Find `'key':` in the header and return a pointer just past it. */
static const char *hdr_key(const char *h, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, "'%s':", key);
    const char *p = strstr(h, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    while (*p == ' ')
        p++;
    return p;
}

/* Read tmp/name; on failure return false with a reason in err. Versions
 * 1.0 (2-byte header length) and 2.0/3.0 (4-byte) are accepted. */
static bool npy_load(const char *name, npy_file *o, char *err, size_t errlen)
{
    char path[PATH_MAX];
    path_in_tmp(path, sizeof path, name);
    memset(o, 0, sizeof *o);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", name, strerror(errno));
        return false;
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (len < 12) {
        fclose(f);
        snprintf(err, errlen, "tmp/%s: too short", name);
        return false;
    }
    o->buf = malloc((size_t)len + 1);
    size_t got = fread(o->buf, 1, (size_t)len, f);
    fclose(f);
    if (got != (size_t)len || memcmp(o->buf, "\x93NUMPY", 6) != 0) {
        snprintf(err, errlen, "tmp/%s: not a .npy file", name);
        goto fail;
    }
    size_t hlen, off;
    if (o->buf[6] == 1) {
        hlen = o->buf[8] | (size_t)o->buf[9] << 8;
        off = 10;
    } else if (o->buf[6] == 2 || o->buf[6] == 3) {
        hlen = o->buf[8] | (size_t)o->buf[9] << 8 | (size_t)o->buf[10] << 16 | (size_t)o->buf[11] << 24;
        off = 12;
    } else {
        snprintf(err, errlen, "tmp/%s: unknown .npy version %d", name, o->buf[6]);
        goto fail;
    }
    if (off + hlen > (size_t)len) {
        snprintf(err, errlen, "tmp/%s: truncated header", name);
        goto fail;
    }
    char hdr[1024];
    if (hlen >= sizeof hdr) {
        snprintf(err, errlen, "tmp/%s: header too long", name);
        goto fail;
    }
    memcpy(hdr, o->buf + off, hlen);
    hdr[hlen] = 0;
    const char *p = hdr_key(hdr, "descr");
    if (!p || (*p != '\'' && *p != '"')) {
        snprintf(err, errlen, "tmp/%s: no descr in header: %.200s", name, hdr);
        goto fail;
    }
    size_t i = 0;
    for (p++; *p && *p != '\'' && *p != '"' && i + 1 < sizeof o->descr; p++)
        o->descr[i++] = *p;
    p = hdr_key(hdr, "fortran_order");
    if (!p || strncmp(p, "False", 5) != 0) {
        snprintf(err, errlen, "tmp/%s: not C order: %.200s", name, hdr);
        goto fail;
    }
    p = hdr_key(hdr, "shape");
    if (!p || *p != '(') {
        snprintf(err, errlen, "tmp/%s: no shape in header: %.200s", name, hdr);
        goto fail;
    }
    p++;
    o->numel = 1;
    while (*p && *p != ')') {
        if (*p == ' ' || *p == ',') {
            p++;
            continue;
        }
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || o->rank == 8 || v < 0) {
            snprintf(err, errlen, "tmp/%s: bad shape: %.200s", name, hdr);
            goto fail;
        }
        o->shape[o->rank++] = v;
        o->numel *= v;
        p = end;
    }
    size_t esize = strcmp(o->descr, "<f2") == 0 ? 2 : strcmp(o->descr, "<f4") == 0 ? 4 : 0;
    if (esize == 0) {
        snprintf(err, errlen, "tmp/%s: unexpected dtype %s", name, o->descr);
        goto fail;
    }
    if (off + hlen + (size_t)o->numel * esize > (size_t)len) {
        snprintf(err, errlen, "tmp/%s: truncated data", name);
        goto fail;
    }
    o->data = o->buf + off + hlen;
    return true;
fail:
    free(o->buf);
    o->buf = NULL;
    return false;
}

/* Load an output and check its dtype and shape; exits the test on mismatch. */
static void load_output(const char *name, const char *descr, int rank, const int64_t *shape,
                        npy_file *o)
{
    char err[512];
    ck_assert_msg(npy_load(name, o, err, sizeof err), "%s", err);
    ck_assert_msg(strcmp(o->descr, descr) == 0, "%s: dtype %s, want %s", name, o->descr, descr);
    ck_assert_msg(o->rank == rank, "%s: rank %d, want %d", name, o->rank, rank);
    for (int i = 0; i < rank; i++)
        ck_assert_msg(o->shape[i] == shape[i], "%s: dim %d is %lld, want %lld", name, i,
                      (long long)o->shape[i], (long long)shape[i]);
}

static float f32_at(const npy_file *o, int64_t i)
{
    float v;
    memcpy(&v, o->data + 4 * i, 4);
    return v;
}

static float f16_at(const npy_file *o, int64_t i)
{
    uint16_t h;
    memcpy(&h, o->data + 2 * i, 2);
    return half_to_float(h);
}

/* ------------------------------------------------------------------------ */
/* Running tritium.                                                          */

typedef struct cmd {
    char *v[96];
    int n;
} cmd;

static void cmd_add(cmd *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cmd_add(cmd *c, const char *fmt, ...)
{
    ck_assert(c->n + 2 < (int)(sizeof c->v / sizeof c->v[0]));
    va_list ap;
    va_start(ap, fmt);
    ck_assert(vasprintf(&c->v[c->n], fmt, ap) >= 0);
    va_end(ap);
    c->n++;
    c->v[c->n] = NULL;
}

/* `tritium run <srcdir>/examples/FILE` plus, when kernel is set, --kernel. */
static void cmd_start(cmd *c, const char *file, const char *kernel)
{
    c->n = 0;
    cmd_add(c, "%s", g_tritium);
    cmd_add(c, "run");
    cmd_add(c, "%s/examples/%s", g_srcdir, file);
    if (kernel) {
        cmd_add(c, "--kernel");
        cmd_add(c, "%s", kernel);
    }
    if (g_schedule) {
        cmd_add(c, "--schedule");
        cmd_add(c, "%s", g_schedule);
    }
}

/* `--FLAG VALUE` with VALUE formatted. */
static void cmd_opt(cmd *c, const char *flag, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cmd_opt(cmd *c, const char *flag, const char *fmt, ...)
{
    cmd_add(c, "%s", flag);
    ck_assert(c->n + 2 < (int)(sizeof c->v / sizeof c->v[0]));
    va_list ap;
    va_start(ap, fmt);
    ck_assert(vasprintf(&c->v[c->n], fmt, ap) >= 0);
    va_end(ap);
    c->n++;
    c->v[c->n] = NULL;
}

/* --arg NAME=<tmp>/FILE */
static void cmd_npy_arg(cmd *c, const char *flag, const char *name, const char *file)
{
    cmd_opt(c, flag, "%s=%s/%s", name, g_tmp, file);
}

static void cmd_free(cmd *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->v[i]);
    c->n = 0;
}

/* The command line as one string for messages (caller frees). */
static char *cmd_text(const cmd *c)
{
    size_t len = 1;
    for (int i = 0; i < c->n; i++)
        len += strlen(c->v[i]) + 3;
    char *s = malloc(len), *p = s;
    for (int i = 0; i < c->n; i++)
        p += sprintf(p, i ? " '%s'" : "%s", c->v[i]);
    *p = 0;
    return s;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)len + 1);
    size_t n = fread(s, 1, (size_t)len, f);
    s[n] = 0;
    fclose(f);
    return s;
}

/* Run the command with stdout and stderr captured into the scratch
 * directory. Returns the exit status (128+signal when killed); *err_out
 * (if non-NULL) receives stderr (caller frees). */
static int cmd_run(const cmd *c, char **err_out)
{
    char out_path[PATH_MAX], err_path[PATH_MAX];
    path_in_tmp(out_path, sizeof out_path, "stdout.txt");
    path_in_tmp(err_path, sizeof err_path, "stderr.txt");
    posix_spawn_file_actions_t fa;
    ck_assert(posix_spawn_file_actions_init(&fa) == 0);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid;
    int r = posix_spawn(&pid, g_tritium, &fa, NULL, c->v, environ);
    posix_spawn_file_actions_destroy(&fa);
    ck_assert_msg(r == 0, "cannot start %s: %s", g_tritium, strerror(r));
    int status;
    while (waitpid(pid, &status, 0) < 0)
        ck_assert_msg(errno == EINTR, "waitpid: %s", strerror(errno));
    if (err_out)
        *err_out = slurp(err_path);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}

/* Run and require exit status `want`; frees the command. */
static void cmd_expect(cmd *c, int want)
{
    char *err = NULL;
    int st = cmd_run(c, &err);
    if (st != want) {
        char *txt = cmd_text(c);
        size_t elen = strlen(err);
        ck_abort_msg("exit status %d, want %d\n  command: %s\n  stderr: %s", st, want, txt,
                     elen > 2000 ? err + elen - 2000 : err);
    }
    free(err);
    cmd_free(c);
}

/* ------------------------------------------------------------------------ */
/* Scratch directory fixture.                                                */

static void tmp_setup(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    snprintf(g_tmp, sizeof g_tmp, "%s/tritium-examples-XXXXXX", base);
    ck_assert_msg(mkdtemp(g_tmp) != NULL, "mkdtemp: %s", strerror(errno));
}

static void tmp_teardown(void)
{
    DIR *d = opendir(g_tmp);
    if (d) {
        struct dirent *e;
        char p[PATH_MAX + 256];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", g_tmp, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(g_tmp);
}

/* ------------------------------------------------------------------------ */
/* Comparison helpers: count violations, remember the first.                 */

typedef struct mism {
    int64_t bad, first;
    double got, want, tol;
} mism;

static void mism_check(mism *m, int64_t i, double got, double want, double tol)
{
    /* !(a <= b) so that NaN (an unwritten element) is a mismatch. */
    if (!(fabs(got - want) <= tol)) {
        if (m->bad++ == 0) {
            m->first = i;
            m->got = got;
            m->want = want;
            m->tol = tol;
        }
    }
}

#define MISM_ASSERT(m, what, total, fmt, ...) \
    ck_assert_msg((m).bad == 0, \
                  "%s: %lld of %lld elements wrong; first at linear index %lld: got %.9g, " \
                  "want %.9g (tolerance %.3g) [" fmt "]", \
                  (what), (long long)(m).bad, (long long)(total), (long long)(m).first, \
                  (m).got, (m).want, (m).tol, ##__VA_ARGS__)

static float *nan_f32(int64_t n)
{
    float *p = malloc((size_t)(n ? n : 1) * 4);
    for (int64_t i = 0; i < n; i++)
        p[i] = NAN;
    return p;
}

/* ------------------------------------------------------------------------ */
/* vector_add.py                                                             */

static const struct {
    int64_t n, block;
    bool exprs;                    /* grid and n_elements as host expressions */
} add_cases[] = {
    {1, 1024, false},
    {1000, 1024, false},
    {1024, 1024, false},
    {4097, 1024, false},
    {98432, 1024, false},
    {1000, 128, false},
    {7, 4, false},
    {3000, 256, true},
};

static void run_vector_add(int ci)
{
    int64_t n = add_cases[ci].n, block = add_cases[ci].block;
    rng_seed(100 + (uint64_t)ci);
    float *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4), *o = nan_f32(n);
    for (int64_t i = 0; i < n; i++) {
        x[i] = (float)(rng_normal() * 10);
        y[i] = (float)rng_normal();
    }
    npy_save("x.npy", "<f4", 4, 1, &n, x);
    npy_save("y.npy", "<f4", 4, 1, &n, y);
    npy_save("out.npy", "<f4", 4, 1, &n, o);

    cmd c;
    cmd_start(&c, "vector_add.py", "add_kernel");
    if (add_cases[ci].exprs)
        cmd_opt(&c, "--grid", "cdiv(n_elements, BLOCK_SIZE)");
    else
        cmd_opt(&c, "--grid", "%lld", (long long)((n + block - 1) / block));
    cmd_npy_arg(&c, "--arg", "x_ptr", "x.npy");
    cmd_npy_arg(&c, "--arg", "y_ptr", "y.npy");
    cmd_npy_arg(&c, "--arg", "output_ptr", "out.npy");
    if (add_cases[ci].exprs)
        cmd_opt(&c, "--arg", "n_elements=numel(x_ptr)");
    else
        cmd_opt(&c, "--arg", "n_elements=%lld", (long long)n);
    cmd_opt(&c, "--const", "BLOCK_SIZE=%lld", (long long)block);
    cmd_npy_arg(&c, "--save", "output_ptr", "res.npy");
    cmd_expect(&c, 0);

    npy_file r;
    load_output("res.npy", "<f4", 1, &n, &r);
    mism m = {0};
    for (int64_t i = 0; i < n; i++) {
        /* A double sum of two floats rounded once to float is the correctly
         * rounded f32 sum: compare exactly. */
        float want = (float)((double)x[i] + (double)y[i]);
        mism_check(&m, i, f32_at(&r, i), want, 0.0);
    }
    MISM_ASSERT(m, "vector_add output", n, "n=%lld BLOCK_SIZE=%lld", (long long)n, (long long)block);
    free(r.buf);
    free(x);
    free(y);
    free(o);
}

START_TEST(test_vector_add)
{
    run_vector_add(_i);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* softmax.py                                                                */

static const struct {
    int64_t rows, cols, block, grid, pad;  /* pad: extra floats per input row */
} sm_cases[] = {
    {1, 1, 1, 1, 0},
    {7, 33, 64, 3, 0},
    {64, 128, 128, 64, 0},
    {100, 781, 1024, 16, 0},
    {37, 1000, 1024, 37, 7},
    {5, 20, 32, 8, 0},       /* more programs than rows: some do nothing */
    {3, 100, 256, 2, 0},     /* block larger than needed */
};

static void run_softmax(int ci)
{
    int64_t R = sm_cases[ci].rows, C = sm_cases[ci].cols, pad = sm_cases[ci].pad;
    int64_t istride = C + pad;
    rng_seed(200 + (uint64_t)ci);
    float *x = malloc((size_t)(R * istride) * 4), *o = nan_f32(R * C);
    for (int64_t i = 0; i < R * istride; i++)
        x[i] = (float)(rng_normal() * 3);
    int64_t ishape[2] = {R, istride}, oshape[2] = {R, C};
    npy_save("x.npy", "<f4", 4, 2, ishape, x);
    npy_save("out.npy", "<f4", 4, 2, oshape, o);

    cmd c;
    cmd_start(&c, "softmax.py", "softmax_kernel");
    cmd_opt(&c, "--grid", "%lld", (long long)sm_cases[ci].grid);
    cmd_npy_arg(&c, "--arg", "output_ptr", "out.npy");
    cmd_npy_arg(&c, "--arg", "input_ptr", "x.npy");
    cmd_opt(&c, "--arg", "input_row_stride=%lld", (long long)istride);
    cmd_opt(&c, "--arg", "output_row_stride=%lld", (long long)C);
    cmd_opt(&c, "--arg", "n_rows=%lld", (long long)R);
    cmd_opt(&c, "--arg", "n_cols=%lld", (long long)C);
    cmd_opt(&c, "--const", "BLOCK_SIZE=%lld", (long long)sm_cases[ci].block);
    cmd_npy_arg(&c, "--save", "output_ptr", "res.npy");
    cmd_expect(&c, 0);

    npy_file r;
    load_output("res.npy", "<f4", 2, oshape, &r);
    mism m = {0};
    double *e = malloc((size_t)C * sizeof(double));
    for (int64_t i = 0; i < R; i++) {
        const float *row = x + i * istride;
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < C; j++)
            mx = fmax(mx, row[j]);
        for (int64_t j = 0; j < C; j++)
            sum += e[j] = exp((double)row[j] - mx);
        for (int64_t j = 0; j < C; j++) {
            double want = e[j] / sum;
            mism_check(&m, i * C + j, f32_at(&r, i * C + j), want, 1e-5 * want);
        }
    }
    MISM_ASSERT(m, "softmax output", R * C, "%lldx%lld BLOCK_SIZE=%lld grid=%lld pad=%lld",
                (long long)R, (long long)C, (long long)sm_cases[ci].block,
                (long long)sm_cases[ci].grid, (long long)pad);
    free(e);
    free(r.buf);
    free(x);
    free(o);
}

START_TEST(test_softmax)
{
    run_softmax(_i);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* layer_norm.py                                                             */

static const struct {
    int64_t M, N, block, pad;
} ln_cases[] = {
    {1, 1, 16, 0},
    {5, 17, 16, 0},
    {33, 1000, 256, 0},
    {16, 2048, 1024, 0},
    {8, 300, 512, 0},
    {20, 500, 128, 13},      /* rows 513 floats apart */
};

static void run_layer_norm(int ci)
{
    int64_t M = ln_cases[ci].M, N = ln_cases[ci].N, stride = N + ln_cases[ci].pad;
    const double eps = 1e-5;
    rng_seed(300 + (uint64_t)ci);
    float *x = malloc((size_t)(M * stride) * 4), *yinit = nan_f32(M * stride);
    float *w = malloc((size_t)N * 4), *b = malloc((size_t)N * 4), *minit = nan_f32(M);
    for (int64_t i = 0; i < M; i++) {
        double scale = 0.5 + 2.5 * rng_uniform(), shift = 4 * rng_uniform() - 2;
        for (int64_t j = 0; j < stride; j++)
            x[i * stride + j] = (float)(rng_normal() * scale + shift);
    }
    for (int64_t j = 0; j < N; j++) {
        w[j] = (float)rng_normal();
        b[j] = (float)rng_normal();
    }
    int64_t xshape[2] = {M, stride};
    npy_save("x.npy", "<f4", 4, 2, xshape, x);
    npy_save("y.npy", "<f4", 4, 2, xshape, yinit);
    npy_save("w.npy", "<f4", 4, 1, &N, w);
    npy_save("b.npy", "<f4", 4, 1, &N, b);
    npy_save("mean.npy", "<f4", 4, 1, &M, minit);
    npy_save("rstd.npy", "<f4", 4, 1, &M, minit);

    cmd c;
    cmd_start(&c, "layer_norm.py", "layer_norm_fwd_fused");
    cmd_opt(&c, "--grid", "%lld", (long long)M);
    cmd_npy_arg(&c, "--arg", "X", "x.npy");
    cmd_npy_arg(&c, "--arg", "Y", "y.npy");
    cmd_npy_arg(&c, "--arg", "W", "w.npy");
    cmd_npy_arg(&c, "--arg", "B", "b.npy");
    cmd_npy_arg(&c, "--arg", "Mean", "mean.npy");
    cmd_npy_arg(&c, "--arg", "Rstd", "rstd.npy");
    cmd_opt(&c, "--arg", "stride=%lld", (long long)stride);
    cmd_opt(&c, "--arg", "N=%lld", (long long)N);
    cmd_opt(&c, "--arg", "eps=%.9g", eps);
    cmd_opt(&c, "--const", "BLOCK_SIZE=%lld", (long long)ln_cases[ci].block);
    cmd_npy_arg(&c, "--save", "Y", "yres.npy");
    cmd_npy_arg(&c, "--save", "Mean", "mres.npy");
    cmd_npy_arg(&c, "--save", "Rstd", "rres.npy");
    cmd_expect(&c, 0);

    npy_file ry, rm, rr;
    load_output("yres.npy", "<f4", 2, xshape, &ry);
    load_output("mres.npy", "<f4", 1, &M, &rm);
    load_output("rres.npy", "<f4", 1, &M, &rr);
    mism my = {0}, mm = {0}, mr = {0}, mpad = {0};
    for (int64_t i = 0; i < M; i++) {
        const float *row = x + i * stride;
        double sum = 0, asum = 0, var = 0;
        for (int64_t j = 0; j < N; j++) {
            sum += row[j];
            asum += fabs(row[j]);
        }
        double mean = sum / (double)N;
        for (int64_t j = 0; j < N; j++)
            var += ((double)row[j] - mean) * ((double)row[j] - mean);
        var /= (double)N;
        double rstd = 1.0 / sqrt(var + eps);
        /* Mean: relative to the magnitude of what was summed. */
        mism_check(&mm, i, f32_at(&rm, i), mean, 1e-5 * asum / (double)N);
        mism_check(&mr, i, f32_at(&rr, i), rstd, 1e-5 * rstd);
        for (int64_t j = 0; j < N; j++) {
            double xhat = ((double)row[j] - mean) * rstd;
            double want = xhat * w[j] + b[j];
            /* Relative to the terms: |xhat*w| + |w| (error of xhat is at most
             * ~1e-6 absolute plus ~1e-6 relative) + |b|. */
            double tol = 1e-5 * (fabs(xhat * w[j]) + fabs(w[j]) + fabs(b[j]));
            mism_check(&my, i * stride + j, f32_at(&ry, i * stride + j), want, tol);
        }
        /* The padding columns of Y must not be written: still NaN. */
        for (int64_t j = N; j < stride; j++)
            if (!isnan(f32_at(&ry, i * stride + j)) && mpad.bad++ == 0)
                mpad.first = i * stride + j;
    }
    MISM_ASSERT(mm, "layer_norm Mean", M, "M=%lld N=%lld", (long long)M, (long long)N);
    MISM_ASSERT(mr, "layer_norm Rstd", M, "M=%lld N=%lld", (long long)M, (long long)N);
    MISM_ASSERT(my, "layer_norm Y", M * N, "M=%lld N=%lld BLOCK_SIZE=%lld stride=%lld",
                (long long)M, (long long)N, (long long)ln_cases[ci].block, (long long)stride);
    ck_assert_msg(mpad.bad == 0, "layer_norm wrote %lld padding elements of Y (first %lld)",
                  (long long)mpad.bad, (long long)mpad.first);
    free(ry.buf);
    free(rm.buf);
    free(rr.buf);
    free(x);
    free(yinit);
    free(w);
    free(b);
    free(minit);
}

START_TEST(test_layer_norm)
{
    run_layer_norm(_i);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* matmul.py                                                                 */

static const struct {
    int64_t M, N, K, bm, bn, bk, group;
    const char *act;               /* ACTIVATION constexpr, NULL: default "" */
    bool trans_b;                  /* B passed as a transposed [N, K] array */
} mm_cases[] = {
    {64, 64, 32, 64, 64, 32, 8, NULL, false},
    {200, 300, 100, 64, 64, 32, 8, NULL, false},
    {1, 1, 1, 64, 64, 32, 8, NULL, false},
    {130, 70, 50, 32, 32, 16, 2, NULL, false},
    {100, 96, 64, 64, 32, 32, 4, "leaky_relu", false},
    {90, 100, 70, 32, 64, 32, 3, NULL, true},
    {256, 256, 256, 64, 64, 32, 8, "", false},
};

static void run_matmul(int ci)
{
    int64_t M = mm_cases[ci].M, N = mm_cases[ci].N, K = mm_cases[ci].K;
    bool tb = mm_cases[ci].trans_b;
    const char *act = mm_cases[ci].act;
    rng_seed(400 + (uint64_t)ci);
    uint16_t *a = malloc((size_t)(M * K) * 2), *b = malloc((size_t)(K * N) * 2);
    uint16_t *cinit = malloc((size_t)(M * N) * 2);
    for (int64_t i = 0; i < M * K; i++)
        a[i] = float_to_half((float)rng_normal());
    for (int64_t i = 0; i < K * N; i++)
        b[i] = float_to_half((float)rng_normal());
    for (int64_t i = 0; i < M * N; i++)
        cinit[i] = 0x7e00;         /* NaN */
    /* B element (k, n) lives at b[k * sbk + n * sbn]. */
    int64_t sbk = tb ? 1 : N, sbn = tb ? K : 1;
    int64_t ashape[2] = {M, K}, bshape[2] = {tb ? N : K, tb ? K : N}, cshape[2] = {M, N};
    npy_save("a.npy", "<f2", 2, 2, ashape, a);
    npy_save("b.npy", "<f2", 2, 2, bshape, b);
    npy_save("c.npy", "<f2", 2, 2, cshape, cinit);

    int64_t bm = mm_cases[ci].bm, bn = mm_cases[ci].bn;
    cmd c;
    cmd_start(&c, "matmul.py", "matmul_kernel");
    cmd_opt(&c, "--grid", "%lld", (long long)(((M + bm - 1) / bm) * ((N + bn - 1) / bn)));
    cmd_npy_arg(&c, "--arg", "a_ptr", "a.npy");
    cmd_npy_arg(&c, "--arg", "b_ptr", "b.npy");
    cmd_npy_arg(&c, "--arg", "c_ptr", "c.npy");
    cmd_opt(&c, "--arg", "M=%lld", (long long)M);
    cmd_opt(&c, "--arg", "N=%lld", (long long)N);
    cmd_opt(&c, "--arg", "K=%lld", (long long)K);
    cmd_opt(&c, "--arg", "stride_am=%lld", (long long)K);
    cmd_opt(&c, "--arg", "stride_ak=1");
    cmd_opt(&c, "--arg", "stride_bk=%lld", (long long)sbk);
    cmd_opt(&c, "--arg", "stride_bn=%lld", (long long)sbn);
    cmd_opt(&c, "--arg", "stride_cm=%lld", (long long)N);
    cmd_opt(&c, "--arg", "stride_cn=1");
    cmd_opt(&c, "--const", "BLOCK_SIZE_M=%lld", (long long)bm);
    cmd_opt(&c, "--const", "BLOCK_SIZE_N=%lld", (long long)bn);
    cmd_opt(&c, "--const", "BLOCK_SIZE_K=%lld", (long long)mm_cases[ci].bk);
    cmd_opt(&c, "--const", "GROUP_SIZE_M=%lld", (long long)mm_cases[ci].group);
    if (act)
        cmd_opt(&c, "--const", "ACTIVATION=\"%s\"", act);
    cmd_npy_arg(&c, "--save", "c_ptr", "res.npy");
    cmd_expect(&c, 0);

    npy_file r;
    load_output("res.npy", "<f2", 2, cshape, &r);
    mism m = {0};
    bool leaky = act && strcmp(act, "leaky_relu") == 0;
    for (int64_t i = 0; i < M; i++)
        for (int64_t j = 0; j < N; j++) {
            double acc = 0, mag = 0;
            for (int64_t k = 0; k < K; k++) {
                double p = (double)half_to_float(a[i * K + k]) *
                           (double)half_to_float(b[k * sbk + j * sbn]);
                acc += p;
                mag += fabs(p);
            }
            if (leaky && acc < 0) {
                acc *= 0.01;
                mag *= 0.01;
            }
            /* f16 rounding alone is <= 2^-11 relative; 1e-4 of sum|a||b|
             * covers results near zero (a dropped or doubled K term is
             * ~1e-2 of it). */
            mism_check(&m, i * N + j, f16_at(&r, i * N + j), acc, 1e-2 * fabs(acc) + 1e-4 * mag);
        }
    MISM_ASSERT(m, "matmul C", M * N, "M=%lld N=%lld K=%lld tiles %lldx%lldx%lld group %lld act '%s'%s",
                (long long)M, (long long)N, (long long)K, (long long)bm, (long long)bn,
                (long long)mm_cases[ci].bk, (long long)mm_cases[ci].group, act ? act : "",
                tb ? " transposed B" : "");
    free(r.buf);
    free(a);
    free(b);
    free(cinit);
}

START_TEST(test_matmul)
{
    run_matmul(_i);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* oob_bug.py                                                                */

/* 1-based line of examples/oob_bug.py holding the planted bug. */
static int oob_bug_line(void)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/examples/oob_bug.py", g_srcdir);
    char *src = slurp(path);
    int line = 1, found = 0;
    for (char *p = src; *p; p++) {
        if (strncmp(p, "tl.load(x_ptr + offsets)  # BUG", 31) == 0) {
            found = line;
            break;
        }
        if (*p == '\n')
            line++;
    }
    free(src);
    ck_assert_msg(found > 0, "no '# BUG' line in %s", path);
    return found;
}

/* Does the report name program p of a 1-D grid? Accepts "(p,0,0)",
 * "(p, 0, 0)", "program p" and "pid p" (followed by a non-digit). */
static bool names_program(const char *s, int64_t p)
{
    char pats[4][48];
    snprintf(pats[0], sizeof pats[0], "(%lld,0,0)", (long long)p);
    snprintf(pats[1], sizeof pats[1], "(%lld, 0, 0)", (long long)p);
    snprintf(pats[2], sizeof pats[2], "program %lld", (long long)p);
    snprintf(pats[3], sizeof pats[3], "pid %lld", (long long)p);
    for (int i = 0; i < 4; i++)
        for (const char *q = strstr(s, pats[i]); q; q = strstr(q + 1, pats[i])) {
            char next = q[strlen(pats[i])];
            if (i < 2 || !(next >= '0' && next <= '9'))
                return true;
        }
    return false;
}

/* Does the report name source line `line` ("file:LINE:", "line LINE" or the
 * quoted "LINE |")? */
static bool names_line(const char *s, int line)
{
    char pats[3][32];
    snprintf(pats[0], sizeof pats[0], ":%d:", line);
    snprintf(pats[1], sizeof pats[1], "line %d", line);
    snprintf(pats[2], sizeof pats[2], "%d |", line);
    for (int i = 0; i < 3; i++)
        if (strstr(s, pats[i]))
            return true;
    return false;
}

static void check_oob_report(const char *err, int64_t program, int64_t first_bad, int64_t lanes)
{
    int line = oob_bug_line();
    char idx[48], nl[32];
    snprintf(idx, sizeof idx, "[%lld", (long long)first_bad);
    snprintf(nl, sizeof nl, "%lld", (long long)lanes);
    ck_assert_msg(strstr(err, "oob_bug.py") != NULL, "report does not name the file:\n%s", err);
    ck_assert_msg(names_line(err, line), "report does not name line %d:\n%s", line, err);
    ck_assert_msg(strstr(err, "x_ptr") != NULL, "report does not name buffer x_ptr:\n%s", err);
    ck_assert_msg(strstr(err, idx) != NULL, "report does not name element %s]:\n%s", idx, err);
    ck_assert_msg(names_program(err, program), "report does not name program %lld:\n%s",
                  (long long)program, err);
    ck_assert_msg(strstr(err, nl) != NULL, "report does not give the %s faulting lanes:\n%s", nl, err);
    ck_assert_msg(strstr(err, "out_ptr[") == NULL, "report blames the (masked) store:\n%s", err);
}

/* The default launch: n = 4000, BLOCK = 1024 -> program 3 loads x_ptr[4000..4095]. */
START_TEST(test_oob_default)
{
    cmd c;
    cmd_start(&c, "oob_bug.py", NULL);
    char *err = NULL;
    int st = cmd_run(&c, &err);
    cmd_free(&c);
    ck_assert_msg(st == 1, "oob_bug.py exited %d, want 1; stderr:\n%s", st, err);
    check_oob_report(err, 3, 4000, 96);
    free(err);
}
END_TEST

static const struct {
    int64_t n, block;
} oob_cases[] = {
    {1, 1024},                     /* program 0 faults at x_ptr[1], 1023 lanes */
    {5000, 1024},                  /* program 4 faults at x_ptr[5000], 120 lanes */
    {300, 128},                    /* program 2 faults at x_ptr[300], 84 lanes */
    {4096, 1024},                  /* a multiple of BLOCK: no fault */
};

START_TEST(test_oob_sizes)
{
    int64_t n = oob_cases[_i].n, block = oob_cases[_i].block;
    int64_t grid = (n + block - 1) / block;
    rng_seed(500 + (uint64_t)_i);
    float *x = malloc((size_t)n * 4), *o = nan_f32(n);
    for (int64_t i = 0; i < n; i++)
        x[i] = (float)rng_normal();
    npy_save("x.npy", "<f4", 4, 1, &n, x);
    npy_save("out.npy", "<f4", 4, 1, &n, o);
    cmd c;
    cmd_start(&c, "oob_bug.py", "scale_kernel");
    cmd_opt(&c, "--grid", "%lld", (long long)grid);
    cmd_npy_arg(&c, "--arg", "x_ptr", "x.npy");
    cmd_npy_arg(&c, "--arg", "out_ptr", "out.npy");
    cmd_opt(&c, "--arg", "n_elements=%lld", (long long)n);
    cmd_opt(&c, "--arg", "factor=2.0");
    cmd_opt(&c, "--const", "BLOCK=%lld", (long long)block);
    cmd_npy_arg(&c, "--save", "out_ptr", "res.npy");
    char *err = NULL;
    int st = cmd_run(&c, &err);
    char *txt = cmd_text(&c);
    cmd_free(&c);
    if (n % block) {
        ck_assert_msg(st == 1, "exit %d, want 1: %s\n%s", st, txt, err);
        check_oob_report(err, grid - 1, n, grid * block - n);
    } else {
        ck_assert_msg(st == 0, "exit %d, want 0 (no fault when n %% BLOCK == 0): %s\n%s", st, txt, err);
        npy_file r;
        load_output("res.npy", "<f4", 1, &n, &r);
        mism m = {0};
        for (int64_t i = 0; i < n; i++)
            mism_check(&m, i, f32_at(&r, i), 2.0 * (double)x[i], 0.0);
        MISM_ASSERT(m, "oob_bug output", n, "n=%lld", (long long)n);
        free(r.buf);
    }
    free(txt);
    free(err);
    free(x);
    free(o);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* Every example runs from its "# tritium:" comment alone.                   */

static const struct {
    const char *file;
    int status;
} default_cases[] = {
    {"vector_add.py", 0},
    {"softmax.py", 0},
    {"layer_norm.py", 0},
    {"matmul.py", 0},
    {"oob_bug.py", 1},
};

START_TEST(test_default_launch)
{
    cmd c;
    cmd_start(&c, default_cases[_i].file, NULL);
    cmd_expect(&c, default_cases[_i].status);
}
END_TEST

/* The comment's launch stays the default when only --save is added: check
 * vector_add's and softmax's results from their generated inputs. */
START_TEST(test_default_vector_add_saved)
{
    cmd c;
    cmd_start(&c, "vector_add.py", NULL);
    cmd_npy_arg(&c, "--save", "x_ptr", "x.npy");
    cmd_npy_arg(&c, "--save", "y_ptr", "y.npy");
    cmd_npy_arg(&c, "--save", "output_ptr", "o.npy");
    cmd_expect(&c, 0);
    int64_t n = 98432;
    npy_file x, y, o;
    load_output("x.npy", "<f4", 1, &n, &x);
    load_output("y.npy", "<f4", 1, &n, &y);
    load_output("o.npy", "<f4", 1, &n, &o);
    mism m = {0};
    double sumsq = 0;
    for (int64_t i = 0; i < n; i++) {
        mism_check(&m, i, f32_at(&o, i), (float)((double)f32_at(&x, i) + f32_at(&y, i)), 0.0);
        sumsq += (double)f32_at(&x, i) * f32_at(&x, i);
    }
    MISM_ASSERT(m, "vector_add default launch", n, "n=%lld", (long long)n);
    /* randn inputs: variance near 1, and x and y differ. */
    ck_assert_msg(fabs(sumsq / (double)n - 1.0) < 0.05, "x_ptr does not look like randn: mean square %g",
                  sumsq / (double)n);
    ck_assert(memcmp(x.data, y.data, 64) != 0);
    free(x.buf);
    free(y.buf);
    free(o.buf);
}
END_TEST

START_TEST(test_default_softmax_saved)
{
    cmd c;
    cmd_start(&c, "softmax.py", NULL);
    cmd_npy_arg(&c, "--save", "input_ptr", "x.npy");
    cmd_npy_arg(&c, "--save", "output_ptr", "o.npy");
    cmd_expect(&c, 0);
    int64_t shape[2] = {1823, 781}, R = 1823, C = 781;
    npy_file x, o;
    load_output("x.npy", "<f4", 2, shape, &x);
    load_output("o.npy", "<f4", 2, shape, &o);
    mism m = {0};
    double *e = malloc((size_t)C * sizeof(double));
    for (int64_t i = 0; i < R; i++) {
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < C; j++)
            mx = fmax(mx, f32_at(&x, i * C + j));
        for (int64_t j = 0; j < C; j++)
            sum += e[j] = exp((double)f32_at(&x, i * C + j) - mx);
        for (int64_t j = 0; j < C; j++)
            mism_check(&m, i * C + j, f32_at(&o, i * C + j), e[j] / sum, 1e-5 * e[j] / sum);
    }
    MISM_ASSERT(m, "softmax default launch", R * C, "1823x781");
    free(e);
    free(x.buf);
    free(o.buf);
}
END_TEST

/* ------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------ */
/* A correct kernel's result does not depend on the order of its programs:   */
/* rerun cases with more programs than one under the other schedules (the    */
/* interpreter also checks for races between programs).                      */

static const char *const schedules[] = {"reverse", "random:7", "parallel"};

START_TEST(test_schedules)
{
    g_schedule = schedules[_i];
    run_vector_add(4);             /* 98432 elements, 97 programs */
    run_softmax(3);                /* 100 rows on 16 programs (strided loop) */
    run_layer_norm(2);             /* 33 rows */
    run_matmul(1);                 /* 200x300x100, grouped order */
    run_matmul(3);                 /* 130x70x50, GROUP_SIZE_M 2 */
    g_schedule = NULL;
}
END_TEST

static Suite *examples_suite(void)
{
    Suite *s = suite_create("examples");
    struct {
        const char *name;
        TCase *tc;
    } t[10];
    int n = 0;
#define TC(nm) (t[n].name = (nm), t[n].tc = tcase_create(nm), t[n++].tc)
    tcase_add_loop_test(TC("vector_add"), test_vector_add, 0, (int)(sizeof add_cases / sizeof add_cases[0]));
    tcase_add_loop_test(TC("softmax"), test_softmax, 0, (int)(sizeof sm_cases / sizeof sm_cases[0]));
    tcase_add_loop_test(TC("layer_norm"), test_layer_norm, 0, (int)(sizeof ln_cases / sizeof ln_cases[0]));
    tcase_add_loop_test(TC("matmul"), test_matmul, 0, (int)(sizeof mm_cases / sizeof mm_cases[0]));
    TCase *oob = TC("oob_bug");
    tcase_add_test(oob, test_oob_default);
    tcase_add_loop_test(oob, test_oob_sizes, 0, (int)(sizeof oob_cases / sizeof oob_cases[0]));
    tcase_add_loop_test(TC("schedules"), test_schedules, 0, (int)(sizeof schedules / sizeof schedules[0]));
    TCase *def = TC("defaults");
    tcase_add_loop_test(def, test_default_launch, 0, (int)(sizeof default_cases / sizeof default_cases[0]));
    tcase_add_test(def, test_default_vector_add_saved);
    tcase_add_test(def, test_default_softmax_saved);
#undef TC
    for (int i = 0; i < n; i++) {
        tcase_add_checked_fixture(t[i].tc, tmp_setup, tmp_teardown);
        tcase_set_timeout(t[i].tc, 300);
        suite_add_tcase(s, t[i].tc);
    }
    return s;
}

int main(int argc, char **argv)
{
    g_tritium = argc > 1 ? argv[1] : getenv("TRITIUM_BIN");
    g_srcdir = getenv("TRITIUM_SRCDIR");
    if (!g_tritium || !*g_tritium) {
        fprintf(stderr, "usage: %s TRITIUM_EXE [TCASE] (or set TRITIUM_BIN)\n", argv[0]);
        return 2;
    }
    if (!g_srcdir || !*g_srcdir)
        g_srcdir = ".";
    if (access(g_tritium, X_OK) != 0) {
        fprintf(stderr, "%s: %s: %s\n", argv[0], g_tritium, strerror(errno));
        return 1;
    }
    SRunner *sr = srunner_create(examples_suite());
    srunner_run(sr, NULL, argc > 2 ? argv[2] : NULL, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
