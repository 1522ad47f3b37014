#!/usr/bin/env python3
"""bench/triton_compile.py — Triton 3.6's cold compile of kernels, per stage,
for bench/compile_time.py --triton.

    python3 bench/triton_compile.py JSON

JSON: a list of {"path": FILE, "kernel": NAME, "words": [tritium launch
words], "sig": {arg: Triton type overriding the one derived from the words},
"arch": 90, "ptx_out": FILE to write Triton's PTX to}. After one warm-up compile (Triton's one-off costs, as
bench/gpu.py pays them before timing), compiles each with an empty cache and
prints one JSON list: per kernel and stage, wall and CPU milliseconds
(front = ASTSource.make_ir, then the CUDA backend's stages ttir, ttgir, llir,
ptx, cubin; cubin runs ptxas, a child process whose CPU time is counted) and
the total. No GPU needed: triton.compile with a GPUTarget.

The signature follows what Triton's launcher specializes
(runtime/jit.py, specialize_impl): tensors are pointers with
tt.divisibility 16, integers divisible by 16 get tt.divisibility 16,
integers equal to 1 become constexprs.
"""
import ast
import inspect
import json
import os
import re
import resource
import sys
import tempfile
import time
import types


def cpu_now():
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + ch.ru_utime + ch.ru_stime


def load_kernel(path, name):
    """The JITFunction NAME of PATH without running the file's host code:
    only its imports and function definitions (autotune and heuristics
    decorators dropped: the configuration comes from the words)."""
    src = open(path).read()
    tree = ast.parse(src, path)
    mod = types.ModuleType("tt_bench_" + re.sub(r"\W", "_", os.path.basename(path)))
    mod.__file__ = path
    sys.modules[mod.__name__] = mod
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            node.decorator_list = [d for d in node.decorator_list
                                   if not (isinstance(d, ast.Call) and "autotune" in ast.unparse(d.func)
                                           or "heuristics" in ast.unparse(d))]
        elif not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        try:    # one statement at a time: a host function whose defaults need a GPU is left out
            exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), mod.__dict__)
        except Exception:
            pass
    return mod.__dict__[name]


DT = {"f16": "fp16", "bf16": "bf16", "f32": "fp32", "f64": "fp64", "i8": "i8", "i16": "i16", "i32": "i32",
      "i64": "i64", "u8": "u8", "i1": "i1"}


def literal(text):
    if text in ("True", "False"):
        return text == "True"
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def compile_one(spec, triton, GPUTarget, ASTSource, nv):
    fn = load_kernel(spec["path"], spec["kernel"])
    words = spec["words"]
    args, consts, num_warps = {}, {}, 4
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("--arg", "--const"):
            k, v = words[i + 1].split("=", 1)
            (args if w == "--arg" else consts)[k] = v
            i += 2
        elif w == "--num-warps":
            num_warps = int(words[i + 1])
            i += 2
        else:
            raise ValueError("unknown word " + w)
    sig, cst, attrs = {}, {}, {}
    for idx, name in enumerate(fn.arg_names):
        if name in spec.get("sig", {}):
            sig[name] = spec["sig"][name]
        elif name in consts:
            sig[name] = "constexpr"
            cst[name] = literal(consts[name])
        elif name in args:
            v = args[name]
            m = re.match(r"\w+:(\w+)\[", v)
            if m:
                sig[name] = "*" + DT[m.group(1)]
                attrs[(idx,)] = [["tt.divisibility", 16]]
            else:
                x = literal(v)
                if isinstance(x, float):
                    sig[name] = "fp32"
                elif x == 1:
                    sig[name] = "constexpr"
                    cst[name] = 1
                else:
                    sig[name] = "i32" if -2**31 <= x < 2**31 else "i64"
                    if x % 16 == 0:
                        attrs[(idx,)] = [["tt.divisibility", 16]]
        elif fn.params[idx].default is not inspect.Parameter.empty:
            sig[name] = "constexpr"
            cst[name] = fn.params[idx].default
        else:
            raise ValueError("no value for argument " + name)
    opts = {"num_warps": num_warps}

    times = {}

    def timed(key, f):
        def run(*a, **kw):
            t, c = time.perf_counter(), cpu_now()
            r = f(*a, **kw)
            times[key] = [(time.perf_counter() - t) * 1e3, (cpu_now() - c) * 1e3]
            return r
        return run

    add_stages = nv.CUDABackend.add_stages

    def add_timed(self, stages, options, language):
        add_stages(self, stages, options, language)
        for k in list(stages):
            stages[k] = timed(k, stages[k])

    nv.CUDABackend.add_stages = add_timed
    try:
        src = ASTSource(fn, sig, constexprs=cst, attrs=attrs)
        src.make_ir = timed("front", src.make_ir)
        with tempfile.TemporaryDirectory(prefix="tt-cache-") as cache:
            triton.knobs.cache.dir = cache
            t, c = time.perf_counter(), cpu_now()
            k = triton.compile(src, target=GPUTarget("cuda", spec.get("arch", 90), 32), options=opts)
            times["total"] = [(time.perf_counter() - t) * 1e3, (cpu_now() - c) * 1e3]
        if spec.get("ptx_out"):
            with open(spec["ptx_out"], "w") as fh:
                fh.write(k.asm["ptx"])
    finally:
        nv.CUDABackend.add_stages = add_stages
    return times


WARM = {"path": os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "vector_add.py"),
        "kernel": "add_kernel", "words": ["--const", "BLOCK_SIZE=128", "--arg", "x_ptr=randn:f32[7]",
                                          "--arg", "y_ptr=randn:f32[7]", "--arg", "output_ptr=empty:f32[7]",
                                          "--arg", "n_elements=7"]}


def main():
    specs = json.loads(sys.argv[1])
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    from triton.backends.nvidia import compiler as nv
    # Triton's one-off costs (hashing libtriton for the cache key, lazy
    # imports), which bench/gpu.py also pays before its first timed call
    compile_one(WARM, triton, GPUTarget, ASTSource, nv)
    out = []
    for spec in specs:
        try:
            out.append(compile_one(spec, triton, GPUTarget, ASTSource, nv))
        except Exception as e:     # reported per kernel, the others still run
            out.append({"error": "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0] if str(e).strip() else "")})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
