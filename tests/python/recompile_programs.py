"""Programs whose compilations are known by construction, shared by
test_watch.py (CPU: Triton's own JITFunction.run on a stand-in GPU) and
gpu_watch.py (suite gpu: the real thing), each run under --mode watch and
under --mode interp --recompiles, which must report the same compilations.
The tensors are made on torch's default device (gpu_watch.py sets cuda).
Also what those and test_recompiles.py read of a run: its environment, its
log lines."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def clean_env(**extra):
    """This environment without a mode of its own (TRITON_INTERPRET,
    TRITIUM_MODE, TRITIUM_OPTIONS), the source's python/ first on
    PYTHONPATH, then `extra`."""
    env = dict(os.environ)
    for k in ("TRITON_INTERPRET", "TRITIUM_MODE", "TRITIUM_OPTIONS"):
        env.pop(k, None)
    env["PYTHONPATH"] = os.path.join(ROOT, "python") + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def log_lines(err):
    """The --recompiles log lines of stderr without their times."""
    return [re.sub(r", [0-9.]+ ms: ", ": ", l) for l in err.splitlines() if l.startswith("tritium: recompile: ")]


def compile_times(err):
    """The milliseconds of each --recompiles log line of stderr."""
    return [float(m.group(1)) for m in re.finditer(r"^tritium: recompile: .*, ([0-9.]+) ms: ", err, re.M)]

# A stand-in GPU for watch mode on the CPU (test_watch.py, gpu_watch.py
# --stand-in): a driver that says the device is an sm_90 CUDA GPU and a
# triton.compiler.compile that sleeps a known time and returns a kernel whose
# launch sleeps 2 ms; everything between is Triton's own launch path. Then
# tritium.enable("watch", ...) as python -m tritium --mode watch does; the
# program imports it on its first line (empty in PROGRAMS: its kernels keep
# their lines).
STAND_IN = '''
import os, time, torch, triton, triton.compiler
from triton.runtime.driver import driver
from triton.backends.compiler import GPUTarget

class StandInDriver:
    target = GPUTarget("cuda", 90, 32)
    def is_active(self): return True
    def get_current_device(self): return 0
    def set_current_device(self, d): pass
    def get_current_stream(self, d=None): return 0
    def get_current_target(self): return self.target
    def get_active_torch_device(self): return torch.device("cpu")
    def get_device_interface(self): return torch.cpu
    def get_benchmarker(self):
        def bench(fn, quantiles=None, **kw):
            fn()
            return [1.0] * len(quantiles) if quantiles else 1.0
        return bench
driver.set_active(StandInDriver())

COMPILES = []

class StandInKernel:
    function = packed_metadata = None
    def launch_metadata(self, grid, stream, *args): return None
    def run(self, *args): time.sleep(0.002)

def compile(src, target=None, options=None, **kw):
    # the first compilation 250 ms (Triton's is longer too: its compiler warms up), then 100 ms
    time.sleep(0.25 if not COMPILES else 0.1)
    COMPILES.append(src.fn.__name__)
    return StandInKernel()
triton.compiler.compile = compile

import tritium
tritium.enable("watch", recompiles=True, recompiles_json=os.environ["WATCH_JSON"])
'''


PROGRAMS = {}

# SGLang's attention-mask kernel: max_kv_len, a constexpr that only bounds a
# loop, takes 4 values over 6 launches (4 compilations)
PROGRAMS["mask"] = '''
import torch, triton, triton.language as tl

@triton.jit
def fill_mask(out, n, max_kv_len: tl.constexpr):
    offs = tl.arange(0, 64)
    for i in range(0, max_kv_len, 64):
        tl.store(out + i + offs, 1.0, mask=i + offs < n)

out = torch.zeros(1024)
for m in (128, 160, 128, 192, 256, 192):
    fill_mask[(1,)](out, 64, m)
print("program ok")
'''

# a masked scale (its kernel on line 4): the head of "classes" and of
# test_recompiles.py's programs
SCALE = '''
import torch, triton, triton.language as tl

@triton.jit
def scale(x, n, alpha, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n)
    tl.store(x + offs, v * alpha, mask=offs < n)
'''

# an integer moving between Triton's classes (1, divisible by 16, neither) and
# a float whose value changes (nothing)
PROGRAMS["classes"] = SCALE + '''
x = torch.ones(64)
for n, a in ((1, 2.0), (16, 0.5), (17, 0.5), (32, 3.0), (48, -1.0)):
    scale[(1,)](x, n, a, BLOCK=64)
print("program ok")
'''

# a dtype that changes; do_not_specialize; num_warps; a pointer's alignment
PROGRAMS["dtype_options"] = '''
import torch, triton, triton.language as tl

@triton.jit(do_not_specialize=["n"])
def fill(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, 1.0, mask=offs < n)

x = torch.zeros(256)
for n in (1, 16, 17, 32):
    fill[(1,)](x, n, BLOCK=64)
fill[(1,)](x.half(), 32, BLOCK=64)
fill[(1,)](x, 32, BLOCK=64, num_warps=8)
fill[(1,)](x[1:], 32, BLOCK=64)
fill[(1,)](x[4:], 32, BLOCK=64)
print("program ok")
'''

# an autotuned kernel: Triton benchmarks every config that survives pruning
# (interp mode takes the first); both compile BLOCK 32 and 64 over 3 launches
PROGRAMS["autotune"] = '''
import torch, triton, triton.language as tl

def prune(configs, nargs, **kw):
    return [c for c in configs if c.kwargs["BLOCK"] >= nargs["n"]]

@triton.autotune(configs=[triton.Config({"BLOCK": 32}), triton.Config({"BLOCK": 64})], key=["n"],
                 prune_configs_by={"early_config_prune": prune})
@triton.jit
def fill(x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x + offs, 1.0, mask=offs < n)

x = torch.zeros(64)
for n in (16, 48, 16):
    fill[(1,)](x, n)
print("program ok")
'''

# what watch and interp must agree on, per program: {kernel: (launches,
# compilations, [(cause, kind, compilations, values)])}
EXPECTED = {
    "mask": {"fill_mask": (6, 4, [("max_kv_len", "constexpr", 3, [128, 160, 192, 256])])},
    "classes": {"scale": (5, 3, [("n", "specialization", 2, ["equal to 1", "divisible by 16", "neither"])])},
    "dtype_options": {"fill": (8, 4, [("x", "dtype", 1, ["float32", "float16"]),
                                      ("num_warps", "option", 1, [4, 8]),
                                      ("x", "specialization", 1, ["aligned 16", "unaligned"])])},
    "autotune": {"fill": (3, 2, [("BLOCK", "autotune", 1, [32, 64])])},
}


def summary(data):
    """{kernel: (launches, compilations, causes)} of --recompiles-json's data."""
    return {k["name"]: (k["launches"], k["compilations"],
                        [(c["name"], c["kind"], c["compilations"], c["values"]) for c in k["causes"]])
            for k in data["kernels"]}
