/* layout.c — single-bit linear layouts (see gpu_int.h): construction from
 * Triton's blocked encoding, slices, expansion, projection for broadcasts,
 * mma.sync fragment layouts, and register lookups. */
#include "gpu_int.h"

#include <string.h>

static int log2i(int64_t x)
{
    int b = 0;
    while (((int64_t)1 << b) < x) b++;
    return b;
}

static bool pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

static void init(glayout *L, int rank, const int64_t *shape, int nwarp)
{
    memset(L, 0, sizeof *L);
    L->rank = rank;
    for (int d = 0; d < rank; d++) L->shape[d] = shape[d];
    L->nwarp = nwarp;
    for (int i = 0; i < 5; i++) L->lane[i].dim = -1;
    for (int i = 0; i < GL_MAXWARP; i++) L->warp[i].dim = -1;
}

void gl_scalar(glayout *L, int nwarp)
{
    init(L, 0, NULL, nwarp);
}

bool gl_blocked(glayout *L, int rank, const int64_t *shape, const int *spt, const int *tpw,
                const int *wpc, const int *order, int nwarp)
{
    init(L, rank, shape, nwarp);
    int nb[IR_MAX_RANK], next[IR_MAX_RANK] = { 0 };
    for (int d = 0; d < rank; d++) {
        if (!pow2(shape[d])) return false;
        nb[d] = log2i(shape[d]);
    }
    int nl = 0, nw = 0;
    for (int i = 0; i < rank; i++) {
        int d = order[i];
        for (int k = 0; k < log2i(spt[d]); k++, next[d]++)
            if (next[d] < nb[d]) {
                if (L->nreg == GL_MAXREG) return false;
                L->reg[L->nreg++] = (gbasis){ (int8_t)d, (int8_t)next[d] };
            }
    }
    for (int i = 0; i < rank; i++) {
        int d = order[i];
        for (int k = 0; k < log2i(tpw[d]); k++, next[d]++, nl++)
            if (next[d] < nb[d]) L->lane[nl] = (gbasis){ (int8_t)d, (int8_t)next[d] };
    }
    for (int i = 0; i < rank; i++) {
        int d = order[i];
        for (int k = 0; k < log2i(wpc[d]); k++, next[d]++, nw++)
            if (next[d] < nb[d]) L->warp[nw] = (gbasis){ (int8_t)d, (int8_t)next[d] };
    }
    if (nl != 5 || nw != nwarp) die("gl_blocked: %d lane bits, %d warp bits", nl, nw);
    for (int i = 0; i < rank; i++) {
        int d = order[i];
        for (; next[d] < nb[d]; next[d]++) {
            if (L->nreg == GL_MAXREG) return false;
            L->reg[L->nreg++] = (gbasis){ (int8_t)d, (int8_t)next[d] };
        }
    }
    return true;
}

bool gl_default(glayout *L, int rank, const int64_t *shape, int vec, int num_warps)
{
    int nwarp = log2i(num_warps);
    if (rank == 0) {
        gl_scalar(L, nwarp);
        return true;
    }
    int64_t numel = 1;
    for (int d = 0; d < rank; d++) {
        if (!pow2(shape[d])) return false;
        numel *= shape[d];
    }
    int spt[IR_MAX_RANK], tpw[IR_MAX_RANK], wpc[IR_MAX_RANK], order[IR_MAX_RANK];
    for (int i = 0; i < rank; i++) {
        order[i] = rank - 1 - i;
        spt[i] = tpw[i] = wpc[i] = 1;
    }
    int64_t per = numel / (32 * num_warps);
    if (per < 1) per = 1;
    int64_t v = vec;
    if (v > per) v = per;
    if (v > shape[rank - 1]) v = shape[rank - 1];
    spt[rank - 1] = (int)v;
    int rem = 32;
    for (int i = 0; i < rank; i++) {
        int d = order[i];
        int64_t t = shape[d] / spt[d];
        if (t < 1) t = 1;
        if (t > rem) t = rem;
        if (i == rank - 1) t = rem;
        tpw[d] = (int)t;
        rem /= (int)t;
    }
    rem = num_warps;
    for (int i = 0; i < rank; i++) {
        int d = order[i];
        int64_t w = shape[d] / ((int64_t)spt[d] * tpw[d]);
        if (w < 1) w = 1;
        if (w > rem) w = rem;
        if (i == rank - 1) w = rem;
        wpc[d] = (int)w;
        rem /= (int)w;
    }
    return gl_blocked(L, rank, shape, spt, tpw, wpc, order, nwarp);
}

