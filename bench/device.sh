#!/bin/sh
# bench/device.sh pack|run — the whole GPU check in one call.
#
#   sh bench/device.sh pack   here (Debian 12 with README's packages): the
#       device build (-Dstatic_llvm=true: LLVM linked in; the
#       binaries need only glibc, libstdc++, libz, libzstd, libreadline and,
#       through dlopen, libcuda), stripped and gzipped into build-dev-carry/
#       (about 45 MB), with the libraries a bare GPU machine may lack.
#   sh bench/device.sh run    on the GPU machine, in the repository root, with
#       build-dev-carry carried: the gpu_run Check suite, every launch of
#       tests/gpu/launches.txt on the GPU and in the interpreter
#       (tests/gpu/device_check.sh), `tritium diff` on every example and the
#       planted order bug plus random-size trials (tests/gpu/test_diff.sh and
#       below), the same for persistent kernels (step 4e, TRITIUM_PERSISTENT=1),
#       `python -m tritium --mode gpu` on CUDA tensors, host descriptors,
#       tutorial 06's attention and tutorials 01/02 (tests/python/gpu_mode_cuda.py), the GPU benchmark against Triton 3.6 (bench/gpu.py) and the
#       interpreter benchmark against plain C and TRITON_INTERPRET=1 with
#       the parallel schedule's scaling (bench/run.py), the cold compile
#       time of the examples and tutorials 01-06 phase by phase, with the
#       driver's JIT and beside Triton's (bench/compile_time.py --jit --triton),
#       the conformance suite's GPU half (tests/conformance/gpu.sh), the same
#       cases under real Triton 3.6 (tests/conformance/triton_gpu.py), Triton's
#       tutorials 01-08 with every launch checked against Triton's, by the
#       interpreter and by tritium's GPU path (tests/gpu/tutorials_triton.py) and, when
#       a baseline build is carried in build-base-carry/, both benchmarks of
#       the two builds side by side (bench/before_after.py); the tables last.
#       Exit status 0 when every check passed. `run 1 2 7b` runs only those
#       steps (the numbers of the "== N." lines): a run in two calls fits the
#       device tool's 10 minutes per command.
set -u
cd "$(dirname "$0")/.." || exit 2
D=build-dev-carry

case "${1:-}" in
pack)
    set -e
    [ -f build-dev/build.ninja ] || meson setup build-dev -Dstatic_llvm=true -Dbuildtype=release
    ninja -C build-dev api/tritium api/libtritium.so tests/gpu/test_gpu_run tests/gpu/gpu_tool bench/plain_c \
        bench/launch_floor
    rm -rf "$D" && mkdir -p "$D"
    strip -o "$D/tritium" build-dev/api/tritium
    strip -o "$D/libtritium.so" build-dev/api/libtritium.so
    strip -o "$D/test_gpu_run" build-dev/tests/gpu/test_gpu_run
    strip -o "$D/gpu_tool" build-dev/tests/gpu/gpu_tool
    strip -o "$D/plain_c" build-dev/bench/plain_c
    strip -o "$D/launch_floor" build-dev/bench/launch_floor
    cp /lib/x86_64-linux-gnu/libsubunit.so.0 /lib/x86_64-linux-gnu/libreadline.so.8 \
       /lib/x86_64-linux-gnu/libtinfo.so.6 /lib/x86_64-linux-gnu/libjansson.so.4 "$D/"
    gzip -f "$D/tritium" "$D/libtritium.so" "$D/test_gpu_run" "$D/gpu_tool"
    du -sh "$D"
    ;;
