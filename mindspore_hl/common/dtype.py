"""MindSpore data types (``ms.float32`` & co) and their mapping to NumPy / JAX dtypes."""
from __future__ import annotations

import builtins
from typing import Any

import ml_dtypes
import numpy as np

__all__ = [
    "Type", "float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64",
    "uint8", "uint16", "uint32", "uint64", "bool_", "complex64", "complex128", "string",
    "half", "single", "double", "float_", "int_", "uint", "number",
    "int_type", "uint_type", "float_type", "signed_type", "number_type", "complex_type", "all_types",
    "dtype_to_nptype", "pytype_to_dtype", "dtype_to_pytype", "from_numpy", "to_ms_dtype",
]


class Type:
    """A MindSpore dtype: ``str`` is ``Float32``, ``repr`` is ``mindspore.float32``."""

    __slots__ = ("_name", "_attr", "_np")

    def __init__(self, name: str, attr: str, np_dtype: np.dtype | None) -> None:
        self._name, self._attr, self._np = name, attr, np_dtype

    def __str__(self):
        return self._name

    def __repr__(self):
        return f"mindspore.{self._attr}"

    def __eq__(self, other):
        if isinstance(other, Type):
            return self._name == other._name
        return NotImplemented

    def __hash__(self):
        return hash(self._name)

    def __reduce__(self):
        return (to_ms_dtype, (self._attr,))

    @property
    def is_floating(self) -> bool:
        """True for Float16/32/64 and BFloat16."""
        return self._np is not None and self._np.kind == "f" or self._name == "BFloat16"

    def to_numpy(self) -> np.dtype | None:
        """The NumPy dtype (``None`` for the abstract types String/Number)."""
        return self._np


float16 = Type("Float16", "float16", np.dtype(np.float16))
float32 = Type("Float32", "float32", np.dtype(np.float32))
float64 = Type("Float64", "float64", np.dtype(np.float64))
bfloat16 = Type("BFloat16", "bfloat16", np.dtype(ml_dtypes.bfloat16))
int8 = Type("Int8", "int8", np.dtype(np.int8))
int16 = Type("Int16", "int16", np.dtype(np.int16))
int32 = Type("Int32", "int32", np.dtype(np.int32))
int64 = Type("Int64", "int64", np.dtype(np.int64))
uint8 = Type("UInt8", "uint8", np.dtype(np.uint8))
uint16 = Type("UInt16", "uint16", np.dtype(np.uint16))
uint32 = Type("UInt32", "uint32", np.dtype(np.uint32))
uint64 = Type("UInt64", "uint64", np.dtype(np.uint64))
bool_ = Type("Bool", "bool_", np.dtype(np.bool_))
complex64 = Type("Complex64", "complex64", np.dtype(np.complex64))
complex128 = Type("Complex128", "complex128", np.dtype(np.complex128))
string = Type("String", "string", None)
number = Type("Number", "number", None)
half, single, double, float_ = float16, float32, float64, float32
int_, uint = int64, uint64
globals()["bool"] = bool_  # ``ms.bool`` (MindSpore 2.x alias of ``ms.bool_``); not a name used in this module

int_type = (int8, int16, int32, int64)
uint_type = (uint8, uint16, uint32, uint64)
float_type = (float16, float32, float64, bfloat16)
signed_type = int_type + float_type + (complex64, complex128)
complex_type = (complex64, complex128)
number_type = int_type + uint_type + float_type + complex_type
all_types = (bool_,) + number_type

_ALL = [float16, float32, float64, bfloat16, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
        bool_, complex64, complex128]
_FROM_NP = {t._np: t for t in _ALL}
_BY_NAME = {}
for _t in _ALL + [string, number]:
    _BY_NAME[_t._name] = _BY_NAME[_t._attr] = _BY_NAME[_t._attr.rstrip("_")] = _t
_BY_NAME.update({"float": float32, "int": int64, "half": float16, "double": float64})


def from_numpy(np_dtype: Any) -> Type:
    """Return the MindSpore dtype for a NumPy / JAX dtype."""
    try:
        return _FROM_NP[np.dtype(np_dtype)]
    except (KeyError, TypeError):
        raise TypeError(f"NumPy dtype {np_dtype!r} has no MindSpore equivalent.") from None


def to_ms_dtype(dtype: Any) -> Type:
    """Accept a MindSpore dtype, NumPy/JAX dtype, Python type or name and return the MindSpore dtype."""
    if isinstance(dtype, Type):
        return dtype
    if dtype is builtins.float:
        return float32
    if dtype is builtins.int:
        return int64
    if dtype is builtins.bool:
        return bool_
    if dtype is builtins.complex:
        return complex64
    if isinstance(dtype, str):
        found = _BY_NAME.get(dtype)
        if found is None:
            raise TypeError(f"Unknown dtype name {dtype!r}. Use a mindspore_hl dtype such as ms.float32.")
        return found
    try:
        return from_numpy(dtype)
    except TypeError:
        raise TypeError(f"Expected a mindspore_hl dtype (e.g. ms.float32), but got {dtype!r} "
                        f"({type(dtype).__name__}).") from None


def dtype_to_nptype(type_: Any) -> type:
    """Return the NumPy scalar type of a MindSpore dtype (``ms.float32`` -> ``np.float32``)."""
    np_dtype = to_ms_dtype(type_)._np
    if np_dtype is None:
        raise TypeError(f"dtype_to_nptype: {type_!r} has no NumPy type (it is an abstract type).")
    return np_dtype.type


def pytype_to_dtype(obj: Any) -> Type:
    """Map a Python type (``int``, ``float``, ``bool``) or NumPy dtype to a MindSpore dtype."""
    return to_ms_dtype(obj)


def dtype_to_pytype(type_: Any) -> type:
    """Map a MindSpore dtype to the Python type of its values (``ms.float32`` -> ``float``)."""
    t = to_ms_dtype(type_)
    if t == bool_:
        return builtins.bool
    if t._np is None:
        return builtins.str if t == string else builtins.float
    return {"f": builtins.float, "i": builtins.int, "u": builtins.int, "c": builtins.complex}.get(
        t._np.kind, builtins.float)
