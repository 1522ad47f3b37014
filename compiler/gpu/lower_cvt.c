/* lower_cvt.c — layout conversion: a value's registers in another layout,
 * by picking registers, rematerializing cheap values, or a round trip
 * through shared memory (Triton's ConvertLayoutOp lowering), plus the
 * per-layout lane/warp coordinates and owner predicates. */
#include "gpu_int.h"

#include <string.h>

static int nregs(gctx *g, int lay) { return 1 << gl_get(g, lay)->nreg; }

/* Run `fn` with the builder placed before the terminator of `bb` (or at the
 * end of the current block when bb is the current block), then restore. */
typedef struct gpos { LLVMBasicBlockRef bb; LLVMValueRef before; } gpos;

static gpos pos_save(gctx *g)
{
    gpos p = { LLVMGetInsertBlock(g->B), NULL };
    p.before = LLVMGetBasicBlockTerminator(p.bb);
    return p;
}

static void pos_restore(gctx *g, gpos p)
{
    if (p.before) LLVMPositionBuilderBefore(g->B, p.before);
    else LLVMPositionBuilderAtEnd(g->B, p.bb);
}

static void pos_in_block(gctx *g, LLVMBasicBlockRef bb)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (t) LLVMPositionBuilderBefore(g->B, t);
    else LLVMPositionBuilderAtEnd(g->B, bb);
}

/* ---- lane/warp coordinates ---------------------------------------------- */

static lw_ent *lw_get(gctx *g, int lay)
{
    for (int i = 0; i < g->lw.n; i++)
        if (g->lw.v[i].lay == lay) return &g->lw.v[i];
    const glayout *L = gl_get(g, lay);
    lw_ent e = { .lay = lay };
    gpos p = pos_save(g);
    pos_in_block(g, g->top);
    for (int d = 0; d < L->rank; d++) {
        LLVMValueRef c = g_const_i32(g, 0);
        for (int k = 0; k < 2; k++) {
            const gbasis *bs = k ? L->warp : L->lane;
            int n = k ? L->nwarp : 5;
            LLVMValueRef id = k ? g->warp : g->lane;
            for (int i = 0; i < n; i++) {
                if (bs[i].dim != d) continue;
                LLVMValueRef t = LLVMBuildAnd(g->B, id, g_const_i32(g, 1 << i), "");
                if (bs[i].bit > i) t = LLVMBuildShl(g->B, t, g_const_i32(g, bs[i].bit - i), "");
                else if (bs[i].bit < i) t = LLVMBuildLShr(g->B, t, g_const_i32(g, i - bs[i].bit), "");
                c = LLVMBuildOr(g->B, c, t, "");
            }
        }
        e.c[d] = c;
    }
    unsigned lm = gl_lane_repl(L), wm = gl_warp_repl(L);
    LLVMValueRef own = NULL;
    if (lm) own = LLVMBuildICmp(g->B, LLVMIntEQ, LLVMBuildAnd(g->B, g->lane, g_const_i32(g, lm), ""), g_const_i32(g, 0), "");
    if (wm) {
        LLVMValueRef w = LLVMBuildICmp(g->B, LLVMIntEQ, LLVMBuildAnd(g->B, g->warp, g_const_i32(g, wm), ""), g_const_i32(g, 0), "");
        own = own ? LLVMBuildAnd(g->B, own, w, "") : w;
    }
    e.owner = own;
    pos_restore(g, p);
    vec_push(&g->lw, e);
    return &g->lw.v[g->lw.n - 1];
}

LLVMValueRef g_lw_coord(gctx *g, int lay, int d) { return lw_get(g, lay)->c[d]; }
LLVMValueRef g_owner(gctx *g, int lay) { return lw_get(g, lay)->owner; }

/* Linear (row-major) index of the thread's lane/warp part in lay's shape. */
static LLVMValueRef lw_linear(gctx *g, int lay)
{
    const glayout *L = gl_get(g, lay);
    LLVMValueRef idx = g_const_i32(g, 0);
    int64_t stride = 1;
    for (int d = L->rank - 1; d >= 0; d--) {
        idx = LLVMBuildAdd(g->B, idx, LLVMBuildMul(g->B, g_lw_coord(g, lay, d), g_const_i32(g, stride), ""), "");
        stride *= L->shape[d];
    }
    return idx;
}

