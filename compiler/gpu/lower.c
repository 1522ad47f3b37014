/* lower.c — IR -> LLVM IR: the dispatcher (one case per op family), the
 * kernel function and structured control flow. LLVM helpers live in
 * lower_llvm.c, layout conversion and the pure ops in lower_cvt.c; memory
 * ops, reductions and dots in lower_mem.c, lower_reduce.c and lower_dot.c;
 * per-element arithmetic in lower_elem.c. Calls go one way: this file calls
 * the others, none calls back (scripts/include_graph.py checks it), and the
 * decisions they share (which dot path, which masks) are plan.c's. */
#include "gpu_int.h"

#include <string.h>

static int nregs(gctx *g, int lay) { return 1 << gl_get(g, lay)->nreg; }

/* ---- trans / reshape: relabel coordinate bits ---------------------------- */

static void lower_relabel(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    ir_value src = op->opnd[0];
    const ir_type_info *si = ir_type_get(f->values.v[src].type);
    const ir_type_info *ri = ir_type_get(f->values.v[op->res].type);
    const glayout *S = gl_get(g, g->vlay[src]);
    glayout R = *S;
    R.rank = ri->rank;
    for (int d = 0; d < ri->rank; d++) R.shape[d] = ri->shape[d];
    int lg[IR_MAX_RANK], rl[IR_MAX_RANK];
    for (int d = 0; d < si->rank; d++) { lg[d] = 0; while (((int64_t)1 << lg[d]) < si->shape[d]) lg[d]++; }
    for (int d = 0; d < ri->rank; d++) { rl[d] = 0; while (((int64_t)1 << rl[d]) < ri->shape[d]) rl[d]++; }
    int perm[IR_MAX_RANK];
    if (op->opc == IR_TRANS) {
        /* order attribute: result dim d is source dim order[d]; default reverse */
        for (int d = 0; d < ri->rank; d++) perm[d] = ri->rank - 1 - d;
        int64_t ord[IR_ATTR_ARRAY_MAX];
        int n = ir_attr_array_get(f, op->attr[0], ord);
        if (n == ri->rank)
            for (int d = 0; d < n; d++) perm[d] = (int)ord[d];
    }
    gbasis *lists[3] = { R.reg, R.lane, R.warp };
    int counts[3] = { R.nreg, 5, R.nwarp };
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < counts[k]; i++) {
            gbasis *b = &lists[k][i];
            if (b->dim < 0) continue;
            if (op->opc == IR_TRANS) {
                for (int d = 0; d < ri->rank; d++)
                    if (perm[d] == b->dim) { b->dim = (int8_t)d; break; }
            } else {
                int lin = b->bit;             /* bit of the row-major linear index */
                for (int d = b->dim + 1; d < si->rank; d++) lin += lg[d];
                int d = ri->rank - 1;
                while (d > 0 && lin >= rl[d]) { lin -= rl[d]; d--; }
                b->dim = (int8_t)d;
                b->bit = (int8_t)lin;
            }
        }
    }
    int lay = gl_intern(g, &R);
    gv s = g_get(g, src);
    gv y = g_new(g, s.n, lay);
    for (int r = 0; r < s.n; r++) y.r[r] = s.r[r];
    g_set(g, op->res, g_convert_gv(g, y, f->values.v[op->res].type, g->vlay[op->res]));
}

/* ---- regions and control flow ------------------------------------------- */

static void lower_region(gctx *g, int r);

static ir_op *terminator(gctx *g, int r)
{
    ir_region *rg = &g->f->regions.v[r];
    if (!rg->nops) return NULL;
    ir_op *t = &rg->ops[rg->nops - 1];
    return (ir_ops[t->opc].props & P_TERMINATOR) ? t : NULL;
}

static bool block_done(gctx *g) { return LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(g->B)) != NULL; }

static LLVMBasicBlockRef new_block(gctx *g, const char *name)
{
    return LLVMAppendBasicBlockInContext(g->C, g->fn, name);
}

