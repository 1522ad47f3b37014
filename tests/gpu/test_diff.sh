#!/bin/sh
# tests/gpu/test_diff.sh TRITIUM — `tritium diff` (interpreter vs GPU) on
# every example, and `tritium run --device gpu` with --save/--expect/--bench.
# Suite gpu; exits 77 (skip) when there is no CUDA driver.
#
#   vector_add      bit-identical in ieee mode (--rtol 0 --atol 0: max ulp 0),
#                   also over 5 trials with n_elements redrawn (--sizes)
#   softmax, layer_norm, matmul
#                   agree within the default tolerances, ieee and fast
#   order_bug       must differ: exit 1, the report names out_ptr, an element
#                   index, the writing program and the store's line
#   oob_bug         the interpreter's fault makes the diff fail (exit 1)
#   run --device gpu  the GPU's output equals the interpreter's --save'd one
#                   (--expect rtol=0,atol=0); --bench reports a median
# TRITIUM_SRCDIR locates examples/ (default: the current directory).
T=${1:?usage: test_diff.sh TRITIUM}
S=${TRITIUM_SRCDIR:-.}
E=$S/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tritium-gpu-diff-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { printf '%s\n' "$*"; }
bad() { say "FAIL: $*"; fail=$((fail + 1)); }

# run NAME EXPECTED_STATUS tritium-args...: output in $tmp/NAME.out/.err
run() {
  name=$1 want=$2; shift 2
  "$T" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  st=$?
  if [ "$st" -ne "$want" ]; then
    bad "$name: exit $st, want $want: $T $*"
    sed 's/^/    /' "$tmp/$name.out" "$tmp/$name.err" | head -40
    return 1
  fi
  say "ok: $name"
  return 0
}
has() {  # has NAME FILE-SUFFIX TEXT
  grep -qF -- "$3" "$tmp/$1.$2" || { bad "$1: '$3' not in its $2"; sed 's/^/    /' "$tmp/$1.$2" | head -40; }
}

# no driver: skip
"$T" diff "$E/vector_add.py" --json >"$tmp/probe.out" 2>"$tmp/probe.err"
st=$?
if [ $st -eq 2 ] && grep -q "no CUDA driver" "$tmp/probe.err"; then
  say "no CUDA driver: skipped"
  exit 77
fi

# vector add: bit for bit
run va_exact 0 diff "$E/vector_add.py" --rtol 0 --atol 0 --json &&
  { has va_exact out '"max_ulp": 0,'; has va_exact out '"mismatches": 0,'; has va_exact out '"name": "output_ptr"'; }
run va_text 0 diff "$E/vector_add.py" && { has va_text out "bit-identical"; has va_text out "result   ok"; }
run va_trials 0 diff "$E/vector_add.py" --rtol 0 --atol 0 --trials 5 --sizes n_elements=1:98432 &&
  has va_trials out "trials   5: 5 agree, 0 differ"
run va_fast 0 diff "$E/vector_add.py" --numerics fast

# within tolerance, both numerics
for k in softmax layer_norm matmul; do
  run "$k" 0 diff "$E/$k.py" && has "$k" out "result   ok"
  run "${k}_fast" 0 diff "$E/$k.py" --numerics fast
done
run ln_trials 0 diff "$E/layer_norm.py" --trials 3 --sizes N=1:1000 --json && has ln_trials out '"differ": 0,'

# the planted order bug
store=$(grep -n 'tl.store(out_ptr + pid' "$E/order_bug.py" | cut -d: -f1)
if run order_bug 1 diff "$E/order_bug.py"; then
  has order_bug out "out_ptr"
  has order_bug out "MISMATCH"
  has order_bug out "order_bug.py:$store"
  has order_bug out "program ("
  grep -Eq '^ +\[[0-9]+\] ' "$tmp/order_bug.out" || bad "order_bug: no element index in the report"
fi
run order_bug_json 1 diff "$E/order_bug.py" --json && { has order_bug_json out "\"line\": $store,"; has order_bug_json out '"status": 1'; }

# the interpreter's fault fails the diff
run oob_bug 1 diff "$E/oob_bug.py" && has oob_bug out "the interpreter found"

# run --device gpu: same result as the interpreter, --bench
run va_cpu 0 run "$E/vector_add.py" --save "output_ptr=$tmp/va.npy"
run va_gpu 0 run "$E/vector_add.py" --device gpu --expect "output_ptr=$tmp/va.npy,rtol=0,atol=0" &&
  { has va_gpu out "device   "; has va_gpu out "expect   output_ptr: ok"; }
run va_bench 0 run "$E/vector_add.py" --device gpu --bench 20 --json && has va_bench out '"median_ms":'
run mm_gpu 0 run "$E/matmul.py" --device gpu --numerics fast

say "== tests/gpu/test_diff.sh: $fail failed"
[ $fail -eq 0 ]
