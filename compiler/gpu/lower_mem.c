/* lower_mem.c — tt.load, tt.store, tt.atomic_rmw, tt.atomic_cas.
 *
 * A thread accesses its registers in groups of `vec` elements that are
 * consecutive along the pointer's most contiguous dim, when the axis analysis
 * proves contiguity, alignment (vec * element size bytes, at most 16) and a
 * mask that is constant over the group (Triton's LoadStoreOpToLLVM.cpp:
 * getVectorSize, getMaskAlignment). Unmasked groups are plain LLVM vector
 * loads/stores; masked ones are predicated inline PTX (`@p ld.global.v4.b32`)
 * whose destination registers start as `other` (0 when absent), as Triton
 * emits them. Stores and atomics are done by one owner per element when a
 * layout replicates elements over lanes or warps. */
#include "gpu_int.h"

#include <string.h>

static ir_type vtype(gctx *g, ir_value v) { return g->f->values.v[v].type; }

static int member(const vplan *p, int r0, int e)
{
    int r = r0;
    for (int i = 0; i < p->nbits; i++)
        if (e >> i & 1) r |= 1 << p->bitreg[i];
    return r;
}

static bool is_group_base(const vplan *p, int r)
{
    for (int i = 0; i < p->nbits; i++)
        if (r >> p->bitreg[i] & 1) return false;
    return true;
}

/* How a group of `bytes` moves through inline asm: n words of wbits bits. */
typedef struct words { int n, wbits; LLVMTypeRef wt; char cons; } words;

static words words_for(gctx *g, int bytes)
{
    words w;
    if (bytes >= 4) { w.n = bytes / 4; w.wbits = 32; w.wt = g->t_i32; w.cons = 'r'; }
    else { w.n = 1; w.wbits = bytes * 8; w.wt = g->t_i16; w.cons = 'h'; }
    return w;
}

/* Pack vec memory values into words (vector bitcast). */
static void pack(gctx *g, LLVMValueRef *elems, int vec, LLVMTypeRef mt, words w, LLVMValueRef *out)
{
    LLVMValueRef v = LLVMGetUndef(LLVMVectorType(mt, (unsigned)vec));
    for (int e = 0; e < vec; e++) v = LLVMBuildInsertElement(g->B, v, elems[e], g_const_i32(g, e), "");
    if (w.wbits < 16) {                  /* one byte */
        LLVMValueRef b = LLVMBuildBitCast(g->B, v, g->t_i8, "");
        out[0] = LLVMBuildZExt(g->B, b, g->t_i16, "");
        return;
    }
    if (w.n == 1) {
        out[0] = LLVMBuildBitCast(g->B, v, w.wt, "");
        return;
    }
    LLVMValueRef wv = LLVMBuildBitCast(g->B, v, LLVMVectorType(w.wt, (unsigned)w.n), "");
    for (int i = 0; i < w.n; i++) out[i] = LLVMBuildExtractElement(g->B, wv, g_const_i32(g, i), "");
}

static void unpack(gctx *g, LLVMValueRef *wordsv, int vec, LLVMTypeRef mt, words w, LLVMValueRef *elems)
{
    LLVMValueRef v;
    if (w.wbits < 16) {
        v = LLVMBuildTrunc(g->B, wordsv[0], g->t_i8, "");
    } else if (w.n == 1) {
        v = wordsv[0];
    } else {
        v = LLVMGetUndef(LLVMVectorType(w.wt, (unsigned)w.n));
        for (int i = 0; i < w.n; i++) v = LLVMBuildInsertElement(g->B, v, wordsv[i], g_const_i32(g, i), "");
    }
    LLVMValueRef ev = LLVMBuildBitCast(g->B, v, LLVMVectorType(mt, (unsigned)vec), "");
    for (int e = 0; e < vec; e++) elems[e] = LLVMBuildExtractElement(g->B, ev, g_const_i32(g, e), "");
}

static const char *ptx_width(int bits)
{
    return bits == 8 ? "u8" : bits == 16 ? "b16" : "b32";
}

static LLVMValueRef to_int_ptr(gctx *g, LLVMValueRef p) { return LLVMBuildPtrToInt(g->B, p, g->t_i64, ""); }

static LLVMValueRef and_pred(gctx *g, LLVMValueRef a, LLVMValueRef b)
{
    if (!a) return b;
    if (!b) return a;
    return LLVMBuildAnd(g->B, a, b, "");
}