void gl_slice(glayout *out, const glayout *L, int axis)
{
    glayout r;
    int64_t shape[IR_MAX_RANK];
    for (int d = 0, k = 0; d < L->rank; d++)
        if (d != axis) shape[k++] = L->shape[d];
    init(&r, L->rank - 1, shape, L->nwarp);
#define MAP(b) ((b).dim < 0 || (b).dim == axis ? (gbasis){ -1, 0 } \
               : (gbasis){ (int8_t)((b).dim > axis ? (b).dim - 1 : (b).dim), (b).bit })
    for (int i = 0; i < L->nreg; i++)
        if (L->reg[i].dim != axis) r.reg[r.nreg++] = MAP(L->reg[i]);
    for (int i = 0; i < 5; i++) r.lane[i] = MAP(L->lane[i]);
    for (int i = 0; i < L->nwarp; i++) r.warp[i] = MAP(L->warp[i]);
#undef MAP
    *out = r;
}

void gl_expand(glayout *out, const glayout *L, int axis)
{
    glayout r;
    int64_t shape[IR_MAX_RANK];
    for (int d = 0, k = 0; d <= L->rank; d++) shape[d] = d == axis ? 1 : L->shape[k++];
    init(&r, L->rank + 1, shape, L->nwarp);
#define MAP(b) ((b).dim < 0 ? (b) : (gbasis){ (int8_t)((b).dim >= axis ? (b).dim + 1 : (b).dim), (b).bit })
    for (int i = 0; i < L->nreg; i++) r.reg[r.nreg++] = MAP(L->reg[i]);
    for (int i = 0; i < 5; i++) r.lane[i] = MAP(L->lane[i]);
    for (int i = 0; i < L->nwarp; i++) r.warp[i] = MAP(L->warp[i]);
#undef MAP
    *out = r;
}

void gl_project(glayout *out, const glayout *L, const int64_t *shape)
{
    glayout r;
    init(&r, L->rank, shape, L->nwarp);
#define GONE(b) ((b).dim >= 0 && shape[(b).dim] < L->shape[(b).dim] && ((int64_t)1 << (b).bit) >= shape[(b).dim])
    for (int i = 0; i < L->nreg; i++)
        if (!GONE(L->reg[i])) r.reg[r.nreg++] = L->reg[i];
    for (int i = 0; i < 5; i++) r.lane[i] = GONE(L->lane[i]) ? (gbasis){ -1, 0 } : L->lane[i];
    for (int i = 0; i < L->nwarp; i++) r.warp[i] = GONE(L->warp[i]) ? (gbasis){ -1, 0 } : L->warp[i];
#undef GONE
    *out = r;
}

static bool same_basis(gbasis a, gbasis b)
{
    if (a.dim < 0 || b.dim < 0) return a.dim < 0 && b.dim < 0;
    return a.dim == b.dim && a.bit == b.bit;
}

bool gl_equal(const glayout *a, const glayout *b)
{
    if (a->rank != b->rank || a->nreg != b->nreg || a->nwarp != b->nwarp) return false;
    for (int d = 0; d < a->rank; d++)
        if (a->shape[d] != b->shape[d]) return false;
    for (int i = 0; i < a->nreg; i++)
        if (!same_basis(a->reg[i], b->reg[i])) return false;
    for (int i = 0; i < 5; i++)
        if (!same_basis(a->lane[i], b->lane[i])) return false;
    for (int i = 0; i < a->nwarp; i++)
        if (!same_basis(a->warp[i], b->warp[i])) return false;
    return true;
}

int64_t gl_regcoord(const glayout *L, int r, int d)
{
    int64_t c = 0;
    for (int i = 0; i < L->nreg; i++)
        if ((r >> i & 1) && L->reg[i].dim == d) c |= (int64_t)1 << L->reg[i].bit;
    return c;
}

int gl_reg_of(const glayout *L, const int64_t *coord)
{
    int64_t c[IR_MAX_RANK];
    for (int d = 0; d < L->rank; d++) c[d] = coord[d];
    int r = 0;
    for (int i = 0; i < L->nreg; i++) {
        int d = L->reg[i].dim;
        int64_t m = (int64_t)1 << L->reg[i].bit;
        if (c[d] & m) {
            r |= 1 << i;
            c[d] &= ~m;
        }
    }
    for (int d = 0; d < L->rank; d++)
        if (c[d]) return -1;
    return r;
}

unsigned gl_lane_repl(const glayout *L)
{
    unsigned m = 0;
    for (int i = 0; i < 5; i++)
        if (L->lane[i].dim < 0) m |= 1u << i;
    return m;
}

unsigned gl_warp_repl(const glayout *L)
{
    unsigned m = 0;
    for (int i = 0; i < L->nwarp; i++)
        if (L->warp[i].dim < 0) m |= 1u << i;
    return m;
}

