# Regenerates the .npy fixtures of tests/support (numpy required):
#   cd tests/support/data && python3 gen_fixtures.py
# The files are committed with `git add -f` (.gitignore ignores *.npy).
import numpy as np
from numpy.lib import format as fmt

def save(name, a, version=None):
    with open(name, "wb") as f:
        fmt.write_array(f, a, version=version)

save("f32_3x4.npy", np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5 - 1)
save("i64_scalar.npy", np.array(-42, dtype=np.int64))
save("bool_5.npy", np.array([True, False, True, True, False]))
save("f16_2x3.npy", np.array([[1.0, -2.0, 0.5], [65504.0, 1e-7, -0.0]], dtype=np.float16))
save("u8_7.npy", np.array([0, 1, 2, 127, 128, 254, 255], dtype=np.uint8))
save("i8_4.npy", np.array([-128, -1, 0, 127], dtype=np.int8))
save("i16_2x2.npy", np.array([[-32768, -1], [0, 32767]], dtype=np.int16))
save("u16_3.npy", np.array([0, 1, 65535], dtype=np.uint16))
save("i32_2x2x2.npy", np.arange(8, dtype=np.int32).reshape(2, 2, 2) - 4)
save("u32_3.npy", np.array([0, 1, 4294967295], dtype=np.uint32))
save("u64_2.npy", np.array([0, 18446744073709551615], dtype=np.uint64))
save("f64_1x2x1x2.npy", np.array([1.5, -2.25, np.inf, 1e300], dtype=np.float64).reshape(1, 2, 1, 2))
save("f32_v2.npy", np.array([1.0, 2.0, 3.0], dtype=np.float32), version=(2, 0))
save("i32_v3.npy", np.array([[7, 8]], dtype=np.int32), version=(3, 0))
save("f32_empty.npy", np.zeros((0, 3), dtype=np.float32))
