#!/usr/bin/env python3
"""The conformance cases run by real Triton 3.6, against the same numpy
references (refs/*.npy) that tritium's interpreter (meson suite
'conformance') and GPU path (gpu.sh) are held to.

    python3 tests/conformance/triton_gpu.py [-k SUBSTRING] [--interpret | --compile-only] [-v]

Every case of meson.build (conformance_cases and its += blocks: the language
cases, fp8, libdevice, tensor descriptors, core rules) is launched with
Triton as its launch spec says: FILE.py is imported (inside its package, so
relative imports resolve), `.npy` arguments become tensors (bf16 and fp8
files as ml_dtypes writes them; `FILE.npy:f8e4nv` names the fp8 type of raw
bytes; fp8 tensors go to Triton as triton.reinterpret of uint8 storage),
`empty:DT[shape]` / `zeros:DT[shape]` fresh ones, numbers scalars, `None`
None, `--tensor X=...` a tensor that only `desc(X, block=[...])` (a host
TensorDescriptor) uses, --const NAME=V constexprs (`tl.float16` a dtype,
`"nan"` a string, `jit:NAME` the module's jit function NAME), --grid the grid, --num-warps num_warps; every
--expect NAME=REF[,rtol=..,atol=..] is compared with numpy as `tritium run
--expect` compares (the same default tolerances). fp8_ops.py's cases (tl.abs,
max, min, sum on fp8) run too, with that file's references.

Modes: the default runs on the GPU (CUDA). --interpret runs Triton's own
interpreter on the CPU (TRITON_INTERPRET=1; a check of this script, not of
the GPU: the interpreter lacks map_elementwise, computes tf32 dots in full
fp32, ...). --compile-only compiles every case with Triton's own JIT for
sm_90 and launches nothing (no GPU needed: a stand-in driver answers the
device queries), which finds the kernels Triton refuses to compile.

One case failing does not stop the others (a case that leaves the CUDA
context broken has the rest run in a fresh process). The fnuz fp8 cases
(conformance_interp_cases) are skipped: Triton's CUDA backend refuses those
types. Prints one line per case, then `triton_gpu: N passed, M failed, K
skipped` and the failures with one-line reasons; exit status: the number of
failing cases (at most 99).
"""
import ast
import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
INTERP = "--interpret" in sys.argv
COMPILE_ONLY = "--compile-only" in sys.argv
if INTERP:
    os.environ["TRITON_INTERPRET"] = "1"
DEV = "cpu" if INTERP or COMPILE_ONLY else "cuda"
TORCH = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "i8": "int8", "i16": "int16",
         "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
         "i1": "bool"}
FP8 = {"f8e4nv": "float8e4nv", "f8e5": "float8e5", "f8e4b15": "float8e4b15", "f8e4b8": "float8e4b8",
       "f8e5b16": "float8e5b16"}
ML_FP8 = {"f8e4nv": "float8_e4m3fn", "f8e5": "float8_e5m2", "f8e4b8": "float8_e4m3fnuz", "f8e5b16": "float8_e5m2fnuz"}


class Skip(Exception):
    """A case this script cannot launch under Triton (the reason)."""


class JitRef:
    """`jit:NAME[@LINE]`: the kernel module's @triton.jit function NAME,
    looked up once the module is loaded."""

    def __init__(self, ref):
        self.name = ref.split("@")[0]


# ---- the cases ----

def meson_cases():
    """(name, argv, skip reason or None) of meson.build's lists, in order."""
    text = re.sub(r"#.*", "", open(os.path.join(HERE, "meson.build")).read())
    out = []
    for m in re.finditer(r"(conformance(?:_interp)?_cases) \+?= (\[.*?\n\]\n)", text, re.S):
        why = "fnuz fp8 type: Triton's CUDA backend refuses it" if "interp" in m.group(1) else None
        out += [(n, a, why) for n, a in ast.literal_eval(m.group(2))]
    return out


