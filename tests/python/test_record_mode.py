"""record mode: a launch written by `python -m tritium --mode record` replays
with `tritium run` (here through `python -m tritium run`, the library's
tritium_main) and gives what torch computes."""
import os
import shlex
import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("torch")
pytest.importorskip("triton")

PROGRAM = '''
import torch, triton, triton.language as tl
@triton.jit
def scale(x_ptr, y_ptr, n, S: tl.constexpr, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + o, tl.load(x_ptr + o, mask=o < n) * S, mask=o < n)
x = torch.arange(100, dtype=torch.float32)
y = torch.empty(100)
scale[lambda m: (triton.cdiv(100, m["BLOCK"]),)](x, y, 100, S=3, BLOCK=32)
assert torch.equal(y, x * 3)
print("program ok")
'''


def test_record_then_replay(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text(PROGRAM)
    rec = tmp_path / "rec"
    env = dict(os.environ)
    p = subprocess.run([sys.executable, "-m", "tritium", "--mode", "record", "--record-dir", str(rec), str(prog)],
                       env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0 and "program ok" in p.stdout, p.stderr
    d = rec / "0001-scale"
    words = shlex.split((d / "launch.sh").read_text().splitlines()[-1])
    assert words[:2] == ["tritium", "run"] and "--grid" in words and words[words.index("--grid") + 1] == "4,1,1"
    assert np.array_equal(np.load(d / "x_ptr.npy"), np.arange(100, dtype=np.float32))
    out = tmp_path / "y.npy"
    replay = [sys.executable, "-m", "tritium"] + words[1:-1] + ["--save", "y_ptr=%s" % out]
    p = subprocess.run(replay, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert np.array_equal(np.load(out), np.arange(100, dtype=np.float32) * 3)
