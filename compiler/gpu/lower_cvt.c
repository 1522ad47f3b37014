/* lower_cvt.c — layout conversion: a value's registers in another layout,
 * by picking registers, rematerializing cheap values, or a round trip
 * through shared memory (Triton's ConvertLayoutOp lowering), plus the
 * per-layout lane/warp coordinates and owner predicates, the pure ops in any
 * layout (rematerialization lowers them again), and the swizzled operand
 * tiles of tensor-core dots in shared memory. */
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

/* ---- pure ops in any layout ----------------------------------------------
 * lower.c's dispatcher lowers pure ops here in their planned layout; a
 * conversion rematerializes a cheap value by lowering its op again in the
 * wanted layout (g_convert -> g_lower_pure -> g_convert of the operands: the
 * two recurse, so they live in one file); lower_reduce.c and pipeline.c
 * lower combine bodies and prologue address math with their own fetch. */

static LLVMValueRef const_of(gctx *g, const ir_op *op, ir_type t)
{
    LLVMTypeRef lt = g_type(g, t);
    tt_dtype e = ir_type_get(ir_type_elem(t))->elem;
    if (tt_dtype_is_fp8(e)) return LLVMConstInt(lt, tt_fp8_encode_f64(e, op->fval), 0);
    if (ir_type_is_float(t)) return LLVMConstReal(lt, op->fval);
    if (ir_type_is_ptr(t)) return LLVMConstIntToPtr(LLVMConstInt(g->t_i64, (unsigned long long)op->ival, 0), lt);
    return LLVMConstInt(lt, (unsigned long long)op->ival, 1);
}

static gv fetch_default(gctx *g, ir_value v, int lay, void *ctx)
{
    (void)ctx;
    return g_convert(g, v, lay);
}

gv g_lower_pure(gctx *g, ir_op *op, int lay)
{
    return g_lower_pure_with(g, op, lay, fetch_default, NULL);
}

gv g_lower_pure_with(gctx *g, ir_op *op, int lay, g_fetch_fn fetch, void *ctx)
{
    ir_func *f = g->f;
    ir_type rt = f->values.v[op->res].type;
    int n = nregs(g, lay);
    const glayout *L = gl_get(g, lay);
    gv y = g_new(g, n, lay);
    switch (op->opc) {
    case IR_CONSTANT: {
        LLVMValueRef c = const_of(g, op, rt);
        for (int r = 0; r < n; r++) y.r[r] = c;
        return y;
    }
    case IR_MAKE_RANGE: {
        LLVMValueRef base = LLVMBuildAdd(g->B, g_lw_coord(g, lay, 0), g_const_i32(g, op->attr[0]), "");
        for (int r = 0; r < n; r++)
            y.r[r] = LLVMBuildAdd(g->B, base, g_const_i32(g, gl_regcoord(L, r, 0)), "");
        return y;
    }
    case IR_SPLAT: {
        gv s = fetch(g, op->opnd[0], 0, ctx);
        for (int r = 0; r < n; r++) y.r[r] = s.r[0];
        return y;
    }
    case IR_BROADCAST: {
        ir_value src = op->opnd[0];
        const ir_type_info *si = ir_type_get(f->values.v[src].type);
        if (si->rank == 0) {
            gv s = fetch(g, src, 0, ctx);
            for (int r = 0; r < n; r++) y.r[r] = s.r[0];
            return y;
        }
        glayout P;
        gl_project(&P, L, si->shape);
        int pl = gl_intern(g, &P);
        L = gl_get(g, lay);                     /* interning may move the table */
        gv s = fetch(g, src, pl, ctx);
        return g_convert_gv(g, s, f->values.v[src].type, lay);
    }
    case IR_EXPAND_DIMS: {
        glayout S;
        gl_slice(&S, L, (int)op->attr[0]);
        int sl = gl_intern(g, &S);
        gv s = fetch(g, op->opnd[0], sl, ctx);
        for (int r = 0; r < n; r++) y.r[r] = s.r[r];
        return y;
    }
    default:
        break;
    }
    if (!(ir_ops[op->opc].props & P_ELEMWISE)) die("lower_pure: %s", ir_ops[op->opc].name);
    gv in[4];                                  /* elementwise ops take up to 4 (math.norm4d) */
    for (int i = 0; i < op->nopnd && i < 4; i++) {
        ir_value o = op->opnd[i];
        if (ir_type_rank(f->values.v[o].type) == 0) {
            gv s = fetch(g, o, 0, ctx);
            in[i] = g_new(g, n, lay);
            for (int r = 0; r < n; r++) in[i].r[r] = s.r[0];
        } else {
            in[i] = fetch(g, o, lay, ctx);
        }
    }
    int r = 0;
    LLVMTypeRef et = op->opc == IR_TRUNCF ? g_type(g, f->values.v[op->res].type) : NULL;
    if (op->opc == IR_TRUNCF)                  /* f32 -> f16/bf16 two registers at a time */
        for (; r + 1 < n && g_truncf_pair(g, et, in[0].r[r], in[0].r[r + 1], &y.r[r], &y.r[r + 1]); r += 2) {}
    for (; r < n && !g->failed; r++) {
        LLVMValueRef a[4];
        for (int i = 0; i < op->nopnd && i < 4; i++) a[i] = in[i].r[r];
        y.r[r] = g_elem(g, op, a);
    }
    return y;
}

