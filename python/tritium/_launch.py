"""One Triton launch handed to libtritium: argument binding as Triton's
JITFunction.run does it (runtime/jit.py, create_function_from_signature),
tensors as borrowed host storage, the kernel's source module, the run and
its report.
"""
import atexit
import ctypes
import inspect
import json
import os
import sys

from . import _lib, _resolve
from ._config import CONFIG
from .errors import CompileError, KernelError, UnsupportedLaunch, compile_error  # noqa: F401

# Triton's compile options, accepted as launch keywords and not kernel arguments.
OPTION_KEYS = {"num_warps", "num_stages", "num_ctas", "maxnreg", "debug", "enable_fp_fusion",
               "launch_cooperative_grid", "launch_pdl", "instrumentation_mode", "extern_libs",
               "waves_per_eu", "matrix_instr_nonkdim", "kpack", "ir_override", "sanitize_overflow",
               "arch", "supported_fp8_dtypes", "deprecated_fp8_dot_operand_dtypes", "default_dot_input_precision",
               "allowed_dot_input_precisions", "max_num_imprecise_acc_default", "backend_name", "cluster_dims",
               "schedule_hint", "enable_reflect_ftz", "warp_size", "num_buffers_warp_spec",
               "num_consumer_groups", "reg_dec_producer", "reg_inc_consumer"}

_TL_DTYPES = None
_TORCH_DTYPES = None


def _tl_dtypes():
    """{Triton's dtype name (tl.float16.name: "fp16"): the library's code}, from its dtype table."""
    global _TL_DTYPES
    if _TL_DTYPES is None:
        _TL_DTYPES = {r["triton"]: r["code"] for r in _lib.dtypes() if r["tl"]}
    return _TL_DTYPES


def _torch_dtypes():
    """{torch.dtype: the library's code} for the dtypes this torch has (torch.uint16 is 2.3's)."""
    global _TORCH_DTYPES
    if _TORCH_DTYPES is None:
        import torch
        _TORCH_DTYPES = {getattr(torch, r["torch"]): r["code"] for r in _lib.dtypes()
                         if r["torch"] and hasattr(torch, r["torch"])}
    return _TORCH_DTYPES


# ---- kernels ------------------------------------------------------------------

_KERNELS = {}            # id(JITFunction) -> (jitfn, KernelInfo)


class KernelInfo:
    """A JITFunction (or Triton's InterpretedFunction) as tritium sees it:
    its parameters, its name and file; the module compiled for a launch is
    resolved live for each launch (_resolve.py)."""

    def __init__(self, jitfn):
        fn = jitfn.fn
        self.jitfn = jitfn
        sig = getattr(jitfn, "signature", None) or inspect.signature(fn)
        self.signature = _binding_signature(sig)     # as this Triton's JITFunction.run binds a launch
        self.arg_names = [p for p in sig.parameters]
        self.params = [(p.name, _is_constexpr_annotation(p.annotation)) for p in sig.parameters.values()]
        self.name = self.short = fn.__name__
        self.file = fn.__code__.co_filename
        self.line = fn.__code__.co_firstlineno          # two kernels of one name in one file differ here


def _binding_signature(sig):
    from . import _versions
    try:
        return _versions.facts().binding_signature(sig)
    except ImportError:
        return sig


def _is_constexpr_annotation(a):
    if a is inspect.Parameter.empty:
        return False
    return "constexpr" in (a if isinstance(a, str) else getattr(a, "__name__", repr(a)))


_is_jit = _resolve.is_jit


def _jit_values(v, out):
    """The jit functions among a launch value (a tuple's elements too), by id."""
    v = _unwrap(v)
    if _is_jit(v):
        out[id(v)] = v
    elif isinstance(v, (tuple, list)):
        for x in v:
            _jit_values(x, out)


def kernel_info(jitfn):
    hit = _KERNELS.get(id(jitfn))
    if hit is not None and hit[0] is jitfn:
        return hit[1]
    info = KernelInfo(jitfn)
    _KERNELS[id(jitfn)] = (jitfn, info)
    return info


@atexit.register
def _free_modules():
    _resolve.free_all()
    _KERNELS.clear()


# ---- binding ---------------------------------------------------------------

