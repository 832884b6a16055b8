"""The array methods of ``Tensor`` (``reshape``, ``sum``, ``argmax`` ...), each a thin call into jax.numpy."""
import jax
import jax.numpy as jnp
import numpy as np

from . import dtype as mstype

_F64 = np.dtype(np.float64)


def _w(x):
    from .tensor import wrap
    return wrap(x)


def _wf(out, src):
    """Wrap ``out``; keep Float32 where JAX's x64 mode would widen a non-Float64 input to Float64."""
    if out.dtype == _F64 and src.dtype != _F64:  # both are real dtypes here (never None)
        out = out.astype(np.float32)
    return _w(out)


def _a(x):
    from .tensor import _operand
    return _operand(x)


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


def _np_dtype(dtype):
    return mstype.to_ms_dtype(dtype).to_numpy()


class TensorMethods:
    """Mixin with MindSpore's Tensor methods; ``self._value`` is the underlying array."""

    __slots__ = ()

    # ---- dtype / copies ----
    def astype(self, dtype, copy=True):
        """A copy cast to ``dtype`` (``ms.int32``, ``np.float32``, ``'float16'`` ...)."""
        return _w(self._value.astype(_np_dtype(dtype)))

    to = astype

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
        from .tensor import to_array
        self._set_value(to_array(value, self.dtype))
        return self

    def fill(self, value):
        return _w(jnp.full(self.shape, _a(value), self._value.dtype))

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
        return _w(jnp.reshape(self._value, _shape_args(shape)))

    def view(self, *shape):
        return self.reshape(*shape)

    def view_as(self, other):
        return self.reshape(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def transpose(self, *axes):
        axes = _shape_args(axes) if axes else None
        return _w(jnp.transpose(self._value, axes))

    def permute(self, *axes):
        return self.transpose(*axes)

    def swapaxes(self, axis0, axis1):
        return _w(jnp.swapaxes(self._value, axis0, axis1))

    def t(self):
        return _w(jnp.transpose(self._value))

    def flatten(self, order="C", *, start_dim=0, end_dim=-1):
        v = self._value
        if v.ndim == 0:
            return _w(v.reshape(1))
        s, e = start_dim % v.ndim, end_dim % v.ndim
        return _w(v.reshape(v.shape[:s] + (-1,) + v.shape[e + 1:]))

    def ravel(self):
        return _w(jnp.ravel(self._value))

    def squeeze(self, axis=None):
        return _w(jnp.squeeze(self._value, _axis(axis)))

    def expand_dims(self, axis):
        return _w(jnp.expand_dims(self._value, axis))

    def unsqueeze(self, dim):
        return self.expand_dims(dim)

    def broadcast_to(self, shape):
        return _w(jnp.broadcast_to(self._value, tuple(shape)))

    def expand_as(self, other):
        return self.broadcast_to(other.shape)

    def tile(self, reps):
        return _w(jnp.tile(self._value, reps))

    def repeat(self, repeats, axis=None):
        return _w(jnp.repeat(self._value, repeats, axis))

    def flip(self, dims):
        return _w(jnp.flip(self._value, _axis(dims)))

    def narrow(self, axis, start, length):
        return _w(jax.lax.slice_in_dim(self._value, start, start + length, axis=axis))

    def split(self, split_size_or_sections, axis=0):
        from .. import ops
        return ops.split(self, split_size_or_sections, axis)

    def chunk(self, chunks, axis=0):
        from .. import ops
        return ops.chunk(self, chunks, axis)

    def gather(self, input_indices, axis, batch_dims=0):
        from .. import ops
        return ops.gather(self, input_indices, axis, batch_dims)

    def index_select(self, axis, index):
        return _w(jnp.take(self._value, _a(index), axis=axis))

    def masked_fill(self, mask, value):
        v = self._value
        return _w(jnp.where(_a(mask), jnp.asarray(_a(value), v.dtype), v))

    def masked_select(self, mask):
        return _w(jnp.asarray(np.asarray(self._value)[np.broadcast_to(np.asarray(_a(mask)), self.shape)]))

    def where(self, condition, y):
        return _w(jnp.where(_a(condition), self._value, _a(y)))

    def nonzero(self, as_tuple=False):
        idx = np.nonzero(self.asnumpy())
        if as_tuple:
            return tuple(_w(jnp.asarray(i, jnp.int64)) for i in idx)
        return _w(jnp.asarray(np.stack(idx, -1).astype(np.int64)))

    # ---- reductions ----
    def sum(self, axis=None, dtype=None, keepdims=False, initial=None):
        v = self._value
        dt = _np_dtype(dtype) if dtype is not None else (jnp.int64 if v.dtype == jnp.bool_ else None)
        return _w(jnp.sum(v, _axis(axis), dtype=dt, keepdims=keepdims, initial=initial))

    def mean(self, axis=None, keep_dims=False, *, keepdims=None):
        v = self._value
        return _wf(jnp.mean(v, _axis(axis), keepdims=keep_dims if keepdims is None else keepdims), v)

    def prod(self, axis=None, keep_dims=False, dtype=None):
        return _w(jnp.prod(self._value, _axis(axis), keepdims=keep_dims,
                           dtype=None if dtype is None else _np_dtype(dtype)))

    def max(self, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False):
        kw = {} if where is True else {"where": _a(where)}
        v = jnp.max(self._value, _axis(axis), keepdims=keepdims, initial=initial, **kw)
        if return_indices:
            return _w(v), _w(jnp.argmax(self._value, axis, keepdims=keepdims).astype(jnp.int64))
        return _w(v)

    def min(self, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False):
        kw = {} if where is True else {"where": _a(where)}
        v = jnp.min(self._value, _axis(axis), keepdims=keepdims, initial=initial, **kw)
        if return_indices:
            return _w(v), _w(jnp.argmin(self._value, axis, keepdims=keepdims).astype(jnp.int64))
        return _w(v)

    def amax(self, axis=None, keepdims=False):
        return _w(jnp.max(self._value, _axis(axis), keepdims=keepdims))

    def amin(self, axis=None, keepdims=False):
        return _w(jnp.min(self._value, _axis(axis), keepdims=keepdims))

    def argmax(self, axis=None, keepdims=False):
        return _w(jnp.argmax(self._value, axis, keepdims=keepdims).astype(jnp.int64))

    def argmin(self, axis=None, keepdims=False):
        return _w(jnp.argmin(self._value, axis, keepdims=keepdims).astype(jnp.int64))

    def argsort(self, axis=-1, descending=False):
        v = self._value
        return _w(jnp.argsort(v, axis=axis, stable=True, descending=descending).astype(jnp.int32))

    def std(self, axis=None, ddof=0, keepdims=False):
        v = self._value
        return _wf(jnp.std(v, _axis(axis), ddof=ddof, keepdims=keepdims), v)

    def var(self, axis=None, ddof=0, keepdims=False):
        v = self._value
        return _wf(jnp.var(v, _axis(axis), ddof=ddof, keepdims=keepdims), v)

    def norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):
        v = self._value
        return _wf(jnp.linalg.norm(v, ord, _axis(dim), keepdims=keepdim), v)

    def all(self, axis=None, keep_dims=False):
        return _w(jnp.all(self._value, _axis(axis), keepdims=keep_dims))

    def any(self, axis=None, keep_dims=False):
        return _w(jnp.any(self._value, _axis(axis), keepdims=keep_dims))

    def cumsum(self, axis=None, dtype=None):
        return _w(jnp.cumsum(self._value, axis, dtype=None if dtype is None else _np_dtype(dtype)))

    def sort(self, axis=-1, descending=False):
        v = self._value
        idx = jnp.argsort(v, axis=axis, stable=True, descending=descending)
        return _w(jnp.take_along_axis(v, idx, axis)), _w(idx.astype(jnp.int32))

    def topk(self, k, dim=None, largest=True, sorted=True):
        v = self._value
        dim = -1 if dim is None else dim
        moved = jnp.moveaxis(v if largest else -v, dim, -1)
        vals, idx = jax.lax.top_k(moved, k)
        vals, idx = jnp.moveaxis(vals, -1, dim), jnp.moveaxis(idx, -1, dim)
        return _w(vals if largest else -vals), _w(idx.astype(jnp.int32))