/* Phis for the registers of values living in layouts lays[k]. */
static gv *make_phis(gctx *g, const ir_value *vals, int n)
{
    gv *p = arena_alloc(&g->mem, sizeof(gv) * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++) {
        int lay = g->vlay[vals[k]];
        p[k] = g_new(g, nregs(g, lay), lay);
        LLVMTypeRef t = g_type(g, g->f->values.v[vals[k]].type);
        for (int r = 0; r < p[k].n; r++) p[k].r[r] = LLVMBuildPhi(g->B, t, "");
    }
    return p;
}

static void add_incoming(gv *phis, gv *vals, int n, LLVMBasicBlockRef from)
{
    for (int k = 0; k < n; k++)
        for (int r = 0; r < phis[k].n; r++) LLVMAddIncoming(phis[k].r[r], &vals[k].r[r], &from, 1);
}

static void lower_for(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    int body = op->region[0];
    ir_region *rg = &f->regions.v[body];
    int nc = op->nopnd - 3;
    LLVMValueRef lb = g_get(g, op->opnd[0]).r[0], ub = g_get(g, op->opnd[1]).r[0], step = g_get(g, op->opnd[2]).r[0];
    gv *init = arena_alloc(&g->mem, sizeof(gv) * (size_t)(nc + 1));
    for (int k = 0; k < nc; k++) init[k] = g_convert(g, op->opnd[3 + k], g->vlay[rg->args[k + 1]]);
    struct gpipe *pipe = g_pipe_analyze(g, op);
    if (pipe) g_pipe_prologue(g, pipe, lb, ub, step, init);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->B);
    LLVMBasicBlockRef hdr = new_block(g, "for.hdr"), bb = new_block(g, "for.body"), ex = new_block(g, "for.end");
    LLVMBuildBr(g->B, hdr);
    LLVMPositionBuilderAtEnd(g->B, hdr);
    LLVMValueRef iv = LLVMBuildPhi(g->B, LLVMTypeOf(lb), "iv");
    gv *ph = make_phis(g, rg->args + 1, nc);
    LLVMValueRef cond = LLVMBuildICmp(g->B, LLVMIntSLT, iv, ub, "");
    LLVMBuildCondBr(g->B, cond, bb, ex);
    gv ivg = g_new(g, 1, 0);
    ivg.r[0] = iv;
    g_set(g, rg->args[0], ivg);
    for (int k = 0; k < nc; k++) g_set(g, rg->args[k + 1], ph[k]);
    LLVMPositionBuilderAtEnd(g->B, bb);
    if (pipe) g_pipe_begin(g, pipe, iv, lb, ub, step, ph);
    lower_region(g, body);
    if (g->failed) return;
    LLVMAddIncoming(iv, &lb, &pre, 1);
    add_incoming(ph, init, nc, pre);
    if (!block_done(g)) {
        ir_op *y = terminator(g, body);
        gv *yv = arena_alloc(&g->mem, sizeof(gv) * (size_t)(nc + 1));
        for (int k = 0; k < nc; k++) {
            if (!y || k >= y->nopnd) { gfail(g, op->loc, "scf.for: yield has too few values"); return; }
            yv[k] = g_convert(g, y->opnd[k], g->vlay[rg->args[k + 1]]);
        }
        LLVMValueRef nx = LLVMBuildAdd(g->B, iv, step, "");
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->B);
        LLVMBuildBr(g->B, hdr);
        LLVMAddIncoming(iv, &nx, &latch, 1);
        add_incoming(ph, yv, nc, latch);
    }
    LLVMPositionBuilderAtEnd(g->B, ex);
    if (pipe) g_pipe_end(g, pipe);
    for (int k = 0; k < op->nres && k < nc; k++) g_set(g, op->res + k, ph[k]);
}

