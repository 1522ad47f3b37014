#!/usr/bin/env python3
"""Benchmark the example kernels: tritium's interpreter against Triton's.

For each launch of bench/cases.py (vector add 2^20 f32; softmax and layer
norm 1024x1024 f32; matmul 256^3 f16 with 64x64x32 tiles) this runs

  * tritium, single-threaded:  tritium run examples/X.py <launch> --schedule in-order
    --bench 5 --json, timed by the median of the 5 launches after the first
    (--bench: each from the tensors as they were before the first launch, so
    the pages of the buffers and of the shadow are touched, as the plain C
    loop's are after its warm-up run; process start, parsing and compilation
    excluded); the first launch's time, which pays the page faults, is the
    "first ms" column (--cpu: the first launch's CPU time, no --bench; falls
    back to the process wall time, marked "*", when no time is found in the
    JSON);
  * Triton's interpreter (TRITON_INTERPRET=1) on the same kernel file, sizes,
    grid and constexprs, through bench/triton_interp.py, timed around the
    launch call after a warm-up launch; skipped when triton/torch are missing,

  * a plain C loop doing the same work on one thread, compiled with -O2
    (bench/plain_c.c, built as build*/bench/plain_c or, when missing, with
    `cc -O2` into a temporary directory), timed over warm runs;
  * tritium with --schedule parallel and --threads 1, 4 and 16 (--threads),

and prints the median time per launch of each, the ratio tritium / plain C
(how many times slower than the C loop the checked interpreter is) and the
ratio triton/tritium (how many times faster tritium is). With --cpu every
sequential time is CPU time (tritium's "cpu_seconds", plain_c --cpu): on a
loaded machine wall times say more about the neighbours than the code.

    bench/run.sh [--tritium PATH] [--repeat N] [--only NAME[,NAME]] [--no-triton]
                 [--cpu] [--threads 1,4,16] [--no-parallel] [--no-plain-c]
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import cases as bench_cases  # noqa: E402

# Keys that may hold the interpretation time in `tritium run --json` output,
# most specific first. Values are seconds unless the key ends in _ms.
TIME_KEYS = ("interp_seconds", "interpret_seconds", "run_seconds", "launch_seconds",
             "kernel_seconds", "seconds", "time_s", "elapsed", "interp_ms", "time_ms")


def find_tritium(explicit):
    if explicit:
        return explicit
    if os.environ.get("TRITIUM"):
        return os.environ["TRITIUM"]
    found = [p for p in glob.glob(os.path.join(ROOT, "build*", "api", "tritium"))
             if os.access(p, os.X_OK)]
    if found:
        default = os.path.join(ROOT, "build", "api", "tritium")
        return default if default in found else max(found, key=os.path.getmtime)
    return shutil.which("tritium")


def find_time(obj):
    """Search the JSON for the first of TIME_KEYS (breadth-first); (seconds, key) or None."""
    for key in TIME_KEYS:
        queue = [obj]
        while queue:
            o = queue.pop(0)
            if isinstance(o, dict):
                v = o.get(key)
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    return (v / 1e3 if key.endswith("_ms") else float(v)), key
                queue.extend(o.values())
            elif isinstance(o, list):
                queue.extend(o)
    return None


def parse_json(text):
    """The JSON object in tritium's stdout: the whole text, else the last line that parses."""
    try:
        return json.loads(text)
    except ValueError:
        pass
    for line in reversed(text.strip().splitlines()):
        try:
            return json.loads(line)
        except ValueError:
            continue
    return None


