"""A kernel that reads memory no program wrote (the page test's uninitialized
read, tests/html/test_html.py): tmp_ptr comes from the `empty` generator and
only its first half is written before every program reads its whole block
(line 22), so the second half of each block is read uninitialized."""
# tritium: --kernel half_written_kernel --grid 'cdiv(n, BLOCK)'
# tritium: --arg tmp_ptr=empty:f32[32,64] --arg out_ptr=zeros:f32[32,64]
# tritium: --arg n='numel(tmp_ptr)' --const BLOCK=256

import triton
import triton.language as tl


@triton.jit
def half_written_kernel(tmp_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    half = offs < pid * BLOCK + BLOCK // 2
    tl.store(tmp_ptr + offs, offs.to(tl.float32), mask=half)
    x = tl.load(tmp_ptr + offs, mask=offs < n)  # reads the unwritten half too
    tl.store(out_ptr + offs, x * 2.0, mask=offs < n)