static void lower_if(gctx *g, ir_op *op)
{
    LLVMValueRef c = g_get(g, op->opnd[0]).r[0];
    LLVMBasicBlockRef tb = new_block(g, "if.then"), eb = new_block(g, "if.else"), mb = new_block(g, "if.end");
    LLVMBuildCondBr(g->B, c, tb, eb);
    int nres = op->nres;
    ir_value *res = arena_alloc(&g->mem, sizeof(ir_value) * (size_t)(nres + 1));
    for (int k = 0; k < nres; k++) res[k] = op->res + k;
    gv *yv[2];
    LLVMBasicBlockRef ends[2] = { NULL, NULL };
    for (int side = 0; side < 2; side++) {
        LLVMPositionBuilderAtEnd(g->B, side ? eb : tb);
        yv[side] = arena_alloc(&g->mem, sizeof(gv) * (size_t)(nres + 1));
        int reg = side < op->nregions ? op->region[side] : -1;
        if (reg >= 0) lower_region(g, reg);
        if (g->failed) return;
        if (block_done(g)) continue;
        ir_op *y = reg >= 0 ? terminator(g, reg) : NULL;
        for (int k = 0; k < nres; k++) {
            if (!y || k >= y->nopnd) { gfail(g, op->loc, "scf.if: a branch yields too few values"); return; }
            yv[side][k] = g_convert(g, y->opnd[k], g->vlay[res[k]]);
        }
        ends[side] = LLVMGetInsertBlock(g->B);
        LLVMBuildBr(g->B, mb);
    }
    LLVMPositionBuilderAtEnd(g->B, mb);
    if (!ends[0] && !ends[1]) {
        LLVMBuildUnreachable(g->B);
        LLVMPositionBuilderAtEnd(g->B, new_block(g, "dead"));
    }
    gv *ph = make_phis(g, res, nres);
    for (int s = 0; s < 2; s++)
        if (ends[s]) add_incoming(ph, yv[s], nres, ends[s]);
    for (int k = 0; k < nres; k++) g_set(g, res[k], ph[k]);
}

static void lower_while(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    int before = op->region[0], after = op->region[1];
    ir_region *rb = &f->regions.v[before], *ra = &f->regions.v[after];
    int nb = rb->nargs, na = ra->nargs;
    gv *init = arena_alloc(&g->mem, sizeof(gv) * (size_t)(nb + 1));
    for (int k = 0; k < nb; k++) init[k] = g_convert(g, op->opnd[k], g->vlay[rb->args[k]]);
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->B);
    LLVMBasicBlockRef bb = new_block(g, "while.before"), ab = new_block(g, "while.after"), ex = new_block(g, "while.end");
    LLVMBuildBr(g->B, bb);
    LLVMPositionBuilderAtEnd(g->B, bb);
    gv *ph = make_phis(g, rb->args, nb);
    for (int k = 0; k < nb; k++) g_set(g, rb->args[k], ph[k]);
    add_incoming(ph, init, nb, pre);
    lower_region(g, before);
    if (g->failed) return;
    ir_op *c = terminator(g, before);
    if (!c || c->opc != IR_CONDITION || c->nopnd - 1 < na) { gfail(g, op->loc, "scf.while: bad scf.condition"); return; }
    gv *cv = arena_alloc(&g->mem, sizeof(gv) * (size_t)(na + 1));
    for (int k = 0; k < na; k++) cv[k] = g_convert(g, c->opnd[k + 1], g->vlay[ra->args[k]]);
    LLVMValueRef cond = g_get(g, c->opnd[0]).r[0];
    LLVMBuildCondBr(g->B, cond, ab, ex);
    LLVMBasicBlockRef cend = LLVMGetInsertBlock(g->B);
    (void)cend;
    LLVMPositionBuilderAtEnd(g->B, ab);
    for (int k = 0; k < na; k++) g_set(g, ra->args[k], cv[k]);
    lower_region(g, after);
    if (g->failed) return;
    if (!block_done(g)) {
        ir_op *y = terminator(g, after);
        gv *yv = arena_alloc(&g->mem, sizeof(gv) * (size_t)(nb + 1));
        for (int k = 0; k < nb; k++) {
            if (!y || k >= y->nopnd) { gfail(g, op->loc, "scf.while: yield has too few values"); return; }
            yv[k] = g_convert(g, y->opnd[k], g->vlay[rb->args[k]]);
        }
        LLVMBasicBlockRef latch = LLVMGetInsertBlock(g->B);
        LLVMBuildBr(g->B, bb);
        add_incoming(ph, yv, nb, latch);
    }
    LLVMPositionBuilderAtEnd(g->B, ex);
    for (int k = 0; k < op->nres && k < na; k++) {
        g->val[op->res + k] = cv[k];
        g->vblock[op->res + k] = ex;
    }
}

