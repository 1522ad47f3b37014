/* tma.c — Hopper's tensor memory accelerator for the loads of tensor
 * descriptors (host and in-kernel) and block pointers: the box rule and the
 * tensor maps the compiler and the launcher share, the program that computes
 * a map's address, shape and stride from a launch's parameters, the
 * CUtensorMap a launch passes, and the PTX of mbarriers and of
 * cp.async.bulk.tensor (Triton 3.6: third_party/nvidia/backend/driver.py
 * make_tensordesc_arg and fill_tma_descriptor for the host side;
 * TMAToLLVM.cpp, BarrierOpToLLVM.cpp for the device side).
 *
 * A 2-D block of 16-bit elements [rows, cols] lands in shared memory in the
 * layout wgmma reads (g_tile_offset with wg): 128-byte column slabs of
 * rows x min(cols x 2, 128) bytes, slab after slab, each swizzled with the
 * pattern of its row width (128, 64 or 32 bytes). TMA writes exactly that
 * with CU_TENSOR_MAP_SWIZZLE_{128,64,32}B and a box of
 * [rows, min(cols x 2, 128) / 2], one copy per slab, into 1024-byte aligned
 * slabs. Out-of-bounds elements of the box are filled with zeros, which is
 * what the descriptor's bounds mask with other = 0 gives. */
#include "gpu_int.h"

#include <stdint.h>
#include <string.h>

bool gpu_tma_box(tt_dtype et, int rank, const int64_t *block, uint32_t box[2], int *swizzle)
{
    if (rank != 2 || (et != TT_F16 && et != TT_BF16)) return false;
    int64_t rb = block[1] * 2;
    if (rb < 32 || (rb > 128 && rb % 128) || block[0] % 8 || block[0] > 256) return false;
    int per, mp;                               /* the stage tile's swizzle (g_tile_offset) */
    g_tile_swizzle(&(gtile){ NULL, block[0], block[1], 2, true }, &per, &mp);
    int w = 128 / per;                         /* the row bytes of one slab */
    box[0] = (uint32_t)(w / 2);                /* innermost first, as CUDA orders dims */
    box[1] = (uint32_t)block[0];
    *swizzle = w;
    return true;
}

/* ---- the maps and their launch-time programs ---- */

/* v itself, or the value scf.fors carry into v unchanged (its init). */
static ir_value through_loops(const ir_func *f, ir_value v)
{
    for (int depth = 0; depth < 16; depth++) {
        ir_value init = ir_carried_init(f, v);
        if (init < 0) break;
        v = init;
    }
    return v;
}

typedef struct tbuild {
    const ir_func *f;
    const gpu_spec *spec;
    gpu_tmap *t;
} tbuild;

static bool step(tbuild *b, int op, int bits, int32_t a, int64_t imm)
{
    if (b->t->nsteps == GPU_TMAP_STEPS) return false;
    b->t->step[b->t->nsteps++] = (gpu_tstep){ (uint8_t)op, (uint8_t)bits, a, imm };
    return true;
}

static int64_t lowbit(int64_t x)
{
    uint64_t b = (uint64_t)x & -(uint64_t)x;        /* 0 for 0: every power of two divides it */
    return b && b < (1ULL << 40) ? (int64_t)b : (int64_t)1 << 40;
}
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Append v's program; returns the power of two v is a multiple of (bytes
 * for a pointer), or 0 when the launch cannot compute v. */
