#!/usr/bin/env python3
"""Suite 'gpu': live name resolution under `python -m tritium --mode check`
on a GPU (exits 77 without torch, triton or CUDA). Triton runs every launch
on the GPU, tritium's interpreter checks it; every launch must be checked
(none `unchecked` because a name could not be resolved) and agree:

1. the six patterns of real code in tests/python/live/ on CUDA tensors;
2. a program that imports torch._inductor (and torch.compile's eager
   backend) before its launches, with an Inductor-style kernel
   (triton_helpers, libdevice) — under the old builtins.exec patch it ended
   with "NameError: name 'Any' is not defined" inside torch._inductor.ir.

    gpu_live_check.py [--against in-order]   (the latter: a dry run of this
                                              script on the CPU, no GPU needed)
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = ["annotated_constexpr", "condpkg.ops", "libdevice_find", "cond_helper", "late_path", "inductor_style"]

INDUCTOR = '''
import torch, triton, triton.language as tl
import torch._inductor.ir  # noqa: F401
from torch._inductor.runtime import triton_helpers
from torch._inductor.runtime.triton_helpers import libdevice

def h(x):
    return torch.sin(x) + 1
x = torch.randn(1000, device="DEVICE")
assert torch.allclose(torch.compile(h, backend="eager")(x), h(x))

@triton.jit
def fused(in_ptr0, out_ptr0, xnumel, XBLOCK: tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + xindex, xmask)
    tl.store(out_ptr0 + xindex, triton_helpers.maximum(libdevice.tanh(tmp0), tmp0 * 0.5), xmask)

out = torch.empty_like(x)
fused[(triton.cdiv(1000, 256),)](x, out, 1000, XBLOCK=256)
torch.testing.assert_close(out, torch.maximum(torch.tanh(x), x * 0.5))
print("inductor program ok")
'''


def table_ok(text):
    """(checked, unchecked, disagreeing) summed over check's table rows."""
    checked = unchecked = bad = 0
    for line in text.splitlines():
        m = re.match(r"^\S+\s+.*?\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$", line)
        if m:
            launches, c, agree, differ, faulted, u = map(int, m.groups())
            checked += c
            unchecked += u
            bad += differ + faulted
    return checked, unchecked, bad


AGAINST = sys.argv[sys.argv.index("--against") + 1] if "--against" in sys.argv else None
DEVICE = "cpu" if AGAINST else "cuda"


def run(args, what):
    cmd = [sys.executable, "-m", "tritium", "--mode", "check", "-v"] + (["--against", AGAINST] if AGAINST else []) + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    checked, unchecked, bad = table_ok(p.stderr + p.stdout)
    ok = p.returncode == 0 and checked > 0 and unchecked == 0 and bad == 0
    print("%s %-40s checked %d, unchecked %d, disagree or fault %d" % ("ok  " if ok else "FAIL", what, checked,
                                                                       unchecked, bad))
    if not ok:
        print(p.stdout[-3000:] + p.stderr[-3000:])
    return ok


def main():
    try:
        import torch
        import triton  # noqa: F401
    except ImportError:
        return 77
    if not AGAINST and not torch.cuda.is_available():
        return 77
    fails = 0
    for c in CASES:
        fails += not run([os.path.join(HERE, "live", "run_case.py"), c, "--device", DEVICE], c)
    prog = os.path.join(os.environ.get("TMPDIR", "/tmp"), "tritium_inductor_prog.py")
    with open(prog, "w") as f:
        f.write(INDUCTOR.replace("DEVICE", DEVICE))
    fails += not run([prog], "torch._inductor program")
    print("gpu_live_check: %d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
