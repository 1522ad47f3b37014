#!/bin/sh
# Every libdevice conformance kernel (the ld_* cases of meson.build: every
# overload of Triton 3.6's libdevice) through `tritium ptx` and ptxas for
# the PTX's .target (sm_90a: tritium ptx's default with wgmma) (ieee numerics; fast too for the kernel holding exp, sqrt, rsqrt). Needs only LLVM and ptxas (exit 77 without ptxas).
# usage: tests/conformance/ptx_libdevice.sh [TRITIUM [PREFIX]]
# PREFIX selects other cases by name instead (tdesc_: the tensor descriptors).
here=$(cd "$(dirname "$0")" && pwd)
exe=${1:-$here/../../build/api/tritium}
case $exe in /*) ;; *) exe=$(pwd)/$exe ;; esac
ptxas=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null)
[ -n "$ptxas" ] || { echo "no ptxas: skipped"; exit 77; }
cd "$here" || exit 99
python3 - "$exe" "$ptxas" "${2:-ld_}" <<'PY'
import ast, os, re, subprocess, sys, tempfile
text = re.sub(r"#.*", "", open("meson.build").read())
cases = []
for m in re.finditer(r"conformance_cases \+?= (\[.*?\n\]\n)", text, re.S):
    cases += ast.literal_eval(m.group(1))
cases = [c for c in cases if c[0].startswith(sys.argv[3])]
fails = 0
tmp = tempfile.mkdtemp(prefix="tritium_ptx_ld_")
for name, argv in cases:
    spec = []
    i = 0
    while i < len(argv):                     # the launch spec without --expect
        if argv[i] == "--expect":
            i += 2
            continue
        spec.append(argv[i])
        i += 1
    # fast numerics changes only variant 0 of rows with a fast form (exp, sqrt, rsqrt)
    for mode in ("ieee", "fast") if name == "ld_f32_f32_acc" else ("ieee",):
        ptx = os.path.join(tmp, "%s_%s.ptx" % (name, mode))
        with open(ptx, "w") as f:
            r = subprocess.run([sys.argv[1], "ptx"] + spec + ["--numerics", mode], stdout=f, stderr=subprocess.PIPE, text=True)
        if r.returncode == 0:
            target = re.search(r"^\.target (sm_\w+)", open(ptx).read(), re.M)
            r = subprocess.run([sys.argv[2], "-arch", target.group(1) if target else "sm_90", ptx, "-o", os.devnull],
                               capture_output=True, text=True)
        if r.returncode:
            fails += 1
            print("FAIL  %s (%s)\n%s" % (name, mode, (r.stdout + r.stderr)[-1500:]))
        os.unlink(ptx)
os.rmdir(tmp)
print("%d %s* kernels compile to PTX and assemble for their .target, %d failures" % (len(cases), sys.argv[3], fails))
sys.exit(min(fails, 99))
PY