def bind(jitfn, args, kwargs):
    """Triton's binding: (dict of every parameter's value, options dict)."""
    info = kernel_info(jitfn)
    opts = {k: v for k, v in kwargs.items() if k not in info.arg_names}
    for k in opts:
        if k not in OPTION_KEYS:
            raise KeyError("Keyword argument %s was specified but unrecognised" % k)
    kw = {k: v for k, v in kwargs.items() if k in info.arg_names}
    ba = info.signature.bind(*args, **kw)
    ba.apply_defaults()
    return dict(ba.arguments), opts


def grid_of(grid, bound):
    if callable(grid):
        grid = grid(bound)
    if not isinstance(grid, (tuple, list)):
        grid = (grid,)
    g = [int(getattr(x, "value", x)) for x in grid] + [1, 1]
    return g[0], g[1], g[2]


def _unwrap(v):
    t = type(v)
    if t.__name__ == "constexpr" and hasattr(v, "value"):
        return v.value
    return v


def _is_tensor(v):
    return hasattr(v, "data_ptr") and hasattr(v, "dtype")


def _base(v):
    """The torch tensor under a triton.reinterpret TensorWrapper, else v."""
    return v.base if type(v).__name__ == "TensorWrapper" else v


class _Staging:
    """Host copies of device storages (CUDA tensors in interp mode), written
    back after the run. copy_all: CPU storages are copied too (check and
    debug modes: the launch's inputs as they were before the real launch).
    in_place: no copies at all, every tensor by its own (device) address (gpu
    mode: libtritium compiles for device memory and never reads it)."""

    def __init__(self, copy_all=False, in_place=False):
        self.by_ptr = {}
        self.copy_all = copy_all
        self.in_place = in_place
        self.names = {}                  # tensor argument -> its storage's data_ptr

    def host_bytes(self, t):
        import torch
        st = t.untyped_storage()
        ptr = st.data_ptr()
        hit = self.by_ptr.get(ptr)
        if hit is None:
            dev = torch.empty(0, dtype=torch.uint8, device=t.device).set_(st)
            host = dev.cpu() if dev.device.type != "cpu" else dev.clone()
            hit = self.by_ptr[ptr] = (dev, host)
        return hit[1], ptr

    def contents_now(self):
        """{storage data_ptr: a host copy of that storage now}."""
        return {ptr: (dev.cpu() if dev.device.type != "cpu" else dev.clone()) for ptr, (dev, _) in self.by_ptr.items()}

    def write_back(self):
        for dev, host in self.by_ptr.values():
            dev.copy_(host)


_DUMMY = ctypes.create_string_buffer(64)


def _storage_of(name, v, staging):
    """(dtype code, data pointer, storage pointer, storage bytes, the torch
    tensor) of a tensor argument, its storage staged on the host when it
    lives on a device."""
    base, tl_dtype = _base(v), None
    if base is not v:                                # triton.reinterpret(x, tl.dtype)
        tl_dtype = v.dtype
    if tl_dtype is not None:
        code = _tl_dtypes().get(getattr(tl_dtype, "name", None))
    else:
        try:
            code = _torch_dtypes().get(base.dtype)
        except ImportError:
            code = None
    if code is None:
        raise UnsupportedLaunch("tritium: argument '%s': tensors of dtype %s are not supported yet"
                                % (name, tl_dtype if tl_dtype is not None else getattr(base, "dtype", "?")))
    if not hasattr(base, "untyped_storage"):
        raise UnsupportedLaunch("tritium: argument '%s': %s is not a torch tensor" % (name, type(base).__name__))
    st = base.untyped_storage()
    nbytes = st.nbytes()
    esize = base.element_size()
    if (base.device.type != "cpu" or staging.copy_all) and not staging.in_place:
        host, dptr = staging.host_bytes(base)
        staging.names[name] = dptr
        sptr = host.data_ptr()
        data = sptr + (base.data_ptr() - dptr)
    else:
        sptr, data = st.data_ptr(), base.data_ptr()
    if nbytes == 0 or sptr == 0:
        sptr = data = ctypes.addressof(_DUMMY)
        nbytes = 0
    if tl_dtype is not None and esize != _lib.dtypes()[code]["size"]:
        raise UnsupportedLaunch("tritium: argument '%s': reinterpreting %s as %s changes the element size"
                                % (name, base.dtype, tl_dtype))
    return code, data, sptr, nbytes, base


