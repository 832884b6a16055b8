"""Weight initializers (``mindspore.common.initializer``), seeded by ``ms.set_seed``."""
import math

import numpy as np

from . import dtype as mstype
from .seed import numpy_rng

__all__ = ["Initializer", "initializer", "Normal", "TruncatedNormal", "Uniform", "XavierUniform", "XavierNormal",
           "HeUniform", "HeNormal", "Constant", "One", "Zero", "Orthogonal", "Identity", "Dirac",
           "VarianceScaling"]


def _fans(shape):
    if len(shape) < 1:
        raise ValueError(f"Initializer: cannot compute fan-in/fan-out of a scalar (shape {tuple(shape)}).")
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive


def _gain(nonlinearity, param=None):
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Initializer: unsupported nonlinearity {nonlinearity!r}.")


class Initializer:
    """Base class: ``init(shape) -> np.ndarray`` in float64, cast by ``initializer``."""

    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def sample(self, shape, rng):
        raise NotImplementedError

    def __call__(self, arr):
        """MindSpore style: fill the NumPy array ``arr`` in place."""
        arr[...] = self.sample(arr.shape, numpy_rng())

    def __repr__(self):
        return f"<{type(self).__name__} object>"


class Normal(Initializer):
    def __init__(self, sigma=0.01, mean=0.0):
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def sample(self, shape, rng):
        return rng.normal(self.mean, self.sigma, shape)


class TruncatedNormal(Initializer):
    """Normal(mean, sigma) truncated to [a, b] (default: within two sigma)."""

    def __init__(self, sigma=0.01, mean=0.0, a=-2.0, b=2.0):
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def sample(self, shape, rng):
        lo, hi = self.a, self.b
        out = rng.normal(0.0, 1.0, shape)
        bad = (out < lo) | (out > hi)
        while bad.any():
            out[bad] = rng.normal(0.0, 1.0, int(bad.sum()))
            bad = (out < lo) | (out > hi)
        return out * self.sigma + self.mean


class Uniform(Initializer):
    def __init__(self, scale=0.07):
        super().__init__(scale=scale)
        self.scale = scale

    def sample(self, shape, rng):
        return rng.uniform(-self.scale, self.scale, shape)


class XavierUniform(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def sample(self, shape, rng):
        fan_in, fan_out = _fans(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return rng.uniform(-bound, bound, shape)


class XavierNormal(Initializer):
    def __init__(self, gain=1):
        super().__init__(gain=gain)
        self.gain = gain

    def sample(self, shape, rng):
        fan_in, fan_out = _fans(shape)
        return rng.normal(0.0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)), shape)


class HeUniform(Initializer):
    """Kaiming uniform: bound = gain * sqrt(3 / fan); MindSpore's layer default is ``HeUniform(math.sqrt(5))``."""

    def __init__(self, negative_slope=0, mode="fan_in", nonlinearity="leaky_relu"):
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def sample(self, shape, rng):
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        bound = _gain(self.nonlinearity, self.negative_slope) * math.sqrt(3.0 / fan)
        return rng.uniform(-bound, bound, shape)


class HeNormal(HeUniform):
    def sample(self, shape, rng):
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return rng.normal(0.0, _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan), shape)


class VarianceScaling(Initializer):
    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal"):
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def sample(self, shape, rng):
        fan_in, fan_out = _fans(shape)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        var = self.scale / max(1.0, fan)
        if self.distribution == "uniform":
            b = math.sqrt(3 * var)
            return rng.uniform(-b, b, shape)
        if self.distribution == "untruncated_normal":
            return rng.normal(0, math.sqrt(var), shape)
        return TruncatedNormal(math.sqrt(var) / 0.87962566103423978).sample(shape, rng)


class Constant(Initializer):
    def __init__(self, value):
        super().__init__(value=value)
        self.value = value

    def sample(self, shape, rng):
        return np.full(shape, self.value, np.float64)


class One(Constant):
    def __init__(self):
        super().__init__(1)


class Zero(Constant):
    def __init__(self):
        super().__init__(0)


class Orthogonal(Initializer):
    def __init__(self, gain=1.0):
        super().__init__(gain=gain)
        self.gain = gain

    def sample(self, shape, rng):
        rows, cols = shape[0], int(np.prod(shape[1:]))
        a = rng.normal(0.0, 1.0, (max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))
        q = q if rows >= cols else q.T
        return self.gain * q[:rows, :cols].reshape(shape)


class Identity(Initializer):
    def sample(self, shape, rng):
        if len(shape) != 2:
            raise ValueError(f"Identity initializer needs a 2-D shape, but got {tuple(shape)}.")
        return np.eye(*shape)


class Dirac(Initializer):
    def __init__(self, groups=1):
        super().__init__(groups=groups)
        self.groups = groups

    def sample(self, shape, rng):
        out = np.zeros(shape)
        per = shape[0] // self.groups
        centre = tuple(s // 2 for s in shape[2:])
        for g in range(self.groups):
            for i in range(min(per, shape[1])):
                out[(g * per + i, i) + centre] = 1
        return out


_NAMES = {"normal": Normal, "truncatednormal": TruncatedNormal, "truncated_normal": TruncatedNormal,
          "uniform": Uniform, "xavier_uniform": XavierUniform, "xavieruniform": XavierUniform,
          "xavier_normal": XavierNormal, "he_uniform": HeUniform, "heuniform": HeUniform,
          "he_normal": HeNormal, "henormal": HeNormal, "ones": One, "one": One, "zeros": Zero, "zero": Zero,
          "orthogonal": Orthogonal, "identity": Identity, "eye": Identity, "dirac": Dirac}


def initializer(init, shape=None, dtype=mstype.float32):
    """Create a Tensor of ``shape`` and ``dtype`` from an Initializer, its name, a number or an array.

    Example:
        >>> w = initializer(HeUniform(math.sqrt(5)), (6, 1, 5, 5), ms.float32)
    """
    from .tensor import Tensor
    shape = (shape,) if isinstance(shape, int) else tuple(shape or ())
    dtype = mstype.to_ms_dtype(dtype)
    if isinstance(init, Tensor):
        if tuple(init.shape) != shape and shape:
            raise ValueError(f"initializer: the Tensor's shape {tuple(init.shape)} does not match {shape}.")
        return init.astype(dtype)
    if isinstance(init, np.ndarray):
        return initializer(Tensor(init), shape or init.shape, dtype)
    if isinstance(init, bool) or isinstance(init, (int, float, np.number)):
        init = Constant(init)
    elif isinstance(init, str):
        key = init.lower()
        if key not in _NAMES:
            raise ValueError(f"initializer: unknown initializer name {init!r}; known: {sorted(set(_NAMES))}.")
        init = _NAMES[key]()
    elif isinstance(init, type) and issubclass(init, Initializer):
        init = init()
    if not isinstance(init, Initializer):
        raise TypeError(f"initializer: 'init' must be an Initializer, str, number or Tensor, got {type(init).__name__}.")
    values = np.asarray(init.sample(shape, numpy_rng()))
    return Tensor(values.astype(dtype.to_numpy()))
