from .more import twice  # noqa: F401  (re-export)