def _view_of(base):
    rank = base.dim()
    if rank > _lib.MAX_RANK:                          # the view's shape is informative only
        return [base.numel()], [1], 1
    return list(base.shape), list(base.stride()), rank


def _add_tensor(L, name, v, staging, extra=False):
    lib = _lib.lib()
    code, data, sptr, nbytes, base = _storage_of(name, v, staging)
    shape, strides, rank = _view_of(base)
    A = ctypes.c_int64 * max(rank, 1)
    if extra:
        rc = lib.tritium_launch_extra(L, name.encode(), code, data, rank, A(*shape), A(*strides), sptr, nbytes)
    else:
        rc = lib.tritium_launch_tensor(L, name.encode(), code, data, rank, A(*shape), A(*strides), sptr, nbytes, 0)
    if rc:
        raise UnsupportedLaunch(_lib.last_error())


def _add_desc(L, name, d, staging):
    """A host TensorDescriptor (triton/tools/tensor_descriptor.py): base,
    shape, strides, block_shape, padding, as Triton 3.6 passes it, and 3.7's
    round_f32_to_tf32 (its loads round fp32 to tf32). `name` may be a tuple
    element ("descs[0]")."""
    lib = _lib.lib()
    flags = (_lib.DESC_PADDING_NAN if d.padding == "nan" else 0) | \
        (_lib.DESC_ROUND_TF32 if getattr(d, "round_f32_to_tf32", False) else 0)
    code, data, sptr, nbytes, _ = _storage_of(name, d.base, staging)
    rank = len(d.shape)
    A = ctypes.c_int64 * max(rank, 1)
    try:
        shape, strides, block = ([int(_unwrap(x)) for x in seq] for seq in (d.shape, d.strides, d.block_shape))
    except (TypeError, ValueError) as e:
        raise UnsupportedLaunch("tritium: argument '%s': a TensorDescriptor with non-integer shape, strides or "
                                "block_shape: %s" % (name, e)) from e
    if len(strides) != rank or len(block) != rank:
        raise UnsupportedLaunch("tritium: argument '%s': TensorDescriptor rank mismatch" % name)
    rc = lib.tritium_launch_desc(L, name.encode(), code, data, sptr, nbytes, rank, A(*shape), A(*strides),
                                 A(*block), flags)
    if rc:
        raise UnsupportedLaunch(_lib.last_error())


# ---- pointer tables (Triton's tutorial 08: an int64 tensor of data_ptr()s) --

_PTR_TABLE_MAX = 4096


def _pointer_table(v):
    """The values of an int64 tensor argument that may hold tensor
    addresses (small, every nonzero value >= 64 KiB), else None."""
    try:
        import torch
    except ImportError:
        return None
    if not isinstance(v, torch.Tensor) or v.dtype not in (torch.int64, getattr(torch, "uint64", torch.int64)):
        return None
    if v.numel() == 0 or v.numel() > _PTR_TABLE_MAX:
        return None
    vals = [int(x) & (2**64 - 1) for x in v.detach().flatten().cpu().tolist()]
    if not any(vals) or any(0 < x < 65536 for x in vals):
        return None
    return vals


def _live_tensors(skip):
    """Every live torch tensor (the garbage collector tracks them), for
    resolving pointer-table entries to the tensors they point into."""
    import gc
    import torch
    out = []
    for o in gc.get_objects():
        if issubclass(type(o), torch.Tensor) and id(o) not in skip:
            out.append(o)
    return out


def _resolve_table(vals, candidates):
    """Map each nonzero address to a candidate tensor whose storage holds
    it: {storage pointer: tensor}, or None when some entry lies in none."""
    spans = []
    for t in candidates:
        try:
            st = t.untyped_storage()
        except (RuntimeError, NotImplementedError):
            continue
        if st.nbytes():
            spans.append((st.data_ptr(), st.data_ptr() + st.nbytes(), t))
    hit = {}
    for x in vals:
        if not x:
            continue
        t = next((s for s in spans if s[0] <= x < s[1]), None)
        if t is None:
            return None
        hit.setdefault(t[0], t[2])
    return hit


