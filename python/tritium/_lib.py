"""ctypes bindings of libtritium (include/tritium/tritium.h).

The library is looked up in this order: $TRITIUM_LIB (a path), next to this
package (an installed wheel: meson-python puts it in site-packages/.tritium.mesonpy.libs
or the package itself), then the build directories of a source checkout
(build/api/libtritium.so). A missing library is a LibraryNotFound naming the places tried.
"""
import ctypes
import glob
import os

API_VERSION = 6

# Run statuses. Element types come from the library: dtypes().
OK, KERNEL_ERROR, INPUT_ERROR, NO_GPU = range(4)
INTERRUPTED = 130      # Ctrl-C during tritium_run / tritium_check: a partial launch (KeyboardInterrupt)
# tritium_launch_desc's flags
DESC_PADDING_NAN, DESC_ROUND_TF32 = 1, 2


class LibraryNotFound(ImportError):
    pass


class Options(ctypes.Structure):
    _fields_ = [("schedule", ctypes.c_int), ("schedule_seed", ctypes.c_uint64), ("threads", ctypes.c_int),
                ("numerics", ctypes.c_int), ("check_races", ctypes.c_int), ("check_uninit", ctypes.c_int),
                ("max_reports", ctypes.c_int)]


class Stats(ctypes.Structure):
    _fields_ = [("programs", ctypes.c_int64), ("faults", ctypes.c_int64), ("fault_lanes", ctypes.c_int64),
                ("races", ctypes.c_int64), ("uninit_reads", ctypes.c_int64), ("seconds", ctypes.c_double),
                ("compiled", ctypes.c_int)]


AGAINST_RESULTS, AGAINST_GPU = 0, 1
EXEC_INTERP, EXEC_GPU = 0, 1


class CheckOptions(ctypes.Structure):
    _fields_ = [("against", ctypes.c_int), ("label", ctypes.c_char_p), ("numerics", ctypes.c_int),
                ("schedule", ctypes.c_int), ("schedule_seed", ctypes.c_uint64), ("threads", ctypes.c_int),
                ("has_rtol", ctypes.c_int), ("has_atol", ctypes.c_int), ("rtol", ctypes.c_double),
                ("atol", ctypes.c_double), ("ulp", ctypes.c_int64), ("max_show", ctypes.c_int),
                ("max_reports", ctypes.c_int), ("executor", ctypes.c_int)]


class DebugResult(ctypes.Structure):
    _fields_ = [("finished", ctypes.c_int), ("detached", ctypes.c_int), ("quit", ctypes.c_int),
                ("quit_status", ctypes.c_int)]


