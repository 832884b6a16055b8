"""The array methods of ``Tensor`` (``reshape``, ``sum``, ``argmax`` ...), each a thin call into jax.numpy."""
import jax.numpy as jnp

from . import dtype as mstype


def _w(x):
    from .tensor import wrap
    return wrap(x)


def _a(x):
    from .tensor import Tensor
    return x._value if isinstance(x, Tensor) else x


def _shape_args(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    return tuple(int(_a(s)) if not isinstance(s, int) else s for s in shape)


def _axis(axis):
    if axis is None or isinstance(axis, int):
        return axis
    return tuple(axis) if not hasattr(axis, "_value") else int(axis.asnumpy())


class TensorMethods:
    """Mixin with MindSpore's Tensor methods; ``self._value`` is the underlying array."""

    __slots__ = ()

    # ---- shape ----
    def reshape(self, *shape):
        return _w(jnp.reshape(self._value, _shape_args(shape)))

    view = reshape

    def transpose(self, *axes):
        axes = _shape_args(axes) if axes else None
        return _w(jnp.transpose(self._value, axes))

    def permute(self, *axes):
        return self.transpose(*axes)

    def swapaxes(self, axis0, axis1):
        return _w(jnp.swapaxes(self._value, axis0, axis1))

    def flatten(self, start_dim=0, end_dim=-1):
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

    # ---- reductions ----
    def sum(self, axis=None, dtype=None, keepdims=False, initial=None):
        v = self._value
        dt = mstype.to_ms_dtype(dtype).to_numpy() if dtype is not None else (
            v.dtype if v.dtype != jnp.bool_ else jnp.int64)
        return _w(jnp.sum(v, _axis(axis), dtype=dt, keepdims=keepdims, initial=initial))

    def mean(self, axis=None, keep_dims=False, keepdims=None):
        return _w(jnp.mean(self._value, _axis(axis), keepdims=keep_dims if keepdims is None else keepdims))

    def prod(self, axis=None, keep_dims=False):
        return _w(jnp.prod(self._value, _axis(axis), keepdims=keep_dims))

    def max(self, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False):
        v = jnp.max(self._value, _axis(axis), keepdims=keepdims, initial=initial, where=where)
        if return_indices:
            return _w(v), _w(jnp.argmax(self._value, axis, keepdims=keepdims))
        return _w(v)

    def min(self, axis=None, keepdims=False, *, initial=None, where=True, return_indices=False):
        v = jnp.min(self._value, _axis(axis), keepdims=keepdims, initial=initial, where=where)
        if return_indices:
            return _w(v), _w(jnp.argmin(self._value, axis, keepdims=keepdims))
        return _w(v)

    def argmax(self, axis=None, keepdims=False):
        return _w(jnp.argmax(self._value, axis, keepdims=keepdims).astype(jnp.int64))

    def argmin(self, axis=None, keepdims=False):
        return _w(jnp.argmin(self._value, axis, keepdims=keepdims).astype(jnp.int64))

    def std(self, axis=None, ddof=0, keepdims=False):
        return _w(jnp.std(self._value, _axis(axis), ddof=ddof, keepdims=keepdims))

    def var(self, axis=None, ddof=0, keepdims=False):
        return _w(jnp.var(self._value, _axis(axis), ddof=ddof, keepdims=keepdims))

    def norm(self, ord=None, dim=None, keepdim=False):
        return _w(jnp.linalg.norm(self._value, ord, _axis(dim), keepdims=keepdim))

    def all(self, axis=None, keep_dims=False):
        return _w(jnp.all(self._value, _axis(axis), keepdims=keep_dims))

    def any(self, axis=None, keep_dims=False):
        return _w(jnp.any(self._value, _axis(axis), keepdims=keep_dims))

    def cumsum(self, axis=None, dtype=None):
        return _w(jnp.cumsum(self._value, axis))

    # ---- elementwise ----
    def abs(self):
        return _w(jnp.abs(self._value))

    def exp(self):
        return _w(jnp.exp(self._value))

    def log(self):
        return _w(jnp.log(self._value))

    def sqrt(self):
        return _w(jnp.sqrt(self._value))

    def square(self):
        return _w(jnp.square(self._value))

    def pow(self, exponent):
        return _w(jnp.power(self._value, _a(exponent)))

    def sigmoid(self):
        import jax
        return _w(jax.nn.sigmoid(self._value))

    def tanh(self):
        return _w(jnp.tanh(self._value))

    def round(self):
        return _w(jnp.round(self._value))

    def floor(self):
        return _w(jnp.floor(self._value))

    def ceil(self):
        return _w(jnp.ceil(self._value))

    def neg(self):
        return _w(-self._value)

    def clip(self, xmin=None, xmax=None):
        return _w(jnp.clip(self._value, _a(xmin), _a(xmax)))

    clamp = clip

    def add(self, other):
        return _w(self._value + _a(other))

    def sub(self, other):
        return _w(self._value - _a(other))

    def mul(self, other):
        return _w(self._value * _a(other))

    def div(self, other):
        return _w(self._value / _a(other))

    def matmul(self, other):
        return _w(jnp.matmul(self._value, _a(other)))

    def equal(self, other):
        return _w(self._value == _a(other))

    def masked_fill(self, mask, value):
        return _w(jnp.where(_a(mask), jnp.asarray(_a(value), self._value.dtype), self._value))

    def where(self, condition, y):
        return _w(jnp.where(_a(condition), self._value, _a(y)))

    def sort(self, axis=-1, descending=False):
        v = self._value
        idx = jnp.argsort(-v if descending else v, axis=axis)
        return _w(jnp.take_along_axis(v, idx, axis)), _w(idx.astype(jnp.int64))

    def topk(self, k, dim=-1, largest=True, sorted=True):
        v = self._value
        vals, idx = _topk(v if largest else -v, k, dim)
        return _w(vals if largest else -vals), _w(idx.astype(jnp.int64))

    def isfinite(self):
        return _w(jnp.isfinite(self._value))

    def isnan(self):
        return _w(jnp.isnan(self._value))

    def nonzero(self):
        import numpy as np
        return _w(jnp.asarray(np.stack(np.nonzero(np.asarray(self._value)), -1)))


def _topk(v, k, dim):
    import jax
    moved = jnp.moveaxis(v, dim, -1)
    vals, idx = jax.lax.top_k(moved, k)
    return jnp.moveaxis(vals, -1, dim), jnp.moveaxis(idx, -1, dim)