def fp8_ops_cases():
    """fp8_ops.py's cases as (name, kernel, args, check): the same inputs and references."""
    sys.path.insert(0, HERE)
    import fp8_ops
    if fp8_ops.md is None:
        return []
    out = []
    for name, t in fp8_ops.types():
        if name in ("f8e4b8", "f8e5b16"):
            continue
        codes, want, bad_codes = fp8_ops.abs_case(t)

        def check(got, bad_codes=bad_codes, want=want):
            g = got["Y"]
            bad = bad_codes(g)
            return ["Y: %d codes differ, e.g. 0x%02x -> 0x%02x, want 0x%02x" % (len(bad), bad[0], g[bad[0]], want[bad[0]])
                    ] if len(bad) else []
        out.append(("fp8_ops_abs_" + name, "abs8", {"X": (codes, name), "Y": (np.zeros(256, np.uint8), name), "N": 256},
                    check))
        if t is None:
            continue
        x, wants = fp8_ops.reduce_case(name, t)

        def check(got, wants=wants):
            return ["%s: got %s want %s" % (k, got[k][:4], w[:4]) for k, w in wants.items() if not np.array_equal(got[k], w)]
        out.append(("fp8_ops_reduce_" + name, "reduce8", {"X": (x, name), "MX": np.zeros(16, np.float32),
                                                          "MN": np.zeros(16, np.float32), "S": np.zeros(16, np.float32),
                                                          "M": 16, "N": 16}, check))
    return out


# ---- values ----

def read_npy(path):
    """A .npy file as numpy reads it, except ml_dtypes' types, whose descrs
    numpy cannot read back ('<V2' bfloat16, '<V1' float8, '<f1'
    float8_e5m2): those as raw uint16 / uint8, with the descr."""
    with open(path, "rb") as f:
        major, _ = np.lib.format.read_magic(f)
        hlen = int.from_bytes(f.read(2 if major == 1 else 4), "little")
        header = ast.literal_eval(f.read(hlen).decode("latin1"))
        descr, shape = header["descr"], header["shape"]
        if descr in ("<V2", "<V1", "<f1", "|V1", "|V2"):
            raw = np.frombuffer(f.read(), dtype=np.uint16 if descr.endswith("2") else np.uint8)
            return raw.reshape(shape), descr
    return np.load(path), None


def fp8_torch(torch, codes, name):
    """uint8 codes as the fp8 tensor Triton takes: triton.reinterpret of the bytes."""
    import triton
    import triton.language as tl
    t = torch.from_numpy(np.ascontiguousarray(codes)).to(DEV)
    return triton.reinterpret(t, getattr(tl, FP8[name])), t


def value(torch, spec, store):
    """A launch-spec value: (what the kernel gets, the tensor holding its storage or None)."""
    m = re.fullmatch(r"(empty|zeros):(\w+)\[([\d,]+)\]", spec)
    if m:
        shape = [int(d) for d in m.group(3).split(",")]
        if m.group(2) in FP8:
            return fp8_torch(torch, np.zeros(shape, np.uint8), m.group(2))
        if m.group(2) not in TORCH:
            raise Skip("dtype %s" % m.group(2))
        dt = getattr(torch, TORCH[m.group(2)])
        t = (torch.empty if m.group(1) == "empty" else torch.zeros)(shape, dtype=dt, device=DEV)
        return t, t
    if spec == "None":
        return None, None
    if spec.startswith("jit:"):
        return JitRef(spec[4:]), None
    m = re.fullmatch(r"(.+\.npy)(?::(\w+))?", spec)
    if m:
        a, descr = read_npy(os.path.join(HERE, m.group(1)))
        fp8 = m.group(2) or ("f8e5" if descr == "<f1" else None)
        if fp8:
            if fp8 not in FP8:
                raise Skip("dtype %s" % fp8)
            return fp8_torch(torch, a.view(np.uint8), fp8)
        if descr and descr.endswith("2"):                       # bfloat16
            t = torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16).to(DEV)
        elif descr:
            raise Skip("%s: a float8 file without its type" % m.group(1))
        else:
            t = torch.from_numpy(np.ascontiguousarray(a)).to(DEV)
        return t, t
    m = re.fullmatch(r"desc\((\w+),\s*block=\[([\d,\s]+)\]\)", spec)
    if m:
        from triton.tools.tensor_descriptor import TensorDescriptor
        return TensorDescriptor.from_tensor(store[m.group(1)], [int(b) for b in m.group(2).split(",")]), None
    if re.fullmatch(r"-?\d+", spec):
        return int(spec), None
    if re.fullmatch(r"-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?", spec):
        return float(spec), None
    raise Skip("launch-spec form %r" % spec)


