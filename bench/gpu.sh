#!/bin/sh
# bench/gpu.sh [DIR] — on a GPU machine that has only the driver, CUDA,
# torch and Triton: check and time tritium's GPU path in one call.
#   1. tests/gpu/test_diff.sh: `tritium diff` on every example (vector add
#      bit for bit, softmax / layer norm / matmul within tolerance, the planted
#      order_bug must be caught) and `tritium run --device gpu`;
#   2. bench/gpu.py: tritium vs Triton 3.6 kernel times, bandwidth, cold
#      compile and host launch overhead; one table at the end.
#
# Build here (Debian 12, llvm-19-dev), LLVM and jansson linked statically:
#   meson setup build-gdiff-static -Dstatic_llvm=true -Dbuildtype=release -Dtests=disabled
#   ninja -C build-gdiff-static api/tritium
#   mkdir -p build-gdiff-dev && strip -o build-gdiff-dev/tritium build-gdiff-static/api/tritium
#   cp /lib/x86_64-linux-gnu/libreadline.so.8 /lib/x86_64-linux-gnu/libtinfo.so.6 build-gdiff-dev/
#   gzip -f build-gdiff-dev/tritium             # about 15 MB
# then carry build-gdiff-dev and, in the repository root there:
#   sh bench/gpu.sh [build-gdiff-dev]
dir=${1:-build-gdiff-dev}
[ $# -gt 0 ] && shift
[ -e "$dir/tritium.gz" ] && gunzip -f "$dir/tritium.gz"
chmod +x "$dir/tritium"
# the readline the binary was linked with, only where the machine lacks it
if ldd "$dir/tritium" | grep -q "not found"; then
  export LD_LIBRARY_PATH="$PWD/$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null
export TRITIUM_SRCDIR="$PWD" TRITIUM_CACHE_DIR="${TRITIUM_CACHE_DIR:-/tmp/tritium-cache}"
echo "== tests/gpu/test_diff.sh"
sh tests/gpu/test_diff.sh "$dir/tritium"
checks=$?
echo "== bench/gpu.py"
PYTHONUNBUFFERED=1 python3 bench/gpu.py --tritium "$dir/tritium" "$@"
bench=$?
echo "== checks exit $checks, bench exit $bench"
[ $checks -eq 0 ] && [ $bench -eq 0 ]