void g_lower_load(gctx *g, ir_op *op)
{
    if (g->npipes && g_pipe_load(g, op)) return;
    ir_value res = op->res;
    int lay = g->vlay[res];
    ir_type et = ir_type_elem(vtype(g, res));
    LLVMTypeRef rt = g_type(g, et), mt = g_mem_type(g, et);
    int esize = (int)LLVMABISizeOfType(LLVMGetModuleDataLayout(g->M), mt);
    ir_value mask = op->nopnd > 1 && !g_mask_is_true(g, op->opnd[1]) ? op->opnd[1] : -1;
    gv ptr = g_convert(g, op->opnd[0], lay);
    gv m = { 0 }, oth = { 0 };
    if (mask >= 0) m = g_convert(g, mask, lay);
    if (mask >= 0 && op->nopnd > 2) oth = g_convert(g, op->opnd[2], lay);
    vplan p = g_plan_vec(g, lay, op->opnd[0], mask, esize);
    gv y = g_new(g, ptr.n, lay);
    LLVMValueRef elems[16];
    for (int r0 = 0; r0 < ptr.n; r0++) {
        if (!is_group_base(&p, r0)) continue;
        LLVMValueRef pp = ptr.r[r0];
        if (mask < 0) {
            if (p.vec == 1) {
                LLVMValueRef ld = LLVMBuildLoad2(g->B, mt, pp, "");
                LLVMSetAlignment(ld, (unsigned)esize);
                elems[0] = ld;
            } else {
                LLVMTypeRef vt = LLVMVectorType(mt, (unsigned)p.vec);
                LLVMValueRef ld = LLVMBuildLoad2(g->B, vt, pp, "");
                LLVMSetAlignment(ld, (unsigned)(esize * p.vec));
                for (int e = 0; e < p.vec; e++) elems[e] = LLVMBuildExtractElement(g->B, ld, g_const_i32(g, e), "");
            }
        } else {
            words w = words_for(g, esize * p.vec);
            LLVMValueRef init[16], args[24];
            for (int e = 0; e < p.vec; e++)
                elems[e] = oth.r ? oth.r[member(&p, r0, e)] : LLVMConstNull(rt);
            for (int e = 0; e < p.vec; e++)
                if (rt == g->t_i1) elems[e] = LLVMBuildZExt(g->B, elems[e], g->t_i8, "");
            pack(g, elems, p.vec, mt, w, init);
            char text[256], cons[128];
            int n = 0, c = 0;
            n += snprintf(text + n, sizeof text - (size_t)n, "@$%d ld.global%s.%s ", w.n + 1,
                          w.n == 2 ? ".v2" : w.n == 4 ? ".v4" : "", ptx_width(w.wbits));
            if (w.n > 1) n += snprintf(text + n, sizeof text - (size_t)n, "{");
            for (int i = 0; i < w.n; i++) n += snprintf(text + n, sizeof text - (size_t)n, "%s$%d", i ? ", " : "", i);
            if (w.n > 1) n += snprintf(text + n, sizeof text - (size_t)n, "}");
            snprintf(text + n, sizeof text - (size_t)n, ", [$%d];", w.n);
            for (int i = 0; i < w.n; i++) c += snprintf(cons + c, sizeof cons - (size_t)c, "=%c,", w.cons);
            c += snprintf(cons + c, sizeof cons - (size_t)c, "l,b");
            for (int i = 0; i < w.n; i++) c += snprintf(cons + c, sizeof cons - (size_t)c, ",%d", i);
            args[0] = to_int_ptr(g, pp);
            args[1] = m.r[r0];
            for (int i = 0; i < w.n; i++) args[2 + i] = init[i];
            LLVMTypeRef st;
            if (w.n == 1) {
                st = w.wt;
            } else {
                LLVMTypeRef fields[4] = { w.wt, w.wt, w.wt, w.wt };
                st = LLVMStructTypeInContext(g->C, fields, (unsigned)w.n, 0);
            }
            LLVMValueRef call = g_asm(g, st, text, cons, args, 2 + w.n, false);
            LLVMValueRef outw[4];
            if (w.n == 1) outw[0] = call;
            else
                for (int i = 0; i < w.n; i++) outw[i] = LLVMBuildExtractValue(g->B, call, (unsigned)i, "");
            unpack(g, outw, p.vec, mt, w, elems);
        }
        for (int e = 0; e < p.vec; e++) {
            LLVMValueRef v = elems[e];
            if (rt == g->t_i1) v = LLVMBuildICmp(g->B, LLVMIntNE, v, LLVMConstInt(g->t_i8, 0, 0), "");
            y.r[member(&p, r0, e)] = v;
        }
    }
    g_set(g, res, y);
}

