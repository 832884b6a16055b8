"""Tensor's elementwise, arithmetic and comparison methods (``exp``, ``clip``, ``add``, ``gt`` ...)."""
import jax
import jax.numpy as jnp

from ._tensor_methods import _a, _w, _wf


class TensorMathMethods:
    """Mixin: elementwise methods; ``self._value`` is the underlying array."""

    __slots__ = ()

    # ---- elementwise ----
    def abs(self):
        return _w(jnp.abs(self._value))

    absolute = abs

    def neg(self):
        return _w(jnp.negative(self._value))

    negative = neg

    def exp(self):
        return _wf(jnp.exp(self._value), self._value)

    def log(self):
        return _wf(jnp.log(self._value), self._value)

    def log1p(self):
        return _wf(jnp.log1p(self._value), self._value)

    def sqrt(self):
        return _wf(jnp.sqrt(self._value), self._value)

    def rsqrt(self):
        return _wf(jax.lax.rsqrt(self._value.astype(jnp.result_type(self._value, jnp.float32))), self._value)

    def square(self):
        return _w(jnp.square(self._value))

    def reciprocal(self):
        return _wf(jnp.reciprocal(self._value.astype(jnp.result_type(self._value, jnp.float32))), self._value)

    def pow(self, exponent):
        return self ** exponent

    def sin(self):
        return _wf(jnp.sin(self._value), self._value)

    def cos(self):
        return _wf(jnp.cos(self._value), self._value)

    def sigmoid(self):
        return _wf(jax.nn.sigmoid(self._value), self._value)

    def tanh(self):
        return _wf(jnp.tanh(self._value), self._value)

    def softmax(self, axis=-1):
        return _wf(jax.nn.softmax(self._value, axis=axis), self._value)

    def relu(self):
        return _w(jax.nn.relu(self._value))

    def sign(self):
        return _w(jnp.sign(self._value))

    def round(self, decimals=0):
        return _w(jnp.round(self._value, decimals))

    def floor(self):
        return _w(jnp.floor(self._value))

    def ceil(self):
        return _w(jnp.ceil(self._value))

    def trunc(self):
        return _w(jnp.trunc(self._value))

    def clip(self, xmin=None, xmax=None):
        return _w(jnp.clip(self._value, _a(xmin), _a(xmax)))

    clamp = clip

    def add(self, other, *, alpha=1):
        return self + (other if alpha == 1 else other * alpha)

    def sub(self, other, *, alpha=1):
        return self - (other if alpha == 1 else other * alpha)

    def mul(self, other):
        return self * other

    multiply = mul

    def div(self, other, *, rounding_mode=None):
        if rounding_mode == "floor":
            return self // other
        if rounding_mode == "trunc":
            return (self / other).trunc()
        return self / other

    divide = true_divide = div

    def floor_divide(self, other):
        return self // other

    def remainder(self, other):
        return self % other

    def maximum(self, other):
        return _w(jnp.maximum(self._value, _a(other)))

    def minimum(self, other):
        return _w(jnp.minimum(self._value, _a(other)))

    def matmul(self, other):
        return self @ other

    def dot(self, other):
        return _w(jnp.dot(self._value, _a(other)))

    def equal(self, other):
        return self == other

    eq = equal

    def ne(self, other):
        return self != other

    not_equal = ne

    def gt(self, other):
        return self > other

    greater = gt

    def ge(self, other):
        return self >= other

    greater_equal = ge

    def lt(self, other):
        return self < other

    less = lt

    def le(self, other):
        return self <= other

    less_equal = le

    def logical_not(self):
        return _w(jnp.logical_not(self._value))

    def logical_and(self, other):
        return _w(jnp.logical_and(self._value, _a(other)))

    def logical_or(self, other):
        return _w(jnp.logical_or(self._value, _a(other)))

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return _w(jnp.isclose(self._value, _a(other), rtol, atol, equal_nan))

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return bool(jnp.allclose(self._value, _a(other), rtol, atol, equal_nan))

    def isfinite(self):
        return _w(jnp.isfinite(self._value))

    def isnan(self):
        return _w(jnp.isnan(self._value))

    def isinf(self):
        return _w(jnp.isinf(self._value))

    def lerp(self, end, weight):
        v = self._value
        return _w(v + _a(weight) * (_a(end) - v))

    def diag(self):
        return _w(jnp.diag(self._value))

    def trace(self):
        return _w(jnp.trace(self._value))

    def tril(self, diagonal=0):
        return _w(jnp.tril(self._value, diagonal))

    def triu(self, diagonal=0):
        return _w(jnp.triu(self._value, diagonal))
