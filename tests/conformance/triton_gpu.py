#!/usr/bin/env python3
"""The conformance cases run by real Triton 3.6 on the GPU, against the same
numpy references (refs/*.npy) that tritium's interpreter (meson suite
'conformance') and GPU path (gpu.sh) are held to.

    python3 tests/conformance/triton_gpu.py [-k SUBSTRING]

Each case of meson.build's conformance_cases is launched with Triton: FILE.py
is imported, .npy arguments become CUDA tensors, `empty:DT[shape]` /
`zeros:DT[shape]` fresh ones, numbers scalars, --const NAME=V constexprs,
--grid the grid; every --expect NAME=REF[,rtol=..,atol=..] is compared with
numpy (CONF_DEVICE=cpu TRITON_INTERPRET=1 runs it under Triton's
interpreter instead). Cases with launch-spec forms this script does not know (None,
expressions, descriptors, tuples) are reported as skipped. Prints one line per
case and a count; exit status: the number of failing cases (at most 99).
"""
import ast
import importlib.util
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEV = os.environ.get("CONF_DEVICE", "cuda")     # cpu with TRITON_INTERPRET=1: a check of this script
DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "i8": "int8",
          "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
          "i1": "bool"}


def cases():
    text = open(os.path.join(HERE, "meson.build")).read()
    body = text[text.index("conformance_cases = [") + len("conformance_cases = "):]
    body = body[:body.index("\n]\n") + 3]
    return ast.literal_eval(re.sub(r"#.*", "", body))


def value(torch, spec):
    m = re.fullmatch(r"(empty|zeros):(\w+)\[([\d,]+)\]", spec)
    if m:
        shape = [int(d) for d in m.group(3).split(",")]
        dt = getattr(torch, DTYPES[m.group(2)])
        return (torch.empty if m.group(1) == "empty" else torch.zeros)(shape, dtype=dt, device=DEV)
    if spec == "None":
        return None
    if spec.endswith(".npy"):
        a = np.load(os.path.join(HERE, spec))
        if a.dtype.name == "bfloat16" or (a.dtype.kind == "V" and a.dtype.itemsize == 2):   # ml_dtypes' bf16
            return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16).to(DEV)
        return torch.from_numpy(a).to(DEV)
    if re.fullmatch(r"-?\d+", spec):
        return int(spec)
    if re.fullmatch(r"-?[\d.]+(e-?\d+)?", spec):
        return float(spec)
    raise KeyError(spec)


def load(path, name):
    """The kernel's module; inside a package (__init__.py files up the tree)
    it is imported by its dotted name so that relative imports resolve."""
    d, parts = os.path.dirname(path), [os.path.splitext(os.path.basename(path))[0]]
    while os.path.exists(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    if len(parts) > 1:
        sys.path.insert(0, d)
        return importlib.import_module(".".join(parts))
    spec = importlib.util.spec_from_file_location("conf_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_case(torch, name, argv):
    target, rest = argv[0], argv[1:]
    path, kernel = target.split(":")
    mod = load(os.path.join(HERE, path), name)
    fn = getattr(mod, kernel.split("@")[0])
    kwargs, expects, grid = {}, [], (1,)
    for flag, arg in zip(rest[::2], rest[1::2]):
        key, _, val = arg.partition("=")
        if flag == "--grid":
            grid = tuple(int(g) for g in arg.split(","))
        elif flag == "--arg":
            kwargs[key] = value(torch, val)
        elif flag == "--const":
            kwargs[key] = int(val) if re.fullmatch(r"-?\d+", val) else val
        elif flag == "--expect":
            ref, *tol = val.split(",")
            t = dict(x.split("=") for x in tol)
            expects.append((key, ref, float(t.get("rtol", 0)), float(t.get("atol", 0))))
        else:
            raise KeyError(flag)
    fn[grid](**kwargs)
    if DEV == "cuda":
        torch.cuda.synchronize()
    bad = []
    for key, ref, rtol, atol in expects:
        want = np.load(os.path.join(HERE, ref))
        got = kwargs[key]
        if got.dtype == torch.bfloat16:                # compare bf16 as float32
            import ml_dtypes
            got = got.float().cpu().numpy()
            want = want.view(ml_dtypes.bfloat16).astype(np.float32)
        else:
            got = got.cpu().numpy()
        if got.shape != want.shape or not np.allclose(got.astype(np.float64), want.astype(np.float64),
                                                      rtol=rtol, atol=atol, equal_nan=True):
            bad.append(key)
    return bad


def main():
    import torch
    sys.path.insert(0, os.path.join(HERE, "kernels", "extlib"))      # the kernels' `--path ../../extlib`
    sel = sys.argv[sys.argv.index("-k") + 1] if "-k" in sys.argv else ""
    fails = skips = runs = 0
    for name, argv in cases():
        if sel not in name:
            continue
        try:
            bad = run_case(torch, name, argv)
        except KeyError as e:
            skips += 1
            print(f"skip  {name} (launch-spec form {e} not handled here)")
            continue
        except Exception as e:                      # a compile error or a launch failure
            bad = [f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"]
        runs += 1
        fails += bool(bad)
        print(("ok    " if not bad else "FAIL  ") + name + ("" if not bad else "  " + ", ".join(bad)))
    print(f"{runs - fails}/{runs} conformance cases pass under Triton on the GPU ({skips} skipped)")
    sys.exit(min(fails, 99))


if __name__ == "__main__":
    main()
