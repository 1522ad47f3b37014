"""Live name resolution: the module tritium compiles for a launch is built
from the objects the running program has, as Triton's code generator uses
them (Triton 3.6 compiler/code_generator.py, CodeGenerator.global_lookup;
runtime/jit.py, JITCallable.get_capture_scope): each jit function's current
source (JITFunction.src) and, for every name it reads, the value found in
its closure or its __globals__. Nothing is re-read from files, so whatever
Python executed (conditional imports, try/except, calls at import time,
sys.path changes) is simply there.

The module is handed to libtritium as JSON (tritium_module_load_live,
compiler/front/live.c); record mode writes the same JSON next to each
recorded launch (kernel.json), so that `tritium run` replays it without
Python. The format, version 1:

    {"format": "tritium-live-module", "version": 1,
     "functions": [F, ...],   the kernel first, then the jit functions it
                              reaches and those passed to it as arguments
     "modules": [M, ...]}     Python modules (not Triton's) it reads from
    F = {"name": ..., "file": ..., "line": the def's line in file,
         "src": the def and its body (indented as in the file),
         "names": {NAME: V, ...}, "do_not_specialize": [param index, ...]}
    M = {"name": dotted name, "names": {ATTRIBUTE: V, ...}}
    V = {"k": "none"} | {"k": "bool" | "int", "v": ...}
      | {"k": "float", "v": repr} | {"k": "str", "v": ...}
      | {"k": "dtype", "v": Triton's dtype name}
      | {"k": "tuple", "v": [V, ...]} (a named tuple adds "class", "fields")
      | {"k": "class", "class": ..., "fields": [...], "defaults": [V | null]}
        (a @triton.aggregate class adds "aggregate": true, "ann", "methods", "init")
      | {"k": "func", "v": index in functions}
      | {"k": "module", "v": a Triton module's name | index in modules}
      | {"k": "triton", "module": Triton module, "attr": name}  (a builtin)
      | {"k": "error", "v": message}   (used: a located compile error)
    Any V may carry "refuse": message: a global that Triton reads only in
    a parameter's default (global_lookup's visiting_arg_default_value).

The JSON is the compile cache's key: a launch whose names resolve to other
values compiles again, as under Triton's interpreter (Triton's compiler
raises "Global variable ... has changed since we compiled this kernel").
"""
import ast
import collections
import functools
import inspect
import json
import re
import sys
import textwrap
import types
import weakref

from . import _lib
from .errors import UnsupportedLaunch, compile_error

# names Triton's code generator resolves itself (CodeGenerator.builtin_namespace)
_TRITON_BUILTINS = {"len", "list", "range", "float", "int", "isinstance", "getattr", "hasattr", "print", "min", "max"}

# the modules of Triton that libtritium implements (compiler/front/sema_expr.c, triton_module)


def is_jit(v):
    """A @triton.jit function (Triton's JITFunction, or its interpreter's
    InterpretedFunction under TRITON_INTERPRET=1)."""
    return type(v).__name__ in ("JITFunction", "InterpretedFunction") and hasattr(getattr(v, "fn", None), "__code__")


def _is_constexpr_function(v):
    return type(v).__name__ == "ConstexprFunction" and hasattr(getattr(v, "fn", None), "__code__")


@functools.lru_cache(maxsize=1024)
def _known_module(name):
    """libtritium's table of the Triton modules kernels may use (tritium_triton_module)."""
    return bool(_lib.lib().tritium_triton_module(name.encode()))


def triton_module_name(name):
    """The Triton module libtritium knows for Python module `name`
    (libdevice of any backend is libdevice; core, standard and the other
    parts of triton.language are triton.language), or None."""
    if _known_module(name):
        return name
    if name.startswith("triton.language.extra.") and name.endswith(".libdevice"):
        return "triton.language.extra.libdevice"
    if name.startswith("triton.language."):
        return "triton.language"
    if name == "triton" or name.startswith("triton."):
        return name                           # libtritium says which it does not support
    return None


# ---- sources ----------------------------------------------------------------

_EXEC_SOURCES = {}        # code object -> source text of an exec'd jit function (recover_exec_source)