/* tt.map_elementwise: the region lowered once per pack of registers, on
 * scalars. A pack that runs past the thread's registers repeats some (the
 * function is pure); only registers of the thread are written. */
static void lower_map(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    int lay = g->vlay[op->res], n = op->nopnd, m = op->nres, pack = (int)op->attr[0];
    int nr = 1 << gl_get(g, lay)->nreg;
    ir_region *rg = &f->regions.v[op->region[0]];
    ir_op *t = terminator(g, op->region[0]);
    if (!t || t->nopnd != m * pack) { gfail(g, op->loc, "tt.map_elementwise: bad region"); return; }
    gv *in = arena_alloc(&g->mem, sizeof(gv) * (size_t)n), *out = arena_alloc(&g->mem, sizeof(gv) * (size_t)m);
    for (int k = 0; k < n; k++) in[k] = g_convert(g, op->opnd[k], lay);
    for (int k = 0; k < m; k++) out[k] = g_new(g, nr, lay);
    for (int r = 0; r < nr && !g->failed; r += pack) {
        for (int k = 0; k < n; k++)
            for (int j = 0; j < pack; j++) {
                gv a = g_new(g, 1, 0);
                a.r[0] = in[k].r[(r + j) % nr];
                g_set(g, rg->args[k * pack + j], a);
            }
        lower_region(g, op->region[0]);
        if (g->failed) return;
        for (int k = 0; k < m; k++)
            for (int j = 0; j < pack && r + j < nr; j++) out[k].r[r + j] = g_get(g, t->opnd[k * pack + j]).r[0];
    }
    for (int k = 0; k < m; k++) g_set(g, op->res + k, out[k]);
}

/* One op, dispatched on its ops.def family. */
static void lower_op(gctx *g, ir_op *op)
{
    ir_func *f = g->f;
    switch (ir_ops[op->opc].family) {
    case F_SOURCE:
        if (op->opc == IR_GET_PID || op->opc == IR_GET_NPROG) {
            int axis = (int)op->attr[0];
            if (axis < 0 || axis > 2) { gfail(g, op->loc, "program axis %d out of range", axis); return; }
            gv y = g_new(g, 1, 0);
            y.r[0] = g_program(g, axis, op->opc == IR_GET_NPROG);
            LLVMTypeRef rt = g_type(g, f->values.v[op->res].type);
            if (rt != g->t_i32) y.r[0] = LLVMBuildZExt(g->B, y.r[0], rt, "");
            g_set(g, op->res, y);
            return;
        }
        break;                                   /* constants and ranges: pure */
    case F_SHAPE:
        if (op->opc == IR_TRANS || op->opc == IR_RESHAPE) { lower_relabel(g, op); return; }
        if (op->opc == IR_JOIN || op->opc == IR_SPLIT || op->opc == IR_CAT || op->opc == IR_GATHER ||
            op->opc == IR_HISTOGRAM) {
            g_lower_move(g, op);
            return;
        }
        break;                                   /* splat, broadcast, expand_dims, bitcast: pure */
    case F_MEM:
        if (op->opc == IR_LOAD) g_lower_load(g, op);
        else if (op->opc == IR_STORE) g_lower_store(g, op);
        else g_lower_atomic(g, op);
        return;
    case F_REDUCE: g_lower_reduce(g, op); return;
    case F_MAP: lower_map(g, op); return;
    case F_DOT: g_lower_dot(g, op); return;
    case F_SCF:
        if (op->opc == IR_FOR) lower_for(g, op);
        else if (op->opc == IR_IF) lower_if(g, op);
        else lower_while(g, op);
        return;
    case F_HINT:
        if (op->opc == IR_BARRIER) g_barrier(g);
        return;                                  /* llvm.intr.assume: a hint only */
    case F_DEBUG: g_lower_debug(g, op); return;
    case F_ASM: g_lower_asm(g, op); return;
    case F_TERM:
        if (op->opc != IR_RETURN) return;
        if (!g->next_program) LLVMBuildRetVoid(g->B);
        else if (g->npipes) gfail(g, op->loc, "a persistent kernel cannot return inside a pipelined loop");
        else LLVMBuildBr(g->B, g->next_program);
        return;                                  /* yield/condition: handled by the parent op */
    default:
        break;                                   /* F_PTR, F_ARITH, F_CAST, F_MATH: elementwise */
    }
    if (op->opc == IR_CONSTANT || op->opc == IR_MAKE_RANGE || op->opc == IR_SPLAT || op->opc == IR_BROADCAST ||
        op->opc == IR_EXPAND_DIMS || (ir_ops[op->opc].props & P_ELEMWISE)) {
        g_set(g, op->res, g_lower_pure(g, op, g->vlay[op->res]));
        return;
    }
    gfail(g, op->loc, "%s is not supported yet", ir_ops[op->opc].name);
}

