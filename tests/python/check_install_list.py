#!/usr/bin/env python3
"""Every module of the Python package is installed: each python/tritium/**/*.py
is named in python/meson.build's install_sources, which is what `pip install .`
(meson-python) copies next to libtritium.so. A module left out imports from a
source checkout and fails in an installed package."""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
py = os.path.join(root, "python")
listed = set(re.findall(r"'(tritium/[\w/]+\.py)'", open(os.path.join(py, "meson.build")).read()))
missing = []
for d, _, files in os.walk(os.path.join(py, "tritium")):
    for f in files:
        rel = os.path.relpath(os.path.join(d, f), py)
        if f.endswith(".py") and rel not in listed:
            missing.append(rel)
for m in sorted(missing):
    print("python/%s is not installed: add it to python/meson.build's install_sources" % m)
sys.exit(1 if missing else 0)
