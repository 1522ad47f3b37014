/* tma.c — Hopper's tensor memory accelerator for the loads of host tensor
 * descriptors: the box rule the compiler and the launcher share, the
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

int gpu_desc_load_param(const ir_func *f, const ir_op *op)
{
    if (op->opc != IR_LOAD || op->nopnd != 6) return -1;
    const ir_value_info *base = &f->values.v[op->opnd[3]];
    return base->def_kind == IR_DEF_ARG ? base->index : -1;
}

bool gpu_tma_plan(const ir_func *f, int k, gpu_tmap *t)
{
    for (int r = 0; r < f->regions.n; r++)
        for (int i = 0; i < f->regions.v[r].nops; i++) {
            const ir_op *op = &f->regions.v[r].ops[i];
            if (gpu_desc_load_param(f, op) != k) continue;
            const ir_type_info *ti = ir_type_get(f->values.v[op->res].type);
            if (!gpu_tma_box(ti->elem, ti->rank, ti->shape, t->box, &t->swizzle)) return false;
            t->dtype = ti->elem == TT_F16 ? CUDA_TMAP_F16 : CUDA_TMAP_BF16;
            return true;
        }
    return false;
}

int gpu_tma_fill(const gpu_launcher *L, void *buf)
{
    for (uint64_t m = L->tma_used; m; m &= m - 1) {
        int k = __builtin_ctzll(m);
        const gpu_tmap *t = &L->tmap[k];
        const char *b = buf;
        uint64_t addr, dims[2], strides[1];
        int32_t shape[2];
        int64_t stride;
        memcpy(&addr, b + L->params[k].offset, 8);
        memcpy(&shape[0], b + L->params[k + 1].offset, 4);
        memcpy(&shape[1], b + L->params[k + 2].offset, 4);
        memcpy(&stride, b + L->params[k + 3].offset, 8);
        /* CUDA's order: innermost first. A shape below 1 or a stride not a
         * multiple of 16 bytes (the user's numbers, unchecked on the way
         * here) is refused by the driver, whose error names them. */
        dims[0] = (uint64_t)(int64_t)shape[1];
        dims[1] = (uint64_t)(int64_t)shape[0];
        strides[0] = (uint64_t)stride * 2;           /* bytes; the last stride is 1 */
        _Alignas(64) unsigned char map[128];         /* CUtensorMap's alignment */
        if (cuda_tensor_map_tiled(map, t->dtype, 2, addr, dims, strides, t->box, t->swizzle)) return -1;
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

void g_tma_load_2d(gctx *g, LLVMValueRef dst, LLVMValueRef map, LLVMValueRef c0, LLVMValueRef c1, LLVMValueRef bar)
{
    LLVMValueRef args[5] = { saddr(g, dst), LLVMBuildPtrToInt(g->B, map, g->t_i64, ""), c0, c1, saddr(g, bar) };
    g_asm(g, g->t_void,
          "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$0], [$1, {$2, $3}], [$4];",
          "r,l,r,r,r,~{memory}", args, 5, true);
}