static void lower_region(gctx *g, int r)
{
    ir_region *rg = &g->f->regions.v[r];
    for (int i = 0; i < rg->nops && !g->failed; i++) {
        if (block_done(g)) {                 /* code after tt.return: dead */
            LLVMPositionBuilderAtEnd(g->B, new_block(g, "dead"));
        }
        lower_op(g, &rg->ops[i]);
    }
}

/* A persistent kernel (gpu_options.persistent): the launch's grid comes as
 * three i32 parameters and the CTAs, as many as fit on the GPU at once
 * (gpu_launcher_launch), walk the programs in launch order, x fastest:
 *
 *   for (p = %ctaid.x; p < gx * gy * gz; p += %nctaid.x) { pid = (p % gx, p / gx % gy, p / (gx * gy)); body }
 *
 * tt.return branches to the loop's latch (g->next_program). Leaves the
 * builder in the body; persistent_end closes the loop. */
static void persistent_begin(gctx *g, LLVMValueRef grid[3])
{
    LLVMValueRef total = LLVMBuildMul(g->B, LLVMBuildMul(g->B, grid[0], grid[1], ""), grid[2], "programs");
    LLVMValueRef first = g_program(g, 0, false), step = g_program(g, 0, true);    /* %ctaid.x, %nctaid.x */
    LLVMBasicBlockRef entry = LLVMGetInsertBlock(g->B), head = new_block(g, "program"), body = new_block(g, "program.body"),
                      latch = new_block(g, "program.next"), exit = new_block(g, "program.exit");
    LLVMBuildBr(g->B, head);
    LLVMPositionBuilderAtEnd(g->B, head);
    LLVMValueRef p = LLVMBuildPhi(g->B, g->t_i32, "program");
    LLVMBuildCondBr(g->B, LLVMBuildICmp(g->B, LLVMIntULT, p, total, ""), body, exit);
    LLVMPositionBuilderAtEnd(g->B, latch);
    LLVMValueRef next = LLVMBuildAdd(g->B, p, step, "");
    LLVMBuildBr(g->B, head);
    LLVMAddIncoming(p, (LLVMValueRef[]){ first, next }, (LLVMBasicBlockRef[]){ entry, latch }, 2);
    LLVMPositionBuilderAtEnd(g->B, exit);
    LLVMBuildRetVoid(g->B);
    LLVMPositionBuilderAtEnd(g->B, body);
    LLVMValueRef yz = LLVMBuildUDiv(g->B, p, grid[0], "");
    g->pid[0] = LLVMBuildURem(g->B, p, grid[0], "pid.x");
    g->pid[1] = LLVMBuildURem(g->B, yz, grid[1], "pid.y");
    g->pid[2] = LLVMBuildUDiv(g->B, yz, grid[1], "pid.z");
    memcpy(g->nprog, grid, sizeof g->nprog);
    g->next_program = latch;
}

