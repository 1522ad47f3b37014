#!/usr/bin/env python3
"""Suite 'python': Triton 3.6's tutorials 01-08 (tests/python/tutorials/,
unchanged, MIT-licensed: see LICENSE there) under `python -m tritium`
(interp mode) with CPU torch, whichever Triton from 3.6 to 3.9 is installed:
each must exit 0, which means its own correctness asserts held; 01 and 03,
which print their comparison instead of asserting, must print a match.
Exits 77 (skipped) without torch or triton.

Under a newer Triton, a 3.6 tutorial that fails is run once more under that
Triton's own interpreter (TRITON_INTERPRET=1, no tritium): failing there with
the same exception, it is reported as "xfail" (it fails as in Triton X.Y), not
as a failure: 3.6's tutorial 08 names a misspelt argument in an autotune key,
which Triton 3.9's autotuner refuses at decoration. Where a release changed a
tutorial, that version runs too: a copy vendored in tutorials-X.Y/ (none is,
so far), else the change as DERIVED lists it, made at run time on 3.6's copy
(3.9's tutorial 08 with its corrected autotune key).

Three run otherwise: 06 (fused attention) has only benchmarks under
__main__, so its own pytest test_op runs, at its smallest sizes (fp16,
backward, which runs the forward too), twice: as on this CPU machine (the
kernel makes device-side descriptors from plain pointers) and with
as_hopper.py (the host code takes its Hopper path and passes host
TensorDescriptors). 07 asserts its tensors are CUDA tensors, so its kernel
runs through a launch spec (`tritium run`) against numpy's arcsin. A
tutorial that meets a construct tritium refuses ("tritium does not support X
yet") is reported as skipped, naming it, rather than failed.

    run_tutorials.py [NN ...]     (default: 01 02 03 04 05 06 07 08)

The last line counts the runs: "tutorials: N passed, N failed, N skipped, N
xfail" (scripts/triton_versions.sh reads it).

The package comes from python/ in the source tree and the library from
$TRITIUM_LIB (meson sets both)."""
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

CHECKS = {
    "01": "The maximum difference between torch and triton is 0.0",
    "03": "Triton and Torch match",
}


# tutorial 06's test_op at its smallest sizes (ids: provider-mode-warp_specialize-causal-HEAD_DIM-N_CTX-H-Z)
T06 = ["06-fused-attention.py::test_op[triton-fp16-bwd-False-True-%d-128-2-1]" % d for d in (64, 128)]
N07 = 98432


def launched(out):
    return re.search(r"[1-9][0-9]* launches interpreted", out)


def check07(tmp):
    def check(out):
        import numpy as np
        try:
            x, y = np.load(os.path.join(tmp, "x.npy")), np.load(os.path.join(tmp, "y.npy"))
        except OSError:
            return False
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        ref = np.arcsin(x.astype(np.float64))
        return bool(np.all(np.abs(y - ref) <= 2 * np.spacing(np.abs(ref).astype(np.float32))))   # 2 ulp
    return check


