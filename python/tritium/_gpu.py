"""gpu mode: every Triton launch runs on tritium's GPU path (LLVM -> PTX,
CUDA Driver API), on the program's CUDA tensors in place, on torch's current
stream, asynchronously, as Triton's own launch does.

The warm path mirrors Triton 3.6's (runtime/jit.py JITFunction.run: a
generated binder, a specialization key, a dict of compiled kernels, and the
launcher generated per signature, third_party/nvidia/backend/driver.py):

  bind (a generated function)  ->  key (dtype, 16-byte alignment and device
  of each tensor; i32/i64/u64 range, == 1 and % 16 of each int; the
  constexprs; num_warps, debug, numerics)  ->  dict hit  ->  pack (a generated
  struct.pack of the parameter buffer)  ->  one ctypes call of
  tritium_gpu_kernel_launch (one cuLaunchKernel with the buffer).

A miss builds the launch through libtritium's launch builder with device
addresses (_launch.Launch, in place), compiles and loads it once
(tritium_gpu_prepare: the library's memo, the disk cache), reads the
parameter layout and generates the packer. Nothing on the warm path reads
the PTX, hashes the kernel or allocates on the C side.
"""
import ctypes
import os
import struct

from . import _lib
from ._config import CONFIG
from . import _launch
from . import _html
from .errors import UnsupportedLaunch

COUNTS = {"launches": 0, "compiles": 0}

# tritium.h TRITIUM_PARAM_*: struct format of each parameter kind
_FMT = {0: "Q", 1: "i", 2: "i", 3: "q", 6: "f", 7: "d"}
_SIZE = {"Q": 8, "q": 8, "i": 4, "f": 4, "d": 8}


def _int_class(v):
    """Triton's integer specialization (specialize.cc): the parameter type
    by range, and the values it folds or promises (== 1, % 16 == 0)."""
    if -2**31 <= v < 2**31:
        r = "i32"
    elif -2**63 <= v < 2**63:
        r = "i64"
    elif 0 <= v < 2**64:
        r = "u64"
    else:
        raise UnsupportedLaunch("tritium: an integer argument %d does not fit in 64 bits" % v)
    return (r, v == 1, v % 16 == 0)


def _const_key(v):
    t = type(v)
    if t is int or t is bool or t is str or t is float or v is None:
        return (t, v)                            # True and 1 are different constexprs
    v = _launch._unwrap(v)
    if isinstance(v, (list, tuple)):
        return tuple(_const_key(x) for x in v)
    try:
        hash(v)
        return (type(v), v)
    except TypeError:
        return (type(v), repr(v))


_TENSOR = [None]


def _spec(v):
    """The specialization key of one runtime argument (also fixes how the
    packer reads it): a tensor (dtype, 16-byte aligned, device); an int a
    small int, 4 x range class (i32, i64, u64) + 2 x (== 1) + (% 16 == 0);
    a float "f"; a bool ("b", value)."""
    t = type(v)
    if t is _TENSOR[0]:
        return ("t", v.dtype, not v.data_ptr() & 15, v.get_device())
    if t is int:
        if -0x80000000 <= v <= 0x7fffffff:
            return 2 if v == 1 else 1 if not v & 15 else 0
        r = _int_class(v)
        return {"i32": 0, "i64": 4, "u64": 8}[r[0]] + 2 * r[1] + r[2]
    if t is float:
        return "f"
    if t is bool:
        return ("b", v)                          # libtritium specializes an int or bool equal to 1
    if v is None:
        return None
    if hasattr(v, "data_ptr"):
        return ("t", v.dtype, v.data_ptr() % 16 == 0, _device(v))
    if t is tuple:
        return tuple(_spec(x) for x in v)
    if isinstance(v, tuple):                     # a named tuple: its class is the kernel's too
        return ("nt", t, tuple(_spec(x) for x in v))
    if t.__name__ == "constexpr":
        return ("c", _const_key(v))
    if t.__name__ == "TensorDescriptor" and hasattr(v, "block_shape"):
        # triton/tools/tensor_descriptor.py: the base tensor, then (libtritium's expansion,
        # api/launch.c push_arg) its shape as i32 and strides as i64 parameters, each
        # specialized like an int; the block shape, padding and (3.7+) tf32 rounding are the kernel's
        return ("d", _spec(v.base), tuple(int(b) for b in v.block_shape), v.padding,
                tuple(_spec(int(x)) for x in v.shape), tuple(_spec(int(x)) for x in v.strides),
                bool(getattr(v, "round_f32_to_tf32", False)))
    if t.__module__ == "numpy" and hasattr(v, "item"):
        return ("np", _spec(v.item()))
    return ("c", _const_key(v))                  # str, dtypes: constexprs, as Triton specializes them