static int64_t emit(tbuild *b, ir_value v, int depth)
{
    const ir_func *f = b->f;
    v = through_loops(f, v);
    ir_type t = f->values.v[v].type;
    if (depth > 12 || ir_type_rank(t) != 0 || ir_type_is_float(t)) return 0;
    int bits = ir_type_bits(t);
    const ir_value_info *vi = &f->values.v[v];
    if (vi->def_kind == IR_DEF_ARG) {
        int k = vi->index;
        if (!step(b, GPU_TS_PARAM, bits, k, 0)) return 0;
        bool d16 = b->spec && k < 64 && (b->spec->div16 >> k & 1);
        return d16 ? 16 : 1;
    }
    const ir_op *op = ir_def(f, v);
    if (!op) return 0;
    int64_t x, y;
    switch (op->opc) {
    case IR_CONSTANT:
        return step(b, GPU_TS_CONST, bits, 0, op->ival) ? lowbit(op->ival) : 0;
    case IR_EXTSI:                                   /* values are kept sign-extended already */
        return emit(b, op->opnd[0], depth + 1);
    case IR_EXTUI:
        x = emit(b, op->opnd[0], depth + 1);
        return x && step(b, GPU_TS_EXTU, ir_type_bits(f->values.v[op->opnd[0]].type), 0, 0) ? x : 0;
    case IR_TRUNCI:
        x = emit(b, op->opnd[0], depth + 1);
        return x && step(b, GPU_TS_WRAP, bits, 0, 0) ? min64(x, (int64_t)1 << (bits < 40 ? bits : 40)) : 0;
    case IR_ADDPTR: {
        int esize = ir_type_bits(ir_type_get(ir_type_elem(t))->pointee) / 8;
        x = emit(b, op->opnd[0], depth + 1);
        y = x ? emit(b, op->opnd[1], depth + 1) : 0;
        return y && step(b, GPU_TS_ADDPTR, 64, esize, 0) ? min64(x, y * esize) : 0;
    }
    case IR_ADDI: case IR_SUBI: case IR_MULI: case IR_DIVSI: case IR_DIVUI: case IR_REMSI: case IR_REMUI: {
        x = emit(b, op->opnd[0], depth + 1);
        y = x ? emit(b, op->opnd[1], depth + 1) : 0;
        if (!y) return 0;
        int code = op->opc == IR_ADDI ? GPU_TS_ADD : op->opc == IR_SUBI ? GPU_TS_SUB : op->opc == IR_MULI ? GPU_TS_MUL
                 : op->opc == IR_DIVSI ? GPU_TS_DIVS : op->opc == IR_DIVUI ? GPU_TS_DIVU
                 : op->opc == IR_REMSI ? GPU_TS_REMS : GPU_TS_REMU;
        if (!step(b, code, bits, 0, 0)) return 0;
        if (code == GPU_TS_MUL) return min64(min64(x, 1 << 20) * min64(y, 1 << 20), (int64_t)1 << 40);
        return code <= GPU_TS_SUB ? min64(x, y) : 1;
    }
    default:
        return 0;
    }
}

/* v is 1 for every launch: the constant, or a parameter specialized to 1. */
static bool is_one(const ir_func *f, const gpu_spec *spec, ir_value v)
{
    for (int depth = 0; depth < 8; depth++) {
        v = through_loops(f, v);
        const ir_value_info *vi = &f->values.v[v];
        if (vi->def_kind == IR_DEF_ARG) return spec && vi->index < 64 && (spec->eq1 >> vi->index & 1);
        const ir_op *op = ir_def(f, v);
        if (!op) return false;
        if (op->opc == IR_CONSTANT) return op->ival == 1;
        if (op->opc != IR_EXTSI && op->opc != IR_EXTUI) return false;
        v = op->opnd[0];
    }
    return false;
}

static bool unbounded(const ir_func *f, ir_value v)
{
    const ir_op *op = ir_def(f, v);
    return op && op->opc == IR_CONSTANT && op->ival == IR_DESC_UNBOUNDED;
}

/* v >= 0 in every program and loop iteration, i32 wrap-around aside:
 * constants, program ids, sums, products and quotients of those, a loop's
 * counter from a start >= 0 by a step >= 0, and a value a loop carries
 * from an init >= 0 to a yield >= 0 while it is (assumed[]: those being
 * proved by induction). A block pointer's offsets, say. */
