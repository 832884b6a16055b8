"""MindSpore's ``repr(Tensor)`` text, reproduced from its C++ TensorStringifier.

Floats print as ``%15.8e`` (Float16 as ``%11.4e``), ints right-aligned to the widest printed value, bools as
``True``/``False`` padded to 5; a 0-d tensor prints its value alone. Dimensions longer than 6 are summarised to
3 + ``...`` + 3 (1-D tensors only beyond 1000 elements); 1-D rows wrap every 12 floats / 24 ints / 12 bools.
"""
import re
from typing import Any

import numpy as np

from . import dtype as mstype

_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)

_THRESHOLD = 6
_HALF = _THRESHOLD >> 1
_THRESHOLD_1D = 1000
_WRAP = {"f": _THRESHOLD * 2, "b": _THRESHOLD * 2}  # ints/others: 4 * threshold


def _scalar_text(v, kind):
    if kind == "b":
        return "True" if v else "False"
    if kind == "f":
        return "%g" % float(v)
    if kind == "c":
        return "(%g,%g)" % (v.real, v.imag)
    return str(v)


class _Writer:
    def __init__(self, arr):
        self.ndim = arr.ndim
        kind = arr.dtype.kind
        if arr.dtype.name == "bfloat16":
            kind = "f"
        self.kind = kind
        self.fmt = "%11.4e" if arr.dtype == np.float16 else "%15.8e"
        self.wrap = _WRAP.get(kind, _THRESHOLD * 4)
        self.max_width = 0

    def element(self, v):
        k = self.kind
        if k == "f":
            return self.fmt % float(v)
        if k == "b":
            return "%5s" % ("True" if v else "False")
        if k == "c":
            return "(%g,%g)" % (v.real, v.imag)
        s = str(v)
        self.max_width = max(self.max_width, len(s))
        return "#" * len(s) + s  # placeholder, replaced once the widest value is known

    def row(self, a, start, end):
        out = []
        for i in range(start, end):
            out.append(self.element(a[i]))
            if i != end - 1:
                out.append(", ")
            if self.ndim == 1 and end - start > _HALF and (i + 1) % self.wrap == 0:
                out.append("\n ")
        return "".join(out)

    def rec(self, a, depth):
        num = a.shape[0]
        if a.ndim == 1:
            if (num > _THRESHOLD and self.ndim > 1) or (num > _THRESHOLD_1D and self.ndim == 1):
                body = self.row(a, 0, _HALF) + " ... " + self.row(a, num - _HALF, num)
            else:
                body = self.row(a, 0, num)
            return "[" + body + "]"
        indent = " " * (depth + 1)
        parts = []
        for i in range(min(_HALF, num)):
            if i > 0:
                parts.append(",\n" + indent)
            parts.append(self.rec(a[i], depth + 1))
        if num > _THRESHOLD:
            parts.append(",\n" + indent + "...")
        if num > _HALF:
            times = min(num - _HALF, _HALF)
            for i in range(times):
                if i != 0 or num <= _THRESHOLD:
                    parts.append(",")
                parts.append("\n" + indent)
                parts.append(self.rec(a[num - times + i], depth + 1))
        return "[" + "".join(parts) + "]"


def data_string(arr: np.ndarray) -> str:
    """The value part of MindSpore's Tensor repr for the NumPy array ``arr``."""
    if arr.size == 0:
        return ""
    if arr.ndim == 0:
        kind = "f" if arr.dtype.name == "bfloat16" else arr.dtype.kind
        return _scalar_text(arr.item() if kind != "f" else float(arr), kind)
    w = _Writer(arr)
    text = w.rec(arr, 0)
    if w.max_width:
        text = re.sub("#+", lambda m: " " * (w.max_width - len(m.group())), text)
    return text


def tensor_repr(arr: np.ndarray, dtype_name: str) -> str:
    """``Tensor(shape=[2, 3], dtype=Float32, value=\\n[[...]])`` exactly as MindSpore prints it."""
    shape = "[" + ", ".join(str(s) for s in arr.shape) + "]"
    sep = "\n" if arr.ndim > 1 else " "
    return f"Tensor(shape={shape}, dtype={dtype_name}, value={sep}{data_string(arr)})"


def is_f64(x: Any) -> bool:
    """True if ``x`` is an array (or NumPy value) of dtype Float64. (``np.dtype(None)`` is float64: test for None.)"""
    dt = getattr(x, "dtype", None)
    return dt is not None and not isinstance(dt, mstype.Type) and dt == _F64


def guard_f64(out: Any, a: Any, b: Any = None) -> Any:
    """MindSpore never widens to Float64 unless an operand is Float64 (JAX's x64 mode would)."""
    if is_f64(out) and not is_f64(a) and not is_f64(b):
        return out.astype(_F32)
    return out


def describe(x: Any) -> str:
    """A short description of a value for error messages: ``Tensor(shape=[2, 3], dtype=Float32)``."""
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        dt = x.dtype
        if not isinstance(dt, mstype.Type):
            try:
                dt = mstype.from_numpy(dt)
            except TypeError:
                pass
        return f"Tensor(shape={list(x.shape)}, dtype={dt})"
    if isinstance(x, (list, tuple)) and len(x) <= 8:
        inner = ", ".join(describe(v) for v in x)
        return f"({inner})" if isinstance(x, tuple) else f"[{inner}]"
    r = repr(x)
    return r if len(r) < 60 else type(x).__name__