def _add_tables(L, bound, params, staging):
    """Pass each int64 argument whose entries are addresses of live tensors as
    a pointer table, with the tensors it points into as extra tensors (the
    kernel then reads addresses in tritium's checked address space)."""
    tables = {}
    for name, is_constexpr in params:
        if not is_constexpr:
            vals = _pointer_table(_unwrap(bound[name]))
            if vals is not None:
                tables[name] = vals
    if not tables:
        return set()
    args = [_base(_unwrap(bound[n])) for n, c in params if not c and _is_tensor(_unwrap(bound[n]))]
    found, live = {}, None
    for name, vals in list(tables.items()):
        hit = _resolve_table(vals, args)
        if hit is None:
            if live is None:
                live = _live_tensors({id(a) for a in args})
            hit = _resolve_table(vals, args + live)
        if hit is None:
            del tables[name]
            continue
        found.update(hit)
    lib = _lib.lib()
    arg_ptrs = {a.untyped_storage().data_ptr() for a in args}
    host = {}                                        # storage pointer -> its host copy's pointer
    for k, (sp, t) in enumerate(sorted(found.items())):
        tname = "__table_target_%d" % k              # check mode compares it under this name
        code, data, sptr, nbytes, _ = _storage_of(tname, t, staging)
        host[sp] = sptr
        if sp in arg_ptrs:
            staging.names.pop(tname, None)           # given as an argument already, checked as that
            continue
        rc = lib.tritium_launch_extra(L, tname.encode(), code, sptr, 1,
                                      (ctypes.c_int64 * 1)(nbytes // t.element_size()), (ctypes.c_int64 * 1)(1),
                                      sptr, nbytes)
        if rc:
            raise UnsupportedLaunch(_lib.last_error())
    for name, vals in tables.items():
        cells = []
        for x in vals:
            sp = next((p for p in host if p <= x < p + found[p].untyped_storage().nbytes()), None)
            cells.append(0 if not x or sp is None else host[sp] + (x - sp))
        if lib.tritium_launch_ptr_table(L, name.encode(), len(cells), (ctypes.c_int64 * len(cells))(*cells)):
            raise UnsupportedLaunch(_lib.last_error())
    return set(tables)


def _is_namedtuple(v):
    return isinstance(v, tuple) and hasattr(type(v), "_fields")


def _add_tuple_header(L, name, v):
    """The tuple itself (tritium_launch_tuple): for an empty tuple, its length;
    for a named tuple, its class and field names (Triton 3.6 keeps them in
    the argument's type, specialize.cc handle_tuple)."""
    named = None
    if _is_namedtuple(v):
        named = " ".join([type(v).__name__] + list(type(v)._fields))
    if named is None and v:
        return 0
    return _lib.lib().tritium_launch_tuple(L, name.encode(), len(v), named.encode() if named else None)


def _add_const(L, name, v, refs=None):
    lib = _lib.lib()
    n = name.encode()
    if v is None:
        return lib.tritium_launch_const_none(L, n)
    if _is_jit(v):                                    # always a constexpr (specialize.cc handle_jit_callable)
        ref = (refs or {}).get(id(v))
        if ref is None:
            raise UnsupportedLaunch("tritium: constexpr '%s': jit function %s is not reachable from the kernel's "
                                    "module" % (name, v.fn.__name__))
        return lib.tritium_launch_const_func(L, n, ref.encode())
    if isinstance(v, bool):
        return lib.tritium_launch_const_bool(L, n, int(v))
    if isinstance(v, int):
        if not -2**63 <= v < 2**63:
            raise UnsupportedLaunch("tritium: constexpr '%s' = %d does not fit in 64 bits" % (name, v))
        return lib.tritium_launch_const_int(L, n, v)
    if isinstance(v, float):
        return lib.tritium_launch_const_float(L, n, v)
    if isinstance(v, str):
        return lib.tritium_launch_const_str(L, n, v.encode())
    if isinstance(v, (tuple, list)):                  # element by element: NAME[0], NAME[1], ...
        rc = _add_tuple_header(L, name, v) if isinstance(v, tuple) or not v else 0
        for i, x in enumerate(v):
            if rc:
                return rc
            rc = _add_const(L, "%s[%d]" % (name, i), _unwrap(x), refs)
        return rc
    tn = getattr(v, "name", None) if type(v).__name__ in ("dtype", "pointer_type") else None
    if tn is None and hasattr(v, "is_floating_point") and hasattr(v, "itemsize"):   # a torch dtype
        code = _torch_dtypes().get(v)
        if code is not None:
            return lib.tritium_launch_const_dtype(L, n, code)
    if tn in _tl_dtypes():
        return lib.tritium_launch_const_dtype(L, n, _tl_dtypes()[tn])
    if hasattr(v, "__index__") and not hasattr(v, "shape"):
        return _add_const(L, name, int(v))
    if type(v).__module__ == "numpy" and hasattr(v, "item"):
        return _add_const(L, name, v.item())
    raise UnsupportedLaunch("tritium: constexpr '%s': a %s value is not supported" % (name, type(v).__name__))


def _add_runtime(L, name, v, staging, refs=None):
    lib = _lib.lib()
    v = _unwrap(v)
    n = name.encode()
    if v is None:
        return lib.tritium_launch_const_none(L, n)
    if _is_tensor(v):
        return _add_tensor(L, name, v, staging)
    if _is_jit(v):
        return _add_const(L, name, v, refs)
    if isinstance(v, tuple):                          # specialized element by element, as Triton does
        rc = _add_tuple_header(L, name, v)
        for i, x in enumerate(v):
            if rc:
                return rc
            en = "%s[%d]" % (name, i)
            # a tl.constexpr element stays a constexpr (jit.py specialize_impl)
            rc = (_add_const(L, en, x.value, refs) if type(x).__name__ == "constexpr"
                  else _add_runtime(L, en, x, staging, refs))
        return rc
    if isinstance(v, bool):
        return lib.tritium_launch_bool(L, n, int(v))
    if isinstance(v, int):
        if v >= 2**63:
            if v >= 2**64:
                raise UnsupportedLaunch("tritium: argument '%s' = %d does not fit in 64 bits" % (name, v))
            return lib.tritium_launch_uint(L, n, v)
        if v < -2**63:
            raise UnsupportedLaunch("tritium: argument '%s' = %d does not fit in 64 bits" % (name, v))
        return lib.tritium_launch_int(L, n, v)
    if isinstance(v, float):
        return lib.tritium_launch_float(L, n, v)
    if type(v).__module__ == "numpy" and hasattr(v, "item") and getattr(v, "ndim", 1) == 0:
        return _add_runtime(L, name, v.item(), staging)
    if type(v).__name__ in ("dtype", "str") or isinstance(v, str):
        return _add_const(L, name, v)                 # Triton specializes these as constexprs
    if type(v).__name__ == "TensorDescriptor" and hasattr(v, "block_shape"):
        return _add_desc(L, name, v, staging)
    raise UnsupportedLaunch("tritium: argument '%s': a %s value cannot be passed to a kernel"
                            % (name, type(v).__name__))


# ---- running ----------------------------------------------------------------

def run_options():
    """The interpreter's options for a run (tritium_options), from CONFIG."""
    o = _lib.Options()
    _lib.lib().tritium_options_default(ctypes.byref(o))
    o.schedule = _lib.SCHEDULES[CONFIG.schedule]
    o.schedule_seed = CONFIG.schedule_seed
    o.threads = CONFIG.threads
    o.numerics = _lib.NUMERICS[CONFIG.numerics]
    o.check_races = int(CONFIG.check_races)
    o.check_uninit = int(CONFIG.check_uninit)
    return o


class Launch:
    """A built launch (libtritium handle) with its CUDA staging."""

    def __init__(self, jitfn, bound, grid, num_warps, staging=None, debug=None):
        self.info = kernel_info(jitfn)
        lib = _lib.lib()
        funcs = {}
        for name, _ in self.info.params:
            _jit_values(bound[name], funcs)
        self.resolved = _resolve.resolve(jitfn, tuple(funcs.values()))
        refs = self.resolved.refs
        self.L = lib.tritium_launch_new(self.resolved.module, self.info.name.encode())
        if not self.L:
            raise compile_error(_lib.last_error())
        self.staging = staging or _Staging()
        self.grid = grid
        self.sites = []
        try:
            # pointer tables hold host addresses to translate; on device memory they are plain tensors
            tables = set() if self.staging.in_place else _add_tables(self.L, bound, self.info.params, self.staging)
            for name, is_constexpr in self.info.params:
                if name in tables:
                    continue
                v = bound[name]
                rc = (_add_const(self.L, name, _unwrap(v), refs) if is_constexpr
                      else _add_runtime(self.L, name, v, self.staging, refs))
                if rc:
                    raise UnsupportedLaunch(_lib.last_error())
            if lib.tritium_launch_grid(self.L, *grid) or lib.tritium_launch_num_warps(self.L, int(num_warps)):
                raise UnsupportedLaunch(_lib.last_error())
            if debug is None:                        # @triton.jit(debug=...), however it was applied
                debug = getattr(jitfn, "debug", None)
            if debug is not None and lib.tritium_launch_debug(self.L, int(bool(debug))):
                raise UnsupportedLaunch(_lib.last_error())
        except BaseException:
            self.free()
            raise

    def free(self):
        if self.L:
            _lib.lib().tritium_launch_free(self.L)
            self.L = None

    def run_interp(self):
        """Run in the interpreter; returns (status, stats dict, report text).
        Ctrl-C during the run (the library's SIGINT handler stops it within an
        op) raises KeyboardInterrupt here, after what the finished programs
        wrote is written back, as on host tensors, which are run in place."""
        lib = _lib.lib()
        rep = ctypes.c_void_p()
        rc = lib.tritium_run(self.L, ctypes.byref(run_options()), ctypes.byref(rep))
        if rc == _lib.INPUT_ERROR:
            raise compile_error(_lib.last_error())
        st = _lib.Stats()
        lib.tritium_report_stats(rep, ctypes.byref(st))
        text = lib.tritium_report_text(rep).decode("utf-8", "replace")
        printed = lib.tritium_report_output(rep).decode("utf-8", "replace")
        # the records as data only when there is something to say (the hot path stays cheap)
        self.sites = json.loads(lib.tritium_report_json(rep).decode())["sites"] if rc or text else []
        lib.tritium_report_free(rep)
        if printed:                                  # device_print: to sys.stdout, as Triton's interpreter prints
            sys.stdout.write(printed)
        self.staging.write_back()
        if rc == _lib.INTERRUPTED:
            raise KeyboardInterrupt("tritium: kernel %s interrupted after %d of %d programs"
                                    % (self.info.short, st.programs, self.grid[0] * self.grid[1] * self.grid[2]))
        stats = {k: getattr(st, k) for k, _ in _lib.Stats._fields_}
        return rc, stats, text

    def check(self, results, against="results", label="triton", executor="interp"):
        """tritium_check: the interpreter on this launch's (copied) inputs
        against `results` ({tensor argument: host tensor holding its storage
        after the other run}) or tritium's GPU path; executor "gpu": tritium's
        GPU path against `results` instead of the interpreter. Returns
        (status, report text, report data). Ctrl-C during the check raises
        KeyboardInterrupt (nothing compared)."""
        lib = _lib.lib()
        for name, t in results.items():
            if lib.tritium_launch_result(self.L, name.encode(), t.data_ptr(), t.numel() * t.element_size()):
                raise UnsupportedLaunch(_lib.last_error())
        o = _lib.CheckOptions()
        lib.tritium_check_options_default(ctypes.byref(o))
        o.against = _lib.AGAINST_GPU if against == "tritium-gpu" else _lib.AGAINST_RESULTS
        o.label = label.encode()
        o.executor = _lib.EXEC_GPU if executor == "gpu" else _lib.EXEC_INTERP
        o.numerics = _lib.NUMERICS[CONFIG.numerics]
        o.schedule = _lib.SCHEDULES[CONFIG.schedule]
        o.schedule_seed = CONFIG.schedule_seed
        o.threads = CONFIG.threads
        if CONFIG.rtol is not None:
            o.has_rtol, o.rtol = 1, CONFIG.rtol
        if CONFIG.atol is not None:
            o.has_atol, o.atol = 1, CONFIG.atol
        if CONFIG.ulp is not None:
            o.ulp = CONFIG.ulp
        rep = ctypes.c_void_p()
        rc = lib.tritium_check(self.L, ctypes.byref(o), ctypes.byref(rep))
        if rc in (_lib.INPUT_ERROR, _lib.NO_GPU):
            msg = _lib.last_error()
            if rc == _lib.NO_GPU:
                raise RuntimeError(msg)
            raise compile_error(msg)
        if rc == _lib.INTERRUPTED:
            st = _lib.Stats()
            lib.tritium_report_stats(rep, ctypes.byref(st))
            lib.tritium_report_free(rep)
            raise KeyboardInterrupt("tritium: kernel %s interrupted after %d of %d programs (check)"
                                    % (self.info.short, st.programs, self.grid[0] * self.grid[1] * self.grid[2]))
        text = lib.tritium_report_text(rep).decode("utf-8", "replace")
        data = json.loads(lib.tritium_report_json(rep).decode())
        lib.tritium_report_free(rep)
        return rc, text, data

    def debug(self, argv):
        """tritium_debug: the debugger's REPL on this launch; results are
        written back. Returns the tritium_debug_result as a dict."""
        lib = _lib.lib()
        words = [a.encode() for a in argv]
        arr = (ctypes.c_char_p * (len(words) + 1))(*words, None)
        res = _lib.DebugResult()
        sys.stdout.flush()
        sys.stderr.flush()
        rc = lib.tritium_debug(self.L, _lib.NUMERICS[CONFIG.numerics], len(words), arr, ctypes.byref(res))
        if rc:
            raise compile_error(_lib.last_error())
        if res.finished:
            self.staging.write_back()
        return {k: getattr(res, k) for k, _ in _lib.DebugResult._fields_}


def raise_or_warn(info, grid, stats, text, sites=()):
    msg = ("tritium: kernel %s, grid %s: %d fault%s (%d lanes), %d race%s, %d uninitialized read%s\n%s"
           % (info.short, tuple(grid), stats["faults"], "" if stats["faults"] == 1 else "s", stats["fault_lanes"],
              stats["races"], "" if stats["races"] == 1 else "s", stats["uninit_reads"],
              "" if stats["uninit_reads"] == 1 else "s", text))
    if CONFIG.on_error == "warn":
        sys.stderr.write(msg if msg.endswith("\n") else msg + "\n")
        return
    if CONFIG.on_error == "stop":
        sys.stderr.write(msg if msg.endswith("\n") else msg + "\n")
        sys.stderr.flush()
        os._exit(1)
    raise KernelError(msg.rstrip("\n"), report=text, stats=stats, kernel=info.short, sites=sites, grid=tuple(grid))


COUNTS = {"launches": 0, "compiles": 0, "faulty": 0, "seconds": 0.0}


def interp_launch(jitfn, args, kwargs, grid):
    """JITFunction.run's replacement in interp mode: the whole launch in tritium."""
    bound, opts = bind(jitfn, args, kwargs)
    g = grid_of(grid, bound)
    if g[0] * g[1] * g[2] == 0:                      # Triton launches nothing for an empty grid
        return
    L = Launch(jitfn, bound, g, opts.get("num_warps") or 4, debug=opts.get("debug"))
    timed = None
    if CONFIG.recompiles or CONFIG.recompiles_json:  # --recompiles: the compilation timed apart from the run
        from . import _recompiles
        timed = _recompiles.compile_timed(L)
    try:
        rc, stats, text = L.run_interp()             # Ctrl-C: KeyboardInterrupt, the launch freed
    finally:
        L.free()
    if timed is not None:
        stats["compiled"] = int(timed[0])
        _recompiles.observe(jitfn, L.info, bound, opts, timed[1], L.resolved)
    COUNTS["launches"] += 1
    COUNTS["compiles"] += stats["compiled"]
    COUNTS["seconds"] += stats["seconds"]
    if rc == _lib.KERNEL_ERROR:
        COUNTS["faulty"] += 1
        raise_or_warn(L.info, g, stats, text, L.sites)
    elif text:                                       # warnings (reads outside a view): shown, not raised
        sys.stderr.write(text)
        sys.stderr.flush()
