/* plain_c.c — the interpreter benchmark's "plain C" column (bench/run.py):
 * the work of each launch of bench/cases.py done by a plain C loop on one
 * thread, compiled with -O2 (bench/meson.build), no checks:
 *
 *   vector_add  out[i] = x[i] + y[i], 2^20 f32
 *   softmax     per row of 1024x1024 f32: max, exp(x - max), sum, divide
 *   layer_norm  per row of 1024x1024 f32 (examples/layer_norm.py): mean,
 *               variance around it, y = (x - mean) * rstd * w + b, Mean, Rstd
 *   matmul      256^3: f16 A and B widened to f32, C += A B in f32 (i-k-j),
 *               rounded to f16
 *
 * Inputs are filled once; each case runs REPEAT times after one warm-up
 * run and prints the median time per run (wall clock; --cpu: the process's
 * CPU time, for a loaded machine):
 *
 *   plain_c [--cpu] [--repeat N] [CASE ...]     ->   "CASE MS" lines
 *
 * A checksum of each output is printed too, so the loops cannot be
 * optimized away. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void)
{
    struct timespec ts;
    clock_gettime(clock_id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static float uniform(void)     /* [-2, 2) */
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (float)(rng >> 40) / (float)(1 << 24) * 4.0f - 2.0f;
}

static float *randf(size_t n)
{
    float *p = malloc(n * sizeof *p);
    if (!p) abort();
    for (size_t i = 0; i < n; i++) p[i] = uniform();
    return p;
}

/* f16 <-> f32, round to nearest even (the interpreter's interp_f2h/interp_h2f) */
static float h2f(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, em = h & 0x7fff;
    union { uint32_t u; float f; } o = { em << 13 };
    o.f *= 0x1p112f;
    if (em >= 0x7c00) o.u |= 0x7f800000u;
    o.u |= sign;
    return o.f;
}

static uint16_t f2h(float f)
{
    union { float f; uint32_t u; } v = { f };
    uint32_t sign = (v.u >> 16) & 0x8000, x = v.u & 0x7fffffffu;
    if (x >= 0x7f800000u) return (uint16_t)(sign | (x > 0x7f800000u ? 0x7e00 : 0x7c00));
    if (x >= 0x477ff000u) return (uint16_t)(sign | 0x7c00);
    if (x < 0x38800000u) {
        union { uint32_t u; float f; } a = { x };
        a.f += 0.5f;
        return (uint16_t)(sign | (a.u - 0x3f000000u));
    }
    x += 0xc8000fffu + ((x >> 13) & 1);
    return (uint16_t)(sign | (x >> 13));
}

enum { NV = 1 << 20, R = 1024, C = 1024, MM = 256 };

static float *vx, *vy, *vo, *sx, *so, *lx, *ly, *lw, *lb, *lmean, *lrstd, *fa, *fb, *fc;
static uint16_t *ha, *hb, *hc;

static void vector_add(void)
{
    const float *restrict x = vx, *restrict y = vy;
    float *restrict o = vo;
    for (int i = 0; i < NV; i++) o[i] = x[i] + y[i];
}

static void softmax(void)
{
    for (int r = 0; r < R; r++) {
        const float *restrict x = sx + (size_t)r * C;
        float *restrict o = so + (size_t)r * C;
        float mx = -INFINITY;
        for (int c = 0; c < C; c++) mx = x[c] > mx ? x[c] : mx;
        float sum = 0;
        for (int c = 0; c < C; c++) {
            o[c] = expf(x[c] - mx);
            sum += o[c];
        }
        for (int c = 0; c < C; c++) o[c] /= sum;
    }
}

static void layer_norm(void)
{
    for (int r = 0; r < R; r++) {
        const float *restrict x = lx + (size_t)r * C;
        float *restrict y = ly + (size_t)r * C;
        float s = 0;
        for (int c = 0; c < C; c++) s += x[c];
        float mean = s / C, sq = 0;
        for (int c = 0; c < C; c++) sq += (x[c] - mean) * (x[c] - mean);
        float rstd = 1 / sqrtf(sq / C + 1e-5f);
        lmean[r] = mean;
        lrstd[r] = rstd;
        for (int c = 0; c < C; c++) y[c] = (x[c] - mean) * rstd * lw[c] + lb[c];
    }
}

static void matmul(void)
{
    for (int i = 0; i < MM * MM; i++) {
        fa[i] = h2f(ha[i]);
        fb[i] = h2f(hb[i]);
        fc[i] = 0;
    }
    for (int i = 0; i < MM; i++)
        for (int k = 0; k < MM; k++) {
            float a = fa[i * MM + k];
            float *restrict c = fc + i * MM;
            const float *restrict b = fb + k * MM;
            for (int j = 0; j < MM; j++) c[j] += a * b[j];
        }
    for (int i = 0; i < MM * MM; i++) hc[i] = f2h(fc[i]);
}

static double checksum(const float *p, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += p[i];
    return s;
}

static const struct { const char *name; void (*fn)(void); } cases[] = {
    { "vector_add", vector_add }, { "softmax", softmax }, { "layer_norm", layer_norm }, { "matmul", matmul },
};

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int repeat = 9, first = 1;
    for (;;) {
        if (argc > first && !strcmp(argv[first], "--cpu")) {
            clock_id = CLOCK_PROCESS_CPUTIME_ID;
            first++;
        } else if (argc > first + 1 && !strcmp(argv[first], "--repeat")) {
            repeat = atoi(argv[first + 1]);
            if (repeat < 1 || repeat > 10000) {
                fprintf(stderr, "plain_c: --repeat takes 1 to 10000, got '%s'\n", argv[first + 1]);
                return 2;
            }
            first += 2;
        } else {
            break;
        }
    }
    vx = randf(NV), vy = randf(NV), vo = randf(NV);
    sx = randf((size_t)R * C), so = randf((size_t)R * C);
    lx = randf((size_t)R * C), ly = randf((size_t)R * C), lw = randf(C), lb = randf(C);
    lmean = randf(R), lrstd = randf(R);
    fa = randf(MM * MM), fb = randf(MM * MM), fc = randf(MM * MM);
    ha = malloc(MM * MM * 2), hb = malloc(MM * MM * 2), hc = malloc(MM * MM * 2);
    if (!ha || !hb || !hc) abort();
    for (int i = 0; i < MM * MM; i++) ha[i] = f2h(uniform()), hb[i] = f2h(uniform());
    double *t = malloc((size_t)repeat * sizeof *t);
    if (!t) abort();
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        int want = argc <= first;
        for (int a = first; a < argc; a++) want |= !strcmp(argv[a], cases[k].name);
        if (!want) continue;
        cases[k].fn();                               /* warm-up: caches, page faults */
        for (int r = 0; r < repeat; r++) {
            double t0 = now();
            cases[k].fn();
            t[r] = now() - t0;
        }
        qsort(t, (size_t)repeat, sizeof *t, cmp);
        double sum = k == 0 ? checksum(vo, NV) : k == 1 ? checksum(so, (size_t)R * C)
                   : k == 2 ? checksum(ly, (size_t)R * C) + checksum(lrstd, R) : (double)hc[MM * MM / 2];
        printf("%s %.4f  (checksum %g)\n", cases[k].name, t[repeat / 2] * 1e3, sum);
    }
    free(t);
    return 0;
}
