"""Three launches for the page of a Python program (tests/html/test_html.py,
case python): a clean vector add, a read past the end of x (a fault) and a
read of what another program wrote (a race), on CPU tensors. Run with
python -m tritium --on-error warn --html FILE: the page lists the fault
first, then the race, then the clean launch."""
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


@triton.jit
def oob_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)                      # no mask: the last program reads past the end
    tl.store(out_ptr + offs, x, mask=offs < n)


@triton.jit
def prefix_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    prev = tl.load(out_ptr + pid - 1, mask=pid > 0, other=0.0)   # written by program pid - 1
    tl.store(out_ptr + pid, prev + tl.sum(tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK)), axis=0))


if __name__ == "__main__":
    n = 100
    x, y = torch.randn(n), torch.randn(n)
    out = torch.empty(n)
    add_kernel[(triton.cdiv(n, 64),)](x, y, out, n, BLOCK=64)
    oob_kernel[(triton.cdiv(n, 64),)](x, out, n, BLOCK=64)
    z = torch.rand(8 * 32)
    p = torch.zeros(8)
    prefix_kernel[(8,)](z, p, BLOCK=32)
    print("py_launches: 3 launches")
