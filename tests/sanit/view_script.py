"""Run under `python -m tritium`: a 2-D slice read past its view (see
kernels/view_rows.py), then the same kernel reading exactly the view."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels"))
from view_rows import row_sum  # noqa: E402

base = torch.arange(64, dtype=torch.float32).reshape(4, 16)
x = base[:, :8]
out = torch.empty(4)
row_sum[(4,)](x, out, x.stride(0), 16, BLOCK=16)      # BUG: n_cols is the storage's row length
print("buggy", out.tolist())
row_sum[(4,)](x, out, x.stride(0), 8, BLOCK=16)
print("clean", out.tolist())
