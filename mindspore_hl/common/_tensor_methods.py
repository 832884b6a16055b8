"""The array methods of ``Tensor`` (``reshape``, ``sum``, ``argmax`` ...).

Methods that compute reach their functional op through the op table (``_tensor_registry.lookup``), so the
op's dtype rule applies; the rest are views of the Tensor's metadata or dtype/shape conversions.
"""
from __future__ import annotations

# ``builtins.int`` etc. in annotations: the methods ``int``, ``float`` and ``bool`` below shadow the builtins.
import builtins
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from . import dtype as mstype
from ._device_arrays import copy_array
from ._tensor_mixin import TensorMixin
from ._tensor_registry import lookup

if TYPE_CHECKING:  # common.tensor builds Tensor from this mixin: a runtime import would be circular
    from .tensor import Tensor

_F64 = np.dtype(np.float64)


# Tensor's own helpers, handed over by common.tensor when it builds the Tensor class from this mixin (this
# module sits below it: it never imports common.tensor).
_TENSOR_HELPERS: dict[str, Callable[..., Any]] = {}


def provide(**helpers: Any) -> None:
    """Receive ``wrap``, ``operand`` and ``to_array`` from common.tensor."""
    _TENSOR_HELPERS.update(helpers)


def _w(x):
    return _TENSOR_HELPERS["wrap"](x)


def _wf(out, src):
    """Wrap ``out``; keep Float32 where JAX's x64 mode would widen a non-Float64 input to Float64."""
    if out.dtype == _F64 and src.dtype != _F64:  # both are real dtypes here (never None)
        out = out.astype(np.float32)
    return _w(out)


def _a(x):
    return _TENSOR_HELPERS["operand"](x)


