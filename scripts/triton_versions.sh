#!/bin/bash
# The Python package under each Triton tritium supports (not a CI test: it
# installs four torch/triton pairs, a few GB each, and takes about 10 minutes
# a version on a 2-core machine).
#
#   scripts/triton_versions.sh [3.6 3.7 3.8 3.9]
#
# For each version: a venv with Triton and the torch that pins it (created,
# or reused when it has them already), numpy, ml_dtypes, pytest and tabulate;
# then, with this checkout's package (python/) and library ($TRITIUM_LIB, else
# build/api/libtritium.so; build it first), tests/python/run_tutorials.py and
# the Python test suite. Prints a table (Markdown) of what passed.
#
# Where the venvs are: $TRITIUM_VENVS/triton-X.Y (default
# ~/.cache/tritium/venvs), or the venv named by TRITIUM_VENV_X_Y (e.g.
# TRITIUM_VENV_3_6=.venv) for a version. Logs: $TRITIUM_VERSIONS_LOGS
# (default a new directory under /tmp), named in the output.
set -u
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENVS="${TRITIUM_VENVS:-$HOME/.cache/tritium/venvs}"
LIB="${TRITIUM_LIB:-$ROOT/build/api/libtritium.so}"
LOGS="${TRITIUM_VERSIONS_LOGS:-$(mktemp -d /tmp/tritium-versions-XXXXXX)}"
PYTHON="${PYTHON:-python3}"
TESTS="test_interp_mode.py test_live.py test_modes.py test_record_mode.py test_tuples.py test_named_tuples.py
       test_core_rules.py test_desc_ptrs.py test_versions.py test_lang39.py test_atomic_poll.py test_dot_scaled.py
       test_recompiles.py test_watch.py"

# Triton X.Y -> the newest torch that pins it (torch's Requires-Dist: triton==...), and that triton
pins() {
    case "$1" in
        3.6) echo "2.11.0 3.6.0" ;;
        3.7) echo "2.13.0 3.7.1" ;;
        3.8) echo "2.14.1 3.8.0" ;;
        3.9) echo "2.15.0 3.9.0" ;;
        *) return 1 ;;
    esac
}

if [ ! -f "$LIB" ]; then
    echo "triton_versions.sh: $LIB not found: build the library first (meson setup build && meson compile -C build)" >&2
    exit 2
fi
mkdir -p "$LOGS"
versions=("$@")
[ ${#versions[@]} -eq 0 ] && versions=(3.6 3.7 3.8 3.9)
rows=()
status=0
for v in "${versions[@]}"; do
    if ! p=$(pins "$v"); then
        echo "triton_versions.sh: Triton $v: not one of 3.6 3.7 3.8 3.9" >&2
        exit 2
    fi
    read -r torch triton <<<"$p"
    var="TRITIUM_VENV_${v/./_}"
    venv="${!var:-$VENVS/triton-$v}"
    echo "== Triton $triton, torch $torch: $venv"
    if [ ! -x "$venv/bin/python" ]; then
        mkdir -p "$(dirname "$venv")"
        "$PYTHON" -m venv "$venv" || { echo "cannot create $venv" >&2; exit 2; }
    fi
    have=$("$venv/bin/python" -c 'import torch, triton, numpy, ml_dtypes, pytest, tabulate
print(torch.__version__.split("+")[0], triton.__version__)' 2>/dev/null)
    if [ "$have" != "$torch $triton" ]; then
        echo "   installing torch==$torch triton==$triton numpy ml_dtypes pytest tabulate (log: $LOGS/pip-$v.log)"
        if ! "$venv/bin/pip" install -q "torch==$torch" "triton==$triton" numpy ml_dtypes pytest tabulate \
                >"$LOGS/pip-$v.log" 2>&1; then
            echo "   pip failed: see $LOGS/pip-$v.log" >&2
            rows+=("| $triton | $torch | pip install failed | |")
            status=1
            continue
        fi
    fi
    export TRITIUM_LIB="$LIB" PYTHONPATH="$ROOT/python"
    unset TRITIUM_MODE TRITON_INTERPRET
    (cd "$ROOT/tests/python" && "$venv/bin/python" run_tutorials.py) >"$LOGS/tutorials-$v.log" 2>&1
    trc=$?
    tut=$(grep -E '^tutorials: ' "$LOGS/tutorials-$v.log" | tail -1 | sed 's/^tutorials: //')
    # shellcheck disable=SC2086
    (cd "$ROOT/tests/python" && "$venv/bin/python" -m pytest -q -p no:cacheprovider $TESTS) >"$LOGS/pytest-$v.log" 2>&1
    prc=$?
    last=$(grep -E '[0-9]+ (passed|failed)' "$LOGS/pytest-$v.log" | tail -1)
    n() { echo "$last" | grep -oE "[0-9]+ $1" | grep -oE '[0-9]+' || echo 0; }
    py="$(n passed) / $(n failed) / $(n skipped)"
    [ "$(n error)" != 0 ] && py="$py ($(n error) errors)"
    echo "   tutorials: ${tut:-exit $trc}; python tests (passed / failed / skipped): $py"
    { [ $trc -ne 0 ] || [ $prc -ne 0 ]; } && status=1
    rows+=("| $triton | $torch | ${tut:-exit $trc} | $py |")
done
echo
echo "| Triton | torch | tutorials (run_tutorials.py) | Python tests passed / failed / skipped |"
echo "| --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
echo
echo "logs: $LOGS"
exit $status