def _candidates():
    env = os.environ.get("TRITIUM_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    site = os.path.dirname(here)
    for d in (here, os.path.join(site, ".tritium.mesonpy.libs"), os.path.join(site, "tritium.libs")):
        yield from sorted(glob.glob(os.path.join(d, "libtritium.so*")))
    root = os.path.dirname(site)          # python/ in a source checkout
    # build/ first: "build-asan" sorts before "build/", and a sanitizer
    # build's library cannot be loaded into a plain python
    builds = glob.glob(os.path.join(root, "build*", "api", "libtritium.so"))
    yield from sorted(builds, key=lambda b: (os.path.basename(os.path.dirname(os.path.dirname(b))) != "build", b))


def _load():
    from . import _versions
    _versions.export_language_version()      # the library reads it once, at its first compile
    tried = []
    for path in _candidates():
        tried.append(path)
        if os.path.exists(path):
            return ctypes.CDLL(path)
    raise LibraryNotFound("tritium: libtritium.so not found (tried: %s); install the package with "
                          "'pip install .' at the repository root, or set TRITIUM_LIB" %
                          (", ".join(tried) or "TRITIUM_LIB unset, no build directory"))


def _declare(lib):
    P, I, C = ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
    I64, U64, D = ctypes.c_int64, ctypes.c_uint64, ctypes.c_double
    sig = {
        "tritium_api_version": (I, []),
        "tritium_version": (C, []),
        "tritium_max_rank": (I, []),
        "tritium_triton_module": (I, [C]),
        "tritium_last_error": (C, []),
        "tritium_dtypes_json": (C, []),
        "tritium_settings_json": (C, []),
        "tritium_module_load": (P, [C]),
        "tritium_module_load_text": (P, [C, C]),
        "tritium_module_load_live": (P, [C, C]),
        "tritium_module_free": (None, [P]),
        "tritium_module_kernel_count": (I, [P]),
        "tritium_module_kernel_name": (C, [P, I]),
        "tritium_module_compiled_count": (I, [P]),
        "tritium_launch_new": (P, [P, C]),
        "tritium_launch_free": (None, [P]),
        "tritium_launch_tensor": (I, [P, C, I, P, I, ctypes.POINTER(I64), ctypes.POINTER(I64), P, I64, I]),
        "tritium_launch_desc": (I, [P, C, I, P, P, I64, I, ctypes.POINTER(I64), ctypes.POINTER(I64),
                                    ctypes.POINTER(I64), I]),
        "tritium_launch_extra": (I, [P, C, I, P, I, ctypes.POINTER(I64), ctypes.POINTER(I64), P, I64]),
        "tritium_launch_ptr_table": (I, [P, C, I, ctypes.POINTER(I64)]),
        "tritium_launch_int": (I, [P, C, I64]),
        "tritium_launch_uint": (I, [P, C, U64]),
        "tritium_launch_float": (I, [P, C, D]),
        "tritium_launch_bool": (I, [P, C, I]),
        "tritium_launch_const_int": (I, [P, C, I64]),
        "tritium_launch_const_float": (I, [P, C, D]),
        "tritium_launch_const_bool": (I, [P, C, I]),
        "tritium_launch_const_str": (I, [P, C, C]),
        "tritium_launch_const_none": (I, [P, C]),
        "tritium_launch_const_dtype": (I, [P, C, I]),
        "tritium_launch_const_func": (I, [P, C, C]),
        "tritium_launch_tuple": (I, [P, C, I, C]),
        "tritium_launch_grid": (I, [P, I64, I64, I64]),
        "tritium_launch_num_warps": (I, [P, I]),
        "tritium_launch_debug": (I, [P, I]),
        "tritium_launch_compile": (I, [P]),
        "tritium_options_default": (None, [ctypes.POINTER(Options)]),
        "tritium_run": (I, [P, ctypes.POINTER(Options), ctypes.POINTER(P)]),
        "tritium_run_gpu": (I, [P, ctypes.POINTER(P)]),
        "tritium_gpu_prepare": (I, [P, I, ctypes.POINTER(P)]),
        "tritium_gpu_kernel_layout": (I, [P, ctypes.POINTER(I), ctypes.POINTER(I), ctypes.POINTER(I), I]),
        "tritium_gpu_kernel_pack": (I, [P, P, C]),
        "tritium_gpu_kernel_launch": (I, [P, I64, I64, I64, P, C]),
        "tritium_report_stats": (None, [P, ctypes.POINTER(Stats)]),
        "tritium_report_text": (C, [P]),
        "tritium_report_output": (C, [P]),
        "tritium_report_free": (None, [P]),
        "tritium_report_json": (C, [P]),
        "tritium_launch_result": (I, [P, C, P, I64]),
        "tritium_check_options_default": (None, [ctypes.POINTER(CheckOptions)]),
        "tritium_check": (I, [P, ctypes.POINTER(CheckOptions), ctypes.POINTER(P)]),
        "tritium_debug": (I, [P, I, I, ctypes.POINTER(C), ctypes.POINTER(DebugResult)]),
        "tritium_html_begin": (I, [C, C]),
        "tritium_html_pause": (I, [I]),
        "tritium_html_launches": (I, []),
        "tritium_html_end": (I, [ctypes.POINTER(I64)]),
        "tritium_main": (I, [I, ctypes.POINTER(C)]),
    }
    for name, (res, args) in sig.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    v = lib.tritium_api_version()
    if v != API_VERSION:
        raise LibraryNotFound("tritium: libtritium API version %d, this package needs %d" % (v, API_VERSION))
    return lib


_LIB = None
MAX_RANK = 0       # the library's tritium_max_rank(), read once at load


def lib():
    """The loaded library (loaded on first use)."""
    global _LIB, MAX_RANK
    if _LIB is None:
        _LIB = _declare(_load())
        MAX_RANK = _LIB.tritium_max_rank()
    return _LIB


_SETTINGS = None


def settings():
    """The library's settings table (tritium_settings_json, include/tritium/settings.def), parsed once."""
    global _SETTINGS
    if _SETTINGS is None:
        import json
        _SETTINGS = json.loads(lib().tritium_settings_json().decode())
    return _SETTINGS


def _codes(name):
    """{value: code} of an enum row: the C API's codes are the values' indexes (TRITIUM_SCHED_*,
    TRITIUM_NUMERICS_*), aliases included."""
    r = next(r for r in settings()["settings"] if r["name"] == name)
    codes = {v: i for i, v in enumerate(r["values"])}
    codes.update({a: codes[t] for a, t in r["aliases"].items()})
    return codes


def __getattr__(name):
    # SCHEDULES and NUMERICS come from the library's table on first use, then are module globals
    rows = {"SCHEDULES": "schedule", "NUMERICS": "numerics"}
    if name not in rows:
        raise AttributeError(name)
    v = globals()[name] = _codes(rows[name])
    return v


_DTYPES = None


def dtypes():
    """The library's element types (tritium_dtypes_json: the dtype table of
    compiler/support/dtype.c), parsed once: a list whose item i is the dict of
    code i (TRITIUM_BOOL ...) with its name ("f32"), triton ("fp32"), tl
    ("float32"), torch ("float32" or None), npy, ml, size and bits."""
    global _DTYPES
    if _DTYPES is None:
        import json
        _DTYPES = json.loads(lib().tritium_dtypes_json().decode())
    return _DTYPES


def last_error():
    return lib().tritium_last_error().decode("utf-8", "replace")


def main(argv):
    """Run a `tritium` sub-command in this process; returns its exit status."""
    words = [a.encode() for a in ["tritium"] + list(argv)]
    arr = (ctypes.c_char_p * (len(words) + 1))(*words, None)
    return lib().tritium_main(len(words), arr)