static bool nonneg(const ir_func *f, ir_value v, ir_value *assumed, int na, int depth)
{
    if (depth > 16) return false;
    for (int k = 0; k < na; k++)
        if (assumed[k] == v) return true;
    if (ir_type_rank(f->values.v[v].type) != 0) return false;
    ir_value init, next;
    const ir_op *loop = ir_for_arg(f, v, &init, &next);
    if (loop && init < 0)                                  /* the counter: lb, then lb + k * step */
        return nonneg(f, loop->opnd[0], assumed, na, depth + 1) && nonneg(f, loop->opnd[2], assumed, na, depth + 1);
    if (loop) {
        if (na == 4 || !nonneg(f, init, assumed, na, depth + 1)) return false;
        assumed[na] = v;
        return nonneg(f, next, assumed, na + 1, depth + 1);
    }
    const ir_op *op = ir_def(f, v);
    if (!op) return false;
    switch (op->opc) {
    case IR_CONSTANT: return op->ival >= 0;
    case IR_GET_PID: case IR_GET_NPROG: return true;
    case IR_EXTSI: return nonneg(f, op->opnd[0], assumed, na, depth + 1);
    case IR_ADDI: case IR_MULI: case IR_DIVSI: case IR_REMSI: case IR_MINSI: case IR_SELECT: {
        int a = op->opc == IR_SELECT;
        return nonneg(f, op->opnd[a], assumed, na, depth + 1) && nonneg(f, op->opnd[a + 1], assumed, na, depth + 1);
    }
    case IR_MAXSI: case IR_ANDI:
        return nonneg(f, op->opnd[0], assumed, na, depth + 1) || nonneg(f, op->opnd[1], assumed, na, depth + 1);
    default: return false;
    }
}

/* The dtype and box of a 2-D descriptor load, or false. */
static bool load_box(const ir_func *f, const ir_op *op, int *dtype, uint32_t box[2], int *swizzle)
{
    if (op->opc != IR_LOAD || op->nopnd != 4 + 3 * 2) return false;
    const ir_type_info *ti = ir_type_get(f->values.v[op->res].type);
    if (!gpu_tma_box(ti->elem, ti->rank, ti->shape, box, swizzle)) return false;
    *dtype = ti->elem == TT_F16 ? CUDA_TMAP_F16 : CUDA_TMAP_BF16;
    return true;
}

/* The constant offset (>= 0) of a load's unbounded contiguous dim, which
 * its map is cut at, or NULL. */
static const ir_op *cut_at(const ir_func *f, const ir_op *op)
{
    const ir_op *co = ir_def(f, through_loops(f, op->opnd[5]));
    return unbounded(f, op->opnd[7]) && co && co->opc == IR_CONSTANT && co->ival >= 0 && co->ival <= INT32_MAX - 256
               ? co : NULL;
}

/* What identifies a load's map: base, shape[0], shape[1] (or the offset a
 * cut dim is cut at: loads at other offsets need other maps), strides[0]. */
static void map_key(const ir_func *f, const ir_op *op, ir_value d[4])
{
    const ir_op *co = cut_at(f, op);
    d[0] = op->opnd[3];
    d[1] = op->opnd[6];
    d[2] = co ? co->res : op->opnd[7];
    d[3] = op->opnd[8];
}

int gpu_tma_map_of(const ir_func *f, const gpu_tmap *maps, int n, const ir_op *op)
{
    int dtype, sw;
    uint32_t box[2];
    if (!load_box(f, op, &dtype, box, &sw)) return -1;
    ir_value d[4];
    map_key(f, op, d);
    for (int j = 0; j < n; j++)
        if (!memcmp(maps[j].desc, d, sizeof d) && maps[j].dtype == dtype && maps[j].box[0] == box[0] &&
            maps[j].box[1] == box[1])
            return j;
    return -1;
}

