#!/usr/bin/env python3
"""bench/before_after.py — one build against another, in one command.

Runs the interpreter benchmark (bench/run.py, one thread, no Triton) and,
with --gpu, the GPU benchmark (bench/gpu.py --no-triton) for a baseline
tritium and the current one, alternating ROUNDS times so that both see the
same machine state, and prints per kernel the median over the rounds of each
side's time and the ratio current / baseline (below 1: the current build is
faster). The machines are noisy: the ratio, not a time, is the result.

    python3 bench/before_after.py --base OLD/tritium --new NEW/tritium [--rounds 3] [--gpu] [--cpu]
                                  [--new-env KEY=VALUE ...]

--new-env sets a variable for the current side only: with --base and --new
the same build, it measures a developer knob, e.g. LLVM without loop
strength reduction: --new-env TRITIUM_LLVM_ARG=-disable-lsr.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = ("vector_add", "softmax", "layer_norm", "matmul", "attention", "tiny")


def table(cmd, env=None):
    """{kernel: ms} from the table that run.py / gpu.py print last."""
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env).stdout
    rows = {}
    for line in out.splitlines():
        f = re.split(r"\s{2,}", line.strip())
        if len(f) >= 3 and f[0].split()[0] in KERNELS:
            try:
                rows[f[0]] = float(f[2].rstrip("*!"))
            except ValueError:
                pass
    if not rows:
        sys.stderr.write("no table from %s:\n%s\n" % (" ".join(cmd), out[-2000:]))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True, help="the baseline tritium executable")
    ap.add_argument("--new", required=True, help="the current tritium executable")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=5, help="runs per case inside one round (run.py)")
    ap.add_argument("--gpu", action="store_true", help="also the GPU benchmark (needs a GPU)")
    ap.add_argument("--cpu", action="store_true", help="interpreter: CPU time instead of wall (a loaded machine)")
    ap.add_argument("--new-env", action="append", default=[], metavar="KEY=VALUE",
                    help="environment of the current side only (a developer knob against the same build)")
    o = ap.parse_args()
    new_env = dict(os.environ)
    for kv in o.new_env:
        if "=" not in kv:
            ap.error("--new-env takes KEY=VALUE, got %r" % kv)
        k, v = kv.split("=", 1)
        new_env[k] = v
    benches = [("interpreter", lambda exe: [sys.executable, os.path.join(HERE, "run.py"), "--no-triton",
                                            "--no-parallel", "--no-plain-c"] + (["--cpu"] if o.cpu else [])
                + ["--repeat", str(o.repeat), "--tritium", exe])]
    if o.gpu:
        benches.append(("gpu", lambda exe: [sys.executable, os.path.join(HERE, "gpu.py"), "--no-triton",
                                            "--tritium", exe]))
    for name, cmd in benches:
        times = {"base": {}, "new": {}}
        for _ in range(o.rounds):
            for side, exe in (("base", o.base), ("new", o.new)):
                for k, ms in table(cmd(exe), new_env if side == "new" else None).items():
                    times[side].setdefault(k, []).append(ms)
        print("\n%s benchmark, median of %d alternating rounds (ms)" % (name, o.rounds))
        print("%-11s %12s %12s %8s" % ("kernel", "baseline", "current", "ratio"))
        for k in times["base"]:
            b, n = times["base"][k], times["new"].get(k)
            if not n:
                continue
            mb, mn = statistics.median(b), statistics.median(n)
            print("%-11s %12.4f %12.4f %8.3f" % (k, mb, mn, mn / mb if mb else float("nan")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
