"""The active mode and its options (set by tritium.enable, python -m tritium,
TRITIUM_MODE / TRITIUM_OPTIONS or the pytest plugin)."""
import os
import shlex

MODES = ("interp", "check", "debug", "record", "gpu")


class Config:
    def __init__(self):
        self.mode = None
        self.on_error = "raise"        # raise | warn | stop
        self.schedule = "in-order"
        self.schedule_seed = 0
        self.threads = 0
        self.numerics = "ieee"
        self.check_races = True
        self.check_uninit = False
        self.config = None             # autotune: index or "KEY=VAL,..." selecting a triton.Config
        self.record_dir = "tritium-record"
        self.breaks = []               # debug: [(kernel, line or None, pid or None)]
        self.ex = []                   # debug: -ex commands
        self.x = None                  # debug: -x script
        self.sample = 0                # check: launches per specialization (0: all)
        self.rtol = None
        self.atol = None
        self.ulp = None                # check: also accept values this many ULPs apart
        self.against = "triton"        # check: triton | tritium-gpu | in-order | reverse | random[:SEED] | parallel
        self.executor = "interp"       # check: the side compared with Triton's results: interp | gpu
        self.verbose = False
        self.gpu_host_tensors = False  # gpu mode: accept CPU tensors (tests with the stand-in driver only)
        self.explicit = set()          # options given on the command line (mode defaults leave them)


CONFIG = Config()


def options_to_argv(c):
    """The command-line options that reproduce c (for TRITIUM_OPTIONS)."""
    a = ["--mode", c.mode, "--on-error", c.on_error, "--schedule", c.schedule, "--numerics", c.numerics]
    if c.schedule_seed:
        a += ["--schedule-seed", str(c.schedule_seed)]
    if c.config is not None:
        a += ["--config", str(c.config)]
    if not c.check_races:
        a += ["--no-races"]
    if c.check_uninit:
        a += ["--uninit"]
    if c.mode == "record":
        a += ["--record-dir", c.record_dir]
    if c.mode == "check":
        a += ["--against", c.against, "--executor", c.executor]
        if c.sample:
            a += ["--sample", str(c.sample)]
        for k in ("rtol", "atol", "ulp"):
            if getattr(c, k) is not None:
                a += ["--" + k, str(getattr(c, k))]
    if c.mode == "debug":
        for b in c.breaks:
            a += ["--break", b]
        for e in c.ex:
            a += ["-ex", e]
        if c.x:
            a += ["-x", c.x]
    return a


# check mode's defaults where the option was not given: Triton's compiled
# code contracts and approximates (fast numerics), and a disagreement is
# reported and counted, not raised
MODE_DEFAULTS = {"check": {"numerics": "fast", "on_error": "warn"}, "gpu": {"numerics": "fast"}}


def env_argv():
    return shlex.split(os.environ.get("TRITIUM_OPTIONS", ""))