def _shape_args(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    # Only Tensors are converted: symbolic dimensions (jax.export) must pass through untouched.
    return tuple(int(_a(s)) if hasattr(s, "_value") else s for s in shape)


def _axis(axis):
    if axis is None or isinstance(axis, int):
        return axis
    if isinstance(axis, (tuple, list)):
        return tuple(axis) if axis else None
    return int(np.asarray(_a(axis)))


def _pick(old, new):
    """The PyTorch-style keyword's value when given, else the NumPy-style one (MindSpore's two overloads)."""
    return old if new is None else new


def _np_dtype(dtype):
    return mstype.to_ms_dtype(dtype).to_numpy()


class TensorMethods(TensorMixin):
    """Mixin with MindSpore's Tensor methods; ``self._value`` is the underlying array."""

    __slots__ = ()

    # ---- dtype / copies ----
    def astype(self, dtype: mstype.Type | np.dtype | type | str, copy: builtins.bool = True) -> Tensor:
        """A copy cast to ``dtype`` (``ms.int32``, ``np.float32``, ``'float16'`` ...)."""
        return _w(self._value.astype(_np_dtype(dtype)))

    def to(self, dtype: mstype.Type | np.dtype | type | str | None = None, non_blocking: builtins.bool = False,
           copy: builtins.bool = False) -> Tensor:
        """A copy cast to ``dtype`` (``to()`` returns self)."""
        return self if dtype is None else self.astype(dtype)  # type: ignore[return-value]  # self is a Tensor

    def float(self) -> Tensor:
        return self.astype(mstype.float32)

    def half(self) -> Tensor:
        return self.astype(mstype.float16)

    def double(self) -> Tensor:
        return self.astype(mstype.float64)

    def int(self) -> Tensor:
        return self.astype(mstype.int32)

    def long(self) -> Tensor:
        return self.astype(mstype.int64)

    def bool(self) -> Tensor:
        return self.astype(mstype.bool_)

    def set_dtype(self, dtype: mstype.Type | np.dtype | type | str) -> mstype.Type:
        """Cast this Tensor's values to ``dtype`` in place; returns the new dtype (as MindSpore does)."""
        self._set_value(self._value.astype(_np_dtype(dtype)))
        return self.dtype

    def copy(self) -> Tensor:
        return _w(copy_array(self._value))

    clone = copy

    def contiguous(self) -> Tensor:
        return self  # type: ignore[return-value]  # self is a Tensor (this class is its mixin)

    def is_contiguous(self) -> builtins.bool:
        return True

    def assign_value(self, value: Tensor | builtins.float) -> Tensor:
        self._set_value(_TENSOR_HELPERS["to_array"](value, self.dtype))
        return self  # type: ignore[return-value]  # self is a Tensor (this class is its mixin)

    def fill(self, value: Tensor | builtins.float) -> Tensor:
        return lookup("full_like")(self, value)

    def item(self, index: builtins.int | tuple[builtins.int, ...] | None = None) -> Any:
        a = self.asnumpy()
        return a.item() if index is None else a.item(index)

    def tolist(self) -> Any:
        return self.asnumpy().tolist()

    def numel(self) -> builtins.int:
        return self.size

    nelement = numel

    def dim(self) -> builtins.int:
        return self.ndim

    # ---- shape ----
    def reshape(self, *shape: builtins.int | Sequence[builtins.int]) -> Tensor:
        return lookup("reshape")(self, _shape_args(shape))

    def view(self, *shape: builtins.int | Sequence[builtins.int]) -> Tensor:
        return self.reshape(*shape)

    def view_as(self, other: Tensor) -> Tensor:
        return self.reshape(other.shape)

    def reshape_as(self, other: Tensor) -> Tensor:
        return self.reshape(other.shape)

    def transpose(self, *axes: builtins.int | Sequence[builtins.int]) -> Tensor:
        axes = _shape_args(axes) if axes else tuple(reversed(range(self.ndim)))
        return lookup("transpose")(self, axes)

    def permute(self, *axes: builtins.int | Sequence[builtins.int]) -> Tensor:
        return self.transpose(*axes)

    def swapaxes(self, axis0: builtins.int, axis1: builtins.int) -> Tensor:
        return lookup("swapaxes")(self, axis0, axis1)

    def t(self) -> Tensor:
        return lookup("t")(self)

    def flatten(self, order: str = "C", *, start_dim: builtins.int = 0, end_dim: builtins.int = -1) -> Tensor:
        v = self._value
        if v.ndim == 0:
            return _w(v.reshape(1))
        s, e = start_dim % v.ndim, end_dim % v.ndim
        return self.reshape(v.shape[:s] + (-1,) + v.shape[e + 1:])

    def ravel(self) -> Tensor:
        return lookup("ravel")(self)

    def squeeze(self, axis: builtins.int | tuple[builtins.int, ...] | None = None) -> Tensor:
        return lookup("squeeze")(self, _axis(axis))

    def expand_dims(self, axis: builtins.int) -> Tensor:
        return lookup("expand_dims")(self, axis)

    def unsqueeze(self, dim: builtins.int) -> Tensor:
        return self.expand_dims(dim)

    def broadcast_to(self, shape: tuple[builtins.int, ...]) -> Tensor:
        return lookup("broadcast_to")(self, tuple(shape))

    def expand_as(self, other: Tensor) -> Tensor:
        return self.broadcast_to(other.shape)

    def tile(self, reps: tuple[builtins.int, ...]) -> Tensor:
        return lookup("tile")(self, tuple(reps))

    def repeat(self, *repeats: builtins.int | Sequence[builtins.int]) -> Tensor:
        """``repeat(*repeats)`` or ``repeat(repeats)``: this Tensor tiled ``repeats[i]`` times along axis ``i``;
        extra leading repeats add axes (MindSpore 2.10's overloads, as ``torch.Tensor.repeat``; the element-wise
        repeat is ``repeat_interleave``).

        >>> Tensor([[0, 1]]).repeat(2, 2).asnumpy().tolist()
        [[0, 1, 0, 1], [0, 1, 0, 1]]
        """
        given = tuple(repeats[0]) if len(repeats) == 1 and isinstance(repeats[0], (tuple, list)) else repeats
        if not all(isinstance(r, builtins.int) and not isinstance(r, builtins.bool) for r in given):
            raise TypeError(f"Tensor.repeat: repeats must be ints (or one tuple/list of ints), but got {repeats!r}.")
        reps = tuple(builtins.int(r) for r in given)  # type: ignore[arg-type]  # ints, checked above
        if len(reps) < self.ndim or builtins.min(reps, default=0) < 0:
            raise ValueError(f"Tensor.repeat: repeats must be {self.ndim} or more non-negative ints (one per axis of "
                             f"the Tensor of shape {self.shape}), but got {reps}.")
        return lookup("tile")(self, reps)

    def flip(self, dims: tuple[builtins.int, ...]) -> Tensor:
        return lookup("flip")(self, _axis(dims) if not isinstance(dims, int) else (dims,))

    def narrow(self, axis: builtins.int, start: builtins.int, length: builtins.int) -> Tensor:
        return lookup("narrow")(self, axis, start, length)

    def split(self, split_size_or_sections: builtins.int | Sequence[builtins.int],
              axis: builtins.int = 0) -> tuple[Tensor, ...]:
        return lookup("split")(self, split_size_or_sections, axis)

    def chunk(self, chunks: builtins.int, axis: builtins.int = 0) -> tuple[Tensor, ...]:
        return lookup("chunk")(self, chunks, axis)

    def gather(self, input_indices: Tensor, axis: builtins.int,
               batch_dims: builtins.int = 0) -> Tensor:
        return lookup("gather")(self, input_indices, axis, batch_dims)

    def index_select(self, axis: builtins.int, index: Tensor) -> Tensor:
        return lookup("index_select")(self, axis, index)

    def masked_fill(self, mask: Tensor, value: Tensor | builtins.float) -> Tensor:
        return lookup("masked_fill")(self, mask, value)

    def masked_select(self, mask: Tensor) -> Tensor:
        return lookup("masked_select")(self, mask)

    def where(self, condition: Tensor, y: Tensor | builtins.float) -> Tensor:
        return lookup("where")(condition, self, y)

    def nonzero(self, as_tuple: builtins.bool = False) -> Tensor | tuple[Tensor, ...]:
        return lookup("nonzero")(self, as_tuple)

    # ---- reductions (MindSpore's Tensor keyword names, computed by the functional ops) ----
    # MindSpore 2.10's Tensor methods have two overloads each: the NumPy-style one (axis / keepdims) and the
    # PyTorch-style one (dim / keepdim). Both keyword spellings are accepted here.
    def sum(self, axis: builtins.int | tuple[builtins.int, ...] | None = None,
            dtype: mstype.Type | builtins.bool | None = None, keepdims: builtins.bool = False,
            initial: builtins.float | None = None, *, dim: builtins.int | tuple[builtins.int, ...] | None = None,
            keepdim: builtins.bool | None = None) -> Tensor:
        if isinstance(dtype, bool):  # sum(dim, keepdim) positionally
            dtype, keepdims = None, dtype  # type: ignore[assignment]  # mypy keeps dtype narrowed to bool here
        axis, keepdims = _pick(axis, dim), _pick(keepdims, keepdim)
        out = lookup("sum")(self, _axis(axis), keepdims, dtype=dtype)
        return out if initial is None else out + initial

    def mean(self, axis: builtins.int | tuple[builtins.int, ...] | None = None, keep_dims: builtins.bool = False, *,
             keepdims: builtins.bool | None = None, dim: builtins.int | tuple[builtins.int, ...] | None = None,
             keepdim: builtins.bool | None = None, dtype: mstype.Type | None = None) -> Tensor:
        keep = _pick(_pick(keep_dims, keepdims), keepdim)
        out = lookup("mean")(self, _axis(_pick(axis, dim)), keep)
        return out if dtype is None else out.astype(dtype)

    def prod(self, axis: builtins.int | tuple[builtins.int, ...] | None = None, keep_dims: builtins.bool = False,
             dtype: mstype.Type | None = None, *, dim: builtins.int | tuple[builtins.int, ...] | None = None,
             keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("prod")(self, _axis(_pick(axis, dim)), _pick(keep_dims, keepdim), dtype)

    def max(self, axis: builtins.int | None = None, keepdims: builtins.bool = False, *,
            initial: builtins.float | None = None, where: Tensor | builtins.bool = True,
            return_indices: builtins.bool = False, dim: builtins.int | None = None,
            keepdim: builtins.bool | None = None) -> Tensor | tuple[Tensor, Tensor]:
        """Maximum; ``max(dim=d)`` (the PyTorch-style overload) returns (values, indices)."""
        values, index = lookup("max")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim), initial=initial,
                                      where=None if where is True else where)
        return (values, index) if return_indices or dim is not None else values

    def min(self, axis: builtins.int | None = None, keepdims: builtins.bool = False, *,
            initial: builtins.float | None = None, where: Tensor | builtins.bool = True,
            return_indices: builtins.bool = False, dim: builtins.int | None = None,
            keepdim: builtins.bool | None = None) -> Tensor | tuple[Tensor, Tensor]:
        """Minimum; ``min(dim=d)`` (the PyTorch-style overload) returns (values, indices)."""
        values, index = lookup("min")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim), initial=initial,
                                      where=None if where is True else where)
        return (values, index) if return_indices or dim is not None else values

    def amax(self, axis: builtins.int | tuple[builtins.int, ...] | None = None, keepdims: builtins.bool = False, *,
             dim: builtins.int | tuple[builtins.int, ...] | None = None,
             keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("amax")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim))

    def amin(self, axis: builtins.int | tuple[builtins.int, ...] | None = None, keepdims: builtins.bool = False, *,
             dim: builtins.int | tuple[builtins.int, ...] | None = None,
             keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("amin")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim))

    def argmax(self, axis: builtins.int | None = None, keepdims: builtins.bool = False, *,
               dim: builtins.int | None = None,
               keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("argmax")(self, _pick(axis, dim), _pick(keepdims, keepdim))

    def argmin(self, axis: builtins.int | None = None, keepdims: builtins.bool = False, *,
               dim: builtins.int | None = None,
               keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("argmin")(self, _pick(axis, dim), _pick(keepdims, keepdim))

    def argmax_with_value(self, axis: builtins.int = 0,
                          keep_dims: builtins.bool = False) -> tuple[Tensor, Tensor]:
        """(value, index) of the maximum along ``axis``."""
        return lookup("max")(self, axis, keep_dims)

    def argmin_with_value(self, axis: builtins.int = 0,
                          keep_dims: builtins.bool = False) -> tuple[Tensor, Tensor]:
        """(value, index) of the minimum along ``axis``."""
        return lookup("min")(self, axis, keep_dims)

    def argsort(self, axis: builtins.int = -1, descending: builtins.bool = False, *,
                dim: builtins.int | None = None, stable: builtins.bool = False) -> Tensor:
        return lookup("argsort")(self, _pick(axis, dim), descending)

    def std(self, axis: builtins.int | tuple[builtins.int, ...] | None = None, ddof: builtins.int = 0,
            keepdims: builtins.bool = False, *, dim: builtins.int | tuple[builtins.int, ...] | None = None,
            correction: builtins.int | None = None, keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("std")(self, _axis(_pick(axis, dim)), _pick(ddof, correction), _pick(keepdims, keepdim))

    def var(self, axis: builtins.int | tuple[builtins.int, ...] | None = None, ddof: builtins.int = 0,
            keepdims: builtins.bool = False, *, dim: builtins.int | tuple[builtins.int, ...] | None = None,
            correction: builtins.int | None = None, keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("var")(self, _axis(_pick(axis, dim)), _pick(ddof, correction), _pick(keepdims, keepdim))

    def norm(self, ord: builtins.int | builtins.float | str | None = None,
             dim: builtins.int | tuple[builtins.int, ...] | None = None, keepdim: builtins.bool = False, *,
             dtype: mstype.Type | None = None) -> Tensor:
        return lookup("norm")(self, ord, dim, keepdim, dtype=dtype)

    def all(self, axis: builtins.int | tuple[builtins.int, ...] | None = None, keep_dims: builtins.bool = False, *,
            dim: builtins.int | tuple[builtins.int, ...] | None = None, keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("all")(self, _axis(_pick(axis, dim)), _pick(keep_dims, keepdim))

    def any(self, axis: builtins.int | tuple[builtins.int, ...] | None = None, keep_dims: builtins.bool = False, *,
            dim: builtins.int | tuple[builtins.int, ...] | None = None, keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("any")(self, _axis(_pick(axis, dim)), _pick(keep_dims, keepdim))

    def cumsum(self, axis: builtins.int | None = None, dtype: mstype.Type | None = None, *,
               dim: builtins.int | None = None) -> Tensor:
        axis = _pick(axis, dim)
        if axis is None:
            return lookup("cumsum")(self.reshape(-1), 0, dtype)
        return lookup("cumsum")(self, axis, dtype)

    def sort(self, axis: builtins.int = -1, descending: builtins.bool = False, *,
             dim: builtins.int | None = None,
             stable: builtins.bool = False) -> tuple[Tensor, Tensor]:
        return lookup("sort")(self, _pick(axis, dim), descending)

    def topk(self, k: builtins.int, dim: builtins.int | None = None,
             largest: builtins.bool = True, sorted: builtins.bool = True) -> tuple[Tensor, Tensor]:
        return lookup("topk")(self, k, dim, largest, sorted)

    def logsumexp(self, dim: builtins.int | tuple[builtins.int, ...], keepdim: builtins.bool = False) -> Tensor:
        return lookup("logsumexp")(self, dim, keepdim)

    def nansum(self, axis: builtins.int | tuple[builtins.int, ...] | None = None, keepdims: builtins.bool = False, *,
               dtype: mstype.Type | None = None, dim: builtins.int | tuple[builtins.int, ...] | None = None,
               keepdim: builtins.bool | None = None) -> Tensor:
        return lookup("nansum")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim), dtype=dtype)

    def ptp(self, axis: builtins.int | tuple[builtins.int, ...] | None = None,
            keepdims: builtins.bool = False) -> Tensor:
        """max - min along ``axis``."""
        return self.amax(axis, keepdims) - self.amin(axis, keepdims)