def commands(n, tut, fname):
    """(label, argv, check of the output) for tutorial n."""
    py = [sys.executable, "-m", "tritium"]
    main = os.path.join(HERE, "tutorial_main.py")
    if n == "06":
        run = py + ["-v", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        two = lambda out: "2 passed" in out and launched(out)  # noqa: E731
        return [(fname + " (pointers)", run + T06, two),
                (fname + " (host descriptors)", run + ["-p", "as_hopper"] + T06, two)]
    if n == "07":
        import tempfile
        tmp = tempfile.mkdtemp(prefix="tritium-t07-")
        spec = ["run", fname + ":asin_kernel", "--grid", "cdiv(n_elements, BLOCK_SIZE)",
                "--arg", "x_ptr=rand:f32[%d]" % N07, "--arg", "y_ptr=zeros:f32[%d]" % N07,
                "--arg", "n_elements=numel(x_ptr)", "--const", "BLOCK_SIZE=1024",
                "--save", "x_ptr=%s/x.npy" % tmp, "--save", "y_ptr=%s/y.npy" % tmp]
        return [(fname + " (launch spec)", py + spec, check07(tmp))]
    return [(fname, py + ["-v", main, os.path.join(tut, fname)],
             lambda out: CHECKS.get(n, "") in out and launched(out))]


# A newer release's change to a tutorial, where no copy of that release's
# tutorial is vendored: (the release, NN, what changed, [(old, new), ...] made
# on 3.6's copy at run time). Triton 3.9's autotuner refuses a key naming no
# kernel argument, and 3.9's tutorial 08 has the key's misspelt name corrected.
DERIVED = [((3, 9), "08", "autotune key corrected, as in 3.9", [("'gropup_c_ptrs'", "'group_c_ptrs'")])]


def triton_version():
    import triton
    m = re.match(r"(\d+)\.(\d+)", triton.__version__)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def tutorial_sets(version):
    """[(release, directory, {NN: file name}, label suffix)]: 3.6's
    (tutorials/), then each tutorials-X.Y/ of a release up to `version`,
    then the DERIVED changes of releases up to `version` that no vendored
    copy of that release has (made in a temporary directory)."""
    def listing(d):
        return {f[:2]: f for f in os.listdir(d) if f.endswith(".py") and f[:2].isdigit()}
    base = os.path.join(HERE, "tutorials")
    sets = [((3, 6), base, listing(base), "")]
    for d in sorted(os.listdir(HERE)):
        m = re.match(r"^tutorials-(\d+)\.(\d+)$", d)
        if m and (int(m.group(1)), int(m.group(2))) <= version:
            rel = (int(m.group(1)), int(m.group(2)))
            sets.append((rel, os.path.join(HERE, d), listing(os.path.join(HERE, d)), " [%d.%d]" % rel))
    import tempfile
    for rel, n, what, edits in DERIVED:
        if rel > version or any(s[0] == rel and n in s[2] for s in sets):
            continue
        text = open(os.path.join(base, sets[0][2][n])).read()
        for old, new in edits:
            if old not in text:
                raise RuntimeError("run_tutorials: DERIVED %d.%d %s: %r is not in 3.6's copy" % (rel + (n, old)))
            text = text.replace(old, new)
        tmp = tempfile.mkdtemp(prefix="tritium-tut-%d.%d-" % rel)
        with open(os.path.join(tmp, sets[0][2][n]), "w") as f:
            f.write(text)
        sets.append((rel, tmp, {n: sets[0][2][n]}, " [%d.%d: %s]" % (rel + (what,))))
    return sets


def _exception(out):
    """The last 'SomeError: message' line of a traceback in out, or None."""
    lines = [ln for ln in out.splitlines() if re.match(r"^[A-Za-z_][\w.]*(Error|Exception)(: |$)", ln)]
    return lines[-1].strip() if lines else None


def fails_in_triton_too(cmd, tut, env, out):
    """Does Triton's own interpreter (TRITON_INTERPRET=1, no tritium) fail
    the same tutorial run with the same exception?"""
    exc = _exception(out)
    if exc is None or cmd[1:3] != ["-m", "tritium"]:
        return False
    plain = [cmd[0]] + [a for a in cmd[3:] if a != "-v"]
    if not plain[1].endswith("tutorial_main.py"):
        return False
    plain[2:2] = ["--triton-interpreter", "--no-bench"]
    e = dict(env, TRITON_INTERPRET="1")
    e.pop("TRITIUM_MODE", None)
    try:
        p = subprocess.run(plain, cwd=tut, env=e, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return False
    return p.returncode != 0 and _exception(p.stdout + p.stderr) == exc


def main():
    try:
        import torch  # noqa: F401
        import triton  # noqa: F401
    except ImportError as e:
        print("skipped: %s" % e)
        return 77
    wanted = sys.argv[1:] or ["01", "02", "03", "04", "05", "06", "07", "08"]
    version = triton_version()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "python"), HERE, env.get("PYTHONPATH", "")])
    env.pop("TRITON_INTERPRET", None)
    env.setdefault("OMP_NUM_THREADS", "1")
    counts = {"passed": 0, "failed": 0, "skipped": 0, "xfail": 0}
    print("Triton %s, torch %s" % (triton.__version__, torch.__version__))
    for rel, tut, files, suffix in tutorial_sets(version):
        for n in wanted:
            if n not in files:
                continue
            t0 = time.time()
            for label, cmd, check in commands(n, tut, files[n]):
                label += suffix
                p = subprocess.run(cmd, cwd=tut, env=env, capture_output=True, text=True, timeout=900)
                out = p.stdout + p.stderr
                missing = next((m.group(1) for m in [re.search(r"tritium does not support (\S+) yet", out)] if m), None)
                ok = p.returncode == 0 and check(out)
                same = not ok and not missing and rel < version and fails_in_triton_too(cmd, tut, env, out)
                verdict = "ok  " if ok else "skip" if missing else "xfail" if same else "FAIL"
                note = ("" if ok else "needs %s" % missing if missing else
                        "fails as in Triton %d.%d itself: %s" % (version + (_exception(out)[:100],)) if same else
                        "exit %d" % p.returncode)
                print("%-5s %-40s %5.1f s  %s" % (verdict, label, time.time() - t0, note))
                t0 = time.time()
                counts["passed" if ok else "skipped" if missing else "xfail" if same else "failed"] += 1
                if verdict == "FAIL":
                    print(out[-4000:])
        if tut.startswith(tempfile_dir()):
            shutil.rmtree(tut, ignore_errors=True)
    print("tutorials: %(passed)d passed, %(failed)d failed, %(skipped)d skipped, %(xfail)d xfail" % counts)
    return 1 if counts["failed"] else 0


def tempfile_dir():
    import tempfile
    return os.path.join(tempfile.gettempdir(), "tritium-tut-")


if __name__ == "__main__":
    sys.exit(main())
