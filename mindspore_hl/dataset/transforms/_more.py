"""More general transforms: Concatenate, Duplicate, Mask (with Relational), PadEnd, RandomOrder, Unique."""
from __future__ import annotations

import enum
import numbers
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._base import TensorOperation, to_numpy_dtype
from ._ops import _check_ops, apply_op

__all__ = ["Concatenate", "Duplicate", "Mask", "Relational", "PadEnd", "RandomOrder", "Unique"]


class Concatenate(TensorOperation):
    """``prepend`` + the 1-D input + ``append`` along ``axis`` (0 or -1)."""

    def __init__(self, axis: int = 0, prepend: Any = None, append: Any = None) -> None:
        if axis not in (0, -1):
            raise ValueError(f"Concatenate: only axis 0 or -1 is supported (1-D inputs), but got {axis!r}")
        self.axis = axis
        self.prepend = None if prepend is None else np.asarray(prepend)
        self.append = None if append is None else np.asarray(append)
        for name, v in (("prepend", self.prepend), ("append", self.append)):
            if v is not None and v.ndim != 1:
                raise ValueError(f"Concatenate: {name} must be 1-D, but got shape {v.shape}")

    def _apply(self, rng, x):
        if x.ndim != 1:
            raise RuntimeError(f"Concatenate: the input must be 1-D, but got shape {tuple(x.shape)}")
        parts = [p for p in (self.prepend, x, self.append) if p is not None]
        kinds = {p.dtype.kind in "US" for p in parts}
        if len(kinds) > 1:
            raise RuntimeError("Concatenate: cannot mix string and numeric tensors")
        return np.concatenate(parts).astype(x.dtype if x.dtype.kind not in "US" else np.result_type(*parts))


class Duplicate(TensorOperation):
    """Two copies of the input (map it with two output columns)."""
    batchable = True

    def _apply_batch(self, rng, x):
        return x, x.copy()


class Relational(enum.IntEnum):
    """Comparisons for ``Mask``."""
    EQ = 0
    NE = 1
    GT = 2
    GE = 3
    LT = 4
    LE = 5


_CMP = {Relational.EQ: operator.eq, Relational.NE: operator.ne, Relational.GT: operator.gt,
        Relational.GE: operator.ge, Relational.LT: operator.lt, Relational.LE: operator.le}


class Mask(TensorOperation):
    """``operator(x, constant)`` elementwise, as ``dtype`` (default bool)."""
    batchable = True

    def __init__(self, operator: Relational, constant: Any, dtype: Any = None) -> None:  # noqa: A002 - MindSpore's parameter name
        if not isinstance(operator, Relational):
            raise TypeError(f"Mask: operator must be a Relational, but got {operator!r}")
        if not isinstance(constant, (str, bytes, numbers.Real)):
            raise TypeError(f"Mask: constant must be a number or a string, but got {constant!r}")
        self.operator, self.constant = operator, constant
        self.dtype = np.dtype(bool) if dtype is None else to_numpy_dtype(dtype, "Mask")

    def _apply_batch(self, rng, x):
        return _CMP[self.operator](x, self.constant).astype(self.dtype)


class PadEnd(TensorOperation):
    """Pad (or cut) each axis at its end to ``pad_shape`` with ``pad_value`` (default 0, or '' for strings)."""

    def __init__(self, pad_shape: Sequence[int], pad_value: Any = None) -> None:
        if not isinstance(pad_shape, (list, tuple)) or not all(
                isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in pad_shape):
            raise TypeError(f"PadEnd: pad_shape must be a list of non-negative ints, but got {pad_shape!r}")
        self.pad_shape, self.pad_value = list(pad_shape), pad_value

    def _apply(self, rng, x):
        if x.ndim != len(self.pad_shape):
            raise RuntimeError(f"PadEnd: pad_shape {self.pad_shape} has rank {len(self.pad_shape)}, but the input "
                               f"has shape {tuple(x.shape)}")
        value = self.pad_value if self.pad_value is not None else ("" if x.dtype.kind in "US" else 0)
        out = np.full(self.pad_shape, value, dtype=np.result_type(x.dtype, np.asarray(value).dtype)
                      if x.dtype.kind in "US" else x.dtype)
        keep = tuple(slice(0, min(a, b)) for a, b in zip(x.shape, self.pad_shape))
        out[keep] = x[keep]
        return out


class RandomOrder(TensorOperation):
    """Apply every transform once, in a random order."""
    random = True

    def __init__(self, transforms: Sequence[Any]) -> None:
        self.transforms = _check_ops("RandomOrder", transforms)

    def _apply(self, rng, *values):
        for k in rng.permutation(len(self.transforms)):
            values = apply_op(self.transforms[int(k)], rng, list(values))
        return values if len(values) > 1 else values[0]


class Unique(TensorOperation):
    """(unique values in order of first appearance, index of each input element in them, count of each)."""

    def _apply(self, rng, x):
        flat = x.reshape(-1)
        values, first, inverse, counts = np.unique(flat, return_index=True, return_inverse=True,
                                                   return_counts=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        return values[order], rank[inverse].astype(np.int32), counts[order].astype(np.int32)