static int64_t reg_linear(const glayout *L, int r)
{
    int64_t idx = 0, stride = 1;
    for (int d = L->rank - 1; d >= 0; d--) {
        idx += gl_regcoord(L, r, d) * stride;
        stride *= L->shape[d];
    }
    return idx;
}

/* ---- conversions --------------------------------------------------------- */

static LLVMValueRef to_mem(gctx *g, LLVMValueRef v)
{
    return LLVMTypeOf(v) == g->t_i1 ? LLVMBuildZExt(g->B, v, g->t_i8, "") : v;
}

static LLVMValueRef from_mem(gctx *g, LLVMValueRef v, LLVMTypeRef t)
{
    return t == g->t_i1 ? LLVMBuildICmp(g->B, LLVMIntNE, v, LLVMConstInt(g->t_i8, 0, 0), "") : v;
}

/* Registers of L that hold consecutive elements along the last dim (a run
 * of up to 16 bytes): bitreg[i] is the register bit of coordinate bit i. */
static int smem_run(const glayout *L, int esz, int *bitreg)
{
    int last = L->rank - 1, n = 0;
    if (last < 0) return 0;
    while (((int64_t)esz << (n + 1)) <= 16) {
        int found = -1;
        for (int r = 0; r < L->nreg; r++)
            if (L->reg[r].dim == last && L->reg[r].bit == n) found = r;
        if (found < 0) break;
        bitreg[n++] = found;
    }
    return n;
}

static int run_member(const int *bitreg, int nb, int r0, int e)
{
    for (int i = 0; i < nb; i++)
        if (e >> i & 1) r0 |= 1 << bitreg[i];
    return r0;
}

static bool run_base(const int *bitreg, int nb, int r)
{
    for (int i = 0; i < nb; i++)
        if (r >> bitreg[i] & 1) return false;
    return true;
}

int g_mem_size(gctx *g, ir_type t)
{
    return (int)LLVMABISizeOfType(LLVMGetModuleDataLayout(g->M), g_mem_type(g, ir_type_elem(t)));
}

/* Element (c0, c1, ...) of a row-major tile at index lin + pad * c0: `pad`
 * elements after each index of dim 0 (0: dense). */
static LLVMValueRef padded(gctx *g, LLVMValueRef lin, int lay, int r, int pad)
{
    if (!pad) return lin;
    LLVMValueRef row = g_coord(g, lay, r, 0);
    return LLVMBuildAdd(g->B, lin, LLVMBuildMul(g->B, row, g_const_i32(g, pad), ""), "");
}

static void smem_put(gctx *g, gv x, ir_type t, LLVMValueRef base, int pad)
{
    const glayout *A = gl_get(g, x.lay);
    LLVMTypeRef mt = g_mem_type(g, ir_type_elem(t));
    int esz = g_mem_size(g, t);
    int bitreg[8], nb = smem_run(A, esz, bitreg), v = 1 << nb;
    LLVMTypeRef vt = v > 1 ? LLVMVectorType(mt, (unsigned)v) : mt;
    LLVMValueRef la = lw_linear(g, x.lay);
    for (int r = 0; r < x.n; r++) {
        if (!run_base(bitreg, nb, r)) continue;
        LLVMValueRef idx = padded(g, LLVMBuildAdd(g->B, la, g_const_i32(g, reg_linear(A, r)), ""), x.lay, r, pad);
        LLVMValueRef p = LLVMBuildGEP2(g->B, mt, base, &idx, 1, "");
        LLVMValueRef val;
        if (v == 1) {
            val = to_mem(g, x.r[r]);
        } else {
            val = LLVMGetUndef(vt);
            for (int e = 0; e < v; e++)
                val = LLVMBuildInsertElement(g->B, val, to_mem(g, x.r[run_member(bitreg, nb, r, e)]), g_const_i32(g, e), "");
        }
        LLVMValueRef st = LLVMBuildStore(g->B, val, p);
        LLVMSetAlignment(st, (unsigned)(esz * v));
    }
}

void g_smem_put(gctx *g, gv x, ir_type t, LLVMValueRef base) { smem_put(g, x, t, base, 0); }

LLVMValueRef g_coord(gctx *g, int lay, int r, int d)
{
    return LLVMBuildAdd(g->B, g_lw_coord(g, lay, d), g_const_i32(g, gl_regcoord(gl_get(g, lay), r, d)), "");
}

