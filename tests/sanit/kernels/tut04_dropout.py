"""Triton tutorial 04 (low-memory dropout): the seeded dropout kernel."""
# tritium: --kernel _seeded_dropout --grid 'cdiv(n_elements, BLOCK_SIZE)'
# tritium: --arg x_ptr=randn:f32[100003] --arg output_ptr=empty:f32[100003]
# tritium: --arg n_elements='numel(x_ptr)' --arg p=0.5 --arg seed=123 --const BLOCK_SIZE=1024
import triton
import triton.language as tl


@triton.jit
def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)