/* v can be computed by the launch (emit into a scratch map). */
static bool launch_computable(const tbuild *b, ir_value v)
{
    gpu_tmap scratch;
    scratch.nsteps = 0;
    tbuild t = { b->f, b->spec, &scratch };
    return emit(&t, v, 0) != 0;
}

/* off = a sum of products i * S with S computed by the launch and i by the
 * program (a batch index): appended to S[] and I[] (at most 2). */
static bool batch_terms(tbuild *b, ir_value off, ir_value *S, ir_value *I, int *nb, int depth)
{
    const ir_op *op = ir_def(b->f, through_loops(b->f, off));
    if (!op || depth > 4) return false;
    if (op->opc == IR_EXTSI) return batch_terms(b, op->opnd[0], S, I, nb, depth + 1);
    if (op->opc == IR_ADDI)
        return batch_terms(b, op->opnd[0], S, I, nb, depth + 1) && batch_terms(b, op->opnd[1], S, I, nb, depth + 1);
    if (op->opc != IR_MULI || *nb == 2) return false;
    for (int k = 0; k < 2; k++)
        if (launch_computable(b, op->opnd[1 - k])) {
            S[*nb] = op->opnd[1 - k];
            I[*nb] = op->opnd[k];
            ++*nb;
            return true;
        }
    return false;
}

/* Append the program of base v = P + sum i * S (batch_terms): P's, which
 * it returns the divisibility of (bytes; 0: not computable). */
static int64_t emit_base(tbuild *b, ir_value v, ir_value *S, ir_value *I, int *nb, int depth)
{
    int mark = b->t->nsteps;
    int64_t d = emit(b, v, 0);
    if (d || depth > 4) return d;
    b->t->nsteps = mark;
    const ir_op *op = ir_def(b->f, through_loops(b->f, v));
    if (!op || op->opc != IR_ADDPTR || ir_type_rank(b->f->values.v[v].type)) return 0;
    d = emit_base(b, op->opnd[0], S, I, nb, depth + 1);
    return d && batch_terms(b, op->opnd[1], S, I, nb, 0) ? d : 0;
}

int gpu_tma_maps(const ir_func *f, const gpu_spec *spec, gpu_tmap *maps, int max)
{
    int n = 0;
    for (int r = 0; r < f->regions.n && n < max; r++)
        for (int i = 0; i < f->regions.v[r].nops && n < max; i++) {
            const ir_op *op = &f->regions.v[r].ops[i];
            gpu_tmap *t = &maps[n];
            memset(t, 0, sizeof *t);
            if (!load_box(f, op, &t->dtype, t->box, &t->swizzle) || gpu_tma_map_of(f, maps, n, op) >= 0 ||
                !is_one(f, spec, op->opnd[9]))
                continue;
            tbuild b = { f, spec, t };
            ir_value S[2], I[2];
            int nb = 0;
            int64_t base = emit_base(&b, op->opnd[3], S, I, &nb, 0);      /* bytes */
            /* an unbounded contiguous dim at a constant offset: as long as the
             * block reaches, so the map reads no more than Triton does */
            const ir_op *co = cut_at(f, op);
            bool cut = co != NULL;
            int64_t reach = cut ? co->ival + ir_type_get(f->values.v[op->res].type)->shape[1] : 0;
            int64_t rows = base ? emit(&b, op->opnd[6], 0) : 0;
            int64_t cols = !rows ? 0 : cut ? step(&b, GPU_TS_CONST, 64, 0, reach) : emit(&b, op->opnd[7], 0);
            int64_t stride = cols ? emit(&b, op->opnd[8], 0) : 0;       /* elements of 2 bytes */
            bool ok = base && base % 16 == 0 && stride && stride * 2 % 16 == 0;   /* TMA: 16-byte address, strides */
            for (int j = 0; ok && j < nb; j++) {
                int64_t s = emit(&b, S[j], 0);
                ok = s && s * 2 % 16 == 0;
                t->batch[j] = I[j];
            }
            /* unbounded rows are read as Triton reads them where their
             * offsets are never negative (TMA zero-fills there) */
            ir_value as[4];
            if (!ok || (unbounded(f, op->opnd[7]) && !cut) ||
                (unbounded(f, op->opnd[6]) && !nonneg(f, op->opnd[4], as, 0, 0)))
                continue;
            map_key(f, op, t->desc);
            t->rank = 2 + nb;
            n++;
        }
    return n;
}

