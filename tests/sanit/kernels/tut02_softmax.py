"""Triton tutorial 02 (fused softmax), the kernel as the tutorial writes it:
a persistent grid of programs, each walking rows with tl.range."""
# tritium: --kernel softmax_kernel --grid 64
# tritium: --arg output_ptr=empty:f32[1823,781] --arg input_ptr=randn:f32[1823,781]
# tritium: --arg input_row_stride='input_ptr.stride(0)' --arg output_row_stride='output_ptr.stride(0)'
# tritium: --arg n_rows='input_ptr.shape[0]' --arg n_cols='input_ptr.shape[1]'
# tritium: --const BLOCK_SIZE=1024 --const num_stages=4
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)
