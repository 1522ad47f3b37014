#!/bin/sh
# The GPU half of the conformance suite: every case of meson.build run with
# `tritium run --device gpu` against the same numpy references (--expect).
# usage: tests/conformance/gpu.sh [TRITIUM]      (default: build/api/tritium)
# Exit status: the number of failing cases (0: all pass).
here=$(cd "$(dirname "$0")" && pwd)
exe=${1:-$here/../../build/api/tritium}
case $exe in /*) ;; *) exe=$(pwd)/$exe ;; esac
cd "$here" || exit 99
python3 - "$exe" <<'PY'
import ast, re, subprocess, sys
text = re.sub(r"#.*", "", open("meson.build").read())
cases = []
for m in re.finditer(r"conformance_cases \+?= (\[.*?\n\]\n)", text, re.S):   # the list and its += blocks
    cases += ast.literal_eval(m.group(1))
fails = 0
for name, argv in cases:
    r = subprocess.run([sys.argv[1], "run", "--device", "gpu"] + argv, capture_output=True, text=True)
    ok = r.returncode == 0
    fails += not ok
    print(("ok    " if ok else "FAIL  ") + name)
    if not ok:
        print(r.stdout[-2000:] + r.stderr[-2000:])
print(f"{len(cases) - fails}/{len(cases)} conformance cases pass on the GPU")
sys.exit(min(fails, 99))
PY
