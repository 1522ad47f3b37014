"""check, debug and record modes (not written yet)."""


def install(mode, jit, autotuner, orig, state):
    raise NotImplementedError("tritium: mode '%s' is not implemented yet" % mode)
