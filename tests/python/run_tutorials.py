#!/usr/bin/env python3
"""Suite 'python': Triton 3.6's tutorials 01-05 (tests/python/tutorials/,
unchanged, MIT-licensed: see LICENSE there) under `python -m tritium`
(interp mode) with CPU torch: each must exit 0, which means its own
correctness asserts held; 01 and 03, which print their comparison instead of
asserting, must print a match. Exits 77 (skipped) without torch or triton.

    run_tutorials.py [NN ...]     (default: 01 02 03 04 05)

The package comes from python/ in the source tree and the library from
$TRITIUM_LIB (meson sets both)."""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

CHECKS = {
    "01": "The maximum difference between torch and triton is 0.0",
    "03": "Triton and Torch match",
}


def main():
    try:
        import torch  # noqa: F401
        import triton  # noqa: F401
    except ImportError as e:
        print("skipped: %s" % e)
        return 77
    wanted = sys.argv[1:] or ["01", "02", "03", "04", "05"]
    tut = os.path.join(HERE, "tutorials")
    files = {f[:2]: f for f in os.listdir(tut) if f.endswith(".py")}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("TRITON_INTERPRET", None)
    env.setdefault("OMP_NUM_THREADS", "1")
    failed = 0
    for n in wanted:
        t0 = time.time()
        cmd = [sys.executable, "-m", "tritium", "-v", os.path.join(HERE, "tutorial_main.py"), os.path.join(tut, files[n])]
        p = subprocess.run(cmd, cwd=tut, env=env, capture_output=True, text=True, timeout=900)
        out = p.stdout + p.stderr
        ok = p.returncode == 0 and CHECKS.get(n, "") in out and re.search(r"[1-9][0-9]* launches interpreted", out)
        print("%s %-32s %5.1f s  %s" % ("ok  " if ok else "FAIL", files[n], time.time() - t0,
                                       "" if ok else "exit %d" % p.returncode))
        if not ok:
            failed += 1
            print(out[-4000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
