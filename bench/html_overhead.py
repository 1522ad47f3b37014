#!/usr/bin/env python3
"""html_overhead.py BASE_TRITIUM TRITIUM [ROUNDS] [--instructions] — what the interpreter's
tracing hook (interp_trace.h, for --html) costs a launch that has no page:
each kernel runs `tritium run --bench 20` under both builds, alternating,
ROUNDS times (default 8); the table gives the minimum per launch of each
build (the least disturbed by other work on the machine) and their ratio.
BASE_TRITIUM is a build of the same tree without the hook (docs/html.md,
"What it costs when off"). Then the cost when on: one launch of the process (cold:
shadow pages first touched) without and with --html, the least of three.

--instructions: instead, the instructions one launch executes under each
build, counted by valgrind's cachegrind (the difference between --bench 11
and --bench 1, i.e. ten launches, divided by ten): exact and independent of
the machine's load."""
import re
import subprocess
import sys
import tempfile

KERNELS = ["examples/vector_add.py", "examples/softmax.py", "examples/matmul.py", "examples/layer_norm.py",
           "tests/html/kernels/scalar_loads.py"]


def bench(tritium, kernel, extra=()):
    out = subprocess.run([tritium, "run", kernel, "--bench", "20"] + list(extra), capture_output=True,
                         text=True).stdout
    m = re.search(r"min ([\d.]+)", out)
    return float(m.group(1)) if m else float("nan")


def once(tritium, kernel, page=None):
    """One launch's `time` (cold: the first launch of the process), with a page or without."""
    out = subprocess.run([tritium, "run", kernel] + (["--html", page] if page else []), capture_output=True,
                         text=True).stdout
    m = re.search(r"time\s+([\d.]+) ms", out)
    return float(m.group(1)) if m else float("nan")


def instructions(tritium, kernel, n):
    p = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                        tritium, "run", kernel, "--bench", str(n)], capture_output=True, text=True)
    m = re.search(r"I\s+refs:\s+([\d,]+)", p.stderr)
    return int(m.group(1).replace(",", "")) if m else 0


def main(argv):
    if "--instructions" in argv:
        base, new = [a for a in argv[1:] if not a.startswith("--")][:2]
        print("| kernel | instructions per launch without the hook | with it, no page | difference |")
        print("|---|---:|---:|---:|")
        for k in KERNELS:
            b = (instructions(base, k, 11) - instructions(base, k, 1)) / 10
            n = (instructions(new, k, 11) - instructions(new, k, 1)) / 10
            print("| %s | %.0f | %.0f | %+.2f%% |" % (k, b, n, 100 * (n / b - 1)))
        return
    base, new = argv[1], argv[2]
    rounds = int(argv[3]) if len(argv) > 3 else 8
    print("| kernel | warm launch without the hook (ms) | with it, no page (ms) | ratio | one launch (ms) | "
          "the same with --html (ms) |")
    print("|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for k in KERNELS:
            b = n = float("inf")
            for _ in range(rounds):
                b = min(b, bench(base, k))
                n = min(n, bench(new, k))
            o = min(once(new, k) for _ in range(3))
            h = min(once(new, k, tmp + "/p.html") for _ in range(3))
            print("| %s | %.3f | %.3f | %.3f | %.3f | %.3f |" % (k, b, n, n / b, o, h))


if __name__ == "__main__":
    main(sys.argv)
