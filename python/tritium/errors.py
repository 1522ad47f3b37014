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
    and a triton.runtime.errors.InterpreterError too when Triton is loaded
    (Triton raises the first when compiling for a GPU and the second from its
    interpreter), so `pytest.raises(...)` in Triton's own tests sees it as
    Triton's error. Its error_message is the messages alone (Triton's
    CompilationError attribute), and its __cause__ a Diagnostic of them, where
    Triton chains the ValueError or TypeError its front end raised."""


class Diagnostic(Exception):
    """The messages of a compile error's diagnostics (the text after each
    "error: "), without source lines: a CompileError's __cause__."""


_TRITON_CE = []


def _triton_class():
    import sys
    if not _TRITON_CE and "triton" in sys.modules:
        bases = [CompileError]
        for mod, name in (("triton.compiler.errors", "CompilationError"), ("triton.runtime.errors", "InterpreterError")):
            try:
                bases.append(getattr(__import__(mod, fromlist=[name]), name))
            except Exception:
                pass
        if len(bases) == 1:
            _TRITON_CE.append(CompileError)
        else:
            class TritonCompileError(*bases):
                def __init__(self, msg):
                    RuntimeError.__init__(self, msg)
                    self.message = msg

                def __str__(self):
                    return self.message

                def __reduce__(self):
                    return (type(self), (self.message,))

            _TRITON_CE.append(TritonCompileError)
    return _TRITON_CE[0] if _TRITON_CE else CompileError


def compile_error(message):
    """A CompileError (also Triton's CompilationError and InterpreterError when
    Triton is imported) whose __cause__ is a Diagnostic of its messages."""
    e = _triton_class()(message)
    msgs = [line.split(": error: ", 1)[1] for line in message.splitlines() if ": error: " in line]
    e.error_message = "\n".join(msgs) if msgs else message    # CompilationError.error_message
    e.__cause__ = Diagnostic(e.error_message)
    return e