void g_lower_store(gctx *g, ir_op *op)
{
    ir_value pv = op->opnd[0];
    int lay = g->vlay[pv];
    /* a cheap pointer tensor follows the value's layout (e.g. a reduction result) */
    ir_value val = op->opnd[1];
    if (gpu_is_remat(g, pv, 0) && !gpu_is_remat(g, val, 0) && ir_type_rank(vtype(g, val)) > 0)
        lay = g->vlay[val];
    ir_type et = ir_type_get(ir_type_elem(vtype(g, pv)))->pointee;
    LLVMTypeRef mt = g_mem_type(g, et);
    int esize = (int)LLVMABISizeOfType(LLVMGetModuleDataLayout(g->M), mt);
    ir_value mask = op->nopnd > 2 && !g_mask_is_true(g, op->opnd[2]) ? op->opnd[2] : -1;
    vplan p = g_plan_vec(g, lay, pv, mask, esize);
    /* a tile whose registers give 4-byte stores at most (a dot
     * accumulator's fragment: two elements per row and lane, rows 8 apart)
     * while the pointer's own layout gives 16-byte ones: through shared
     * memory into the pointer's layout first, as Triton 3.6 stores an MMA
     * result (its epilogue: st.shared, then st.global.v4). Only where the
     * shared memory is there already (a matmul's drained pipeline stages)
     * or small: the kernel's occupancy stays what it was. On the wgmma path
     * only: on the H100 it took the matmul 4096^3 from 1.10x Triton's time
     * to 0.95x, but Ampere's mma.sync path (244 registers) from 1.30x to
     * 1.43x. */
    bool staged = false;
    const ir_type_info *vi = ir_type_get(vtype(g, val));
    int64_t need = vi->rank == 2 ? (ir_type_numel(vtype(g, val)) + vi->shape[0] * (16 / esize)) * esize : 0;
    if (g_wgmma_enabled(g) && lay != g->vlay[pv] && vi->rank == 2 && p.vec * esize <= 4 && need >= 4096 &&
        g->scratch_off + need <= (g->smem_bytes > 16384 ? g->smem_bytes : 16384)) {
        vplan q = g_plan_vec(g, g->vlay[pv], pv, mask, esize);
        if (q.vec * esize >= 16) {
            lay = g->vlay[pv];
            p = q;
            staged = true;
        }
    }
    gv ptr = g_convert(g, pv, lay), v = staged ? g_convert_padded(g, val, lay) : g_convert(g, val, lay), m = { 0 };
    if (mask >= 0) m = g_convert(g, mask, lay);
    LLVMValueRef own = g_owner(g, lay);
    LLVMValueRef elems[16];
    for (int r0 = 0; r0 < ptr.n; r0++) {
        if (!is_group_base(&p, r0)) continue;
        for (int e = 0; e < p.vec; e++) {
            LLVMValueRef x = v.r[member(&p, r0, e)];
            if (LLVMTypeOf(x) == g->t_i1) x = LLVMBuildZExt(g->B, x, g->t_i8, "");
            elems[e] = x;
        }
        LLVMValueRef pred = and_pred(g, mask >= 0 ? m.r[r0] : NULL, own);
        if (!pred) {
            if (p.vec == 1) {
                LLVMValueRef st = LLVMBuildStore(g->B, elems[0], ptr.r[r0]);
                LLVMSetAlignment(st, (unsigned)esize);
            } else {
                LLVMValueRef vv = LLVMGetUndef(LLVMVectorType(mt, (unsigned)p.vec));
                for (int e = 0; e < p.vec; e++) vv = LLVMBuildInsertElement(g->B, vv, elems[e], g_const_i32(g, e), "");
                LLVMValueRef st = LLVMBuildStore(g->B, vv, ptr.r[r0]);
                LLVMSetAlignment(st, (unsigned)(esize * p.vec));
            }
            continue;
        }
        words w = words_for(g, esize * p.vec);
        LLVMValueRef wd[4], args[8];
        pack(g, elems, p.vec, mt, w, wd);
        char text[256], cons[128];
        int n = snprintf(text, sizeof text, "@$%d st.global%s.%s [$0], ", w.n + 1,
                         w.n == 2 ? ".v2" : w.n == 4 ? ".v4" : "", ptx_width(w.wbits));
        if (w.n > 1) n += snprintf(text + n, sizeof text - (size_t)n, "{");
        for (int i = 0; i < w.n; i++) n += snprintf(text + n, sizeof text - (size_t)n, "%s$%d", i ? ", " : "", i + 1);
        if (w.n > 1) n += snprintf(text + n, sizeof text - (size_t)n, "}");
        snprintf(text + n, sizeof text - (size_t)n, ";");
        int c = snprintf(cons, sizeof cons, "l");
        for (int i = 0; i < w.n; i++) c += snprintf(cons + c, sizeof cons - (size_t)c, ",%c", w.cons);
        snprintf(cons + c, sizeof cons - (size_t)c, ",b");
        args[0] = to_int_ptr(g, ptr.r[r0]);
        for (int i = 0; i < w.n; i++) args[1 + i] = wd[i];
        args[1 + w.n] = pred;
        g_asm(g, g->t_void, text, cons, args, 2 + w.n, true);
    }
}

