#!/bin/sh
# tests/gpu/desc_gpu.sh ptx|diff TRITIUM — tensor descriptors (host and
# in-kernel), block pointers and pointer tables on the GPU path: Triton's
# tutorial 06 forward (_attn_fwd, fp16, head dim 64 and 128, causal and not,
# desc() arguments or tensors), matmuls of tests/gpu/kernels.py (descriptors as
# parameters and in a tuple, fp32 ones with round_f32_to_tf32=True) and
# tutorial 08's grouped GEMM (ptrs() tables), at small sizes.
#   ptx:  `tritium ptx` of every launch (and ptxas for the PTX's .target when
#         ptxas is on PATH or in /usr/local/cuda/bin): runs without a GPU (meson
#         suite gpu: gpu_wgmma_desc_ptx, gpu_mma_sync_desc_ptx with
#         TRITIUM_WGMMA=0, gpu_wgmma_sync_desc_ptx with TRITIUM_WGMMA_ASYNC=0;
#         ptxas must not serialize the wgmmas, C7514).
#   diff: `tritium diff` of every launch, interpreter vs GPU (bench/device.sh run).
# A launch whose kernel needs what tritium does not have yet ("tritium does not
# support X yet") is reported as skipped, not failed. Exit 0 when none failed.
set -u
mode=${1:?usage: desc_gpu.sh ptx|diff TRITIUM}
T=${2:?usage: desc_gpu.sh ptx|diff TRITIUM}
case "$T" in */*) case "$T" in /*) ;; *) T=$(pwd)/$T ;; esac ;; esac
cd "$(dirname "$0")/../.." || exit 2
TUT=tests/python/tutorials
# kernels.py's bp_mm and attn_heads_bp are block-pointer kernels (Triton 3.6-3.8; 3.9 removed them)
export TRITIUM_TRITON_VERSION=3.8
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tritium-desc-gpu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
PTXAS=$(command -v ptxas || { [ -x /usr/local/cuda/bin/ptxas ] && echo /usr/local/cuda/bin/ptxas; })
fail=0

# one launch: NAME then the tritium words after the sub-command
launch() {
    name=$1
    shift
    if [ "$mode" = ptx ]; then
        "$T" ptx "$@" >"$tmp/k.ptx" 2>"$tmp/err"
    else
        "$T" diff "$@" >"$tmp/err" 2>&1
    fi
    rc=$?
    if [ $rc -ne 0 ] && grep -q "tritium does not support .* yet" "$tmp/err"; then
        echo "skip $name: $(grep -o 'tritium does not support [^ ]* yet' "$tmp/err" | head -n 1)"
        return
    fi
    if [ $rc -eq 0 ] && [ "$mode" = ptx ] && [ -n "$PTXAS" ]; then
        "$PTXAS" -v -arch="$(sed -n "s/^\.target //p" "$tmp/k.ptx")" "$tmp/k.ptx" -o "$tmp/k.cubin" >"$tmp/ptxas" 2>&1 || rc=$?
        cat "$tmp/ptxas" >>"$tmp/err"
        # ptxas serializing the wgmmas (C7514) undoes what the wgmma path is for
        grep -q "C7514" "$tmp/ptxas" && rc=1
    fi
    # every dot here takes the path TRITIUM_WGMMA asks for (default wgmma); tf32 launches
    # (fp32 copies and tf32 dots, which take mma.sync) are checked by diff only
    case "$name" in tf32*) tf32=1 ;; *) tf32=0 ;; esac
    if [ $rc -eq 0 ] && [ "$mode" = ptx ] && [ $tf32 = 0 ]; then
        if [ "${TRITIUM_WGMMA:-1}" = 0 ]; then
            grep -q "wgmma" "$tmp/k.ptx" && { echo "wgmma with TRITIUM_WGMMA=0" >>"$tmp/err"; rc=1; }
            grep -q "mma.sync.aligned" "$tmp/k.ptx" || { echo "no mma.sync" >>"$tmp/err"; rc=1; }
        else
            grep -q "mma.sync" "$tmp/k.ptx" && { echo "mma.sync on the wgmma path" >>"$tmp/err"; rc=1; }
            grep -q "wgmma.mma_async" "$tmp/k.ptx" || { echo "no wgmma.mma_async" >>"$tmp/err"; rc=1; }
            # host descriptors feeding a pipelined wgmma are read by TMA (TRITIUM_TMA=0: by cp.async)
            case "$name" in 06*|desc_mm*|dev_desc_mm*|bp_mm*|bmm*|attn_heads*) if [ "${TRITIUM_TMA:-1}" = 1 ]; then
                grep -q "cp.async.bulk.tensor" "$tmp/k.ptx" || { echo "no TMA load" >>"$tmp/err"; rc=1; }
            else
                grep -q "cp.async.bulk.tensor" "$tmp/k.ptx" && { echo "TMA with TRITIUM_TMA=0" >>"$tmp/err"; rc=1; }
            fi ;; esac
            # attention's p v stays in flight into the next iteration (TRITIUM_WGMMA_ASYNC=0: not)
            case "$name" in 06*) if [ "${TRITIUM_WGMMA_ASYNC:-}" != 0 ]; then
                grep -q "wgmma.wait_group.sync.aligned 1;" "$tmp/k.ptx" || { echo "no MMA left in flight" >>"$tmp/err"; rc=1; }
            else
                grep -q "wgmma.wait_group.sync.aligned 1;" "$tmp/k.ptx" && { echo "an MMA in flight with TRITIUM_WGMMA_ASYNC=0" >>"$tmp/err"; rc=1; }
            fi ;; esac
        fi
    fi
    if [ $rc -eq 0 ]; then
        echo "ok   $name"
    else
        echo "FAIL $name (exit $rc)"
        tail -n 20 "$tmp/err"
        fail=$((fail + 1))
    fi
}

# tutorial 06: Z=1 H=2 N_CTX=256, views [Z*H*N_CTX, D] of Q, K, V, O
for d in 64 128; do
    for stage in 1 3; do
        y=512
        launch "06 _attn_fwd d$d stage $stage" "$TUT/06-fused-attention.py" --kernel _attn_fwd \
            --grid "cdiv(N_CTX, 128), Z * H" --arg sm_scale=0.5 --arg "M=empty:f32[$y]" --arg Z=1 --arg H=2 \
            --arg N_CTX=256 --tensor "Q=randn:f16[$y,$d]" --tensor "K=randn:f16[$y,$d]" \
            --tensor "V=randn:f16[$y,$d]" --tensor "O=empty:f16[$y,$d]" \
            --arg "desc_q=desc(Q, block=[128, $d])" --arg "desc_k=desc(K, block=[64, $d])" \
            --arg "desc_v=desc(V, block=[64, $d])" --arg "desc_o=desc(O, block=[128, $d])" \
            --const HEAD_DIM=$d --const BLOCK_M=128 --const BLOCK_N=64 --const FP8_OUTPUT=False \
            --const STAGE=$stage --const warp_specialize=False --const IS_HOPPER=True --num-warps 8
    done
done

# the same with tensors for desc_q/k/v/o: in-kernel descriptors, whose maps
# the launch encodes (shape Z * H * N_CTX computed from the parameters)
for d in 64 128; do
    y=512
    launch "06 _attn_fwd d$d stage 3 in-kernel descriptors" "$TUT/06-fused-attention.py" --kernel _attn_fwd \
        --grid "cdiv(N_CTX, 128), Z * H" --arg sm_scale=0.5 --arg "M=empty:f32[$y]" --arg Z=1 --arg H=2 \
        --arg N_CTX=256 --arg "desc_q=randn:f16[$y,$d]" --arg "desc_k=randn:f16[$y,$d]" \
        --arg "desc_v=randn:f16[$y,$d]" --arg "desc_o=empty:f16[$y,$d]" \
        --const HEAD_DIM=$d --const BLOCK_M=128 --const BLOCK_N=64 --const FP8_OUTPUT=False \
        --const STAGE=3 --const warp_specialize=False --const IS_HOPPER=True --num-warps 8
done

# a matmul through host descriptors whose blocks reach past M, N and K (TMA's
# zero fill), B in two 128-byte column slabs, f16 and bf16
for dt in f16 bf16; do
    launch "desc_mm $dt" tests/gpu/kernels.py --kernel desc_mm --grid "cdiv(M, 128), cdiv(N, 128)" \
        --tensor "A=randn:$dt[200,112]" --tensor "B=randn:$dt[112,144]" --tensor "C=zeros:f16[200,144]" \
        --arg "a_desc=desc(A, block=[128, 64])" --arg "b_desc=desc(B, block=[64, 128])" --arg c_ptr=C \
        --arg M=200 --arg N=144 --arg K=112 --const BM=128 --const BN=128 --const BK=64
done

# the same with both descriptors in one tuple argument, and fp32 descriptors made
# with round_f32_to_tf32=True (Triton 3.7+): a copy (every load rounded to tf32,
# Inf/NaN kept; the diff is exact) and a tf32 dot of the rounded values, compared
# within its bounds (--numerics fast, docs/bounds.md: the tensor cores' order)
for dt in f16 bf16; do
    launch "desc_mm tuple $dt" tests/gpu/kernels.py --kernel desc_tuple_mm --grid "cdiv(M, 128), cdiv(N, 128)" \
        --tensor "A=randn:$dt[200,112]" --tensor "B=randn:$dt[112,144]" --tensor "C=zeros:f16[200,144]" \
        --arg "descs=(desc(A, block=[128, 64]), desc(B, block=[64, 128]))" --arg c_ptr=C \
        --arg M=200 --arg N=144 --arg K=112 --const BM=128 --const BN=128 --const BK=64
done
launch "tf32 desc copy" tests/gpu/kernels.py --kernel tf32_desc_copy --grid "3, 2" \
    --tensor "X=randn:f32[80,64]" --tensor "Y=zeros:f32[80,64]" \
    --arg "descs=(desc(X, block=[32, 32], round_f32_to_tf32=True), desc(Y, block=[32, 32]))" \
    --const BM=32 --const BN=32
launch "tf32 desc_mm tuple" tests/gpu/kernels.py --kernel desc_tuple_mm --grid "cdiv(M, 64), cdiv(N, 64)" \
    --tensor "A=randn:f32[200,112]" --tensor "B=randn:f32[112,144]" --tensor "C=zeros:f32[200,144]" \
    --arg "descs=(desc(A, block=[64, 32], round_f32_to_tf32=True), desc(B, block=[32, 64], round_f32_to_tf32=True))" \
    --arg c_ptr=C --arg M=200 --arg N=144 --arg K=112 --const BM=64 --const BN=64 --const BK=32 --numerics fast

# the same through in-kernel descriptors, and through block pointers checked
# along both dims (TMA) or B along dim 0 only (cp.async; N a multiple of BN)
for dt in f16 bf16; do
    launch "dev_desc_mm $dt" tests/gpu/kernels.py --kernel dev_desc_mm --grid "cdiv(M, 128), cdiv(N, 128)" \
        --arg "a_ptr=randn:$dt[200,112]" --arg "b_ptr=randn:$dt[112,144]" --arg "c_ptr=zeros:f16[200,144]" \
        --arg M=200 --arg N=144 --arg K=112 \
        --const BM=128 --const BN=128 --const BK=64
done
for check in True False; do
    n=144
    [ $check = False ] && n=256
    launch "bp_mm CHECK_B=$check" tests/gpu/kernels.py --kernel bp_mm --grid "cdiv(M, 128), cdiv(N, 128)" \
        --arg "a_ptr=randn:f16[200,112]" --arg "b_ptr=randn:f16[112,$n]" --arg "c_ptr=zeros:f16[200,$n]" \
        --arg M=200 --arg N=$n --arg K=112 --arg stride_am=112 \
        --arg stride_ak=1 --arg stride_bk=$n --arg stride_bn=1 --const BM=128 --const BN=128 --const BK=64 \
        --const CHECK_B=$check
done

# a [2, 3] batch of matmuls whose programs' bases are a_ptr + z * stride_az +
# h * stride_ah: rank-4 maps over a_ptr, z and h as coordinates
for desc in True False; do
    M=200 N=144 K=112
    launch "bmm DESC=$desc" tests/gpu/kernels.py --kernel bmm --grid "cdiv(M, 128), cdiv(N, 128), 6" \
        --arg "a_ptr=randn:f16[2,3,$M,$K]" --arg "b_ptr=randn:f16[2,3,$K,$N]" --arg "c_ptr=zeros:f16[2,3,$M,$N]" \
        --arg M=$M --arg N=$N --arg K=$K --arg H=3 --arg stride_az=$((3 * M * K)) --arg stride_ah=$((M * K)) \
        --arg stride_bz=$((3 * K * N)) --arg stride_bh=$((K * N)) --const BM=128 --const BN=128 --const BK=64 \
        --const DESC=$desc
done

# FlashAttention-2-style heads: block pointers at q_ptr + z * stride_z + h * stride_h,
# N = 200 (blocks past N: TMA's zero fill, keys masked to -inf)
launch "attn_heads_bp" tests/gpu/kernels.py --kernel attn_heads_bp --grid "cdiv(N, 128), 6" \
    --arg "q_ptr=randn:f16[2,3,200,64]" --arg "k_ptr=randn:f16[2,3,200,64]" --arg "v_ptr=randn:f16[2,3,200,64]" \
    --arg "o_ptr=zeros:f16[2,3,200,64]" --arg N=200 --arg H=3 --arg stride_z=$((3 * 200 * 64)) \
    --arg stride_h=$((200 * 64)) --arg stride_n=64 --const D=64 --const BM=128 --const BN=64 --num-warps 8
# ... and K, V without boundary_check (N a multiple of BN): TMA over unbounded rows
launch "attn_heads_bp unchecked" tests/gpu/kernels.py --kernel attn_heads_bp --grid "cdiv(N, 128), 6" \
    --arg "q_ptr=randn:f16[2,3,256,64]" --arg "k_ptr=randn:f16[2,3,256,64]" --arg "v_ptr=randn:f16[2,3,256,64]" \
    --arg "o_ptr=zeros:f16[2,3,256,64]" --arg N=256 --arg H=3 --arg stride_z=$((3 * 256 * 64)) \
    --arg stride_h=$((256 * 64)) --arg stride_n=64 --const D=64 --const BM=128 --const BN=64 --const CHECK=False \
    --num-warps 8

# tutorial 08: two GEMMs (128x128x64, 64x64x64) through pointer tables
python3 -c "
import numpy as np
np.save('$tmp/sizes.npy', np.array([128, 128, 64, 64, 64, 64], dtype=np.int32))
np.save('$tmp/lds.npy', np.array([64, 128, 128, 64, 64, 64], dtype=np.int32))" || fail=$((fail + 1))
launch "08 grouped_matmul_kernel" "$TUT/08-grouped-gemm.py" --kernel grouped_matmul_kernel --grid 4 \
    --tensor A0=rand:f16[128,64] --tensor B0=rand:f16[64,128] --tensor C0=zeros:f16[128,128] \
    --tensor A1=rand:f16[64,64] --tensor B1=rand:f16[64,64] --tensor C1=zeros:f16[64,64] \
    --arg "group_a_ptrs=ptrs(A0, A1)" --arg "group_b_ptrs=ptrs(B0, B1)" --arg "group_c_ptrs=ptrs(C0, C1)" \
    --arg "group_gemm_sizes=$tmp/sizes.npy" --arg "g_lds=$tmp/lds.npy" --arg group_size=2 \
    --const NUM_SM=4 --const BLOCK_SIZE_M=64 --const BLOCK_SIZE_N=64 --const BLOCK_SIZE_K=32

echo "desc_gpu ($mode): $fail failed"
[ $fail -eq 0 ]
