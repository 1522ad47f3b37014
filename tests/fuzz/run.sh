#!/bin/sh
# tests/fuzz/run.sh [DURATION] [HARNESS...]
#
# Build the libFuzzer harnesses with clang (ASan + UBSan, -fsanitize=fuzzer)
# in build-fuzz/ and run each for DURATION seconds (default 60) on its seed
# corpus tests/fuzz/corpus/NAME (front: examples/ and tests/repl/kernels/). Harnesses: spec (launch-spec parser and
# resolver), front (front_load_text + front_compile), npy (npy_parse).
# New corpus entries go to build-fuzz/corpus/NAME; crashes, leaks and
# timeouts to fuzz-out/NAME/. Exits non-zero when a harness found something.
#
# Environment: FUZZ_CC (default clang-19), FUZZ_JOBS (ninja -j, default 2),
# FUZZ_FLAGS (extra libFuzzer flags, e.g. "-rss_limit_mb=4096").
set -eu
DUR=${1:-60}
[ $# -gt 0 ] && shift
NAMES=${*:-spec front npy}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build-fuzz
CC=${FUZZ_CC:-clang-19}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"

if [ ! -f "$BUILD/build.ninja" ]; then
    CC=$CC meson setup "$BUILD" "$ROOT" -Dtests=disabled -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined \
        -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all -DTRITIUM_FUZZING" >/dev/null
fi
ninja -C "$BUILD" -j "${FUZZ_JOBS:-2}" repl/libtt_repl.a compiler/front/libtt_front.a \
    compiler/ir/libtt_ir.a compiler/support/libtt_support.a >/dev/null

LIBS="$BUILD/repl/libtt_repl.a $BUILD/compiler/front/libtt_front.a $BUILD/compiler/ir/libtt_ir.a
      $BUILD/compiler/support/libtt_support.a -lm"
for n in $NAMES; do
    # shellcheck disable=SC2086
    $CC -g -O1 -std=gnu11 -D_GNU_SOURCE -fsanitize=fuzzer $SAN -I"$ROOT/include" -I"$ROOT/repl" \
        "$ROOT/tests/fuzz/fuzz_$n.c" $LIBS -o "$BUILD/fuzz-$n"
done

# Seed corpora: the front end starts from the project's own kernel files.
seeds() {
    case $1 in
    front) echo "$ROOT/examples $ROOT/tests/repl/kernels" ;;
    *) echo "$ROOT/tests/fuzz/corpus/$1" ;;
    esac
}

status=0
for n in $NAMES; do
    # diag.h keeps every registered source for the life of the process (the
    # front end registers each text it lexes), so every input "leaks" by
    # design and LeakSanitizer would rescan the heap after each run, 100x
    # slower: leak checking is off for the harnesses that reach the front end
    # (the repl suite under ASan checks leaks instead). FUZZ_FLAGS comes last
    # and may turn it back on. The registry also grows by about 0.1-0.5 GB a
    # minute, hence the larger RSS limit.
    case $n in spec|front) LEAK="-detect_leaks=0 -rss_limit_mb=6144" ;; *) LEAK="" ;; esac
    mkdir -p "$BUILD/corpus/$n" "$ROOT/fuzz-out/$n"
    echo "== fuzz-$n for ${DUR}s"
    # shellcheck disable=SC2086
    if ! UBSAN_OPTIONS=print_stacktrace=1 "$BUILD/fuzz-$n" -max_total_time="$DUR" -max_len=4096 -timeout=10 \
            -print_final_stats=1 -artifact_prefix="$ROOT/fuzz-out/$n/" $LEAK ${FUZZ_FLAGS:-} \
            "$BUILD/corpus/$n" $(seeds "$n") >"$ROOT/fuzz-out/$n/log.txt" 2>&1; then
        echo "fuzz-$n: FAILED, see fuzz-out/$n/log.txt"
        status=1
    fi
    grep -E "^stat::(number_of_executed_units|peak_rss_mb)|^(Done|INFO: Done)" "$ROOT/fuzz-out/$n/log.txt" || true
    tail -n 3 "$ROOT/fuzz-out/$n/log.txt" | grep -E "ERROR|SUMMARY" || true
    if [ -n "$LEAK" ]; then
        # leak check after the fact: replay the corpus once with LeakSanitizer
        # (the source registry stays reachable, so only real leaks show)
        echo "   replaying the corpus with leak checking"
        if ! "$BUILD/fuzz-$n" -runs=0 -detect_leaks=1 -artifact_prefix="$ROOT/fuzz-out/$n/" \
                "$BUILD/corpus/$n" $(seeds "$n") >"$ROOT/fuzz-out/$n/leaks.txt" 2>&1; then
            echo "fuzz-$n: LEAK or crash on replay, see fuzz-out/$n/leaks.txt"
            status=1
        fi
    fi
done
exit $status
