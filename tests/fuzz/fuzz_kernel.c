/* fuzz_kernel.c — libFuzzer harness for the front end and the interpreter
 * together: the input bytes drive a grammar-aware generator of small Triton
 * kernels (not raw text), which `tritium run` then loads, compiles and runs
 * (repl_cmd_run, the whole product path: launch spec, front end, verifier,
 * interpreter, checks, summary).
 *
 * The generator tracks each variable's shape and kind (float, int, bool) so
 * most kernels are valid: elementwise and comparison ops between
 * broadcastable tiles, math on floats, bit ops on ints, reductions, scans,
 * casts and bitcasts, tl.where, expand/reshape/trans/broadcast_to, tl.dot,
 * a helper call, if/for/while around an accumulator, atomics, masked loads
 * with `other`, and now and then a tile past the 2^20-element limit. Each
 * byte is one choice; the input ends the kernel when it runs out. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "repl.h"
#include "tritium/diag.h"

enum { K_F, K_I, K_B };                /* float, int, bool */
typedef struct gvar { char name[12]; int rank; int64_t shape[2]; int kind; } gvar;

typedef struct gen {
    const uint8_t *p, *end;
    strbuf out;
    gvar v[64];
    int nv, indent, tmp;
} gen;

#define B 16

static unsigned pick(gen *g, unsigned n)
{
    if (g->p >= g->end || n == 0) return 0;
    return *g->p++ % n;
}

static bool more(const gen *g) { return g->p < g->end; }

