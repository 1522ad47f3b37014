"""The exceptions a tritium launch raises."""


class KernelError(RuntimeError):
    """A launch faulted (out-of-bounds or misaligned access), raced between
    programs, or read uninitialized memory. `report` is tritium's report
    (program ids, source lines, elements), `stats` its counts, `sites` the
    same as data: one dict per op and kind of problem ("kind", "program"
    (x, y, z) of the first, "programs", "lanes", "op", "file", "line", "col",
    "function", "tensor", "element", and for races "other_program", the
    program of the other access: the writer for read-after-write and
    write-write races); see tritium_report_json in tritium.h."""

    def __init__(self, message, report="", stats=None, kernel=None, sites=(), grid=None):
        super().__init__(message)
        self.report = report
        self.stats = stats or {}
        self.kernel = kernel
        self.sites = list(sites)
        self.grid = grid


class UnsupportedLaunch(RuntimeError):
    """A launch argument tritium cannot represent (the message names it)."""


class CompileError(RuntimeError):
    """tritium's front end refused the kernel (the message has its diagnostics).
    Raised through compile_error(), which makes it a triton.CompilationError
    too when Triton is loaded, so `pytest.raises(triton.TritonError)` in
    Triton's own tests sees it as Triton's compiler error."""


_TRITON_CE = []


def compile_error(message):
    """A CompileError (also triton.compiler.errors.CompilationError when Triton is imported)."""
    import sys
    if not _TRITON_CE and "triton" in sys.modules:
        try:
            from triton.compiler.errors import CompilationError

            class TritonCompileError(CompileError, CompilationError):
                def __init__(self, msg):
                    RuntimeError.__init__(self, msg)
                    self.message = msg

                def __str__(self):
                    return self.message

                def __reduce__(self):
                    return (type(self), (self.message,))

            _TRITON_CE.append(TritonCompileError)
        except Exception:
            _TRITON_CE.append(CompileError)
    return (_TRITON_CE[0] if _TRITON_CE else CompileError)(message)