/* A persistent kernel's per-program copy of parameter value v, through a
 * volatile mov: LLVM cannot hoist it, or anything computed from it, out of
 * the program loop. Hoisted, such values stay live across the whole body
 * instead of ending at their last use: tutorial 06's d64 forward went from
 * 127 to 131 registers (ptxas), past the 128 that let two CTAs share an SM. */
static LLVMValueRef per_program(gctx *g, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    bool ptr = LLVMGetTypeKind(t) == LLVMPointerTypeKind;
    if (ptr) v = LLVMBuildPtrToInt(g->B, v, g->t_i64, "");
    LLVMTypeRef vt = LLVMTypeOf(v);
    static const struct { const char *mov, *cons; } m[] = { { "mov.b64 $0, $1;", "=l,l" }, { "mov.b32 $0, $1;", "=r,r" },
                                                            { "mov.b16 $0, $1;", "=h,h" }, { "mov.f32 $0, $1;", "=f,f" },
                                                            { "mov.f64 $0, $1;", "=d,d" } };
    int i = vt == g->t_i64 ? 0 : vt == g->t_i32 ? 1 : vt == g->t_i16 ? 2 : vt == g->t_f32 ? 3 : vt == g->t_f64 ? 4 : -1;
    if (i >= 0) v = g_asm(g, vt, m[i].mov, m[i].cons, &v, 1, true);
    return ptr ? LLVMBuildIntToPtr(g->B, v, t, "") : v;
}

/* After the body: the latch synchronizes the CTA, when the kernel uses
 * shared memory, before the next program reuses it. */
static void persistent_end(gctx *g)
{
    if (!block_done(g)) LLVMBuildBr(g->B, g->next_program);
    if (!g->smem_bytes) return;
    LLVMPositionBuilderBefore(g->B, LLVMGetFirstInstruction(g->next_program));
    g_barrier(g);
}

