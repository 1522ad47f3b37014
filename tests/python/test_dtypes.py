"""The dtype table (compiler/support/dtype.c, through tritium_dtypes_json)
agrees with tritium.h's TRITIUM_* codes, numpy, ml_dtypes, torch, Triton and
the Python package: every dtype's name, Triton name, size, npy descriptor and
code. tests/support/test_dtype.c checks the columns within C."""
import os
import re

import pytest

from tritium import _launch, _lib

ROOT = os.environ.get("TRITIUM_SRCDIR") or os.path.join(os.path.dirname(__file__), "..", "..")


def rows():
    return _lib.dtypes()


def test_codes_are_tritium_h_enum():
    text = open(os.path.join(ROOT, "include", "tritium", "tritium.h")).read()
    body = re.search(r"enum \{\s*(TRITIUM_BOOL = 0,.*?)\};", text, re.S).group(1)
    names = re.findall(r"TRITIUM_(\w+)", body)
    assert [r["code"] for r in rows()] == list(range(len(rows())))
    assert names == [r["name"].upper() for r in rows()]       # TRITIUM_X is the dtype named x, code = index


def test_numpy_descr_and_size():
    np = pytest.importorskip("numpy")
    for r in rows():
        assert np.dtype(r["npy"]).itemsize == r["size"], r
        assert r["bits"] <= 8 * r["size"]


def test_ml_dtypes():
    np = pytest.importorskip("numpy")
    ml_dtypes = pytest.importorskip("ml_dtypes")
    for r in rows():
        if r["ml"]:
            assert np.dtype(getattr(ml_dtypes, r["ml"])).itemsize == r["size"], r


def test_triton_names():
    tl = pytest.importorskip("triton.language")
    for r in rows():
        d = getattr(tl, r["tl"])
        assert d.name == r["triton"], r
        assert d.primitive_bitwidth == r["bits"], r
        assert d.is_floating() == r["float"] and d.is_int() == r["int"], r


def test_torch_names():
    torch = pytest.importorskip("torch")
    for r in rows():
        if r["torch"] and hasattr(torch, r["torch"]):
            d = getattr(torch, r["torch"])
            assert d.itemsize == r["size"] and d.is_floating_point == r["float"], r


def test_package_maps_use_the_table():
    tl = pytest.importorskip("triton.language")
    codes = _launch._tl_dtypes()
    for r in rows():
        assert codes[getattr(tl, r["tl"]).name] == r["code"]
    torch = pytest.importorskip("torch")
    by_torch = _launch._torch_dtypes()
    for r in rows():
        if r["torch"] and hasattr(torch, r["torch"]):
            assert by_torch[getattr(torch, r["torch"])] == r["code"]
    assert not [n for n in dir(_lib) if re.fullmatch(r"(BOOL|[IU]\d+|B?F\d+|F8\w+)", n)]   # no copy of the codes
