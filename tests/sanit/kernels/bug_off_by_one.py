"""Planted bug: the mask compares with <= instead of <, so the lane at
offset n_elements of the last program reads and writes one element past the
end (an off-by-one that a GPU run does not report)."""
# tritium: --kernel add_kernel --grid 'cdiv(n_elements, BLOCK_SIZE)'
# tritium: --arg x_ptr=randn:f32[5000] --arg y_ptr=randn:f32[5000]
# tritium: --arg output_ptr=empty:f32[5000] --arg n_elements='numel(x_ptr)'
# tritium: --const BLOCK_SIZE=1024
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets <= n_elements  # BUG: should be <
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)