/* ---- atomics ---- */

static const char *sem_str(int s)
{
    switch (s) {
    case SEM_ACQUIRE: return "acquire";
    case SEM_RELEASE: return "release";
    case SEM_RELAXED: return "relaxed";
    default: return "acq_rel";
    }
}

static const char *scope_str(int s) { return s == SCOPE_CTA ? "cta" : s == SCOPE_SYS ? "sys" : "gpu"; }

/* op and type suffix for one atom instruction */
static bool atom_spec(int rmw, ir_type et, char *buf, size_t n, char *cons)
{
    const ir_type_info *ti = ir_type_get(et);
    int bits = ir_type_bits(et);
    bool fl = tt_dtype_is_float(ti->elem);
    const char *o = NULL, *t = NULL;
    *cons = bits == 64 ? 'l' : bits == 16 ? 'h' : 'r';
    if (bits != 16 && bits != 32 && bits != 64) return false;
    switch (rmw) {
    case RMW_ADD: o = "add"; t = bits == 64 ? "u64" : bits == 32 ? "u32" : NULL; break;
    case RMW_FADD:
        o = "add";
        t = ti->elem == TT_F32 ? "f32" : ti->elem == TT_F64 ? "f64" : ti->elem == TT_F16 ? "noftz.f16" :
            ti->elem == TT_BF16 ? "noftz.bf16" : NULL;
        if (ti->elem == TT_F32) *cons = 'f';
        if (ti->elem == TT_F64) *cons = 'd';
        break;
    case RMW_MAX: o = "max"; t = bits == 64 ? "s64" : bits == 32 ? "s32" : NULL; break;
    case RMW_UMAX: o = "max"; t = bits == 64 ? "u64" : bits == 32 ? "u32" : NULL; break;
    case RMW_MIN: o = "min"; t = bits == 64 ? "s64" : bits == 32 ? "s32" : NULL; break;
    case RMW_UMIN: o = "min"; t = bits == 64 ? "u64" : bits == 32 ? "u32" : NULL; break;
    case RMW_AND: o = "and"; t = bits == 64 ? "b64" : bits == 32 ? "b32" : NULL; break;
    case RMW_OR: o = "or"; t = bits == 64 ? "b64" : bits == 32 ? "b32" : NULL; break;
    case RMW_XOR: o = "xor"; t = bits == 64 ? "b64" : bits == 32 ? "b32" : NULL; break;
    case RMW_XCHG: o = "exch"; t = bits == 64 ? "b64" : bits == 32 ? "b32" : NULL; break;
    default: return false;
    }
    if (!t || (fl && rmw != RMW_FADD && rmw != RMW_XCHG)) return false;
    snprintf(buf, n, "%s.%s", o, t);
    return true;
}

/* 8- and 16-bit atomics that PTX has no atom form for (atom has no 8-bit
 * operations and, of 16-bit ones, only cas.b16 and add.noftz.f16/bf16):
 * Triton 3.9's atomic_load/atomic_store on int8, int16, fp16, bf16, fp8 and
 * bool, which the front end makes an `or` with 0 or an `xchg` on the
 * element's bits. or/and/xor are one atom.{or,and,xor}.b32 on the aligned
 * 32-bit word holding the element, the operand shifted into place and the
 * neighbouring bits the operation's identity (0 for or/xor, ones for and), so
 * they come back unchanged. xchg/add/max/min are a compare-and-swap loop:
 * an 8-bit element on its word (atom.cas.b32, the new byte put in with bfi),
 * a 16-bit one on itself (atom.cas.b16, sm_70 as the sem/scope qualifiers
 * already are; it spares a retry when the neighbouring halfword changes);
 * the loop's successful CAS carries the op's sem and scope, the relaxed
 * load that seeds it none. The result is the old element.
 *
 * Neighbours: the word-wide atom and CAS are atomic against every other
 * access to the word, so a concurrent store or atomic on a neighbouring
 * byte is never lost (a CAS that lost the race retries with the new word),
 * which plain byte stores of a read-modify-write would not give.
 *
 * Bounds: the word can reach up to 3 bytes past the tensor's last element
 * (or before its first) when the tensor's size (or offset) is not a
 * multiple of 4. It never leaves the aligned 4-byte block holding a valid
 * element, and memory is mapped and protected in pages (and cudaMalloc
 * hands out 256-byte-aligned blocks), so that block is mapped whenever the
 * element is: the access cannot fault, and the bytes outside the tensor are
 * written back as they were, atomically. */
