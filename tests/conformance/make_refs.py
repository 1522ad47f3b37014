"""Writes the conformance suite's inputs and numpy references (refs/*.npy).

The references are computed here with numpy / ml_dtypes, independently of
tritium; CI only reads the committed files. Run from anywhere:
    python3 tests/conformance/make_refs.py
"""
import os
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
REFS = os.path.join(HERE, "refs")
rng = np.random.default_rng(1234)


def save(name, a):
    np.save(os.path.join(REFS, name + ".npy"), a)


def none_args():
    x = rng.standard_normal(37).astype(np.float32)
    w = rng.standard_normal(37).astype(np.float32)
    b = rng.standard_normal(37).astype(np.float32)
    save("none_x", x)
    save("none_w", w)
    save("none_b", b)
    save("none_y_nowb", x + np.float32(1))          # W=None, B default None
    save("none_y_wb", x * w + b)                    # both given
    save("none_y_w", x * w + np.float32(1))         # W given, B None


def main():
    os.makedirs(REFS, exist_ok=True)
    none_args()


if __name__ == "__main__":
    main()