def find_plain_c(exe):
    """The plain_c benchmark next to tritium's build (or carried beside it), else built with cc -O2."""
    if os.environ.get("PLAIN_C"):
        return os.environ["PLAIN_C"]
    d = os.path.dirname(os.path.abspath(exe)) if exe else ROOT
    for p in (os.path.join(d, "plain_c"), os.path.join(os.path.dirname(d), "bench", "plain_c")):
        if os.access(p, os.X_OK):
            return p
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None
    out = os.path.join(tempfile.mkdtemp(prefix="tritium-plainc-"), "plain_c")
    p = subprocess.run([cc, "-O2", "-o", out, os.path.join(HERE, "plain_c.c"), "-lm"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return out if p.returncode == 0 else None


def run_plain_c(path, names, repeat, cpu):
    """{case: seconds} from plain_c's "CASE MS" lines."""
    cmd = [path] + (["--cpu"] if cpu else []) + ["--repeat", str(max(repeat, 3))] + list(names)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    res = {}
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) >= 2:
            try:
                res[f[0]] = float(f[1]) / 1e3
            except ValueError:
                pass
    return res


def run_tritium(exe, case, repeat, extra=("--schedule", "in-order"), cpu=False):
    cmd = [exe, "run", os.path.join(ROOT, "examples", case["file"])]
    cmd += bench_cases.tritium_launch_args(case)
    cmd += list(extra) + ["--json"] + ([] if cpu else ["--bench", "5"])
    runs, firsts, key, wall_only = [], [], None, False
    for i in range(repeat + 1):                 # the first run warms the caches
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            msg = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
            return {"error": "exit %d: %s" % (p.returncode, msg), "cmd": cmd}
        j = parse_json(p.stdout)
        t = None
        if cpu and isinstance(j, dict) and isinstance(j.get("cpu_seconds"), (int, float)):
            t = (float(j["cpu_seconds"]), "cpu_seconds")
        first = find_time(j)
        if t is None and isinstance(j, dict) and isinstance(j.get("bench"), dict):
            t = (float(j["bench"]["median_seconds"]), "bench.median_seconds")
        if t is None:
            t = first
        if t is None:
            wall_only = True
            t = (wall, "wall")
        if i > 0:
            runs.append(t[0])
            firsts.append(first[0] if first else t[0])
            key = t[1]
    return {"seconds": statistics.median(runs), "first": statistics.median(firsts), "runs": runs, "key": key,
            "wall": wall_only}


def triton_available():
    p = subprocess.run([sys.executable, "-c", "import torch, triton"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return p.returncode == 0


def run_triton(repeat, only):
    cmd = [sys.executable, os.path.join(HERE, "triton_interp.py"), "--json", "--repeat", str(repeat)]
    if only:
        cmd += ["--only", ",".join(sorted(only))]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        print("triton interpreter run failed:\n" + p.stderr, file=sys.stderr)
        return {}
    res = parse_json(p.stdout)
    return res if isinstance(res, dict) else {}


def fmt_ms(r):
    if r is None:
        return "-"
    if "error" in r:
        return "error"
    s = "%.2f" % (r["seconds"] * 1e3)
    if r.get("wall"):
        s += "*"
    if r.get("ok") is False:
        s += "!"
    return s


def main():
    ap = argparse.ArgumentParser(description="tritium vs Triton interpreter on the example kernels")
    ap.add_argument("--tritium", help="path of the tritium executable (default: build*/api/tritium, $TRITIUM, PATH)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per case (median reported)")
    ap.add_argument("--only", default="", help="comma-separated case names: " +
                    ",".join(c["name"] for c in bench_cases.CASES))
    ap.add_argument("--no-triton", action="store_true", help="do not run Triton's interpreter")
    ap.add_argument("--cpu", action="store_true", help="CPU time instead of wall time (sequential runs)")
    ap.add_argument("--threads", default="1,4,16", help="thread counts of the --schedule parallel columns")
    ap.add_argument("--no-parallel", action="store_true", help="no --schedule parallel columns")
    ap.add_argument("--no-plain-c", action="store_true", help="no plain C column")
    opt = ap.parse_args()
    threads = [] if opt.no_parallel else [int(t) for t in opt.threads.split(",") if t]
    only = set(filter(None, opt.only.split(",")))
    cases = [c for c in bench_cases.CASES if not only or c["name"] in only]

    exe = find_tritium(opt.tritium)
    tri = {}
    if not exe or not os.access(exe, os.X_OK):
        print("tritium not found (build it, or pass --tritium PATH): skipping")
    else:
        print("tritium: %s" % exe)
        for c in cases:
            tri[c["name"]] = run_tritium(exe, c, opt.repeat, cpu=opt.cpu)
            if "error" in tri[c["name"]]:
                print("  %s: %s\n    %s" % (c["name"], tri[c["name"]]["error"],
                                            " ".join(tri[c["name"]]["cmd"])), file=sys.stderr)
    par = {}
    for nt in threads if exe else []:
        for c in cases:
            par[(c["name"], nt)] = run_tritium(exe, c, opt.repeat, ("--schedule", "parallel", "--threads", str(nt)))
    plain = {}
    if not opt.no_plain_c:
        pc = find_plain_c(exe)
        if pc:
            print("plain C: %s" % pc)
            plain = run_plain_c(pc, [c["name"] for c in cases], opt.repeat, opt.cpu)
        else:
            print("plain C: no bench/plain_c and no C compiler: skipping")

    trt = {}
    if opt.no_triton:
        pass
    elif not triton_available():
        print("triton not installed: skipping")
    else:
        print("triton: TRITON_INTERPRET=1 via %s" % sys.executable)
        trt = run_triton(opt.repeat, only)
        for name, r in trt.items():
            if "error" in r:
                print("  %s (triton): %s" % (name, r["error"]), file=sys.stderr)

    print()
    print("%-11s %-27s %10s %9s %10s %8s %s %16s %9s" % (
        "kernel", "size", "tritium ms", "first ms", "plain C ms", "vs C",
        "".join("%9s" % ("par%d ms" % t) for t in threads), "triton-interp ms", "speedup"))
    for c in cases:
        a, b = tri.get(c["name"]), trt.get(c["name"])
        ratio = "-"
        if a and b and "error" not in a and "error" not in b and a["seconds"] > 0:
            ratio = "%.1fx" % (b["seconds"] / a["seconds"])
        pc = plain.get(c["name"])
        vs_c = "-"
        if a and "error" not in a and pc:
            vs_c = "%.1fx" % (a["seconds"] / pc)
        pcols = "".join("%9s" % fmt_ms(par.get((c["name"], t))) for t in threads)
        first = "%.2f" % (a["first"] * 1e3) if a and "error" not in a else "-"
        print("%-11s %-27s %10s %9s %10s %8s %s %16s %9s" % (c["name"], c["size"], fmt_ms(a), first,
                                                            "%.2f" % (pc * 1e3) if pc else "-", vs_c, pcols,
                                                            fmt_ms(b), ratio))
    print("median of %d processes; tritium single-threaded (--schedule in-order), %s from --json"
          " (the median of --bench 5 after the first launch; first ms = that first launch);"
          " vs C = tritium / plain C (-O2, one thread, %s); parN = --schedule parallel --threads N (wall);"
          " speedup = triton / tritium" % (opt.repeat, "CPU time" if opt.cpu else "time",
                                           "CPU time" if opt.cpu else "wall"))
    keys = sorted({r["key"] for r in tri.values() if r.get("key")})
    if keys:
        print("tritium time taken from JSON key(s): %s" % ", ".join(keys))
    if any(r.get("wall") for r in tri.values()):
        print("* no time in tritium's JSON: whole-process wall time (includes start-up and compile)")
    if any(r.get("ok") is False for r in trt.values()):
        print("! Triton's result did not match torch")
    failed = any("error" in r for r in list(tri.values()) + list(trt.values()) + list(par.values()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
