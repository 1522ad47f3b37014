#!/bin/sh
# tests/fuzz/run.sh [DURATION] [HARNESS...]
#
# Build the libFuzzer harnesses with clang (ASan + UBSan, -fsanitize=fuzzer)
# in build-fuzz/ (meson -Dfuzz=true, tests/fuzz/meson.build) and run each for
# DURATION seconds (default 60) on its seed corpus. Harnesses (default: all):
#   spec    launch-spec parser and resolver          seeds tests/fuzz/corpus/spec
#   front   front end on raw text                    seeds examples/, tests/repl/kernels/
#   live    live modules (kernel.json)               seeds tests/fuzz/corpus/live
#   npy     .npy parser                              seeds tests/fuzz/corpus/npy
#   ir      IR text parser, verifier, round trip     seeds tests/fuzz/corpus/ir
#   kernel  generated kernels through `tritium run`  (grammar-aware generator)
#   debug   debugger command scripts on a launch     seeds tests/fuzz/corpus/debug
# New corpus entries go to build-fuzz/corpus/NAME; crashes, leaks and
# timeouts to fuzz-out/NAME/, the log to fuzz-out/NAME/log.txt. Exits
# non-zero when a harness found something.
#
# Environment: FUZZ_OUT (default fuzz-out: logs and findings), FUZZ_CC (default clang-19: apt-get install clang-19
# libclang-rt-19-dev), FUZZ_JOBS (ninja -j, default 2), FUZZ_PARALLEL=1 (run
# the harnesses at the same time instead of one after another), FUZZ_FLAGS
# (extra libFuzzer flags, e.g. "-rss_limit_mb=4096").
set -eu
DUR=${1:-60}
[ $# -gt 0 ] && shift
NAMES=${*:-spec front live npy ir kernel debug}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=$ROOT/build-fuzz
CC=${FUZZ_CC:-clang-19}
OUT=${FUZZ_OUT:-$ROOT/fuzz-out}

if [ ! -f "$BUILD/build.ninja" ]; then
    CC=$CC meson setup "$BUILD" "$ROOT" -Dtests=disabled -Dfuzz=true -Dbuildtype=debugoptimized \
        -Db_sanitize=address,undefined -Db_lundef=false \
        -Dc_args="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all -DTRITIUM_FUZZING" >/dev/null
fi
TARGETS=""
for n in $NAMES; do TARGETS="$TARGETS tests/fuzz/fuzz-$n"; done
# shellcheck disable=SC2086
ninja -C "$BUILD" -j "${FUZZ_JOBS:-2}" $TARGETS >/dev/null

# Seed corpora: the front end starts from the project's own kernel files.
seeds() {
    case $1 in
    front) echo "$ROOT/examples $ROOT/tests/repl/kernels" ;;
    kernel) ;;
    *) echo "$ROOT/tests/fuzz/corpus/$1" ;;
    esac
}

# One harness: the run, then (for those that reach the front end) a replay of
# the corpus with leak checking. Prints its summary; returns non-zero on a finding.
fuzz_one() {
    n=$1
    # diag.h keeps every registered source for the life of the process (the
    # front end registers each text it lexes), so every input "leaks" by
    # design and LeakSanitizer would rescan the heap after each run, 100x
    # slower: leak checking is off for the harnesses that reach the front end
    # and is done once on the corpus afterwards. FUZZ_FLAGS comes last and
    # may turn it back on. The registry also grows by about 0.1-0.5 GB a
    # minute, hence the larger RSS limit. kernel and debug print what
    # `tritium` prints: -close_fd_mask=3 discards it (sanitizer reports
    # still reach the log).
    case $n in spec|npy) LEAK="" ;; *) LEAK="-detect_leaks=0 -rss_limit_mb=6144" ;; esac
    case $n in kernel|debug) QUIET="-close_fd_mask=3" ;; *) QUIET="" ;; esac
    # the kernel generator reads at most 512 bytes; start at full length
    case $n in ir) LEN=16384 ;; kernel) LEN="512 -len_control=0" ;; *) LEN=4096 ;; esac
    mkdir -p "$BUILD/corpus/$n" "$OUT/$n"
    rc=0
    # shellcheck disable=SC2086,SC2046
    if ! UBSAN_OPTIONS=print_stacktrace=1 "$BUILD/tests/fuzz/fuzz-$n" -max_total_time="$DUR" -max_len=$LEN \
            -timeout=10 -print_final_stats=1 -artifact_prefix="$OUT/$n/" $LEAK $QUIET ${FUZZ_FLAGS:-} \
            "$BUILD/corpus/$n" $(seeds "$n") >"$OUT/$n/log.txt" 2>&1; then
        echo "fuzz-$n: FAILED, see $OUT/$n/log.txt"
        rc=1
    fi
    if [ -n "$LEAK" ] && [ $rc = 0 ]; then
        # shellcheck disable=SC2046
        if ! "$BUILD/tests/fuzz/fuzz-$n" -runs=0 -detect_leaks=1 $QUIET -artifact_prefix="$OUT/$n/" \
                "$BUILD/corpus/$n" $(seeds "$n") >"$OUT/$n/leaks.txt" 2>&1; then
            echo "fuzz-$n: LEAK or crash on replay, see $OUT/$n/leaks.txt"
            rc=1
        fi
    fi
    echo "== fuzz-$n, ${DUR}s: $(grep -E '^stat::number_of_executed_units' "$OUT/$n/log.txt" |
        sed 's/.*: */executions /'), $(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$OUT/$n/log.txt" | tail -n 1),
        $(grep -E '^stat::peak_rss_mb' "$OUT/$n/log.txt" | sed 's/.*: */peak RSS MB /')"
    tail -n 3 "$OUT/$n/log.txt" | grep -E "ERROR|SUMMARY" || true
    return $rc
}

status=0
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
    pids=""
    for n in $NAMES; do
        fuzz_one "$n" &
        pids="$pids $!"
    done
    for p in $pids; do wait "$p" || status=1; done
else
    for n in $NAMES; do fuzz_one "$n" || status=1; done
fi
exit $status
