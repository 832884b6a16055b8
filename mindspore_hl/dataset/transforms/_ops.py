"""General transforms (``mindspore.dataset.transforms``)."""
from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from types import EllipsisType
from typing import Any

import numpy as np

from .._block import as_array
from ._base import TensorOperation, to_numpy_dtype

__all__ = ["TypeCast", "Compose", "OneHot", "RandomApply", "RandomChoice", "Fill", "Slice", "apply_op",
           "op_name"]


def op_name(op: Any) -> str:
    """A readable name for error messages: the transform class or the Python function."""
    if isinstance(op, TensorOperation):
        return type(op).__name__
    return getattr(op, "__qualname__", None) or getattr(op, "__name__", None) or type(op).__name__


def _as_outputs(result):
    if isinstance(result, tuple):
        return tuple(as_array(r) for r in result)
    return (as_array(result),)


def apply_op(op: TensorOperation | Callable[..., Any], rng: np.random.Generator | None,
             values: Sequence[Any]) -> tuple[np.ndarray, ...]:
    """Run one transform or Python callable on one row's values; returns a tuple of ndarrays."""
    if isinstance(op, TensorOperation):
        return _as_outputs(op._apply(rng, *values))
    return _as_outputs(op(*values))


def _check_ops(name, transforms):
    if not isinstance(transforms, (list, tuple)) or not transforms:
        raise ValueError(f"{name}: transforms must be a non-empty list of transforms or callables, "
                         f"but got {transforms!r}")
    for t in transforms:
        if not callable(t):
            raise TypeError(f"{name}: every transform must be callable, but got {t!r}")
    return list(transforms)


class TypeCast(TensorOperation):
    """Cast to ``data_type``. Args: data_type (mindspore dtype such as ``ms.int32``, or a NumPy dtype)."""
    batchable = True

    def __init__(self, data_type: Any) -> None:
        self.data_type = data_type
        self._dtype = to_numpy_dtype(data_type)

    def _apply_batch(self, rng, x):
        return x.astype(self._dtype)

    def __repr__(self):
        return f"TypeCast({self._dtype})"


class Compose(TensorOperation):
    """Apply ``transforms`` in order (``Dataset.map`` unrolls it). Args: transforms (list)."""

    def __init__(self, transforms: Sequence[Any]) -> None:
        self.transforms = _check_ops("Compose", transforms)
        self.batchable = all(isinstance(t, TensorOperation) and t.batchable for t in self.transforms)
        self.random = any(getattr(t, "random", False) for t in self.transforms)

    def _apply(self, rng, *values):
        for t in self.transforms:
            values = apply_op(t, rng, values)
        return values[0] if len(values) == 1 else values

    def _apply_batch(self, rng, *columns):
        for t in self.transforms:
            out = t._apply_batch(rng, *columns)
            columns = out if isinstance(out, tuple) else (out,)
        return columns[0] if len(columns) == 1 else columns


class RandomApply(TensorOperation):
    """Apply all ``transforms`` (in order) with probability ``prob``, per row.

    Args: transforms (list), prob (float): default 0.5."""
    random = True

    def __init__(self, transforms: Sequence[Any], prob: float = 0.5) -> None:
        self.transforms = _check_ops("RandomApply", transforms)
        if isinstance(prob, bool) or not isinstance(prob, numbers.Real) or not 0 <= float(prob) <= 1:
            raise ValueError(f"RandomApply: prob must be a number in [0.0, 1.0], but got {prob!r}")
        self.prob: float = float(prob)

    def _apply(self, rng, *values):
        if rng.random() < self.prob:
            for t in self.transforms:
                values = apply_op(t, rng, values)
        return values[0] if len(values) == 1 else values


class RandomChoice(TensorOperation):
    """Apply one of ``transforms``, chosen uniformly per row. Args: transforms (list)."""
    random = True

    def __init__(self, transforms: Sequence[Any]) -> None:
        self.transforms = _check_ops("RandomChoice", transforms)

    def _apply(self, rng, *values):
        values = apply_op(self.transforms[int(rng.integers(len(self.transforms)))], rng, values)
        return values[0] if len(values) == 1 else values