/* Build the kernel: parameters, thread ids, body. */
void gpu_lower(gctx *g, const char *name)
{
    ir_func *f = g->f;
    ir_region *body = &f->regions.v[IR_BODY];
    /* the tensor maps on sm_90a, whether or not a load takes TMA (that is
     * known only once the body is lowered) */
    g->nmaps = g_wgmma_enabled(g) && g->o->set.tma ? gpu_tma_maps(f, g->spec, g->maps, GPU_MAX_TMAPS) : 0;
    g->tmaps = g->nmaps ? (1ULL << g->nmaps) - 1 : 0;
    int nt = g->nmaps, np = body->nargs + (g->o->set.persistent ? 3 : 0);
    LLVMTypeRef *pt = xmalloc(sizeof(LLVMTypeRef) * (size_t)(np + nt + 1));
    for (int k = 0; k < body->nargs; k++) {
        ir_type t = f->values.v[body->args[k]].type;
        if (ir_type_rank(t) != 0) { gfail(g, -1, "kernel parameter %d is a tensor", k); free(pt); return; }
        LLVMTypeRef lt = g_type(g, t);
        if (lt == g->t_i1 || lt == g->t_i8 || lt == g->t_i16) lt = g->t_i32;
        else if (lt == g->t_f16 || lt == g->t_bf16) lt = g->t_i16;
        pt[k] = lt;
    }
    for (int k = body->nargs; k < np; k++) pt[k] = g->t_i32;      /* a persistent kernel's grid */
    LLVMTypeRef tmap_t = LLVMArrayType(g->t_i8, 128);
    for (int j = 0; j < nt; j++) pt[np + j] = LLVMPointerTypeInContext(g->C, 0);
    LLVMTypeRef fty = LLVMFunctionType(g->t_void, pt, (unsigned)(np + nt), 0);
    g->fn = LLVMAddFunction(g->M, name, fty);
    LLVMSetFunctionCallConv(g->fn, LLVMPTXKernelCallConv);
    free(pt);
    /* the maps: byval [128 x i8], align 64, grid constants (read in place
     * through cvta.param, as Triton 3.6 passes them: nvvm.grid_constant) */
    for (int j = 0; j < nt; j++) {
        unsigned idx = (unsigned)(np + j);
        LLVMAddAttributeAtIndex(g->fn, idx + 1, LLVMCreateTypeAttribute(g->C, LLVMGetEnumAttributeKindForName("byval", 5), tmap_t));
        LLVMAddAttributeAtIndex(g->fn, idx + 1, LLVMCreateEnumAttribute(g->C, LLVMGetEnumAttributeKindForName("align", 5), 64));
        LLVMValueRef gc[3] = { g->fn, LLVMMDStringInContext(g->C, "grid_constant", 13),
                               LLVMMDNodeInContext(g->C, (LLVMValueRef[]){ g_const_i32(g, idx + 1) }, 1) };
        LLVMAddNamedMetadataOperand(g->M, "nvvm.annotations", LLVMMDNodeInContext(g->C, gc, 3));
        g->tmap[j] = LLVMGetParam(g->fn, idx);
    }
    g->entry = g->top = new_block(g, "entry");
    LLVMPositionBuilderAtEnd(g->B, g->entry);
    if (g->o->set.persistent) {
        LLVMValueRef grid[3];
        for (int a = 0; a < 3; a++) grid[a] = LLVMGetParam(g->fn, (unsigned)(body->nargs + a));
        persistent_begin(g, grid);
        g->top = LLVMGetInsertBlock(g->B);
        g->tid = g_asm(g, g->t_i32, "mov.u32 $0, %tid.x;", "=r", NULL, 0, true);     /* per program, as below */
    } else {
        g->tid = g_intrinsic(g, "llvm.nvvm.read.ptx.sreg.tid.x", NULL, 0, NULL, 0);
    }
    g->lane = LLVMBuildAnd(g->B, g->tid, g_const_i32(g, 31), "lane");
    g->warp = LLVMBuildLShr(g->B, g->tid, g_const_i32(g, 5), "warp");
    for (int k = 0; k < body->nargs; k++) {
        ir_type t = f->values.v[body->args[k]].type;
        LLVMTypeRef lt = g_type(g, t);
        LLVMValueRef p = LLVMGetParam(g->fn, (unsigned)k);
        if (g->next_program) p = per_program(g, p);
        if (lt == g->t_i1) p = LLVMBuildICmp(g->B, LLVMIntNE, p, g_const_i32(g, 0), "");
        else if (lt == g->t_i8 || lt == g->t_i16) p = LLVMBuildTrunc(g->B, p, lt, "");
        else if (lt == g->t_f16 || lt == g->t_bf16) p = LLVMBuildBitCast(g->B, p, lt, "");
        if (g->spec && k < 64 && (g->spec->eq1 >> k & 1) && ir_type_is_int(t) && lt != g->t_i1)
            p = LLVMConstInt(lt, 1, 0);    /* Triton's "== 1" specialization (part of the cache key) */
        const char *nm = f->values.v[body->args[k]].name;
        if (nm) LLVMSetValueName2(LLVMGetParam(g->fn, (unsigned)k), nm, strlen(nm));
        gv x = g_new(g, 1, 0);
        x.r[0] = p;
        g->val[body->args[k]] = x;
        g->vblock[body->args[k]] = g->top;
    }
    LLVMBasicBlockRef first = new_block(g, "body");
    LLVMBuildBr(g->B, first);
    LLVMPositionBuilderAtEnd(g->B, first);
    lower_region(g, IR_BODY);
    if (g->failed) return;
    if (g->next_program) persistent_end(g);
    else if (!block_done(g)) LLVMBuildRetVoid(g->B);
    /* blocks left empty after a return */
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(g->fn); b; b = LLVMGetNextBasicBlock(b))
        if (!LLVMGetBasicBlockTerminator(b)) {
            LLVMPositionBuilderAtEnd(g->B, b);
            LLVMBuildUnreachable(g->B);
        }
    /* launch bounds: exactly 32 * num_warps threads */
    LLVMValueRef md[3] = { g->fn, LLVMMDStringInContext(g->C, "maxntidx", 8), g_const_i32(g, 32 * g->num_warps) };
    LLVMAddNamedMetadataOperand(g->M, "nvvm.annotations", LLVMMDNodeInContext(g->C, md, 3));
}
