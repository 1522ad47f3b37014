"""The exceptions a tritium launch raises."""


class KernelError(RuntimeError):
    """A launch faulted (out-of-bounds or misaligned access), raced between
    programs, or read uninitialized memory. `report` is tritium's report
    (program ids, source lines, elements), `stats` its counts."""

    def __init__(self, message, report="", stats=None, kernel=None):
        super().__init__(message)
        self.report = report
        self.stats = stats or {}
        self.kernel = kernel


class UnsupportedLaunch(RuntimeError):
    """A launch argument tritium cannot represent (the message names it)."""


class CompileError(RuntimeError):
    """tritium's front end refused the kernel (the message has its diagnostics)."""