bool gl_reg_map(const glayout *from, const glayout *to, int *map)
{
    if (from->rank != to->rank || from->nwarp != to->nwarp) return false;
    for (int d = 0; d < to->rank; d++)
        if (from->shape[d] != to->shape[d] && from->shape[d] != 1) return false;
    glayout p;
    gl_project(&p, to, from->shape);
    for (int i = 0; i < 5; i++)
        if (!same_basis(p.lane[i], from->lane[i])) return false;
    for (int i = 0; i < to->nwarp; i++)
        if (!same_basis(p.warp[i], from->warp[i])) return false;
    for (int r = 0; r < (1 << to->nreg); r++) {
        int64_t c[IR_MAX_RANK];
        for (int d = 0; d < to->rank; d++) c[d] = from->shape[d] == 1 ? 0 : gl_regcoord(to, r, d);
        int s = gl_reg_of(from, c);
        if (s < 0) return false;
        map[r] = s;
    }
    return true;
}

void gl_print(FILE *f, const glayout *L)
{
    fprintf(f, "layout<");
    for (int d = 0; d < L->rank; d++) fprintf(f, "%s%lld", d ? "x" : "", (long long)L->shape[d]);
    const char *nm[] = { "reg", "lane", "warp" };
    const gbasis *bs[] = { L->reg, L->lane, L->warp };
    int ns[] = { L->nreg, 5, L->nwarp };
    for (int k = 0; k < 3; k++) {
        fprintf(f, " %s=[", nm[k]);
        for (int i = 0; i < ns[k]; i++) {
            if (bs[k][i].dim < 0) fprintf(f, "%s-", i ? "," : "");
            else fprintf(f, "%s%d.%d", i ? "," : "", bs[k][i].dim, bs[k][i].bit);
        }
        fprintf(f, "]");
    }
    fprintf(f, ">");
}

/* Helper for gl_mma: append bits lo..hi-1 of dim d to the register bases. */
static bool add_regs(glayout *L, int d, int lo, int hi)
{
    for (int b = lo; b < hi; b++) {
        if (L->nreg == GL_MAXREG) return false;
        L->reg[L->nreg++] = (gbasis){ (int8_t)d, (int8_t)b };
    }
    return true;
}

void gl_mma_warps(int64_t M, int64_t N, int nwarp, int *wm, int *wn)
{
    /* Triton's MMAv2 warpsPerTile: grow the dim with more 16x16 tiles left */
    int a = 0, b = 0;
    while (a + b < nwarp) {
        if ((M >> 4 >> a) >= (N >> 4 >> b)) {
            if (((int64_t)16 << a) < M) a++;
            else b++;
        } else {
            if (((int64_t)8 << b) < N) b++;
            else a++;
        }
    }
    *wm = a;
    *wn = b;
}

