"""The active mode and its options (set by tritium.enable, python -m tritium,
TRITIUM_MODE / TRITIUM_OPTIONS or the pytest plugin).

The options are the rows of the library's settings table that have a Python
name (include/tritium/settings.def, read through tritium_settings_json):
Config's attributes, their defaults, python -m tritium's parser (__main__.py)
and options_to_argv all come from those rows, so a new option is a row in
the table and the code that reads CONFIG.<name>.
"""
import os
import shlex


def _table():
    from . import _lib
    return _lib.settings()


def setting(name):
    """The row whose field name is `name` (KeyError when none)."""
    for r in _table()["settings"]:
        if r["name"] == name:
            return r
    raise KeyError(name)


def rows():
    """The settings rows with a Python name, in table order."""
    return [r for r in _table()["settings"] if r["python"]]


def row(name):
    """The row of Python option `name` (KeyError when none)."""
    for r in rows():
        if r["python"] == name:
            return r
    raise KeyError(name)


def python_flag(r):
    """The row's `python -m tritium` flags, or [] when it has none."""
    return r["flags"] if "python" in r["commands"] else []


def parse_value(r, text):
    """A value of row r from its text (a default, TRITIUM_OPTIONS word):
    bool, int, float or str; ValueError naming what was expected."""
    t = r["type"]
    if t == "bool":
        if text not in ("0", "1"):
            raise ValueError("expected 0 or 1")
        return text == "1"
    if t in ("int", "uint"):
        v = int(text, 0)
        d = r["domain"]
        if ".." in d:
            lo, hi = d.split("..")
            if v < int(lo) or (hi != "max" and v > int(hi)) or (hi == "max" and v > 2**63 - 1 and t == "int"):
                raise ValueError("expected an integer from %s to %s" % (lo, hi))
        elif str(v) not in d.split("|"):
            raise ValueError("expected one of %s" % ", ".join(d.split("|")))
        return v
    if t == "float":
        v = float(text)
        lo = float(r["domain"].split("..")[0])
        if not lo <= v < float("inf"):
            raise ValueError("expected a finite number >= %g" % lo)
        return v
    if t in ("enum", "seeded"):
        name, colon, seed = text.partition(":")
        name = r["aliases"].get(name, name)
        seeded = t == "seeded" and (name + ":") in r["domain"].split("|")
        if name not in r["values"] or (colon and not (seeded and seed.isdigit())):
            vals = [v + ("[:SEED]" if t == "seeded" and (v + ":") in r["domain"].split("|") else "")
                    for v in r["values"]]
            raise ValueError("expected one of %s" % ", ".join(vals + list(r["aliases"])))
        return name + colon + seed
    return text


def default_of(r):
    """The row's default as Config holds it: [] for lists, None for none."""
    if r["type"] == "list":
        return []
    if r["default"] is None:
        return None
    return parse_value(r, r["default"])


class Config:
    """Every Python option (a row with a Python name) as an attribute, at
    its default until set; plus the mode and the names given explicitly."""

    def __init__(self):
        self.mode = None               # the enabled mode, None when none is
        self.explicit = set()          # options given on the command line (mode defaults leave them)

    def __getattr__(self, name):
        # first use of an option: its default from the table, kept so that
        # lists are appended in place
        try:
            r = row(name)
        except KeyError:
            raise AttributeError(name) from None
        v = default_of(r)
        object.__setattr__(self, name, v)
        return v


CONFIG = Config()


def __getattr__(name):
    if name == "MODES":                # the mode row's values, from the library
        return tuple(row("mode")["values"])
    raise AttributeError(name)


def options_to_argv(c):
    """The command-line options that reproduce c (for TRITIUM_OPTIONS):
    the mode, then every option given explicitly or not at its default."""
    a = ["--mode", c.mode]
    for r in rows():
        flags = python_flag(r)
        name = r["python"]
        if not flags or name == "mode":
            continue
        v = getattr(c, name)
        if name not in c.explicit and v == default_of(r):
            continue
        if r["type"] == "list":
            for x in v:
                a += [flags[0], str(x)]
        elif r["type"] == "bool":
            if v != default_of(r):
                a += [flags[0]]
        elif v is not None:
            a += [flags[0], str(v)]
    return a


# check mode's defaults where the option was not given: Triton's compiled
# code contracts and approximates (fast numerics), and a disagreement is
# reported and counted, not raised
MODE_DEFAULTS = {"check": {"numerics": "fast", "on_error": "warn"}, "gpu": {"numerics": "fast"}}


def env_argv():
    """The words of $TRITIUM_OPTIONS (the options row's variable)."""
    return shlex.split(os.environ.get(setting("options")["env"], ""))