def const(val):
    """A --const value: an int, a float, True/False, tl.DTYPE, a "string" or a bare word."""
    import triton.language as tl
    if re.fullmatch(r"-?\d+", val):
        return int(val)
    if re.fullmatch(r"-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?", val):
        return float(val)
    if val in ("True", "False"):
        return val == "True"
    if val.startswith("tl."):
        return getattr(tl, val[3:])
    if val.startswith("jit:"):
        return JitRef(val[4:])
    if len(val) >= 2 and val[0] == val[-1] and val[0] in "\"'":
        return val[1:-1]
    return val


def load(path, name):
    """The kernel's module; inside a package (__init__.py files up the tree)
    it is imported by its dotted name so that relative imports resolve."""
    d, parts = os.path.dirname(path), [os.path.splitext(os.path.basename(path))[0]]
    while os.path.exists(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        d = os.path.dirname(d)
    if len(parts) > 1:
        if d not in sys.path:
            sys.path.insert(0, d)
        return importlib.import_module(".".join(parts))
    spec = importlib.util.spec_from_file_location("conf_" + os.path.basename(path)[:-3], path)
    mod = sys.modules.get(spec.name)
    if mod is None:
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sys.modules[spec.name] = mod
    return mod


# ---- comparing ----

def host(torch, t):
    """A result tensor as numpy: fp8 and bf16 as their raw bits."""
    t = t.detach().cpu()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16)
    if t.element_size() == 1 and t.dtype not in (torch.int8, torch.uint8, torch.bool):
        return t.view(torch.uint8).numpy()
    return t.numpy()


def compare(got, got_kind, ref, rtol, atol):
    """tritium run --expect's rule (repl/expect.c): integers exact unless a
    tolerance is given, floats |got - want| <= atol + rtol |want| (default
    rtol 1e-5, atol 1e-8), NaN equal to NaN. got_kind: 'bf16', an fp8 name
    or None. Returns '' or the reason."""
    want, descr = read_npy(os.path.join(HERE, ref))
    if got.size != want.size:
        return "%d elements, the reference has %d" % (got.size, want.size)
    got, want = got.reshape(-1), want.reshape(-1)
    import ml_dtypes as md
    if got_kind == "bf16":
        got = got.view(md.bfloat16).astype(np.float64)
        want = want.view(md.bfloat16).astype(np.float64) if descr else want.astype(np.float64)
    elif got_kind in FP8:
        if got_kind not in ML_FP8 or not descr:           # fp8e4b15 (no ml_dtypes type): the codes
            bad = np.nonzero(got != want.view(np.uint8))[0]
            return "%d of %d codes differ, e.g. [%d] 0x%02x, want 0x%02x" % (
                len(bad), got.size, bad[0], got[bad[0]], want.view(np.uint8)[bad[0]]) if len(bad) else ""
        t = getattr(md, ML_FP8[got_kind])
        got, want = got.view(t).astype(np.float64), want.view(np.uint8).view(t).astype(np.float64)
    ints = got.dtype.kind in "iub" and want.dtype.kind in "iub"
    rtol = (0 if ints else 1e-5) if rtol is None else rtol
    atol = (0 if ints else 1e-8) if atol is None else atol
    if ints and rtol == 0 and atol == 0:
        bad = np.nonzero(got.astype(np.int64) != want.astype(np.int64))[0] if got.dtype != np.uint64 else \
            np.nonzero(got != want.astype(np.uint64))[0]
    else:
        g, w = got.astype(np.float64), want.astype(np.float64)
        with np.errstate(invalid="ignore"):
            close = (g == w) | (np.abs(g - w) <= atol + rtol * np.abs(w)) | (np.isnan(g) & np.isnan(w))
        bad = np.nonzero(~close)[0]
    if not len(bad):
        return ""
    i = bad[0]
    return "%d of %d elements differ (rtol=%g, atol=%g), e.g. [%d] %r, want %r; flat indices %s" % (
        len(bad), got.size, rtol, atol, i, got[i].item(), want[i].item(),
        ",".join(str(int(k)) for k in bad[:16]) + (",..." if len(bad) > 16 else ""))


# ---- running ----