bool gl_mma(glayout *L, int op, int64_t M, int64_t N, int64_t K, int kw, int num_warps)
{
    if (!pow2(M) || !pow2(N) || !pow2(K) || M < 16 || N < 8 || K < kw) return false;
    int nwarp = log2i(num_warps);
    int wm, wn;                                  /* warp bits along M and N (replicated past the shape) */
    gl_mma_warps(M, N, nwarp, &wm, &wn);
    int mb = log2i(M), nb = log2i(N), kb = log2i(K);
    int64_t shape[2];
    if (op == 0) {
        shape[0] = M; shape[1] = N;
        init(L, 2, shape, nwarp);
        L->reg[L->nreg++] = (gbasis){ 1, 0 };
        L->reg[L->nreg++] = (gbasis){ 0, 3 };
        L->lane[0] = (gbasis){ 1, 1 }; L->lane[1] = (gbasis){ 1, 2 };
        L->lane[2] = (gbasis){ 0, 0 }; L->lane[3] = (gbasis){ 0, 1 }; L->lane[4] = (gbasis){ 0, 2 };
        for (int i = 0; i < wm; i++) L->warp[i] = 4 + i < mb ? (gbasis){ 0, (int8_t)(4 + i) } : (gbasis){ -1, 0 };
        for (int i = 0; i < wn; i++) L->warp[wm + i] = 3 + i < nb ? (gbasis){ 1, (int8_t)(3 + i) } : (gbasis){ -1, 0 };
        return add_regs(L, 1, 3 + wn < nb ? 3 + wn : nb, nb) && add_regs(L, 0, 4 + wm < mb ? 4 + wm : mb, mb);
    }
    if (op == 1) {                               /* A [M,K] */
        shape[0] = M; shape[1] = K;
        init(L, 2, shape, nwarp);
        if (kw == 16) {
            L->reg[L->nreg++] = (gbasis){ 1, 0 };
            L->reg[L->nreg++] = (gbasis){ 0, 3 };
            L->reg[L->nreg++] = (gbasis){ 1, 3 };
            L->lane[0] = (gbasis){ 1, 1 }; L->lane[1] = (gbasis){ 1, 2 };
        } else {
            L->reg[L->nreg++] = (gbasis){ 0, 3 };
            L->reg[L->nreg++] = (gbasis){ 1, 2 };
            L->lane[0] = (gbasis){ 1, 0 }; L->lane[1] = (gbasis){ 1, 1 };
        }
        L->lane[2] = (gbasis){ 0, 0 }; L->lane[3] = (gbasis){ 0, 1 }; L->lane[4] = (gbasis){ 0, 2 };
        for (int i = 0; i < wm; i++) L->warp[i] = 4 + i < mb ? (gbasis){ 0, (int8_t)(4 + i) } : (gbasis){ -1, 0 };
        return add_regs(L, 1, kw == 16 ? 4 : 3, kb) && add_regs(L, 0, 4 + wm < mb ? 4 + wm : mb, mb);
    }
    /* B [K,N] */
    shape[0] = K; shape[1] = N;
    init(L, 2, shape, nwarp);
    if (kw == 16) {
        L->reg[L->nreg++] = (gbasis){ 0, 0 };
        L->reg[L->nreg++] = (gbasis){ 0, 3 };
        L->lane[0] = (gbasis){ 0, 1 }; L->lane[1] = (gbasis){ 0, 2 };
    } else {
        L->reg[L->nreg++] = (gbasis){ 0, 2 };
        L->lane[0] = (gbasis){ 0, 0 }; L->lane[1] = (gbasis){ 0, 1 };
    }
    L->lane[2] = (gbasis){ 1, 0 }; L->lane[3] = (gbasis){ 1, 1 }; L->lane[4] = (gbasis){ 1, 2 };
    for (int i = 0; i < wn; i++) L->warp[wm + i] = 3 + i < nb ? (gbasis){ 1, (int8_t)(3 + i) } : (gbasis){ -1, 0 };
    return add_regs(L, 0, kw == 16 ? 4 : 3, kb) && add_regs(L, 1, 3 + wn < nb ? 3 + wn : nb, nb);
}

bool gl_wgmma(glayout *L, int64_t M, int64_t N, int num_warps)
{
    if (num_warps != 4 && num_warps != 8) return false;
    int64_t wgrows = 16 * (int64_t)num_warps;     /* rows of one m64 block per warpgroup, all warpgroups */
    if (!pow2(M) || !pow2(N) || M < wgrows || N < 16 || N > 256) return false;
    int nwarp = log2i(num_warps), mb = log2i(M), nb = log2i(N);
    int64_t shape[2] = { M, N };
    init(L, 2, shape, nwarp);
    L->reg[L->nreg++] = (gbasis){ 1, 0 };
    L->reg[L->nreg++] = (gbasis){ 0, 3 };
    L->lane[0] = (gbasis){ 1, 1 }; L->lane[1] = (gbasis){ 1, 2 };
    L->lane[2] = (gbasis){ 0, 0 }; L->lane[3] = (gbasis){ 0, 1 }; L->lane[4] = (gbasis){ 0, 2 };
    for (int i = 0; i < nwarp; i++) L->warp[i] = (gbasis){ 0, (int8_t)(4 + i) };
    return add_regs(L, 1, 3, nb) && add_regs(L, 0, 4 + nwarp, mb);
}

bool gl_wgmma_a(glayout *L, int64_t M, int64_t K, int num_warps)
{
    if (num_warps != 4 && num_warps != 8) return false;
    if (!pow2(M) || !pow2(K) || M < 16 * (int64_t)num_warps || K < 16) return false;
    int nwarp = log2i(num_warps), mb = log2i(M), kb = log2i(K);
    int64_t shape[2] = { M, K };
    init(L, 2, shape, nwarp);
    L->reg[L->nreg++] = (gbasis){ 1, 0 };
    L->reg[L->nreg++] = (gbasis){ 0, 3 };
    L->reg[L->nreg++] = (gbasis){ 1, 3 };
    L->lane[0] = (gbasis){ 1, 1 }; L->lane[1] = (gbasis){ 1, 2 };
    L->lane[2] = (gbasis){ 0, 0 }; L->lane[3] = (gbasis){ 0, 1 }; L->lane[4] = (gbasis){ 0, 2 };
    for (int i = 0; i < nwarp; i++) L->warp[i] = (gbasis){ 0, (int8_t)(4 + i) };
    return add_regs(L, 1, 4, kb) && add_regs(L, 0, 4 + nwarp, mb);
}
