/* gpu_util.c — see gpu_util.h. */
#include "gpu_util.h"
#include "tritium/cuda.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void lb_init(launch *l, int64_t gx, int64_t gy, int64_t gz)
{
    memset(l, 0, sizeof *l);
    l->grid[0] = gx;
    l->grid[1] = gy;
    l->grid[2] = gz;
    l->num_warps = 4;
}

static launch_arg *add_arg(launch *l, const char *name)
{
    l->args = xrealloc(l->args, sizeof *l->args * (size_t)(l->nargs + 1));
    launch_arg *a = &l->args[l->nargs++];
    memset(a, 0, sizeof *a);
    a->name = xstrdup(name);
    return a;
}

void lb_fill_random(tt_tensor *t, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 12345;
    int64_t n = tt_tensor_numel(t);
    for (int64_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        double u = (double)(s >> 11) / 9007199254740992.0;   /* [0,1) */
        if (tt_dtype_is_float(t->dtype)) tt_store_f64(t->data, t->dtype, i, 2 * u - 1);
        else if (t->dtype == TT_BOOL) tt_store_i64(t->data, t->dtype, i, u < 0.5);
        else if (tt_dtype_is_signed(t->dtype)) tt_store_i64(t->data, t->dtype, i, (int64_t)(u * 101) - 50);
        else tt_store_i64(t->data, t->dtype, i, (int64_t)(u * 101));
    }
}

tt_tensor *lb_tensor(launch *l, const char *name, tt_dtype d, int rank, const int64_t *shape)
{
    launch_arg *a = add_arg(l, name);
    a->kind = ARG_TENSOR;
    a->tensor = tt_tensor_new(name, d, rank, shape);
    lb_fill_random(a->tensor, (uint64_t)l->nargs * 7919);
    return a->tensor;
}

tt_tensor *lb_tensor1(launch *l, const char *name, tt_dtype d, int64_t n)
{
    return lb_tensor(l, name, d, 1, &n);
}

tt_tensor *lb_tensor2(launch *l, const char *name, tt_dtype d, int64_t m, int64_t n)
{
    int64_t s[2] = { m, n };
    return lb_tensor(l, name, d, 2, s);
}

void lb_int(launch *l, const char *name, int64_t v)
{
    launch_arg *a = add_arg(l, name);
    a->kind = ARG_INT;
    a->dtype = v >= INT32_MIN && v <= INT32_MAX ? TT_I32 : TT_I64;
    a->i = v;
}

void lb_float(launch *l, const char *name, double v)
{
    launch_arg *a = add_arg(l, name);
    a->kind = ARG_FLOAT;
    a->dtype = TT_F32;
    a->f = v;
}

void lb_mm(launch *l, tt_dtype dt, int64_t M, int64_t N, int64_t K, int64_t bm, int64_t bn, int64_t bk)
{
    lb_init(l, 2, 2, 1);
    lb_tensor2(l, "a_ptr", dt, M, K);
    lb_tensor2(l, "b_ptr", dt, K, N);
    lb_tensor2(l, "c_ptr", TT_F16, M, N);
    lb_int(l, "M", M);
    lb_int(l, "N", N);
    lb_int(l, "K", K);
    lb_const(l, "BM", bm);
    lb_const(l, "BN", bn);
    lb_const(l, "BK", bk);
}

void lb_const(launch *l, const char *name, int64_t v)
{
    l->consts = xrealloc(l->consts, sizeof *l->consts * (size_t)(l->nconsts + 1));
    launch_const *c = &l->consts[l->nconsts++];
    memset(c, 0, sizeof *c);
    c->name = xstrdup(name);
    c->kind = CONST_INT;
    c->i = v;
}

void lb_const_str(launch *l, const char *name, const char *s)
{
    l->consts = xrealloc(l->consts, sizeof *l->consts * (size_t)(l->nconsts + 1));
    launch_const *c = &l->consts[l->nconsts++];
    memset(c, 0, sizeof *c);
    c->name = xstrdup(name);
    c->kind = CONST_STR;
    c->s = xstrdup(s);
}

/* Modules and functions live until exit (IR locations point into module sources). */
static VEC(front_module *) mods;
static VEC(ir_func *) funcs;

static void free_compiled(void)
{
    for (int i = 0; i < funcs.n; i++) ir_func_free(funcs.v[i]);
    for (int i = 0; i < mods.n; i++) front_module_free(mods.v[i]);
    vec_free(&funcs);
    vec_free(&mods);
}

char *src_of(const char *rel)
{
    const char *root = getenv("TRITIUM_SRCDIR");
    char *p = xasprintf("%s/%s", root ? root : ".", rel);
    char *s = read_file(p, NULL);
    if (!s) fprintf(stderr, "cannot read %s\n", p);
    free(p);
    return s;
}

ir_func *compile_py(const char *src, const char *kernel, const launch *l)
{
    static int count;
    if (count == 0) atexit(free_compiled);
    char name[64];
    snprintf(name, sizeof name, "test%d.py", count++);
    front_module *m = front_load_text(name, src);
    if (!m) return NULL;
    vec_push(&mods, m);
    ir_func *f = front_compile(m, kernel, l);
    if (f) vec_push(&funcs, f);
    return f;
}

static const char *find_ptxas(void)
{
    static char buf[512];
    const char *e = getenv("PTXAS");
    if (e && *e) return e;
    const char *cands[] = { "/usr/local/cuda/bin/ptxas", "/usr/local/cuda-13.0/bin/ptxas", "/usr/local/cuda-12.8/bin/ptxas" };
    struct stat st;
    for (size_t i = 0; i < TT_COUNTOF(cands); i++)
        if (stat(cands[i], &st) == 0) return cands[i];
    const char *path = getenv("PATH");
    if (!path) return NULL;
    char *p = xstrdup(path);
    for (char *tok = strtok(p, ":"); tok; tok = strtok(NULL, ":")) {
        snprintf(buf, sizeof buf, "%s/ptxas", tok);
        if (stat(buf, &st) == 0) {
            free(p);
            return buf;
        }
    }
    free(p);
    return NULL;
}

int ptxas_check(const char *ptx, const char *arch)
{
    const char *px = find_ptxas();
    if (!px) return -1;
    char path[] = "/tmp/tritium-ptx-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    size_t n = strlen(ptx);
    if (write(fd, ptx, n) != (ssize_t)n) { close(fd); unlink(path); return 0; }
    close(fd);
    char archopt[32];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    pid_t pid = fork();
    if (pid == 0) {
        execl(px, px, archopt, path, "-o", "/dev/null", (char *)NULL);
        _exit(127);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!ok) {
        fprintf(stderr, "ptxas rejected %s (kept for inspection)\n", path);
        return 0;
    }
    unlink(path);
    return 1;
}

int count_substr(const char *hay, const char *needle)
{
    int n = 0;
    size_t k = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + k, needle)) n++;
    return n;
}

bool have_driver(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) return false;
    dlclose(h);
    return true;
}