LLVMValueRef g_smem_get(gctx *g, LLVMValueRef base, LLVMValueRef idx, ir_type t)
{
    LLVMTypeRef mt = g_mem_type(g, ir_type_elem(t));
    LLVMValueRef p = LLVMBuildGEP2(g->B, mt, base, &idx, 1, "");
    return from_mem(g, LLVMBuildLoad2(g->B, mt, p, ""), g_type(g, t));
}

static gv smem_convert(gctx *g, gv x, ir_type t, int lay, int pad)
{
    const glayout *A = gl_get(g, x.lay), *Bl = gl_get(g, lay);
    LLVMTypeRef et = g_type(g, t), mt = g_mem_type(g, ir_type_elem(t));
    int64_t numel = 1;
    for (int d = 0; d < A->rank; d++) numel *= A->shape[d];
    int esz = g_mem_size(g, t);
    LLVMValueRef base = g_scratch(g, (numel + (int64_t)pad * A->shape[0]) * esz);
    smem_put(g, x, t, base, pad);
    g_barrier(g);
    int bitreg[8], nb, v;
    LLVMTypeRef vt;
    gv y = g_new(g, nregs(g, lay), lay);
    nb = smem_run(Bl, esz, bitreg);
    v = 1 << nb;
    vt = v > 1 ? LLVMVectorType(mt, (unsigned)v) : mt;
    LLVMValueRef lb = lw_linear(g, lay);
    for (int r = 0; r < y.n; r++) {
        if (!run_base(bitreg, nb, r)) continue;
        LLVMValueRef idx = padded(g, LLVMBuildAdd(g->B, lb, g_const_i32(g, reg_linear(Bl, r)), ""), lay, r, pad);
        LLVMValueRef p = LLVMBuildGEP2(g->B, mt, base, &idx, 1, "");
        LLVMValueRef ld = LLVMBuildLoad2(g->B, vt, p, "");
        LLVMSetAlignment(ld, (unsigned)(esz * v));
        if (v == 1) {
            y.r[r] = from_mem(g, ld, et);
        } else {
            for (int e = 0; e < v; e++)
                y.r[run_member(bitreg, nb, r, e)] = from_mem(g, LLVMBuildExtractElement(g->B, ld, g_const_i32(g, e), ""), et);
        }
    }
    g_barrier(g);
    return y;
}

gv g_convert_gv(gctx *g, gv x, ir_type t, int lay)
{
    if (x.lay == lay) return x;
    const glayout *to = gl_get(g, lay);
    int n = 1 << to->nreg;
    int *map = xmalloc(sizeof(int) * (size_t)n);
    if (gl_reg_map(gl_get(g, x.lay), to, map)) {
        gv y = g_new(g, n, lay);
        for (int r = 0; r < n; r++) y.r[r] = x.r[map[r]];
        free(map);
        return y;
    }
    free(map);
    if (gl_get(g, x.lay)->rank == 0) {       /* a scalar into any layout */
        gv y = g_new(g, n, lay);
        for (int r = 0; r < n; r++) y.r[r] = x.r[0];
        return y;
    }
    return smem_convert(g, x, t, lay, 0);
}

gv g_convert_padded(gctx *g, ir_value v, int lay)
{
    ir_type t = g->f->values.v[v].type;
    gv x = g_get(g, v);
    if (x.lay == lay) return x;
    return smem_convert(g, x, t, lay, 16 / g_mem_size(g, t));
}

gv g_convert(gctx *g, ir_value v, int lay)
{
    gv x = g_get(g, v);
    if (x.lay == lay) return x;
    for (int i = 0; i < g->remat.n; i++)
        if (g->remat.v[i].v == v && g->remat.v[i].lay == lay) return g->remat.v[i].g;
    ir_type t = g->f->values.v[v].type;
    const glayout *to = gl_get(g, lay);
    int n = 1 << to->nreg;
    int *map = xmalloc(sizeof(int) * (size_t)n);
    bool ok = gl_reg_map(gl_get(g, x.lay), to, map);
    free(map);
    if (!ok && ir_type_rank(t) > 0 && gpu_is_remat(g, v, 0)) {
        gpos p = pos_save(g);
        pos_in_block(g, g->vblock[v]);
        gv y = g_lower_pure(g, ir_def(g->f, v), lay);
        pos_restore(g, p);
        remat_ent e = { v, lay, y };
        vec_push(&g->remat, e);
        return y;
    }
    return g_convert_gv(g, x, t, lay);
}
