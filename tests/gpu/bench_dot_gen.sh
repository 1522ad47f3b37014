#!/bin/sh
# Generate the PTX variants for bench_dot.py (run where tritium is built):
#   sh tests/gpu/bench_dot_gen.sh GPU_TOOL OUTDIR [SIZE]
# Each line of the variant list: LABEL BM BN BK NUM_WARPS [ENV=VALUE ...]
tool=$1; out=$2; S=${3:-4096}
mkdir -p "$out"; : > "$out/manifest.txt"
while read -r label bm bn bk nw envs; do
  case "$label" in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086
  env -u TRITIUM_GPU_CACHE $envs "$tool" --fast --warps "$nw" --ptx examples/matmul.py matmul_kernel 1 \
    a_ptr=f16[$S,$S] b_ptr=f16[$S,$S] c_ptr=f16[$S,$S] M=i:$S N=i:$S K=i:$S stride_am=i:$S stride_ak=i:1 \
    stride_bk=i:$S stride_bn=i:1 stride_cm=i:$S stride_cn=i:1 BLOCK_SIZE_M=c:$bm BLOCK_SIZE_N=c:$bn \
    BLOCK_SIZE_K=c:$bk GROUP_SIZE_M=c:8 > "$out/$label.ptx" || exit 1
  echo "$label $label.ptx $bm $bn $bk 8 $nw $S $S $S" >> "$out/manifest.txt"
done <<LIST
${BENCH_VARIANTS:-old_128x128x32_w4 128 128 32 4 TRITIUM_GPU_OLD_MMA=1
128x128x32_w4_s3 128 128 32 4
128x128x32_w4_s4 128 128 32 4 TRITIUM_GPU_STAGES=4
128x128x64_w4_s3 128 128 64 4
128x128x32_w8_s3 128 128 32 8
128x256x32_w8_s3 128 256 32 8
256x128x32_w8_s3 256 128 32 8
128x256x64_w8_s3 128 256 64 8}
LIST