static int64_t wrap(int64_t v, int bits)
{
    if (bits >= 64) return v;
    int sh = 64 - bits;
    return (int64_t)((uint64_t)v << sh) >> sh;
}

static uint64_t as_unsigned(int64_t v, int bits) { return bits >= 64 ? (uint64_t)v : (uint64_t)v & ((1ULL << bits) - 1); }

/* Run map t's program over the packed parameters: out = P, shape[0],
 * shape[1], strides[0], then the batch strides. */
static int run_program(const gpu_launcher *L, const gpu_tmap *t, const char *buf, int j, int64_t out[6])
{
    int64_t st[GPU_TMAP_STEPS];
    int sp = 0;
    for (int i = 0; i < t->nsteps; i++) {
        const gpu_tstep *s = &t->step[i];
        int64_t v = 0, x = sp >= 2 ? st[sp - 2] : 0, y = sp >= 1 ? st[sp - 1] : 0;
        switch (s->op) {
        case GPU_TS_PARAM: {
            const gpu_param *p = &L->params[s->a];
            if (p->kind == GPU_P_PTR || p->kind == GPU_P_I64) memcpy(&v, buf + p->offset, 8);
            else {
                int32_t w;
                memcpy(&w, buf + p->offset, 4);
                v = w;
            }
            st[sp++] = wrap(v, s->bits);
            continue;
        }
        case GPU_TS_CONST: st[sp++] = wrap(s->imm, s->bits); continue;
        case GPU_TS_EXTU: st[sp - 1] = (int64_t)as_unsigned(y, s->bits); continue;
        case GPU_TS_WRAP: st[sp - 1] = wrap(y, s->bits); continue;
        case GPU_TS_ADD: v = (int64_t)((uint64_t)x + (uint64_t)y); break;
        case GPU_TS_SUB: v = (int64_t)((uint64_t)x - (uint64_t)y); break;
        case GPU_TS_MUL: v = (int64_t)((uint64_t)x * (uint64_t)y); break;
        case GPU_TS_ADDPTR: v = (int64_t)((uint64_t)x + (uint64_t)y * (uint64_t)s->a); break;
        default:                                      /* the divisions */
            if (!y) return cuda_fail("kernel %s: tensor map %d: its shape or strides divide by zero", L->k.name, j);
            if (s->op == GPU_TS_DIVS || s->op == GPU_TS_REMS) {
                bool ovf = y == -1;                   /* INT_MIN / -1 wraps (and is UB in C) */
                v = s->op == GPU_TS_DIVS ? (ovf ? (int64_t)(0 - (uint64_t)x) : x / y) : (ovf ? 0 : x % y);
            } else {
                uint64_t ux = as_unsigned(x, s->bits), uy = as_unsigned(y, s->bits);
                v = (int64_t)(s->op == GPU_TS_DIVU ? ux / uy : ux % uy);
            }
        }
        st[--sp - 1] = wrap(v, s->bits);
    }
    if (sp != 2 + t->rank) return cuda_fail("kernel %s: tensor map %d: a malformed program", L->k.name, j);
    memcpy(out, st, sizeof(int64_t) * (size_t)sp);
    return 0;
}