/* ---- operand tiles of tensor-core dots in shared memory (gtile) ---------- */

void g_tile_swizzle(const gtile *t, int *per_phase, int *max_phase)
{
    int rb = (int)(t->cols * t->esz);
    int pp = rb >= 128 ? 1 : 128 / rb;
    if (pp > 8) pp = 8;
    *per_phase = pp;
    *max_phase = 8 / pp;
}

LLVMValueRef g_tile_offset(gctx *g, const gtile *t, LLVMValueRef row, LLVMValueRef col)
{
    int per, mp;
    g_tile_swizzle(t, &per, &mp);
    LLVMBuilderRef B = g->B;
    LLVMValueRef cb = LLVMBuildMul(B, col, g_const_i32(g, t->esz), "");
    int64_t rb = t->cols * t->esz;
    LLVMValueRef slab = NULL;
    if (t->wg && rb > 128) {
        /* wgmma layout: rows of 128-byte column slabs, slab after slab */
        slab = LLVMBuildMul(B, LLVMBuildLShr(B, cb, g_const_i32(g, 7), ""), g_const_i32(g, t->rows * 128), "");
        cb = LLVMBuildAnd(B, cb, g_const_i32(g, 127), "");
        rb = 128;
    }
    LLVMValueRef chunk = LLVMBuildLShr(B, cb, g_const_i32(g, 4), ""), within = LLVMBuildAnd(B, cb, g_const_i32(g, 15), "");
    LLVMValueRef ph = LLVMBuildAnd(B, LLVMBuildLShr(B, row, g_const_i32(g, __builtin_ctz((unsigned)per)), ""), g_const_i32(g, mp - 1), "");
    chunk = LLVMBuildXor(B, chunk, ph, "");
    LLVMValueRef off = LLVMBuildMul(B, row, g_const_i32(g, rb), "");
    if (slab) off = LLVMBuildAdd(B, off, slab, "");
    off = LLVMBuildAdd(B, off, LLVMBuildShl(B, chunk, g_const_i32(g, 4), ""), "");
    return LLVMBuildAdd(B, off, within, "");
}

/* Vector stores of runs that are consecutive along dim 1. */
void g_tile_store(gctx *g, gv x, const gtile *t)
{
    const glayout *L = gl_get(g, x.lay);
    int bitreg[4], nb = 0;
    while (nb < 3) {
        int found = -1;
        for (int r = 0; r < L->nreg; r++)
            if (L->reg[r].dim == 1 && L->reg[r].bit == nb) found = r;
        if (found < 0) break;
        bitreg[nb++] = found;
    }
    int v = 1 << nb;
    LLVMTypeRef et = LLVMTypeOf(x.r[0]);
    LLVMTypeRef vt = v > 1 ? LLVMVectorType(et, (unsigned)v) : et;
    LLVMValueRef r0 = g_lw_coord(g, x.lay, 0), c0 = g_lw_coord(g, x.lay, 1);
    for (int r = 0; r < x.n; r++) {
        bool base = true;
        for (int i = 0; i < nb; i++)
            if (r >> bitreg[i] & 1) base = false;
        if (!base) continue;
        LLVMValueRef row = LLVMBuildAdd(g->B, r0, g_const_i32(g, gl_regcoord(L, r, 0)), "");
        LLVMValueRef col = LLVMBuildAdd(g->B, c0, g_const_i32(g, gl_regcoord(L, r, 1)), "");
        LLVMValueRef val;
        if (v == 1) {
            val = x.r[r];
        } else {
            val = LLVMGetUndef(vt);
            for (int e = 0; e < v; e++) {
                int m = r;
                for (int i = 0; i < nb; i++)
                    if (e >> i & 1) m |= 1 << bitreg[i];
                val = LLVMBuildInsertElement(g->B, val, x.r[m], g_const_i32(g, e), "");
            }
        }
        LLVMValueRef off = g_tile_offset(g, t, row, col);
        LLVMValueRef st = LLVMBuildStore(g->B, val, LLVMBuildGEP2(g->B, g->t_i8, t->base, &off, 1, ""));
        LLVMSetAlignment(st, (unsigned)(2 * v));
    }
}
