#!/bin/sh
# GPU check: the gpu_run Check suite (kernels vs C references, illegal-address
# report), then every launch of tests/gpu/launches.txt on the GPU and in the
# interpreter with all tensors compared, then timings of the reference kernels.
#
# Build here (Debian 12, llvm-19-dev), from a build with -Dstatic_llvm=true:
#   meson setup build-gpu-static -Dstatic_llvm=true -Dbuildtype=release
#   ninja -C build-gpu-static tests/gpu/gpu_tool tests/gpu/test_gpu_run
#   mkdir -p build-gpu-dev
#   strip -o build-gpu-dev/gpu_tool build-gpu-static/tests/gpu/gpu_tool
#   strip -o build-gpu-dev/test_gpu_run build-gpu-static/tests/gpu/test_gpu_run
#   cp /lib/x86_64-linux-gnu/libsubunit.so.0 build-gpu-dev/   # libcheck's dependency
#   gzip build-gpu-dev/gpu_tool build-gpu-dev/test_gpu_run    # 2 x 37 MB -> 2 x 15 MB
# then, in the repository root on the GPU machine (build-gpu-dev carried):
#   sh tests/gpu/device_check.sh [DIR]            DIR default: build-gpu-dev
# libdevice is found under the CUDA install ($CUDA_HOME, /usr/local/cuda*).
dir=${1:-build-gpu-dev}
for f in "$dir"/*.gz; do [ -e "$f" ] && gunzip -f "$f"; done
chmod +x "$dir"/gpu_tool "$dir"/test_gpu_run 2>/dev/null
tool=$dir/gpu_tool
export TRITIUM_CACHE_DIR=${TRITIUM_CACHE_DIR:-/tmp/tritium-cache} TRITIUM_GPU_CACHE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
pass=0; fail=0
if [ -x "$dir/test_gpu_run" ]; then
  echo "== gpu_run suite"
  LD_LIBRARY_PATH=$PWD/$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} TRITIUM_SRCDIR=$PWD "$dir/test_gpu_run" || fail=$((fail+1))
fi
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  tol=${line%%|*}; args=${line#*|}
  # shellcheck disable=SC2086
  if timeout 120 "$tool" --run $tol $args; then pass=$((pass+1)); else echo "FAILED: $args"; fail=$((fail+1)); fi
done < tests/gpu/launches.txt
echo "== correctness: $pass passed, $fail failed"
echo "== timings (no reference; bench = mean of 20 runs)"
t() { timeout 120 "$tool" --run --no-ref --iters 20 "$@" || echo "FAILED: $*"; }
t examples/vector_add.py add_kernel 16384 x_ptr=f32[16777216] y_ptr=f32[16777216] output_ptr=f32[16777216] n_elements=i:16777216 BLOCK_SIZE=c:1024
t --fast examples/softmax.py softmax_kernel 4096 output_ptr=f32[4096,1024] input_ptr=f32[4096,1024] input_row_stride=i:1024 output_row_stride=i:1024 n_rows=i:4096 n_cols=i:1024 BLOCK_SIZE=c:1024
t --fast examples/matmul.py matmul_kernel 4096 a_ptr=f16[4096,4096] b_ptr=f16[4096,4096] c_ptr=f16[4096,4096] M=i:4096 N=i:4096 K=i:4096 stride_am=i:4096 stride_ak=i:1 stride_bk=i:4096 stride_bn=i:1 stride_cm=i:4096 stride_cn=i:1 BLOCK_SIZE_M=c:128 BLOCK_SIZE_N=c:128 BLOCK_SIZE_K=c:32 GROUP_SIZE_M=c:8
echo "== second process: PTX from the disk cache, SASS from the driver's compute cache"
t examples/vector_add.py add_kernel 16384 x_ptr=f32[16777216] y_ptr=f32[16777216] output_ptr=f32[16777216] n_elements=i:16777216 BLOCK_SIZE=c:1024
[ $fail -eq 0 ]
