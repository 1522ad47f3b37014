#!/usr/bin/env python3
"""Triton 3.6's own language tests under tritium vs under Triton's interpreter.

For each test file, runs the same selection twice, on the CPU:

    TRITON_INTERPRET=1 python -m pytest FILE -m interpreter --device cpu -v ...          (Triton)
    TRITON_INTERPRET=1 python -m tritium -m pytest FILE -m interpreter --device cpu -v   (tritium)

(TRITON_INTERPRET=1 stays set under tritium so that the tests take their
interpreter/CPU paths; every launch goes to tritium instead.) Prints
pass/fail/skip per file for both, over the tests both runs reached within the
time limit, and the most common failure causes under tritium.

    scripts/triton_tests.py [--dir DIR] [--time-limit S] [-k EXPR] [FILE ...]

Default DIR: ../shared/triton-3.6-tests/python/test/unit/language (relative to
the repository); default files: test_core.py. Not a CI test (it takes long).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^(\S+::\S+(?:\[.*\])?) (PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)")
SHORT = re.compile(r"^(FAILED|ERROR) (\S+::\S+?(?:\[.*?\])?) - (.*)$")


def run(cmd, env, limit, cwd):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=limit)
        out = p.stdout + p.stderr
        timed_out = False
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        timed_out = True
    res, why = {}, {}
    for ln in out.splitlines():
        m = LINE.match(ln)
        if m:
            res[m.group(1)] = m.group(2)
        m = SHORT.match(ln)
        if m:
            why[m.group(2)] = m.group(3)
    return res, why, time.time() - t0, timed_out


def count(res, keys):
    c = collections.Counter(res[k] for k in keys)
    return c["PASSED"] + c["XPASS"], c["FAILED"] + c["ERROR"], c["SKIPPED"] + c["XFAIL"]


def cause(msg):
    msg = re.sub(r"0x[0-9a-f]+", "0x…", msg)
    msg = re.sub(r"\d+", "N", msg)
    return msg[:110]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    shared = [os.path.join(ROOT, *[".."] * up, "shared") for up in (1, 2)]
    shared = next((d for d in shared if os.path.isdir(d)), shared[0])
    ap.add_argument("--dir", default=os.path.join(shared, "triton-3.6-tests", "python", "test", "unit", "language"))
    ap.add_argument("--time-limit", type=float, default=600, help="seconds per file and side")
    ap.add_argument("-k", default=None)
    ap.add_argument("--causes", type=int, default=12)
    ap.add_argument("files", nargs="*", default=["test_core.py"])
    a = ap.parse_args()
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONDONTWRITEBYTECODE="1", COLUMNS="400")
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("OMP_NUM_THREADS", "1")
    base = ["-m", "pytest", "-m", "interpreter", "--device", "cpu", "-v", "-rfE", "-p", "no:cacheprovider",
            "-p", "no:randomly", "--tb=no"]
    if a.k:
        base += ["-k", a.k]
    base += ["--rootdir", os.path.dirname(os.path.dirname(os.path.abspath(a.dir)))]   # python/test: its conftest
    rows, causes = [], collections.Counter()
    for f in a.files:
        path = os.path.join(a.dir, f)
        tri, _, t_tri, to_tri = run([sys.executable] + base + [path], env, a.time_limit, a.dir)
        trm, why, t_trm, to_trm = run([sys.executable, "-m", "tritium", "--on-error", "raise"] + base + [path],
                                      env, a.time_limit, a.dir)
        both = sorted(set(tri) & set(trm))
        rows.append((f, len(both), count(tri, both), count(trm, both), t_tri, t_trm, to_tri or to_trm,
                     len(tri), len(trm)))
        for k in both:
            if trm[k] in ("FAILED", "ERROR") and tri[k] not in ("FAILED", "ERROR"):
                causes[cause(why.get(k, "?"))] += 1
    print("%-24s %6s | %-22s | %-22s | %s" % ("file", "tests", "Triton interp p/f/s", "tritium p/f/s", "time (s)"))
    for f, n, c1, c2, t1, t2, to, n1, n2 in rows:
        print("%-24s %6d | %6d %6d %6d   | %6d %6d %6d   | %.0f / %.0f%s" %
              (f, n, *c1, *c2, t1, t2, "  (time limit: %d and %d tests reached)" % (n1, n2) if to else ""))
    if causes:
        print("\nfailures under tritium where Triton's interpreter did not fail, by cause:")
        for msg, n in causes.most_common(a.causes):
            print("%5d  %s" % (n, msg))
    return 0


if __name__ == "__main__":
    sys.exit(main())