static bool narrow_rmw(int rmw, ir_type et)
{
    const ir_type_info *ti = ir_type_get(et);
    int bits = ir_type_bits(et);
    if (bits != 8 && bits != 16) return false;
    if (tt_dtype_is_float(ti->elem)) return rmw == RMW_XCHG;   /* the bits; float add is native or refused */
    return rmw == RMW_ADD || rmw == RMW_MAX || rmw == RMW_UMAX || rmw == RMW_MIN || rmw == RMW_UMIN ||
           rmw == RMW_AND || rmw == RMW_OR || rmw == RMW_XOR || rmw == RMW_XCHG;
}

static bool rmw_signed(int rmw) { return rmw == RMW_MAX || rmw == RMW_MIN; }

/* One narrow atomic (narrow_rmw) of width bits at address addr (i64) with
 * operand val32 (the element's bits extended to i32: signed for max/min)
 * under predicate pred; the old element in the low bits of an i32 (0 where
 * pred is false). */
static LLVMValueRef narrow_atom(gctx *g, int rmw, int bits, int sem, int scope, LLVMValueRef addr,
                                LLVMValueRef val32, LLVMValueRef pred)
{
    /* The word-wide forms (all but the 16-bit CAS loop) also act on the
     * neighbouring element(s), which threads of other CTAs may be changing:
     * at least gpu scope keeps them atomic against those (a wider scope only
     * strengthens the op). */
    bool wide = bits == 8 || rmw == RMW_OR || rmw == RMW_AND || rmw == RMW_XOR;
    const char *se = sem_str(sem), *sc = scope_str(wide && scope == SCOPE_CTA ? SCOPE_GPU : scope);
    const char *word = "and.b64 %wa, $1, -4;\n\tcvt.u32.u64 %sh, $1;\n\tand.b32 %sh, %sh, 3;\n\tshl.b32 %sh, %sh, 3;\n\t";
    char text[1024];
    if (rmw == RMW_OR || rmw == RMW_AND || rmw == RMW_XOR) {
        const char *o = rmw == RMW_OR ? "or" : rmw == RMW_AND ? "and" : "xor";
        char idn[160] = "";
        if (rmw == RMW_AND)     /* ones outside the element */
            snprintf(idn, sizeof idn, "shl.b32 %%m, %d, %%sh;\n\tnot.b32 %%m, %%m;\n\tor.b32 %%v, %%v, %%m;\n\t",
                     bits == 8 ? 0xff : 0xffff);
        snprintf(text, sizeof text,
                 "{\n\t.reg .b32 %%sh, %%v, %%m, %%o;\n\t.reg .b64 %%wa;\n\t"
                 "mov.b32 $0, 0;\n\t@!$3 bra $$Lnatom_done_${:uid};\n\t%s"
                 "and.b32 %%v, $2, %d;\n\tshl.b32 %%v, %%v, %%sh;\n\t%s"
                 "atom.%s.%s.global.%s.b32 %%o, [%%wa], %%v;\n\t"
                 "bfe.u32 $0, %%o, %%sh, %d;\n$$Lnatom_done_${:uid}:\n\t}",
                 word, bits == 8 ? 0xff : 0xffff, idn, se, sc, o, bits);
    } else {
        bool sg = rmw_signed(rmw);
        char opx[64];
        switch (rmw) {
        case RMW_XCHG: snprintf(opx, sizeof opx, "mov.b32 %%v, $2;"); break;
        case RMW_ADD: snprintf(opx, sizeof opx, "add.u32 %%v, %%e, $2;"); break;
        case RMW_MAX: case RMW_UMAX: snprintf(opx, sizeof opx, "max.%s32 %%v, %%e, $2;", sg ? "s" : "u"); break;
        default: snprintf(opx, sizeof opx, "min.%s32 %%v, %%e, $2;", sg ? "s" : "u"); break;
        }
        if (bits == 8)
            snprintf(text, sizeof text,
                     "{\n\t.reg .pred %%p;\n\t.reg .b32 %%sh, %%o, %%c, %%n, %%e, %%v;\n\t.reg .b64 %%wa;\n\t"
                     "mov.b32 $0, 0;\n\t@!$3 bra $$Lnatom_done_${:uid};\n\t%s"
                     "ld.relaxed.%s.global.b32 %%o, [%%wa];\n"
                     "$$Lnatom_loop_${:uid}:\n\tbfe.%s32 %%e, %%o, %%sh, 8;\n\t%s\n\t"
                     "bfi.b32 %%n, %%v, %%o, %%sh, 8;\n\t"
                     "atom.%s.%s.global.cas.b32 %%c, [%%wa], %%o, %%n;\n\t"
                     "setp.ne.b32 %%p, %%c, %%o;\n\tmov.b32 %%o, %%c;\n\t@%%p bra $$Lnatom_loop_${:uid};\n\t"
                     "bfe.u32 $0, %%o, %%sh, 8;\n$$Lnatom_done_${:uid}:\n\t}",
                     word, sc, sg ? "s" : "u", opx, se, sc);
        else
            snprintf(text, sizeof text,
                     "{\n\t.reg .pred %%p;\n\t.reg .b16 %%o, %%c, %%n;\n\t.reg .b32 %%e, %%v;\n\t"
                     "mov.b32 $0, 0;\n\t@!$3 bra $$Lnatom_done_${:uid};\n\t"
                     "ld.relaxed.%s.global.b16 %%o, [$1];\n"
                     "$$Lnatom_loop_${:uid}:\n\tcvt.%s32.%s16 %%e, %%o;\n\t%s\n\t"
                     "cvt.u16.u32 %%n, %%v;\n\t"
                     "atom.%s.%s.global.cas.b16 %%c, [$1], %%o, %%n;\n\t"
                     "setp.ne.b16 %%p, %%c, %%o;\n\tmov.b16 %%o, %%c;\n\t@%%p bra $$Lnatom_loop_${:uid};\n\t"
                     "cvt.u32.u16 $0, %%o;\n$$Lnatom_done_${:uid}:\n\t}",
                     sc, sg ? "s" : "u", sg ? "s" : "u", opx, se, sc);
    }
    LLVMValueRef args[3] = { addr, val32, pred };
    return g_asm(g, g->t_i32, text, "=&r,l,r,b,~{memory}", args, 3, true);
}