def launch(fn, grid, kwargs):
    if COMPILE_ONLY:
        fn.run(grid=grid, warmup=True, **kwargs)
    else:
        fn[grid](**kwargs)


def run_meson_case(torch, argv):
    """Returns the list of failure reasons ([] when it passed)."""
    path, kernel = argv[0].split(":")
    kwargs, store, kinds, expects, grid = {}, {}, {}, [], (1,)
    rest = argv[1:]
    for flag, arg in zip(rest[::2], rest[1::2]):
        key, _, val = arg.partition("=")
        if flag == "--grid":
            grid = tuple(int(g) for g in arg.split(","))
        elif flag == "--num-warps":
            kwargs["num_warps"] = int(arg)
        elif flag in ("--arg", "--tensor"):
            v, storage = value(torch, val, store)
            if storage is not None:
                store[key] = storage
                m = re.match(r"(?:empty|zeros):(\w+)\[", val) or re.match(r".+\.npy(?::(\w+))?$", val)
                dt = m.group(1) if m else None
                if storage.dtype == torch.bfloat16:
                    dt = "bf16"
                elif storage.dtype == torch.uint8 and v is not storage:
                    dt = dt or "f8e5"
                kinds[key] = dt if dt in FP8 or dt == "bf16" else None
            if flag == "--arg":
                kwargs[key] = v
        elif flag == "--const":
            kwargs[key] = const(val)
        elif flag == "--expect":
            ref, *tol = val.split(",")
            t = dict(x.split("=") for x in tol)
            expects.append((key, ref, float(t["rtol"]) if "rtol" in t else None,
                            float(t["atol"]) if "atol" in t else None))
        else:
            raise Skip("option %s" % flag)
    mod = load(os.path.join(HERE, path), argv[0])
    kwargs = {k: getattr(mod, v.name) if isinstance(v, JitRef) else v for k, v in kwargs.items()}
    fn = getattr(mod, kernel.split("@")[0])
    launch(fn, grid, kwargs)
    if COMPILE_ONLY:
        return []
    if DEV == "cuda":
        torch.cuda.synchronize()
    bad = []
    for key, ref, rtol, atol in expects:
        why = compare(host(torch, store[key]), kinds.get(key), ref, rtol, atol)
        if why:
            bad.append("%s: %s" % (key, why))
    return bad


def run_fp8_ops_case(torch, kernel, args, check):
    sys.path.insert(0, os.path.join(HERE, "kernels"))
    mod = load(os.path.join(HERE, "kernels", "fp8.py"), kernel)
    kwargs, store = {}, {}
    for k, v in args.items():
        if isinstance(v, tuple):
            kwargs[k], store[k] = fp8_torch(torch, v[0], v[1])
        elif isinstance(v, np.ndarray):
            kwargs[k] = store[k] = torch.from_numpy(v.copy()).to(DEV)
        else:
            kwargs[k] = v
    launch(getattr(mod, kernel), (1,), kwargs)
    if COMPILE_ONLY:
        return []
    if DEV == "cuda":
        torch.cuda.synchronize()
    return check({k: host(torch, t) for k, t in store.items()})


def context_ok(torch):
    """False when the CUDA context is broken (a fault poisons every later launch)."""
    if DEV != "cuda":
        return True
    try:
        x = torch.ones(4, device="cuda")
        torch.cuda.synchronize()
        return float((x + 1).sum().item()) == 8.0
    except Exception:
        return False


class StandIn:
    """--compile-only: the device queries of Triton's JIT answered for an H100."""

    def __init__(self):
        from triton.backends.compiler import GPUTarget
        self.target = GPUTarget("cuda", 90, 32)

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def get_current_target(self):
        return self.target

    def get_device_interface(self):
        import torch
        return torch.cuda

    def get_active_torch_device(self):
        import torch
        return torch.device("cpu")


def one_line(e):
    lines = [s.strip() for s in str(e).splitlines() if s.strip()]
    ptxas = [s for s in lines if re.match(r"ptxas \S+, line \d+; error", s)]
    if ptxas:                                       # PTXASError: ptxas's own error line
        return "%s: %s" % (type(e).__name__, re.sub(r"^ptxas \S+, ", "", ptxas[0])[:300])
    # Triton's CompilationError: "at L:C:", the source, then the reason last
    text = lines[-1] if lines else ""
    if lines and re.match(r"at \d+:\d+:", lines[0]):
        text = "%s %s" % (lines[0], lines[-1])
    return "%s: %s" % (type(e).__name__, text[:300])


