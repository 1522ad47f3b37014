"""A kernel with a planted bug that only the GPU shows: a result that depends
on the order in which programs run.

block_prefix_kernel is meant to compute running totals of blocks:
out[p] = sum(x[0 : (p + 1) * BLOCK]). Each program sums its own block and
adds the total of the block before it, which it reads from out[p - 1] — the
element that program p - 1 writes (line 45, marked "BUG"). Triton gives no
ordering between the programs of a launch and no way to wait for another
program's store, so on a GPU program p usually reads out[p - 1] before
program p - 1 has written it and sees the initial 0 (or a partial total):
most elements come out wrong.

An interpreter that runs programs one after the other in order (Triton's own
TRITON_INTERPRET=1 does) computes exactly what the author wanted, so the bug
hides there. tritium shows it three ways:

    tritium diff examples/order_bug.py     # CPU vs GPU: exit 1, names the first
                                           # wrong elements of out_ptr, the
                                           # program that wrote them and line 46
    tritium run examples/order_bug.py      # the race detector reports the
                                           # read-after-write between programs
                                           # (line 45 reads what line 46 of the
                                           # previous program wrote): exit 1
    tritium run examples/order_bug.py --schedule reverse   # other orders give
                                           # other (wrong) results

The fix is a second pass (or tl.cumsum over per-block totals computed by a
separate launch, or an atomic "decoupled look-back" with explicit flags).
"""
# tritium: --kernel block_prefix_kernel --grid 'cdiv(n_elements, BLOCK)'
# tritium: --arg x_ptr=rand:f32[65536] --arg out_ptr=zeros:f32[64]
# tritium: --arg n_elements='numel(x_ptr)' --const BLOCK=1024

import os

import triton
import triton.language as tl


@triton.jit
def block_prefix_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n_elements, other=0.0)
    prev = tl.load(out_ptr + pid - 1, mask=pid > 0, other=0.0)  # BUG: written by program pid - 1
    tl.store(out_ptr + pid, prev + tl.sum(x, axis=0))


def block_prefix(x, block=1024):
    import torch
    n = x.numel()
    nblocks = triton.cdiv(n, block)
    out = torch.zeros(nblocks, device=x.device, dtype=x.dtype)
    block_prefix_kernel[(nblocks,)](x, out, n, BLOCK=block)
    return out


def _device():
    return "cpu" if os.environ.get("TRITON_INTERPRET") == "1" else "cuda"


if __name__ == "__main__":
    import torch
    import _interp_compat
    _interp_compat.apply()   # Triton 3.6 interpreter vs numpy >= 2.5
    torch.manual_seed(0)
    x = torch.rand(65536, device=_device(), dtype=torch.float32)
    out = block_prefix(x)
    want = x.view(-1, 1024).sum(dim=1).cumsum(0)
    ok = torch.allclose(out, want, rtol=1e-4)
    # In order (TRITON_INTERPRET=1) this passes; on a GPU it usually fails.
    print("order_bug:", "result matches (programs ran in order)" if ok
          else "result differs: programs did not run in order")