/* Each element of y (layout lay), computed by its owning thread, is given
 * to every thread that holds a copy of it, through shared scratch memory
 * (esz bytes an element, LLVM type lt). */
static void owner_bcast(gctx *g, int lay, LLVMTypeRef lt, int64_t esz, gv *y)
{
    LLVMValueRef own = g_owner(g, lay);
    const glayout *L = gl_get(g, lay);
    int64_t numel = 1;
    for (int d = 0; d < L->rank; d++) numel *= L->shape[d];
    LLVMValueRef base = g_scratch(g, numel * esz);
    LLVMValueRef lin = g_const_i32(g, 0);
    int64_t stride = 1;
    for (int d = L->rank - 1; d >= 0; d--) {
        lin = LLVMBuildAdd(g->B, lin, LLVMBuildMul(g->B, g_lw_coord(g, lay, d), g_const_i32(g, stride), ""), "");
        stride *= L->shape[d];
    }
    LLVMBasicBlockRef wb = LLVMAppendBasicBlockInContext(g->C, g->fn, "atom.bcast"),
                      cont = LLVMAppendBasicBlockInContext(g->C, g->fn, "atom.cont");
    LLVMValueRef *ptrs = arena_alloc(&g->mem, sizeof(LLVMValueRef) * (size_t)y->n);
    for (int r = 0; r < y->n; r++) {
        int64_t off = 0, st = 1;
        for (int d = L->rank - 1; d >= 0; d--) {
            off += gl_regcoord(L, r, d) * st;
            st *= L->shape[d];
        }
        LLVMValueRef idx = LLVMBuildAdd(g->B, lin, g_const_i32(g, off), "");
        ptrs[r] = LLVMBuildGEP2(g->B, lt, base, &idx, 1, "");
    }
    LLVMBuildCondBr(g->B, own, wb, cont);
    LLVMPositionBuilderAtEnd(g->B, wb);
    for (int r = 0; r < y->n; r++) LLVMBuildStore(g->B, y->r[r], ptrs[r]);
    LLVMBuildBr(g->B, cont);
    LLVMPositionBuilderAtEnd(g->B, cont);
    g_barrier(g);
    for (int r = 0; r < y->n; r++) y->r[r] = LLVMBuildLoad2(g->B, lt, ptrs[r], "");
    g_barrier(g);
}