def recover_exec_source(fn, depth=8):
    """The source of a function defined by exec of a string (Triton's tests:
    patch_kernel under TRITON_INTERPRET=1), read when Triton wraps it:
    the caller of exec holds the string. A string counts only when
    compiling it gives this very function's code. Returns True when found."""
    code = fn.__code__
    if code in _EXEC_SOURCES or not code.co_filename.startswith("<"):
        return code in _EXEC_SOURCES
    f = sys._getframe(1)
    for _ in range(depth):
        if f is None:
            return False
        if f.f_code.co_filename == code.co_filename and f.f_code.co_name == "<module>" and f.f_back is not None:
            want = "def %s" % fn.__name__
            for v in list(f.f_back.f_locals.values()):
                if isinstance(v, str) and want in v and _defines(v, code):
                    _EXEC_SOURCES[code] = v
                    return True
            return False
        f = f.f_back
    return False


def _defines(text, code):
    try:
        mod = compile(text, code.co_filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return any(isinstance(c, types.CodeType) and c == code for c in mod.co_consts)


_DEF = re.compile(r"^\s*def\s+\w+\s*\(")


def function_source(jitfn):
    """(file, line of the def, text from the def on as it stands in the
    file) of a jit function's current source. JITFunction.src after
    _unsafe_update_src, or an exec'd string, is used as it is."""
    fn = jitfn.fn
    file = fn.__code__.co_filename
    src = getattr(jitfn, "src", None)
    raw = getattr(jitfn, "raw_src", None)
    first = getattr(jitfn, "starting_line_number", None)
    if raw is None:
        try:
            raw, first = inspect.getsourcelines(fn)
        except (OSError, TypeError):
            raw = None
    if raw is not None:
        k = next((i for i, line in enumerate(raw) if _DEF.match(line)), 0)
        text = "".join(raw[k:])
        if src is None or src == textwrap.dedent(text):
            return file, first + k, text
    if src is not None:
        return file, fn.__code__.co_firstlineno, src
    text = _EXEC_SOURCES.get(fn.__code__)
    if text is None:
        return None
    lines = text.splitlines(True)
    k = next((i for i, line in enumerate(lines) if re.match(r"^\s*def\s+%s\s*\(" % re.escape(fn.__name__), line)), 0)
    return file, k + 1, "".join(lines[k:])


class _Plan:
    """The names one source reads: free names and attribute chains."""

    def __init__(self, text):
        tree = ast.parse(textwrap.dedent(text))
        names, chains = set(), set()
        fdef = next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)
        a = fdef.args if fdef is not None else None
        params = {x.arg for x in (a.posonlyargs + a.args + a.kwonlyargs)} if a is not None else set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                chain, n = [], node
                while isinstance(n, ast.Attribute):
                    chain.append(n.attr)
                    n = n.value
                if isinstance(n, ast.Name):
                    chains.add((n.id,) + tuple(reversed(chain)))
        self.names = sorted(names - params)          # a parameter is always the local one
        self.chains = sorted(c for c in chains if c[0] not in params)


_PLANS = {}               # source text -> _Plan


def _plan(text):
    p = _PLANS.get(text)
    if p is None:
        if len(_PLANS) >= 4096:               # a test suite makes thousands of kernels: stay bounded
            _PLANS.clear()
        p = _PLANS[text] = _Plan(text)
    return p


# ---- values -------------------------------------------------------------------

_GLOBAL_RULE = ("Cannot access global variable %s from within @jit'ed function. Triton kernels can only access "
                "global variables that are instantiated as constexpr (`x = triton.language.constexpr(42)`). Note "
                "that this is different from annotating a variable as constexpr (`x: triton.language.constexpr = "
                "42`), which is not supported.  Alternatively, set the envvar TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1 "
                "(tritium: '%s' is %s; the rule is Triton's, compiler/code_generator.py global_lookup)")


def _allow_non_constexpr_globals():
    from . import _versions
    try:
        return _versions.facts().allow_non_constexpr_globals()
    except ImportError:
        return False


def _describe(v):
    t = type(v)
    return "a Python %s" % t.__name__ if t.__module__ == "builtins" else "a %s.%s" % (t.__module__, t.__qualname__)


class _CompileTimeFunction:
    """A Python function that a tl.constexpr wraps, as a function to compile
    (its source is read from its file)."""

    def __init__(self, fn):
        self.fn = inspect.unwrap(fn)        # a @tl.core.builtin method: the user's function, not core.py's wrapper


