"""suite 'sanit': reads outside a view from Python (python -m tritium over
libtritium). The reference sums come from torch on the same tensors; the
warning must name the view and count the lanes a plain loop counts."""
import os
import subprocess
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
p = subprocess.run([sys.executable, "-m", "tritium", os.path.join(here, "view_script.py")],
                   capture_output=True, text=True, timeout=300)
assert p.returncode == 0, p.stderr
base = torch.arange(64, dtype=torch.float32).reshape(4, 16)
lines = dict(line.split(" ", 1) for line in p.stdout.splitlines() if line.startswith(("buggy", "clean")))
assert eval(lines["buggy"]) == base.sum(1).tolist(), lines          # read all 16 columns
assert eval(lines["clean"]) == base[:, :8].sum(1).tolist(), lines
outside = sum(1 for r in range(4) for c in range(16) if c >= 8)    # columns past the view
err = p.stderr
assert "warning: load outside the tensor's view in program (0, 0, 0)" in err, err
assert "x (f32[4,8] view, strides (16, 1), at element 0 of its storage)" in err, err
assert "summary: %d lanes outside a view" % outside in err, err
assert err.count("warning: load outside") == 1, err                  # the clean launch adds nothing
print("ok")
