"""The benchmark launches, defined once for both runners (bench/run.py runs
them with tritium, bench/triton_interp.py with Triton's interpreter), so both
run the same kernel file with the same sizes, grid and constexprs.

A parameter is either a tensor (name, kind, dtype, shape), with kind one of
tritium's generators (randn, empty), or a scalar (name, value). Parameters
are listed in the kernel's order; constexprs go by keyword.
"""

N_VEC = 1 << 20

CASES = [
    dict(name="vector_add", size="2^20 f32, BLOCK 1024",
         file="vector_add.py", kernel="add_kernel", grid=N_VEC // 1024,
         params=[("x_ptr", "randn", "f32", [N_VEC]),
                 ("y_ptr", "randn", "f32", [N_VEC]),
                 ("output_ptr", "empty", "f32", [N_VEC]),
                 ("n_elements", N_VEC)],
         consts={"BLOCK_SIZE": 1024}),
    dict(name="softmax", size="1024x1024 f32, row/program",
         file="softmax.py", kernel="softmax_kernel", grid=1024,
         params=[("output_ptr", "empty", "f32", [1024, 1024]),
                 ("input_ptr", "randn", "f32", [1024, 1024]),
                 ("input_row_stride", 1024), ("output_row_stride", 1024),
                 ("n_rows", 1024), ("n_cols", 1024)],
         consts={"BLOCK_SIZE": 1024}),
    dict(name="layer_norm", size="1024x1024 f32, BLOCK 1024",
         file="layer_norm.py", kernel="layer_norm_fwd_fused", grid=1024,
         params=[("X", "randn", "f32", [1024, 1024]),
                 ("Y", "empty", "f32", [1024, 1024]),
                 ("W", "randn", "f32", [1024]),
                 ("B", "randn", "f32", [1024]),
                 ("Mean", "empty", "f32", [1024]),
                 ("Rstd", "empty", "f32", [1024]),
                 ("stride", 1024), ("N", 1024), ("eps", 1e-5)],
         consts={"BLOCK_SIZE": 1024}),
    dict(name="matmul", size="256^3 f16, 64x64x32 tiles",
         file="matmul.py", kernel="matmul_kernel", grid=(256 // 64) * (256 // 64),
         params=[("a_ptr", "randn", "f16", [256, 256]),
                 ("b_ptr", "randn", "f16", [256, 256]),
                 ("c_ptr", "empty", "f16", [256, 256]),
                 ("M", 256), ("N", 256), ("K", 256),
                 ("stride_am", 256), ("stride_ak", 1),
                 ("stride_bk", 256), ("stride_bn", 1),
                 ("stride_cm", 256), ("stride_cn", 1)],
         consts={"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 32,
                 "GROUP_SIZE_M": 8}),
]


def tritium_launch_args(case):
    """The launch spec of `case` as tritium command-line arguments."""
    out = ["--kernel", case["kernel"], "--grid", str(case["grid"])]
    for p in case["params"]:
        if len(p) == 4:
            name, kind, dtype, shape = p
            out += ["--arg", "%s=%s:%s[%s]" % (name, kind, dtype, ",".join(map(str, shape)))]
        else:
            out += ["--arg", "%s=%r" % (p[0], p[1])]
    for k, v in case["consts"].items():
        out += ["--const", "%s=%r" % (k, v)]
    return out