class _Builder:
    def __init__(self):
        self.functions = []
        self.fidx = {}
        self.modules = []
        self.midx = {}
        self.work = []
        self.probes = []                     # (where, key, value) read to make the JSON: see _holds
        self.allow_globals = _allow_non_constexpr_globals()

    def func(self, jitfn):
        k = self.fidx.get(id(jitfn.fn))
        if k is None:
            k = self.fidx[id(jitfn.fn)] = len(self.functions)
            self.functions.append(None)
            self.work.append((k, jitfn))
        return k

    def module(self, mod):
        k = self.midx.get(id(mod))
        if k is None:
            k = self.midx[id(mod)] = len(self.modules)
            self.modules.append({"name": mod.__name__, "names": {}})
        return k

    def run(self):
        while self.work:
            k, jitfn = self.work.pop()
            self.functions[k] = self._function(jitfn)

    def _function(self, jitfn):
        fn = jitfn.fn
        where = function_source(jitfn)
        if where is None:
            raise UnsupportedLaunch("tritium: jit function '%s': its source is not available (defined by exec or "
                                    "eval of a string tritium did not see; Triton keeps none either)" % fn.__name__)
        file, line, text = where
        self.probes.append((jitfn, _SRC, getattr(jitfn, "src", None)))
        plan = _plan(text)
        cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        g = fn.__globals__
        table, found = {}, {}
        for name in plan.names:
            v, origin = found[name] = self._lookup(cells, g, name)
            if v is not _ABSENT:              # else Python's builtins, or undefined: libtritium says which
                table[name] = self.value(v, origin, name)
        for chain in plan.chains:
            v = (found.get(chain[0]) or self._lookup(cells, g, chain[0]))[0]
            for attr in chain[1:]:
                if not isinstance(v, types.ModuleType) or triton_module_name(v.__name__) is not None:
                    break
                names = self.modules[self.module(v)]["names"]
                a = v.__dict__.get(attr, _ABSENT)
                self.probes.append((v.__dict__, attr, a))
                if a is _ABSENT:
                    break
                if attr not in names:
                    names[attr] = self.value(a, "attr", attr)
                v = a
        entry = {"name": fn.__name__, "file": file, "line": line, "src": text, "names": table}
        nospec = getattr(jitfn, "do_not_specialize", None) or ()
        params = list(inspect.signature(fn).parameters)
        idx = sorted({p if isinstance(p, int) else params.index(p) for p in nospec
                      if isinstance(p, int) or p in params})
        if idx:
            entry["do_not_specialize"] = idx
        mur = getattr(jitfn, "_must_use_result", False)   # @triton.must_use_result over @triton.jit
        if mur:
            entry["must_use_result"] = mur if isinstance(mur, str) else True
        return entry

    def _lookup(self, cells, g, name):
        """(value, "closure" | "global") of a free name, as
        get_capture_scope orders them (closure first); _ABSENT when neither
        has it. The lookups are recorded as probes."""
        cell = cells.get(name)
        if cell is not None:
            try:
                v = cell.cell_contents
                self.probes.append((cell, _CELL, v))
                return v, "closure"
            except ValueError:
                pass
        v = g.get(name, _ABSENT)
        self.probes.append((g, name, v))
        return v, "global"

    def value(self, v, origin, name, depth=0):
        """The entry for value v of `name`, found in a closure, the globals
        or as a module's attribute (origin)."""
        if depth > 32:
            return {"k": "error", "v": "'%s' nests tuples more than 32 deep" % name}
        t = type(v)
        if t.__name__ == "constexpr" and t.__module__.startswith("triton.language") and hasattr(v, "value"):
            if isinstance(v.value, types.FunctionType):
                # `@tl.constexpr def f(dtype): ...` (FlagGems): constexpr.__call__ runs it at compile
                # time; tritium compiles it as a helper, which folds to a constant on constexpr arguments
                return {"k": "func", "v": self.func(_CompileTimeFunction(v.value))}
            return self.value(v.value, "constexpr", name, depth + 1)
        e = self._scalar(v, name)
        if e is not None:
            if origin == "global" and not self.allow_globals:
                e["refuse"] = _GLOBAL_RULE % (name, name, _describe(v))
            return e
        if is_jit(v) or _is_constexpr_function(v):
            # a constexpr_function (Triton 3.6 runtime/jit.py ConstexprFunction) runs at compile time on
            # constexpr arguments: compiled as a helper, it folds to a constant
            mod = getattr(v.fn, "__module__", "") or ""
            if triton_module_name(mod) is not None and mod.startswith("triton.language"):
                return {"k": "triton", "module": triton_module_name(mod), "attr": v.fn.__name__}
            return {"k": "func", "v": self.func(v)}
        if isinstance(v, types.ModuleType):
            tm = triton_module_name(v.__name__)
            return {"k": "module", "v": tm if tm is not None else self.module(v)}
        if t.__name__ == "dtype" and t.__module__.startswith("triton.language"):
            return {"k": "dtype", "v": v.name}
        if isinstance(v, tuple):
            e = {"k": "tuple", "v": [self.value(x, "tuple", name, depth + 1) for x in v]}
            if hasattr(t, "_fields"):
                e.update({"class": t.__name__, "fields": list(t._fields)})
            elif origin == "global" and not self.allow_globals:
                e["refuse"] = _GLOBAL_RULE % (name, name, "a tuple")
            return e
        if isinstance(v, type) and issubclass(v, tuple) and hasattr(v, "_fields"):
            defs = getattr(v, "_field_defaults", {})
            return {"k": "class", "class": v.__name__, "fields": list(v._fields),
                    "defaults": [self._scalar(defs[f], name) if f in defs else None for f in v._fields]}
        b = self._triton_object(v)
        if b is not None:
            return b
        if isinstance(v, type) and getattr(v, "__triton_aggregate__", False):
            return self._aggregate(v, name)
        if getattr(v, "__triton_aggregate__", False):
            return {"k": "error", "v": "'%s' is an instance of Triton aggregate class %s; tritium takes aggregates "
                    "built in kernels, not global ones" % (name, t.__qualname__)}
        if origin == "global" and not self.allow_globals:
            return {"k": "error", "v": _GLOBAL_RULE % (name, name, _describe(v))}
        return {"k": "error", "v": "'%s' is %s, which a kernel cannot use (tritium takes constexpr values, jit "
                "functions, modules, dtypes, tuples and Triton's builtins)" % (name, _describe(v))}

    def _aggregate(self, cls, name):
        """A @triton.aggregate class (Triton 3.8+ language/core.py _aggregate):
        its fields in annotation order (the bases' first), their defaults
        and annotations (the generated __init__ checks them), and its
        methods, inherited ones too (a jit method is a function of the
        program; anything else is an error entry, raised only if a kernel
        calls it)."""
        fields = getattr(cls, "__aggregate_fields__", None)
        if fields is None:           # Triton 3.6/3.7: the private tl.core._aggregate
            return {"k": "error", "v": "'%s' is a class of Triton's private tl.core._aggregate (%s), whose __init__ "
                    "is Python code; tritium takes @triton.aggregate classes of Triton 3.8+" % (name, cls.__qualname__)}
        defs = getattr(cls, "__aggregate_defaults__", {})
        anns = getattr(cls, "__annotations__", {})
        tl = sys.modules.get("triton.language")

        def ann(a):
            if tl is None:
                return None
            return ("tensor" if a is tl.tensor else "constexpr" if a is tl.constexpr
                    else "tuple" if a is getattr(tl, "tuple", None) else None)

        init = (getattr(cls, "hash_attrs", None) or [None])[0]
        e = {"k": "class", "class": cls.__name__, "aggregate": True, "fields": list(fields),
             "defaults": [self.value(defs[f], "default", name) if f in defs else None for f in fields],
             "ann": [ann(anns.get(f)) for f in fields], "methods": {}}
        generated = init is not None and (getattr(init, "__module__", "") or "").startswith("triton.")
        if init is not None and not generated:
            # a user-defined __init__ runs in Triton's code generator (3.9 core.py _aggregate):
            # tritium compiles it as a helper whose `self.f = v` set the fields
            if is_jit(init):
                e["init"] = "is a @triton.jit function"
            else:
                e["init_func"] = self.func(init if _is_constexpr_function(init) else _CompileTimeFunction(init))
        for mname in dir(cls):
            m = getattr(cls, mname, None)
            if is_jit(m) or _is_constexpr_function(m):
                e["methods"][mname] = {"k": "func", "v": self.func(m)}
            elif isinstance(m, types.FunctionType) and not (m.__module__ or "").startswith("triton.") \
                    and mname != "__init__":
                # a Python method (it may take _semantic): compiled as a helper, as the code
                # generator runs it on the instance's values
                e["methods"][mname] = {"k": "func", "v": self.func(_CompileTimeFunction(m))}
        return e

    @staticmethod
    def _scalar(v, name):
        if v is None:
            return {"k": "none"}
        if isinstance(v, bool):
            return {"k": "bool", "v": v}
        if isinstance(v, int) or (type(v).__module__ == "numpy" and hasattr(v, "item") and getattr(v, "ndim", 1) == 0):
            v = v.item() if not isinstance(v, int) else int(v)
            if isinstance(v, bool):
                return {"k": "bool", "v": v}
            if isinstance(v, float):
                return {"k": "float", "v": repr(v)}
            if not -2**63 <= v < 2**63:
                return {"k": "error", "v": "'%s' = %d does not fit in 64 bits" % (name, v)}
            return {"k": "int", "v": v}
        if isinstance(v, float):
            return {"k": "float", "v": repr(v)}
        if isinstance(v, str):
            return {"k": "str", "v": v}
        return None

    @staticmethod
    def _triton_object(v):
        """A function or class of triton.language, however it was reached:
        the object decides (its module, or being the very object
        triton.language exports under its name)."""
        name = getattr(v, "__name__", None)
        if not isinstance(name, str):
            return None
        mod = getattr(v, "__module__", "") or ""
        tm = triton_module_name(mod) if mod.startswith("triton.language") else None
        if tm is not None:
            return {"k": "triton", "module": tm, "attr": name}
        tl = sys.modules.get("triton.language")
        if tl is not None and getattr(tl, name, None) is v:
            return {"k": "triton", "module": "triton.language", "attr": name}
        return None