def main():
    import torch
    import triton
    if COMPILE_ONLY:
        from triton.runtime.driver import driver
        driver.set_active(StandIn())
    elif DEV == "cuda":
        if not torch.cuda.is_available():
            print("triton_gpu: no CUDA device (use --interpret or --compile-only here)")
            return 77
        # device-side tensor descriptors (tl.make_tensor_descriptor) need scratch memory
        triton.set_allocator(lambda size, align, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    else:
        triton.set_allocator(lambda size, align, stream: torch.empty(size, device="cpu", dtype=torch.int8))
    sys.path.insert(0, os.path.join(HERE, "kernels", "extlib"))      # the kernels' `--path ../../extlib`
    os.chdir(HERE)
    args = sys.argv[1:]
    sel = args[args.index("-k") + 1] if "-k" in args else ""
    start = int(args[args.index("--from") + 1]) if "--from" in args else 0
    json_out = args[args.index("--json") + 1] if "--json" in args else None
    verbose = "-v" in args
    cases = [(n, ("meson", a), why) for n, a, why in meson_cases()]
    cases += [(n, ("fp8_ops", (k, a, c)), None) for n, k, a, c in fp8_ops_cases()]
    passed, failed, skipped = [], [], []
    for i, (name, (kind, what), why) in enumerate(cases):
        if i < start or sel not in name:
            continue
        if why:
            skipped.append((name, why))
            print("skip  %s (%s)" % (name, why))
            continue
        try:
            bad = run_meson_case(torch, what) if kind == "meson" else run_fp8_ops_case(torch, *what)
        except Skip as e:
            skipped.append((name, str(e)))
            print("skip  %s (%s)" % (name, e))
            continue
        except Exception as e:                      # a compile error or a launch failure
            bad = [one_line(e)]
            if re.search(r"requires \.target sm_1\d\d|not supported on \.target 'sm_9", bad[0]):
                # Triton 3.6 lowers it (desc.gather/scatter: TMA gather4) to an sm_100 instruction
                why = "Triton 3.6 needs a newer GPU than sm_90 for it: " + bad[0]
                skipped.append((name, why))
                print("skip  %s (%s)" % (name, why))
                continue
            if verbose:
                traceback.print_exc()
        (failed if bad else passed).append((name, "; ".join(bad)))
        print(("ok    " if not bad else "FAIL  ") + name + ("" if not bad else "  " + "; ".join(bad)), flush=True)
        if bad and not context_ok(torch):           # the rest in a fresh process
            print("triton_gpu: the CUDA context is broken after %s; the remaining cases run in a new process" % name,
                  flush=True)
            import tempfile
            with tempfile.NamedTemporaryFile(suffix=".json", prefix="triton-gpu-") as tf:
                cmd = [sys.executable, os.path.abspath(__file__), "--from", str(i + 1), "--json", tf.name]
                cmd += [a for a in args if a in ("-v", "--interpret", "--compile-only")]
                cmd += ["-k", sel] if sel else []
                subprocess.run(cmd)
                try:
                    child = json.load(open(tf.name))
                except ValueError:
                    child = {"passed": [], "failed": [["(the rest)", "the child process died"]], "skipped": []}
            passed += [tuple(x) for x in child["passed"]]
            failed += [tuple(x) for x in child["failed"]]
            skipped += [tuple(x) for x in child["skipped"]]
            break
    if json_out:
        json.dump({"passed": passed, "failed": failed, "skipped": skipped}, open(json_out, "w"))
        return 0
    mode = "compiled for sm_90 (no launch)" if COMPILE_ONLY else "Triton's interpreter" if INTERP else "the GPU"
    print("triton_gpu: %d passed, %d failed, %d skipped (triton %s, %s)" % (
        len(passed), len(failed), len(skipped), triton.__version__, mode))
    for name, why in failed:
        print("  FAIL %s: %s" % (name, why))
    for name, why in skipped:
        print("  skip %s: %s" % (name, why))
    return min(len(failed), 99)


if __name__ == "__main__":
    sys.exit(main())