int gpu_tma_fill(const gpu_launcher *L, void *buf)
{
    for (uint64_t m = L->tma_used; m; m &= m - 1) {
        int j = __builtin_ctzll(m);
        const gpu_tmap *t = &L->tmap[j];
        int64_t v[6] = { 0 };                        /* P, shape[0], shape[1], strides[0], batch strides */
        if (run_program(L, t, buf, j, v)) return -1;
        /* CUDA's order: innermost first. A shape below 1 or a stride not a
         * multiple of 16 bytes (the user's numbers, unchecked on the way
         * here) is refused by the driver, whose error names them. A batch
         * dim is as long as an i32 coordinate reaches: the program's base
         * P + i * S is only ever read at its own i. */
        uint64_t dims[4] = { (uint64_t)v[2], (uint64_t)v[1], INT32_MAX, INT32_MAX };
        uint64_t strides[3] = { (uint64_t)v[3] * 2, (uint64_t)v[4] * 2, (uint64_t)v[5] * 2 };   /* bytes */
        uint32_t box[4] = { t->box[0], t->box[1], 1, 1 };
        _Alignas(64) unsigned char map[128];         /* CUtensorMap's alignment */
        if (cuda_tensor_map_tiled(map, t->dtype, t->rank, (uint64_t)v[0], dims, strides, box, t->swizzle)) return -1;
        memcpy((char *)buf + t->off, map, sizeof map);
    }
    return 0;
}

/* ---- device side ---- */

static LLVMValueRef saddr(gctx *g, LLVMValueRef p) { return LLVMBuildPtrToInt(g->B, p, g->t_i32, ""); }

void g_mbar_init(gctx *g, LLVMValueRef bar)
{
    LLVMValueRef a = saddr(g, bar);
    g_asm(g, g->t_void, "mbarrier.init.shared::cta.b64 [$0], 1;", "r,~{memory}", &a, 1, true);
}

void g_mbar_inval(gctx *g, LLVMValueRef bar)
{
    LLVMValueRef a = saddr(g, bar);
    g_asm(g, g->t_void, "mbarrier.inval.shared::cta.b64 [$0];", "r,~{memory}", &a, 1, true);
}

void g_mbar_init_fence(gctx *g)
{
    g_asm(g, g->t_void, "fence.mbarrier_init.release.cluster;", "~{memory}", NULL, 0, true);
}

void g_mbar_expect_tx(gctx *g, LLVMValueRef bar, int64_t bytes)
{
    LLVMValueRef args[2] = { saddr(g, bar), g_const_i32(g, bytes) };
    g_asm(g, g->t_void, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], $1;", "r,r,~{memory}", args, 2, true);
}

void g_mbar_wait(gctx *g, LLVMValueRef bar, LLVMValueRef parity)
{
    LLVMValueRef args[2] = { saddr(g, bar), parity };
    g_asm(g, g->t_void,
          "{\n.reg .pred p;\nwait_${:uid}:\nmbarrier.try_wait.parity.shared::cta.b64 p, [$0], $1;\n@!p bra wait_${:uid};\n}",
          "r,r,~{memory}", args, 2, true);
}

void g_tma_load(gctx *g, LLVMValueRef dst, LLVMValueRef map, const LLVMValueRef *c, int rank, LLVMValueRef bar)
{
    LLVMValueRef args[8] = { saddr(g, dst), LLVMBuildPtrToInt(g->B, map, g->t_i64, "") };
    char text[192], cons[32] = "r,l";
    int n = snprintf(text, sizeof text, "cp.async.bulk.tensor.%dd.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[$0], [$1, {", rank);
    for (int d = 0; d < rank; d++) {
        args[2 + d] = c[d];
        n += snprintf(text + n, sizeof text - (size_t)n, "%s$%d", d ? ", " : "", 2 + d);
        strcat(cons, ",r");
    }
    args[2 + rank] = saddr(g, bar);
    snprintf(text + n, sizeof text - (size_t)n, "}], [$%d];", 2 + rank);
    strcat(cons, ",r,~{memory}");
    g_asm(g, g->t_void, text, cons, args, 3 + rank, true);
}