# ---- modules for launches ------------------------------------------------------

_ABSENT = object()
_SRC = object()            # probe key: a jit function's src
_CELL = object()           # probe key: a closure cell's contents


def _holds(probes):
    """Does every probe still read the same object? (the hot path of a
    launch: a dictionary lookup per name)"""
    for where, key, v in probes:
        if key.__class__ is str:
            if where.get(key, _ABSENT) is not v:
                return False
        elif key is _CELL:
            try:
                if where.cell_contents is not v:
                    return False
            except ValueError:
                return False
        elif getattr(where, "src", None) is not v:
            return False
    return True


class _Module:
    """libtritium's module handle, freed with the last Resolved that uses
    it (a launch holds its Resolved while it runs)."""

    def __init__(self, handle):
        self.handle = handle

    def __del__(self):
        if self.handle and _lib._LIB is not None:
            _lib._LIB.tritium_module_free(self.handle)
        self.handle = None


class Resolved:
    """A kernel's live module: its JSON, libtritium's module (`module`, the
    handle), the reference ("#K") of each jit function passed as an
    argument, and the probes that say whether it still describes what
    Python has."""

    def __init__(self, text, module, arg_funcs, refs, probes):
        self.text = text
        self._module = module
        self.module = module.handle
        self.arg_funcs = arg_funcs
        self.refs = refs
        self.probes = probes