def _device(t):
    b = _launch._base(t)
    return b.get_device() if hasattr(b, "get_device") else -1


class _Compiled:
    """One specialization: the library's kernel handle and the generated packer."""

    def __init__(self, handle, pack):
        self.handle = handle
        self.pack = pack
        self.kernel = None                       # what JITFunction.run returns (_patch.GpuKernel)


def _reader(expr, spec):
    """Python expressions (each one runtime parameter's value) for the
    argument `expr` of specialization `spec`, in parameter order."""
    if spec is None or (isinstance(spec, tuple) and spec and spec[0] == "c"):
        return []                                # constexprs and None: no parameter
    if spec == "f":
        return [expr]
    if isinstance(spec, tuple) and spec and spec[0] == "t":
        return ["%s.data_ptr()" % expr]
    if isinstance(spec, tuple) and spec and spec[0] == "b":
        return ["(1 if %s else 0)" % expr]
    if isinstance(spec, tuple) and spec and spec[0] == "d":
        r = len(spec[2])
        return (["%s.base.data_ptr()" % expr] + ["%s.shape[%d]" % (expr, i) for i in range(r)]
                + ["%s.strides[%d]" % (expr, i) for i in range(r)])
    if type(spec) is int:
        return [expr]
    if isinstance(spec, tuple) and spec and spec[0] == "np":
        return _reader("%s.item()" % expr, spec[1])
    if isinstance(spec, tuple) and spec and spec[0] == "nt":
        return _reader(expr, spec[2])
    if isinstance(spec, tuple):                  # a tuple argument, element by element
        out = []
        for i, s in enumerate(spec):
            out += _reader("%s[%d]" % (expr, i), s)
        return out
    raise UnsupportedLaunch("tritium: gpu mode: cannot pass an argument specialized as %r" % (spec,))