static void line(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(gen *g, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sb_printf(&g->out, "%*s%s\n", 4 * g->indent, "", buf);
}

static gvar *add(gen *g, int rank, int64_t d0, int64_t d1, int kind)
{
    gvar *x = &g->v[g->nv < 63 ? g->nv++ : 63];
    snprintf(x->name, sizeof x->name, "v%d", g->tmp++);
    x->rank = rank;
    x->shape[0] = d0;
    x->shape[1] = d1;
    x->kind = kind;
    return x;
}

/* numpy broadcasting of two shapes (rank <= 2); false when incompatible */
static bool bcast(const gvar *a, const gvar *b, int *rank, int64_t s[2])
{
    int r = a->rank > b->rank ? a->rank : b->rank;
    for (int k = 0; k < r; k++) {
        int ia = a->rank - r + k, ib = b->rank - r + k;
        int64_t da = ia >= 0 ? a->shape[ia] : 1, db = ib >= 0 ? b->shape[ib] : 1;
        if (da != db && da != 1 && db != 1) return false;
        s[k] = da == 1 ? db : da;
    }
    *rank = r;
    return true;
}

static gvar *any_var(gen *g, int kind_mask)
{
    int idx[64], n = 0;
    for (int i = 0; i < g->nv; i++)
        if (kind_mask & (1 << g->v[i].kind)) idx[n++] = i;
    return n ? &g->v[idx[pick(g, (unsigned)n)]] : NULL;
}

static const char *const dtypes[] = { "tl.float32", "tl.float16", "tl.bfloat16", "tl.int32", "tl.int8",
                                      "tl.int64", "tl.uint32", "tl.int1", "tl.float64", "tl.uint8" };
static int dtype_kind(int i) { return i < 3 || i == 8 ? K_F : i == 7 ? K_B : K_I; }

static void stmt(gen *g, int depth);

static void binop(gen *g)
{
    gvar *a = any_var(g, 7), *b = any_var(g, 7);
    if (!a || !b) return;
    int r;
    int64_t s[2];
    if (!bcast(a, b, &r, s)) return;
    static const char *const fops[] = { "+", "-", "*", "/", "%", "<", ">", "==", "!=", "<=" };
    static const char *const iops[] = { "+", "-", "*", "//", "%", "&", "|", "^", "<<", ">>", "<", "==" };
    bool ints = a->kind != K_F && b->kind != K_F;
    const char *op = ints ? iops[pick(g, TT_COUNTOF(iops))] : fops[pick(g, TT_COUNTOF(fops))];
    int kind = strchr("<>=!", op[0]) && strcmp(op, "<<") && strcmp(op, ">>") ? K_B
               : !strcmp(op, "/") ? K_F : ints ? K_I : K_F;
    if (kind == K_I && a->kind == K_B && b->kind == K_B) kind = strchr("&|^", op[0]) ? K_B : K_I;
    char an[12], bn[12];
    snprintf(an, sizeof an, "%s", a->name);
    snprintf(bn, sizeof bn, "%s", b->name);
    gvar *x = add(g, r, s[0], s[1], kind);
    line(g, "%s = %s %s %s", x->name, an, op, bn);
}

static void unary(gen *g)
{
    gvar *a = any_var(g, 7);
    if (!a) return;
    gvar c = *a;
    if (c.kind == K_F) {
        static const char *const fn[] = { "tl.exp", "tl.log", "tl.sqrt", "tl.abs", "tl.sin", "tl.cos",
                                          "tl.sigmoid", "tl.floor", "tl.ceil", "-", "tl.rsqrt", "tl.exp2",
                                          "tl.erf", "tl.math.tanh" };
        const char *f = fn[pick(g, TT_COUNTOF(fn))];
        gvar *x = add(g, c.rank, c.shape[0], c.shape[1], K_F);
        if (!strcmp(f, "-")) line(g, "%s = -%s", x->name, c.name);
        else line(g, "%s = %s(%s.to(tl.float32))", x->name, f, c.name);
    } else {
        static const char *const fn[] = { "-", "~", "tl.abs", "not " };
        unsigned k = pick(g, c.kind == K_B ? 4 : 3);
        gvar *x = add(g, c.rank, c.shape[0], c.shape[1], k == 3 ? K_B : c.kind);
        if (k == 3 && c.rank) { line(g, "%s = %s == 0", x->name, c.name); x->kind = K_B; return; }
        if (k == 2) line(g, "%s = tl.abs(%s)", x->name, c.name);
        else line(g, "%s = %s%s", x->name, fn[k], c.name);
    }
}

static void reduce(gen *g)
{
    gvar *a = any_var(g, 7);
    if (!a || a->rank == 0) return;
    static const char *const fn[] = { "tl.sum", "tl.max", "tl.min", "tl.argmax", "tl.argmin", "tl.cumsum",
                                      "tl.cumprod", "tl.xor_sum", "tl.sort", "tl.reduce_or" };
    unsigned k = pick(g, 9);
    if (k == 7 && a->kind == K_F) k = 0;
    int axis = (int)pick(g, (unsigned)a->rank);
    gvar c = *a;
    bool scan = k == 5 || k == 6 || k == 8;
    gvar *x = scan ? add(g, c.rank, c.shape[0], c.shape[1], c.kind == K_B ? K_I : c.kind)
                   : add(g, c.rank - 1, c.rank == 2 ? c.shape[1 - axis] : 1, 1,
                         k == 3 || k == 4 ? K_I : c.kind == K_B ? K_I : c.kind);
    if (k == 8) line(g, "%s = tl.sort(%s, dim=%d)", x->name, c.name, axis);
    else line(g, "%s = %s(%s, axis=%d)", x->name, fn[k], c.name, axis);
}

static void cast(gen *g)
{
    gvar *a = any_var(g, 7);
    if (!a) return;
    gvar c = *a;
    unsigned d = pick(g, TT_COUNTOF(dtypes));
    bool bitcast = pick(g, 5) == 0;
    gvar *x = add(g, c.rank, c.shape[0], c.shape[1], dtype_kind((int)d));
    line(g, "%s = %s.to(%s%s)", x->name, c.name, dtypes[d], bitcast ? ", bitcast=True" : "");
}

static void shape_op(gen *g)
{
    gvar *a = any_var(g, 7);
    if (!a) return;
    gvar c = *a;
    switch (pick(g, 6)) {
    case 0:
        if (c.rank != 1) return;
        line(g, "%s = %s[:, None]", add(g, 2, c.shape[0], 1, c.kind)->name, c.name);
        break;
    case 1:
        if (c.rank != 1) return;
        line(g, "%s = %s[None, :]", add(g, 2, 1, c.shape[0], c.kind)->name, c.name);
        break;
    case 2:
        if (c.rank != 2) return;
        line(g, "%s = tl.trans(%s)", add(g, 2, c.shape[1], c.shape[0], c.kind)->name, c.name);
        break;
    case 3:
        if (c.rank != 2) return;
        line(g, "%s = tl.reshape(%s, (%lld,))", add(g, 1, c.shape[0] * c.shape[1], 1, c.kind)->name, c.name,
             (long long)(c.shape[0] * c.shape[1]));
        break;
    case 4: {
        gvar t = { .rank = 2, .shape = { B, B } };
        int r;
        int64_t s[2];
        if (!bcast(&c, &t, &r, s) || r != 2) return;
        line(g, "%s = tl.broadcast_to(%s, (%d, %d))", add(g, 2, B, B, c.kind)->name, c.name, B, B);
        break;
    }
    default:
        line(g, "%s = tl.expand_dims(%s, 0)", add(g, c.rank + 1 > 2 ? 2 : c.rank + 1, 1, c.shape[0], c.kind)->name,
             c.name);
        if (c.rank == 2) g->nv--;         /* rank 3 is not tracked: never reused */
        break;
    }
}

static void misc(gen *g, int depth)
{
    switch (pick(g, 9)) {
    case 0: {                           /* tl.where */
        gvar *c = any_var(g, 1 << K_B), *a = any_var(g, 7), *b = any_var(g, 7);
        if (!c || !a || !b) return;
        gvar t;
        int r;
        int64_t s[2];
        if (!bcast(a, b, &r, s)) return;
        t.rank = r; t.shape[0] = s[0]; t.shape[1] = s[1];
        if (!bcast(c, &t, &r, s)) return;
        int kind = a->kind == K_F || b->kind == K_F ? K_F : K_I;
        char cn[12], an[12], bn[12];
        snprintf(cn, 12, "%s", c->name); snprintf(an, 12, "%s", a->name); snprintf(bn, 12, "%s", b->name);
        line(g, "%s = tl.where(%s, %s, %s)", add(g, r, s[0], s[1], kind)->name, cn, an, bn);
        break;
    }
    case 1: {                           /* tl.dot on two (B, B) tiles */
        gvar *a = any_var(g, 7), *b = any_var(g, 7);
        if (!a || !b || a->rank != 2 || b->rank != 2 || a->shape[1] != b->shape[0]) return;
        char an[12], bn[12];
        snprintf(an, 12, "%s", a->name); snprintf(bn, 12, "%s", b->name);
        int64_t m = a->shape[0], n = b->shape[1];
        const char *dt = pick(g, 2) ? "tl.float16" : "tl.float32";
        line(g, "%s = tl.dot(%s.to(%s), %s.to(%s))", add(g, 2, m, n, K_F)->name, an, dt, bn, dt);
        break;
    }
    case 2: {                           /* the helper */
        gvar *a = any_var(g, 1 << K_F), *b = any_var(g, 1 << K_F);
        if (!a || !b) return;
        int r;
        int64_t s[2];
        if (!bcast(a, b, &r, s)) return;
        char an[12], bn[12];
        snprintf(an, 12, "%s", a->name); snprintf(bn, 12, "%s", b->name);
        line(g, "%s = helper(%s, %s)", add(g, r, s[0], s[1], K_F)->name, an, bn);
        break;
    }
    case 3: {                           /* if around the accumulator */
        line(g, "if %s:", pick(g, 2) ? "pid % 2 == 0" : "n > 100");
        g->indent++;
        line(g, "acc = acc + %s", pick(g, 2) ? "x" : "1.0");
        if (depth < 2 && more(g)) stmt(g, depth + 1);
        g->indent--;
        if (pick(g, 2)) {
            line(g, "else:");
            g->indent++;
            line(g, "acc = acc * 0.5");
            g->indent--;
        }
        break;
    }
    case 4: {                           /* for loop */
        unsigned lo = pick(g, 3), hi = pick(g, 6);
        line(g, "for i%d in range(%u, %u%s):", g->tmp, lo, hi, pick(g, 3) ? "" : ", 2");
        g->indent++;
        int saved = g->nv;
        line(g, "acc += x * %u.0", pick(g, 4));
        if (depth < 2 && more(g)) stmt(g, depth + 1);
        g->nv = saved;                  /* names made in the body are not used after it */
        g->indent--;
        g->tmp++;
        break;
    }
    case 5: {                           /* while loop with a counter */
        int c = g->tmp++;
        line(g, "c%d = 0", c);
        line(g, "while c%d < %u:", c, pick(g, 5));
        g->indent++;
        line(g, "acc = acc - 1.0");
        line(g, "c%d += 1", c);
        g->indent--;
        break;
    }
    case 6: {                           /* atomics on a (B,) float */
        gvar *a = any_var(g, 1 << K_F);
        if (!a || a->rank != 1 || a->shape[0] != B) return;
        static const char *const fn[] = { "tl.atomic_add", "tl.atomic_max", "tl.atomic_min", "tl.atomic_xchg" };
        char an[12];
        snprintf(an, 12, "%s", a->name);
        line(g, "%s = %s(out2 + offs, %s.to(tl.float32), mask=offs < %u)", add(g, 1, B, 1, K_F)->name,
             fn[pick(g, 4)], an, pick(g, B + 1));
        break;
    }
    case 7: {                           /* a big tile: the 2^20-element limit */
        /* 2^5..2^6 (a small square tile) or 2^11..2^21 (a square past the
         * limit: a compile error); a legal 2^20 square is valid but takes
         * seconds under the sanitizers, which reads as a timeout */
        unsigned k = pick(g, 13), e = k < 2 ? 5 + k : 11 + (k - 2);
        line(g, "big = tl.arange(0, %u)", 1u << e);
        if (pick(g, 2)) line(g, "%s = tl.sum((big[:, None] + big[None, :]).to(tl.float32), axis=1)",
                             add(g, 1, (int64_t)1 << e, 1, K_F)->name);
        break;
    }
    default: {                          /* tl.full / tl.zeros / a masked load */
        unsigned k = pick(g, 3);
        if (k == 0) line(g, "%s = tl.full((%d, %d), %u, tl.int32)", add(g, 2, B, B, K_I)->name, B, B, pick(g, 200));
        else if (k == 1) line(g, "%s = tl.zeros((%d,), tl.float32) + scale", add(g, 1, B, 1, K_F)->name, B);
        else line(g, "%s = tl.load(y_ptr + offs * %u, mask=offs * %u < 256, other=%u)", add(g, 1, B, 1, K_I)->name,
                  pick(g, 40), pick(g, 40), pick(g, 3));
        break;
    }
    }
}

static void stmt(gen *g, int depth)
{
    switch (pick(g, 6)) {
    case 0: case 1: binop(g); break;
    case 2: unary(g); break;
    case 3: reduce(g); break;
    case 4: pick(g, 2) ? cast(g) : shape_op(g); break;
    default: misc(g, depth); break;
    }
}

static char *generate(const uint8_t *data, size_t size)
{
    gen g = { .p = data, .end = data + size };
    sb_printf(&g.out,
              "# tritium: --kernel k --grid 2 --arg x_ptr=randn:f32[512] --arg y_ptr=arange:i32[256]"
              " --arg out_ptr=zeros:f32[512] --arg out2=zeros:f32[16] --arg n=%u --arg scale=0.5 --const B=%d\n"
              "import triton\nimport triton.language as tl\n\n\n"
              "@triton.jit\ndef helper(a, b):\n    return a * 2.0 + b\n\n\n"
              "@triton.jit\ndef k(x_ptr, y_ptr, out_ptr, out2, n, scale, B: tl.constexpr):\n",
              100 + pick(&g, 300), B);
    g.indent = 1;
    line(&g, "pid = tl.program_id(0)");
    line(&g, "offs = tl.arange(0, B)");
    line(&g, "x = tl.load(x_ptr + pid * B + offs, mask=pid * B + offs < n, other=0.0)");
    line(&g, "y = tl.load(y_ptr + offs)");
    line(&g, "m = tl.load(x_ptr + offs[:, None] * B + offs[None, :])");
    line(&g, "acc = tl.zeros((B,), dtype=tl.float32)");
    gvar base[] = { { "pid", 0, { 1, 1 }, K_I }, { "offs", 1, { B, 1 }, K_I }, { "x", 1, { B, 1 }, K_F },
                    { "y", 1, { B, 1 }, K_I }, { "m", 2, { B, B }, K_F }, { "n", 0, { 1, 1 }, K_I },
                    { "scale", 0, { 1, 1 }, K_F } };
    memcpy(g.v, base, sizeof base);
    g.nv = (int)TT_COUNTOF(base);
    for (int i = 0; i < 40 && more(&g); i++) stmt(&g, 0);
    /* store the last tile that broadcasts to (B, B), and the accumulator */
    gvar t = { .rank = 2, .shape = { B, B } };
    const char *last = "m";
    for (int i = g.nv - 1; i >= 0; i--) {
        int r;
        int64_t s[2];
        if (bcast(&g.v[i], &t, &r, s) && r == 2 && s[0] == B && s[1] == B) { last = g.v[i].name; break; }
    }
    line(&g, "tl.store(out_ptr + pid * B * B + offs[:, None] * B + offs[None, :], "
             "tl.broadcast_to(%s, (B, B)).to(tl.float32))", last);
    line(&g, "tl.atomic_add(out2 + offs, acc)");
    return sb_take(&g.out);
}

static char g_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(g_path, sizeof g_path, "/tmp/tritium-fuzz-kernel-%d.py", (int)getpid());
    setenv("TRITIUM_MAX_LAUNCH_BYTES", "256M", 1);
    /* TRITIUM_FUZZ_PRINT=1: print each generated kernel (to read a corpus) */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    diag_set_stream(devnull);
    if (size > 512) return 0;
    char *text = generate(data, size);
    if (getenv("TRITIUM_FUZZ_PRINT")) fprintf(stderr, "%s\n", text);
    FILE *f = fopen(g_path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) abort();
    static const char *const scheds[] = { "in-order", "reverse", "random" };
    char *argv[] = { g_path, "--schedule", (char *)scheds[size % 3], NULL };
    (void)repl_cmd_run(3, argv);
    free(text);
    return 0;
}