run)
    shift
    STEPS="$*"                      # step numbers to run (e.g. 1 2 7b); none: all
    want() { [ -z "$STEPS" ] || case " $STEPS " in *" $1 "*) true ;; *) false ;; esac; }
    for f in "$D"/*.gz; do [ -e "$f" ] && gunzip -f "$f"; done
    chmod +x "$D/tritium" "$D/test_gpu_run" "$D/gpu_tool"
    for f in plain_c launch_floor; do [ -f "$D/$f" ] && chmod +x "$D/$f"; done
    # the carried libraries only where the machine lacks them
    if ldd "$D/tritium" "$D/test_gpu_run" | grep -q "not found"; then
        export LD_LIBRARY_PATH="$PWD/$D${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    fi
    export TRITIUM_SRCDIR="$PWD" TRITIUM_CACHE_DIR=/tmp/tritium-cache PYTHONUNBUFFERED=1
    T=$PWD/$D/tritium
    fail=0
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    if want 1; then
        echo "== 1. gpu_run suite";       "$D/test_gpu_run" || fail=$((fail + 1))
    fi
    if want 2; then
        echo "== 2. launches.txt";        sh tests/gpu/device_check.sh "$D" >"${OUT:-/tmp}/device_check.log" 2>&1 || fail=$((fail + 1))
        grep -E "== correctness|FAILED" "${OUT:-/tmp}/device_check.log"
    fi
    if want 3; then
        echo "== 3. diff on the examples"; sh tests/gpu/test_diff.sh "$T" || fail=$((fail + 1))
    fi
    if want 4; then
        echo "== 4. diff --trials 20, random sizes"
        for e in "vector_add.py --sizes n_elements=1:200000 --arg x_ptr=randn:f32[n_elements] --arg y_ptr=randn:f32[n_elements] --arg output_ptr=empty:f32[n_elements] --arg n_elements=1000" \
                 "softmax.py --sizes n_cols=1:1024 --sizes n_rows=1:300 --arg input_ptr=randn:f32[n_rows,n_cols] --arg output_ptr=empty:f32[n_rows,n_cols] --arg n_rows=10 --arg n_cols=100 --arg input_row_stride=n_cols --arg output_row_stride=n_cols" \
                 "matmul.py --sizes M=1:300 --sizes N=1:300 --sizes K=1:300 --arg a_ptr=randn:f16[M,K] --arg b_ptr=randn:f16[K,N] --arg c_ptr=empty:f16[M,N] --arg M=64 --arg N=64 --arg K=64"; do
            # shellcheck disable=SC2086
            "$T" diff examples/$e --trials 20 >/tmp/trials.log 2>&1 || fail=$((fail + 1))
            tail -n 1 /tmp/trials.log
        done
    fi
    if want 4b; then
        echo "== 4b. tensor descriptors (host, in-kernel), block pointers and pointer tables: diff of tutorial 06 _attn_fwd, matmuls and 08 (tests/gpu/desc_gpu.sh)"
        sh tests/gpu/desc_gpu.sh diff "$T" || fail=$((fail + 1))
        # steps 3-4b take sm_90's default path for dots (wgmma); 4c the opt-out
    fi
    if want 4c; then
        echo "== 4c. mma.sync (TRITIUM_WGMMA=0): diff of tutorial 06 _attn_fwd and 08, matmul at random sizes (f16, bf16)"
        TRITIUM_WGMMA=0 sh tests/gpu/desc_gpu.sh diff "$T" || fail=$((fail + 1))
        for dt in f16 bf16; do
            TRITIUM_WGMMA=0 "$T" diff examples/matmul.py --sizes M=1:300 --sizes N=1:300 --sizes K=1:300 \
                --arg "a_ptr=randn:$dt[M,K]" --arg "b_ptr=randn:$dt[K,N]" --arg "c_ptr=empty:$dt[M,N]" --arg M=64 --arg N=64 \
                --arg K=64 --trials 20 >/tmp/trials.log 2>&1 || fail=$((fail + 1))
            tail -n 1 /tmp/trials.log
        done
    fi
    if want 4e; then
        echo "== 4e. persistent kernels (TRITIUM_PERSISTENT=1): launches.txt, tutorial 06 and 08, matmul at random sizes"
        TRITIUM_PERSISTENT=1 sh tests/gpu/device_check.sh "$D" >"${OUT:-/tmp}/device_check_persistent.log" 2>&1 || fail=$((fail + 1))
        grep -E "== correctness|FAILED" "${OUT:-/tmp}/device_check_persistent.log"
        TRITIUM_PERSISTENT=1 sh tests/gpu/desc_gpu.sh diff "$T" || fail=$((fail + 1))
        "$T" diff examples/matmul.py --persistent --sizes M=1:300 --sizes N=1:300 --sizes K=1:300 \
            --arg "a_ptr=randn:f16[M,K]" --arg "b_ptr=randn:f16[K,N]" --arg "c_ptr=empty:f16[M,N]" --arg M=64 --arg N=64 \
            --arg K=64 --trials 20 >/tmp/trials.log 2>&1 || fail=$((fail + 1))
        tail -n 1 /tmp/trials.log
    fi
    if want 4d; then
        echo "== 4d. python -m tritium --mode gpu on CUDA tensors (tests/python/gpu_mode_cuda.py)"
        TRITIUM_LIB="$PWD/$D/libtritium.so" python3 tests/python/gpu_mode_cuda.py || fail=$((fail + 1))
    fi
    if want 5; then
        echo "== 5. GPU benchmark (tritium vs Triton 3.6; host launch from C and from Python)"
        python3 bench/gpu.py --tritium "$T" || fail=$((fail + 1))
    fi
    if want 6; then
        echo "== 6. interpreter benchmark (tritium vs plain C, --schedule parallel, TRITON_INTERPRET=1)"
        python3 bench/run.py --tritium "$T" || fail=$((fail + 1))
    fi
    if want 6b; then
        echo "== 6b. cold compile of the examples and tutorials 01-06, phase by phase (front end -> cubin, the driver's JIT), beside Triton 3.6's"
        python3 bench/compile_time.py --tritium "$T" --rounds 3 --jit --triton || fail=$((fail + 1))
    fi
    if want 7; then
        echo "== 7. conformance suite on the GPU (tests/conformance/gpu.sh)"
        sh tests/conformance/gpu.sh "$T" >"${OUT:-/tmp}/conformance_gpu.log" 2>&1 || fail=$((fail + 1))
        grep -E "FAIL|conformance cases" "${OUT:-/tmp}/conformance_gpu.log"
    fi
    if want 7b; then
        echo "== 7b. the conformance cases under real Triton 3.6 (tests/conformance/triton_gpu.py)"
        python3 tests/conformance/triton_gpu.py >"${OUT:-/tmp}/conformance_triton.log" 2>&1 || fail=$((fail + 1))
        sed -n '/^triton_gpu:/,$p' "${OUT:-/tmp}/conformance_triton.log"
    fi
    if want 7c; then
        echo "== 7c. tutorials 01-08 checked launch by launch against real Triton: tritium's interpreter and GPU path (tests/gpu/tutorials_triton.py)"
        TRITIUM_LIB=$PWD/$D/libtritium.so python3 tests/gpu/tutorials_triton.py >"${OUT:-/tmp}/tutorials_triton.log" 2>&1 ||
            fail=$((fail + 1))
        grep -E "^(ok|FAIL) |^tutorials_triton:" "${OUT:-/tmp}/tutorials_triton.log"
    fi
    # a baseline build carried as build-base-carry/tritium(.gz) (with its
    # libtritium.so, found through the binary's $ORIGIN runpath): both builds'
    # benchmarks in alternating rounds, with the ratio (bench/before_after.py)
    if want 8 && { [ -f build-base-carry/tritium.gz ] || [ -x build-base-carry/tritium ]; }; then
        echo "== 8. before/after: build-base-carry vs this build"
        for f in build-base-carry/*.gz; do [ -e "$f" ] && gunzip -f "$f"; done
        chmod +x build-base-carry/tritium
        python3 bench/before_after.py --base build-base-carry/tritium --new "$T" --rounds 3 --gpu || fail=$((fail + 1))
    fi
    echo "== $fail step(s) failed"
    [ "$fail" -eq 0 ]
    ;;
*)
    echo "usage: sh bench/device.sh pack|run" >&2
    exit 2
    ;;
esac