def _int_fmts(spec, out):
    """Integer parameters' struct formats by range class, in order."""
    if type(spec) is int:
        out.append(("i32", "i64", "u64")[spec // 4])
    elif isinstance(spec, tuple) and spec and spec[0] == "np":
        _int_fmts(spec[1], out)
    elif isinstance(spec, tuple) and spec and spec[0] == "nt":
        _int_fmts(spec[2], out)
    elif isinstance(spec, tuple) and spec and spec[0] == "d":          # a descriptor's shape, strides
        out += ["i32"] * len(spec[2]) + ["i64"] * len(spec[2])
    elif isinstance(spec, tuple) and spec and spec[0] not in ("t", "b", "c"):
        for s in spec:
            _int_fmts(s, out)
    return out


class KernelRunner:
    """Everything gpu mode keeps per JITFunction."""

    def __init__(self, jitfn):
        self.jitfn = jitfn
        self.info = _launch.kernel_info(jitfn)
        self.cache = {}
        names = [n for n, _ in self.info.params]
        self.constexpr = [c for _, c in self.info.params]
        defaults = {}
        params = []
        star = False
        # the signature as this Triton binds it (_versions.binding_signature): `*args` and the
        # keyword-only separator where it keeps them
        for p in self.info.signature.parameters.values():
            if p.kind == p.VAR_POSITIONAL:
                params.append("*" + p.name)
                star = True
                continue
            if p.kind == p.KEYWORD_ONLY and not star:
                params.append("*")
                star = True
            if p.default is p.empty:
                params.append(p.name)
            else:
                defaults["_d_" + p.name] = p.default
                params.append("%s=_d_%s" % (p.name, p.name))
        src = "def binder(%s, **opts):\n    return (%s,), opts\n" % (", ".join(params), ", ".join(names))
        parts = ["%s(v[%d])" % ("_c" if c else "_s", i) for i, c in enumerate(self.constexpr)]
        src += ("def key(v, opts):\n    return (%s opts.get('num_warps') or 4, opts.get('debug'), _cfg.numerics)\n"
                % "".join(p + ", " for p in parts))
        scope = dict(defaults, _c=_const_key, _s=_spec, _cfg=CONFIG)
        exec(compile(src, "<tritium gpu binder %s>" % self.info.short, "exec"), scope)   # noqa: S102
        self.binder = scope["binder"]
        self.key = scope["key"]             # (argument values, options) -> the specialization key
        self.names = names
        self.hooks = getattr(jitfn, "pre_run_hooks", ())    # the list itself: later add_pre_run_hook calls count

    def compile(self, vals, opts, key):
        for k in opts:
            if k not in _launch.OPTION_KEYS:
                raise KeyError("Keyword argument %s was specified but unrecognised" % k)
        bound = dict(zip(self.names, vals))
        host_ok = CONFIG.gpu_host_tensors
        want = int(os.environ.get("TRITIUM_DEVICE") or 0)
        for name, v, c in zip(self.names, vals, self.constexpr):
            if c:
                continue
            for t in _tensors(v):
                d = _device(t)
                if d < 0 and not host_ok:
                    raise UnsupportedLaunch("tritium: gpu mode: argument '%s' is a CPU tensor; the GPU path takes "
                                            "CUDA tensors" % name)
                if d >= 0 and d != want:
                    raise UnsupportedLaunch("tritium: gpu mode: argument '%s' is on cuda:%d; tritium's GPU path "
                                            "uses cuda:%d ($TRITIUM_DEVICE)" % (name, d, want))
        L = _launch.Launch(self.jitfn, bound, (1, 1, 1), opts.get("num_warps") or 4,
                           staging=_launch._Staging(in_place=True), debug=opts.get("debug"))
        try:
            lib = _lib.lib()
            h = ctypes.c_void_p()
            rc = lib.tritium_gpu_prepare(L.L, _lib.NUMERICS[CONFIG.numerics], ctypes.byref(h))
            if rc == _lib.NO_GPU:
                raise RuntimeError(_lib.last_error())
            if rc:
                raise _launch.compile_error(_lib.last_error())
            n = ctypes.c_int()
            size = lib.tritium_gpu_kernel_layout(h, ctypes.byref(n), None, None, 0)
            kinds, offs = (ctypes.c_int * max(n.value, 1))(), (ctypes.c_int * max(n.value, 1))()
            lib.tritium_gpu_kernel_layout(h, None, kinds, offs, n.value)
            pack = self._packer(key, list(kinds)[:n.value], list(offs)[:n.value], size)
            # the generated packer against the library's own packing of this launch
            mine = pack(vals)
            ref = ctypes.create_string_buffer(size)
            if lib.tritium_gpu_kernel_pack(h, L.L, ref):
                raise UnsupportedLaunch(_lib.last_error())
            if mine != ref.raw:
                raise UnsupportedLaunch("tritium: gpu mode: kernel %s: the Python packer disagrees with "
                                        "libtritium's for this launch (an internal error)" % self.info.short)
        finally:
            L.free()
        COUNTS["compiles"] += 1
        c = _Compiled(h, pack)
        self.cache[key] = c
        return c

    def _packer(self, key, kinds, offs, size):
        exprs = []
        for i, (spec, c) in enumerate(zip(key, self.constexpr)):
            if not c:
                exprs += _reader("v[%d]" % i, spec)
        ints = []
        for spec, c in zip(key, self.constexpr):
            if not c:
                _int_fmts(spec, ints)
        if len(exprs) != len(kinds):
            raise UnsupportedLaunch("tritium: gpu mode: kernel %s has %d parameters, the launch gives %d"
                                    % (self.info.short, len(kinds), len(exprs)))
        fmt, pos, it = "<", 0, iter(ints)
        for kind, off in zip(kinds, offs):
            f = _FMT.get(kind)
            if f is None:
                raise UnsupportedLaunch("tritium: gpu mode: kernel %s: a 16-bit float scalar parameter"
                                        % self.info.short)
            if kind == 3 and next(it, "i64") == "u64":      # I64 holding a u64 value
                f = "Q"
            elif kind == 2:
                next(it, None)
            fmt += "x" * (off - pos) + f
            pos = off + _SIZE[f]
        fmt += "x" * (size - pos)
        S = struct.Struct(fmt)
        src = "def pack(v):\n    return _pack(%s)\n" % ", ".join(exprs)
        scope = {"_pack": S.pack}
        exec(compile(src, "<tritium gpu packer %s>" % self.info.short, "exec"), scope)   # noqa: S102
        return scope["pack"]


def _tensors(v):
    if hasattr(v, "data_ptr"):
        yield v
    elif type(v).__name__ == "TensorDescriptor" and hasattr(v, "base"):
        yield v.base
    elif isinstance(v, tuple):
        for x in v:
            yield from _tensors(x)


_RUNNERS = {}
_STREAM = [None]
_LAUNCH = [None]


def _stream_getter():
    """torch's current raw CUDA stream (Triton's driver.get_current_stream),
    0 (the legacy default stream) without CUDA."""
    try:
        import torch
        if torch.cuda.is_available():
            raw, dev = torch._C._cuda_getCurrentRawStream, torch.cuda.current_device
            return lambda: raw(dev())
    except (ImportError, AttributeError):
        pass
    return lambda: 0


def runner(jitfn):
    r = getattr(jitfn, "_tritium_gpu", None)
    if r is None:
        if _TENSOR[0] is None:
            import torch
            _TENSOR[0] = torch.Tensor
        r = KernelRunner(jitfn)
        jitfn._tritium_gpu = r
    return r


def gpu_launch(jitfn, args, kwargs, grid):
    """JITFunction.run's replacement in gpu mode: returns the _Compiled
    specialization that ran (or would have run, for an empty grid)."""
    _html.shadow_run(jitfn, args, kwargs, grid)    # --html: the launch in the interpreter too, on copies
    r = getattr(jitfn, "_tritium_gpu", None) or runner(jitfn)
    for hook in r.hooks:
        hook(*args, **kwargs)
    vals, opts = r.binder(*args, **kwargs)
    key = r.key(vals, opts)
    c = r.cache.get(key)
    if c is None:
        c = r.compile(vals, opts, key)
    if callable(grid):
        grid = grid(dict(zip(r.names, vals)))
    n = len(grid)
    g0 = grid[0]
    g1 = grid[1] if n > 1 else 1
    g2 = grid[2] if n > 2 else 1
    if g0 * g1 * g2 == 0:                        # Triton launches nothing for an empty grid
        return c
    launch = _LAUNCH[0]
    if launch is None:
        launch = _LAUNCH[0] = _lib.lib().tritium_gpu_kernel_launch
        _STREAM[0] = _stream_getter()
    if launch(c.handle, g0, g1, g2, _STREAM[0](), c.pack(vals)):
        raise RuntimeError(_lib.last_error())
    COUNTS["launches"] += 1
    return c