_BY_TEXT = weakref.WeakValueDictionary()   # JSON -> _Module, while some Resolved uses it


_CACHE = collections.OrderedDict()   # id(kernel) -> (kernel, [Resolved, ...] newest first), least recent first
_MAX_PER_KERNEL = 8       # live modules kept per kernel
_MAX_KERNELS = 512        # kernels kept; the least recently launched one's modules go first


def resolve(jitfn, arg_funcs=()):
    """The live module for a launch of jitfn with the jit functions
    arg_funcs among its arguments: the last one whose probes still hold,
    else a new one (loaded once per distinct JSON)."""
    hit = _CACHE.get(id(jitfn))
    if hit is None or hit[0] is not jitfn:
        hit = _CACHE[id(jitfn)] = (jitfn, [])
        while len(_CACHE) > _MAX_KERNELS:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(id(jitfn))
    hits = hit[1]
    for r in hits:
        if (r.arg_funcs == arg_funcs if not arg_funcs else
                len(r.arg_funcs) == len(arg_funcs) and all(a is b for a, b in zip(r.arg_funcs, arg_funcs))) \
                and _holds(r.probes):
            return r
    b = _Builder()
    b.func(jitfn)
    refs = {id(f): "#%d" % b.func(f) for f in arg_funcs}
    b.run()
    doc = {"format": "tritium-live-module", "version": 1, "functions": b.functions}
    if b.modules:
        doc["modules"] = b.modules
    text = json.dumps(doc, separators=(",", ":"))
    for r in hits:
        if r.text == text:
            r.arg_funcs, r.refs, r.probes = tuple(arg_funcs), refs, b.probes
            return r
    # another kernel object with the same JSON (a test redefining its nested kernel for each case)
    # compiles the same: share the module and its compiled specializations
    same = _BY_TEXT.get(text)
    if same is None:
        name = "%s (live module of %s)" % (b.functions[0]["file"], jitfn.fn.__name__)
        m = _lib.lib().tritium_module_load_live(name.encode(), text.encode())
        if not m:
            raise compile_error(_lib.last_error())
        same = _BY_TEXT[text] = _Module(m)
    r = Resolved(text, same, tuple(arg_funcs), refs, b.probes)
    hits.insert(0, r)
    del hits[_MAX_PER_KERNEL:]
    return r


def free_all():
    """Free every module (at exit, before the library goes)."""
    _CACHE.clear()