/* tt.atomic_poll: each owning thread spins on its elements in PTX (a load
 * of the sem and scope, compared with the expected value; with a timeout,
 * %globaltimer against the thread's start), then every thread gets the
 * owners' results and the block waits for all polls (the barrier after
 * the broadcast, or one of its own). */
static void lower_poll(gctx *g, ir_op *op)
{
    int lay = g->vlay[op->res];
    int bits = ir_type_bits(ir_type_elem(vtype(g, op->opnd[1])));
    LLVMTypeRef wt = bits == 64 ? g->t_i64 : bits == 16 ? g->t_i16 : g->t_i32;
    char cons_c = bits == 64 ? 'l' : bits == 16 ? 'h' : 'r';
    gv ptr = g_convert(g, op->opnd[0], lay), want = g_convert(g, op->opnd[1], lay);
    bool timed = op->nopnd > 2;
    LLVMValueRef tmo = timed ? g_get(g, op->opnd[2]).r[0] : NULL;
    LLVMValueRef own = g_owner(g, lay);
    const char *sem = sem_str((int)op->attr[0]), *scope = scope_str((int)op->attr[1]);
    char text[1024], cs[64];
    snprintf(text, sizeof text,
             "{\n\t.reg .pred %%pp<2>;\n\t.reg .b64 %%tt<2>;\n\t.reg .b%d %%vv;\n\t"
             "mov.u32 $0, 0;\n\t@!$3 bra $$Lpoll_done_${:uid};\n\t%s"
             "$$Lpoll_loop_${:uid}:\n\tld.%s.%s.global.b%d %%vv, [$1];\n\t"
             "setp.eq.b%d %%pp0, %%vv, $2;\n\t@%%pp0 bra $$Lpoll_hit_${:uid};\n\t%s"
             "bra.uni $$Lpoll_loop_${:uid};\n$$Lpoll_hit_${:uid}:\n\tmov.u32 $0, 1;\n"
             "$$Lpoll_done_${:uid}:\n\t}",
             bits, timed ? "mov.u64 %tt0, %globaltimer;\n\t" : "", sem, scope, bits, bits,
             timed ? "mov.u64 %tt1, %globaltimer;\n\tsub.u64 %tt1, %tt1, %tt0;\n\t"
                     "setp.ge.u64 %pp1, %tt1, $4;\n\t@%pp1 bra $$Lpoll_done_${:uid};\n\t" : "");
    snprintf(cs, sizeof cs, "=&r,l,%c,b%s,~{memory}", cons_c, timed ? ",l" : "");
    gv y = g_new(g, ptr.n, lay);
    for (int r = 0; r < ptr.n; r++) {
        LLVMValueRef x = want.r[r];
        if (LLVMTypeOf(x) != wt) x = LLVMBuildBitCast(g->B, x, wt, "");
        LLVMValueRef args[4] = { to_int_ptr(g, ptr.r[r]), x, own ? own : LLVMConstInt(g->t_i1, 1, 0), tmo };
        y.r[r] = g_asm(g, g->t_i32, text, cs, args, timed ? 4 : 3, true);
    }
    if (own) owner_bcast(g, lay, g->t_i32, 4, &y);
    else g_barrier(g);
    LLVMTypeRef lt = g_type(g, ir_type_elem(vtype(g, op->res)));
    for (int r = 0; r < y.n; r++) {
        LLVMValueRef b = LLVMBuildICmp(g->B, LLVMIntNE, y.r[r], g_const_i32(g, 0), "");
        y.r[r] = lt == g->t_i1 ? b : LLVMBuildZExt(g->B, b, lt, "");
    }
    g_set(g, op->res, y);
}

