"""The array methods of ``Tensor`` (``reshape``, ``sum``, ``argmax`` ...).

Methods that compute reach their functional op through the op table (``_tensor_registry.lookup``), so the
op's dtype rule applies; the rest are views of the Tensor's metadata or dtype/shape conversions.
"""
import jax.numpy as jnp
import numpy as np

from . import dtype as mstype
from ._tensor_registry import lookup

_F64 = np.dtype(np.float64)


# Tensor's own helpers, handed over by common.tensor when it builds the Tensor class from this mixin (this
# module sits below it: it never imports common.tensor).
_TENSOR_HELPERS = {}


def provide(**helpers):
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


class TensorMethods:
    """Mixin with MindSpore's Tensor methods; ``self._value`` is the underlying array."""

    __slots__ = ()

    # ---- dtype / copies ----
    def astype(self, dtype, copy=True):
        """A copy cast to ``dtype`` (``ms.int32``, ``np.float32``, ``'float16'`` ...)."""
        return _w(self._value.astype(_np_dtype(dtype)))

    def to(self, dtype=None, non_blocking=False, copy=False):
        """A copy cast to ``dtype`` (``to()`` returns self)."""
        return self if dtype is None else self.astype(dtype)

    def float(self):
        return self.astype(mstype.float32)

    def half(self):
        return self.astype(mstype.float16)

    def double(self):
        return self.astype(mstype.float64)

    def int(self):
        return self.astype(mstype.int32)

    def long(self):
        return self.astype(mstype.int64)

    def bool(self):
        return self.astype(mstype.bool_)

    def set_dtype(self, dtype):
        self._set_value(self._value.astype(_np_dtype(dtype)))
        return self

    def copy(self):
        return _w(jnp.array(self._value, copy=True))

    clone = copy

    def contiguous(self):
        return self

    def is_contiguous(self):
        return True

    def assign_value(self, value):
        self._set_value(_TENSOR_HELPERS["to_array"](value, self.dtype))
        return self

    def fill(self, value):
        return lookup("full_like")(self, value)

    def item(self, index=None):
        a = self.asnumpy()
        return a.item() if index is None else a.item(index)

    def tolist(self):
        return self.asnumpy().tolist()

    def numel(self):
        return self.size

    nelement = numel

    def dim(self):
        return self.ndim

    # ---- shape ----
    def reshape(self, *shape):
        return lookup("reshape")(self, _shape_args(shape))

    def view(self, *shape):
        return self.reshape(*shape)

    def view_as(self, other):
        return self.reshape(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def transpose(self, *axes):
        axes = _shape_args(axes) if axes else tuple(reversed(range(self.ndim)))
        return lookup("transpose")(self, axes)

    def permute(self, *axes):
        return self.transpose(*axes)

    def swapaxes(self, axis0, axis1):
        return lookup("swapaxes")(self, axis0, axis1)

    def t(self):
        return lookup("t")(self)

    def flatten(self, order="C", *, start_dim=0, end_dim=-1):
        v = self._value
        if v.ndim == 0:
            return _w(v.reshape(1))
        s, e = start_dim % v.ndim, end_dim % v.ndim
        return self.reshape(v.shape[:s] + (-1,) + v.shape[e + 1:])

    def ravel(self):
        return lookup("ravel")(self)

    def squeeze(self, axis=None):
        return lookup("squeeze")(self, _axis(axis))

    def expand_dims(self, axis):
        return lookup("expand_dims")(self, axis)

    def unsqueeze(self, dim):
        return self.expand_dims(dim)

    def broadcast_to(self, shape):
        return lookup("broadcast_to")(self, tuple(shape))

    def expand_as(self, other):
        return self.broadcast_to(other.shape)

    def tile(self, reps):
        return lookup("tile")(self, tuple(reps))

    def repeat(self, repeats, axis=None):
        return lookup("repeat_interleave")(self, repeats, axis)

    def flip(self, dims):
        return lookup("flip")(self, _axis(dims) if not isinstance(dims, int) else (dims,))

    def narrow(self, axis, start, length):
        return lookup("narrow")(self, axis, start, length)

    def split(self, split_size_or_sections, axis=0):
        return lookup("split")(self, split_size_or_sections, axis)

    def chunk(self, chunks, axis=0):
        return lookup("chunk")(self, chunks, axis)

    def gather(self, input_indices, axis, batch_dims=0):
        return lookup("gather")(self, input_indices, axis, batch_dims)

    def index_select(self, axis, index):
        return lookup("index_select")(self, axis, index)

    def masked_fill(self, mask, value):
        return lookup("masked_fill")(self, mask, value)

    def masked_select(self, mask):
        return lookup("masked_select")(self, mask)

    def where(self, condition, y):
        return lookup("where")(condition, self, y)

    def nonzero(self, as_tuple=False):
        return lookup("nonzero")(self, as_tuple)

    # ---- reductions (MindSpore's Tensor keyword names, computed by the functional ops) ----
    # MindSpore 2.10's Tensor methods have two overloads each: the NumPy-style one (axis / keepdims) and the
    # PyTorch-style one (dim / keepdim). Both keyword spellings are accepted here.
    def sum(self, axis=None, dtype=None, keepdims=False, initial=None, *, dim=None, keepdim=None):
        if isinstance(dtype, bool):  # sum(dim, keepdim) positionally
            dtype, keepdims = None, dtype
        axis, keepdims = _pick(axis, dim), _pick(keepdims, keepdim)
        out = lookup("sum")(self, _axis(axis), keepdims, dtype=dtype)
        return out if initial is None else out + initial

    def mean(self, axis=None, keep_dims=False, *, keepdims=None, dim=None, keepdim=None, dtype=None):
        keep = _pick(_pick(keep_dims, keepdims), keepdim)
        out = lookup("mean")(self, _axis(_pick(axis, dim)), keep)
        return out if dtype is None else out.astype(dtype)

    def prod(self, axis=None, keep_dims=False, dtype=None, *, dim=None, keepdim=None):
        return lookup("prod")(self, _axis(_pick(axis, dim)), _pick(keep_dims, keepdim), dtype)

    def max(self, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False, dim=None,
            keepdim=None):
        """Maximum; ``max(dim=d)`` (the PyTorch-style overload) returns (values, indices)."""
        values, index = lookup("max")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim), initial=initial,
                                      where=None if where is True else where)
        return (values, index) if return_indices or dim is not None else values

    def min(self, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False, dim=None,
            keepdim=None):
        """Minimum; ``min(dim=d)`` (the PyTorch-style overload) returns (values, indices)."""
        values, index = lookup("min")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim), initial=initial,
                                      where=None if where is True else where)
        return (values, index) if return_indices or dim is not None else values

    def amax(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        return lookup("amax")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim))

    def amin(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        return lookup("amin")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim))

    def argmax(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        return lookup("argmax")(self, _pick(axis, dim), _pick(keepdims, keepdim))

    def argmin(self, axis=None, keepdims=False, *, dim=None, keepdim=None):
        return lookup("argmin")(self, _pick(axis, dim), _pick(keepdims, keepdim))

    def argmax_with_value(self, axis=0, keep_dims=False):
        """(value, index) of the maximum along ``axis``."""
        return lookup("max")(self, axis, keep_dims)

    def argmin_with_value(self, axis=0, keep_dims=False):
        """(value, index) of the minimum along ``axis``."""
        return lookup("min")(self, axis, keep_dims)

    def argsort(self, axis=-1, descending=False, *, dim=None, stable=False):
        return lookup("argsort")(self, _pick(axis, dim), descending)

    def std(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None, keepdim=None):
        return lookup("std")(self, _axis(_pick(axis, dim)), _pick(ddof, correction), _pick(keepdims, keepdim))

    def var(self, axis=None, ddof=0, keepdims=False, *, dim=None, correction=None, keepdim=None):
        return lookup("var")(self, _axis(_pick(axis, dim)), _pick(ddof, correction), _pick(keepdims, keepdim))

    def norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):
        return lookup("norm")(self, ord, dim, keepdim, dtype=dtype)

    def all(self, axis=None, keep_dims=False, *, dim=None, keepdim=None):
        return lookup("all")(self, _axis(_pick(axis, dim)), _pick(keep_dims, keepdim))

    def any(self, axis=None, keep_dims=False, *, dim=None, keepdim=None):
        return lookup("any")(self, _axis(_pick(axis, dim)), _pick(keep_dims, keepdim))

    def cumsum(self, axis=None, dtype=None, *, dim=None):
        axis = _pick(axis, dim)
        if axis is None:
            return lookup("cumsum")(self.reshape(-1), 0, dtype)
        return lookup("cumsum")(self, axis, dtype)

    def sort(self, axis=-1, descending=False, *, dim=None, stable=False):
        return lookup("sort")(self, _pick(axis, dim), descending)

    def topk(self, k, dim=None, largest=True, sorted=True):
        return lookup("topk")(self, k, dim, largest, sorted)

    def logsumexp(self, dim, keepdim=False):
        return lookup("logsumexp")(self, dim, keepdim)

    def nansum(self, axis=None, keepdims=False, *, dtype=None, dim=None, keepdim=None):
        return lookup("nansum")(self, _axis(_pick(axis, dim)), _pick(keepdims, keepdim), dtype=dtype)

    def ptp(self, axis=None, keepdims=False):
        """max - min along ``axis``."""
        return self.amax(axis, keepdims) - self.amin(axis, keepdims)
