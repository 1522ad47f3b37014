"""python -m tritium run_case.py CASE [REF.npy] [--device cuda]: runs case
CASE's main() (its tensors on the device), checks its result against
torch's, saves the reference when asked."""
import importlib
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
if "--device" in sys.argv:
    i = sys.argv.index("--device")
    torch.set_default_device(sys.argv[i + 1])
    del sys.argv[i:i + 2]
got, want = importlib.import_module(sys.argv[1]).main()
torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
if len(sys.argv) > 2:
    import numpy as np
    np.save(sys.argv[2], want.cpu().numpy())
print("case %s ok" % sys.argv[1])