void g_lower_atomic(gctx *g, ir_op *op)
{
    if (op->opc == IR_ATOMIC_POLL) {
        lower_poll(g, op);
        return;
    }
    ir_value res = op->res;
    int lay = g->vlay[res];
    bool cas = op->opc == IR_ATOMIC_CAS;
    ir_type et = ir_type_elem(vtype(g, res));
    LLVMTypeRef lt = g_type(g, et);
    int rmw = cas ? -1 : (int)op->attr[0];
    int sem = (int)op->attr[cas ? 0 : 1], scope = (int)op->attr[cas ? 1 : 2];
    char spec[32], cons = 'r';
    bool narrow = false;
    if (cas) {
        int bits = ir_type_bits(et);
        if (bits != 16 && bits != 32 && bits != 64) { gfail(g, op->loc, "tt.atomic_cas on %d-bit values", bits); return; }
        snprintf(spec, sizeof spec, "cas.b%d", bits);
        cons = bits == 64 ? 'l' : bits == 16 ? 'h' : 'r';
    } else if (!atom_spec(rmw, et, spec, sizeof spec, &cons) && !(narrow = narrow_rmw(rmw, et))) {
        char b[96];
        gfail(g, op->loc, "tt.atomic_rmw %s on %s is not supported on the GPU", ir_enum_names("rmw", 3)[rmw],
              ir_type_str(et, b, sizeof b));
        return;
    }
    LLVMTypeRef wt = cons == 'l' ? g->t_i64 : cons == 'h' ? g->t_i16 : cons == 'f' ? g->t_f32 : cons == 'd' ? g->t_f64 : g->t_i32;
    gv ptr = g_convert(g, op->opnd[0], lay);
    gv a = g_convert(g, op->opnd[1], lay);
    gv b = { 0 }, m = { 0 };
    if (cas) b = g_convert(g, op->opnd[2], lay);
    bool has_mask = !cas && op->nopnd > 2 && !g_mask_is_true(g, op->opnd[2]);
    if (has_mask) m = g_convert(g, op->opnd[2], lay);
    LLVMValueRef own = g_owner(g, lay);
    gv y = g_new(g, ptr.n, lay);
    for (int r = 0; r < ptr.n; r++) {
        LLVMValueRef pred = and_pred(g, has_mask ? m.r[r] : NULL, own);
        if (!pred) pred = LLVMConstInt(g->t_i1, 1, 0);
        if (narrow) {
            int bits = ir_type_bits(et);
            LLVMTypeRef it = LLVMIntTypeInContext(g->C, (unsigned)bits);
            LLVMValueRef x = a.r[r];
            if (LLVMTypeOf(x) != it) x = LLVMBuildBitCast(g->B, x, it, "");
            x = rmw_signed(rmw) ? LLVMBuildSExt(g->B, x, g->t_i32, "") : LLVMBuildZExt(g->B, x, g->t_i32, "");
            LLVMValueRef out = narrow_atom(g, rmw, bits, sem, scope, to_int_ptr(g, ptr.r[r]), x, pred);
            out = LLVMBuildTrunc(g->B, out, it, "");
            y.r[r] = it != lt ? LLVMBuildBitCast(g->B, out, lt, "") : out;
            continue;
        }
        char text[160];
        LLVMValueRef args[4];
        int na = 0;
        args[na++] = to_int_ptr(g, ptr.r[r]);
        LLVMValueRef x = a.r[r];
        if (LLVMTypeOf(x) != wt) x = LLVMBuildBitCast(g->B, x, wt, "");
        args[na++] = x;
        if (cas) {
            LLVMValueRef z = b.r[r];
            if (LLVMTypeOf(z) != wt) z = LLVMBuildBitCast(g->B, z, wt, "");
            args[na++] = z;
            snprintf(text, sizeof text, "mov.b%d $0, 0;\n\t@$4 atom.%s.%s.global.%s $0, [$1], $2, $3;",
                     ir_type_bits(et), sem_str(sem), scope_str(scope), spec);
        } else {
            snprintf(text, sizeof text, "mov.b%d $0, 0;\n\t@$3 atom.%s.%s.global.%s $0, [$1], $2;",
                     cons == 'f' ? 32 : cons == 'd' ? 64 : ir_type_bits(et), sem_str(sem), scope_str(scope), spec);
        }
        args[na++] = pred;
        char cs[32];
        snprintf(cs, sizeof cs, cas ? "=&%c,l,%c,%c,b" : "=&%c,l,%c,b", cons, cons, cons);
        LLVMValueRef out = g_asm(g, wt, text, cs, args, na, true);
        if (wt != lt) out = LLVMBuildBitCast(g->B, out, lt, "");
        y.r[r] = out;
    }
    if (own) owner_bcast(g, lay, lt, ir_type_bits(et) / 8, &y);
    g_set(g, res, y);
}