class OneHot(TensorOperation):
    """Integer labels -> one-hot vectors of length ``num_classes`` (optionally label-smoothed).

    Args: num_classes (int), smoothing_rate (float in [0, 1]): hot = 1 - s + s/num_classes, cold = s/num_classes."""
    batchable = True

    def __init__(self, num_classes: int, smoothing_rate: float = 0.0) -> None:
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes < 1:
            raise ValueError(f"OneHot: num_classes must be a positive int, but got {num_classes!r}")
        if isinstance(smoothing_rate, bool) or not isinstance(smoothing_rate, numbers.Real) or \
                not 0 <= float(smoothing_rate) <= 1:
            raise ValueError(f"OneHot: smoothing_rate must be in [0.0, 1.0], but got {smoothing_rate!r}")
        self.num_classes: int = num_classes
        self.smoothing_rate: float = float(smoothing_rate)

    def _apply_batch(self, rng, x):
        if x.dtype.kind not in "iu":
            raise RuntimeError(f"OneHot: labels must be integers, but got dtype {x.dtype}")
        if x.ndim > 2:
            raise RuntimeError(f"OneHot: labels must be scalars or 1-D, but got shape {x.shape[1:]}")
        if x.size and (x.min() < 0 or x.max() >= self.num_classes):
            bad = x[(x < 0) | (x >= self.num_classes)].ravel()[0]
            raise RuntimeError(f"OneHot: label {bad} is out of range [0, {self.num_classes})")
        out_dtype = x.dtype if self.smoothing_rate == 0 else np.dtype(np.float32)
        out = (x[..., None] == np.arange(self.num_classes)).astype(out_dtype)
        if self.smoothing_rate:
            s = np.float32(self.smoothing_rate)
            out = out * (1 - s) + s / self.num_classes
        return out


class Fill(TensorOperation):
    """Replace every element with ``fill_value`` (shape and dtype kept). Args: fill_value (number/str/bytes)."""
    batchable = True

    def __init__(self, fill_value: Any) -> None:
        if not isinstance(fill_value, (numbers.Number, str, bytes, np.generic)):
            raise TypeError(f"Fill: fill_value must be a number, str or bytes, but got {fill_value!r}")
        self.fill_value = fill_value

    def _apply_batch(self, rng, x):
        out = np.empty_like(x)
        try:
            out[...] = self.fill_value
        except (TypeError, ValueError) as e:
            raise RuntimeError(f"Fill: cannot fill a {x.dtype} tensor with {self.fill_value!r}") from e
        return out


class Slice(TensorOperation):
    """Slice along each dimension: int (keep that index), list of ints, slice, None (all) or Ellipsis.

    Args: *slices: one per leading dimension."""
    batchable = True

    def __init__(self, *slices: Any) -> None:
        if not slices:
            raise ValueError("Slice: at least one slice is required")
        parsed: list[list[int] | slice | EllipsisType] = []
        for s in slices:
            if isinstance(s, bool):
                raise TypeError(f"Slice: unsupported slice {s!r}")
            if isinstance(s, numbers.Integral):
                parsed.append([int(s)])
            elif isinstance(s, (list, tuple)) and all(isinstance(v, numbers.Integral) for v in s):
                parsed.append([int(v) for v in s])
            elif s is None:
                parsed.append(slice(None))
            elif isinstance(s, slice) or s is Ellipsis:
                parsed.append(s)
            else:
                raise TypeError(f"Slice: each slice must be int, list of int, slice, None or Ellipsis, got {s!r}")
        if sum(s is Ellipsis for s in parsed) > 1:
            raise ValueError("Slice: at most one Ellipsis is allowed")
        self.slices = parsed

    def _apply_batch(self, rng, x):
        rank = x.ndim - 1
        slices = list(self.slices)
        if Ellipsis in slices:
            i = slices.index(Ellipsis)
            slices[i:i + 1] = [slice(None)] * (rank - len(slices) + 1)
        if len(slices) > rank:
            raise RuntimeError(f"Slice: {len(slices)} slices given for a tensor of rank {rank}")
        for axis, s in enumerate(slices, start=1):
            if isinstance(s, list):
                size = x.shape[axis]
                if any(not -size <= v < size for v in s):
                    raise RuntimeError(f"Slice: index {s} out of range for dimension {axis - 1} of size {size}")
                x = np.take(x, s, axis=axis)
            else:
                x = x[(slice(None),) * axis + (s,)]
        return x
