"""Pattern 2 (as in Liger-Kernel): a kernel name imported under a condition
only Python can evaluate, inside try/except."""
import operator

import triton


def compare_version(package, op, version):
    have = tuple(int(p) for p in triton.__version__.split(".")[:2])
    return op(have, tuple(int(p) for p in version.split(".")[:2]))


def is_npu_available():
    return False


if compare_version("triton", operator.ge, "3.0.0") and not is_npu_available():
    try:
        from triton.language.extra.libdevice import rsqrt
    except ModuleNotFoundError:
        from triton.language.extra.cuda.libdevice import rsqrt
else:
    from triton.language.math import rsqrt
