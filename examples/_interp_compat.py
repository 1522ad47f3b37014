"""Work around a Triton 3.6 interpreter bug with numpy >= 2.5 (host-side only;
no kernels here).

Under TRITON_INTERPRET=1 a runtime scalar is a 1-element 1-D numpy array, and
the interpreter turns it into a Python int with `int(array)`
(triton/runtime/interpreter.py, _patch_lang_tensor: `__index__`). numpy 2.5
rejects that ("only 0-dimensional arrays can be converted to Python
scalars"), so every `range(..., N, ...)` with a runtime bound fails. This
shim re-patches `__index__` to use `.item()`. It changes nothing on a GPU, with
an older numpy, or when Triton is not installed.
"""


def apply():
    try:
        from triton.runtime import interpreter as _ti
    except Exception:
        return
    orig = getattr(_ti, "_patch_lang_tensor", None)
    if orig is None or getattr(orig, "_tritium_compat", False):
        return

    def _index(self):
        data = self.handle.data
        return int(data.item()) if getattr(data, "size", 0) == 1 else int(data)

    def patched(tensor, scope):
        orig(tensor, scope)            # records the originals for restoring
        setattr(tensor, "__index__", _index)

    patched._tritium_compat = True
    _ti._patch_lang_tensor = patched
