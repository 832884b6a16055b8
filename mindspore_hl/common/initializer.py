"""Weight initializers (``mindspore.common.initializer``), seeded by ``ms.set_seed``."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import dtype as mstype
from .seed import numpy_rng
from .tensor import Tensor, register

__all__ = ["Initializer", "initializer", "Normal", "TruncatedNormal", "Uniform", "XavierUniform", "XavierNormal",
           "HeUniform", "HeNormal", "Constant", "One", "Zero", "Orthogonal", "Identity", "Dirac",
           "VarianceScaling", "Sparse"]


def _fans(shape):
    if len(shape) < 2:
        raise ValueError(f"Initializer: 'fan_in' and 'fan_out' can not be computed for a tensor with fewer than 2 "
                         f"dimensions, but got shape {tuple(shape)}.")
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

    def __init__(self, **kwargs: Any) -> None:
        self._kwargs = kwargs

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def __call__(self, arr: np.ndarray) -> None:
        """MindSpore style: fill the NumPy array ``arr`` in place."""
        arr[...] = self.sample(arr.shape, numpy_rng())

    def __repr__(self):
        return f"<{type(self).__name__} object>"


class Normal(Initializer):
    def __init__(self, sigma: float = 0.01, mean: float = 0.0) -> None:
        super().__init__(sigma=sigma, mean=mean)
        self.sigma, self.mean = sigma, mean

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        return rng.normal(self.mean, self.sigma, shape)


class TruncatedNormal(Initializer):
    """Normal(mean, sigma) restricted to the interval [a, b] (absolute bounds, as in MindSpore 2.x)."""

    def __init__(self, sigma: float = 0.01, mean: float = 0.0, a: float = -2.0, b: float = 2.0) -> None:
        super().__init__(sigma=sigma, mean=mean, a=a, b=b)
        if sigma < 0 or a >= b:
            raise ValueError(f"TruncatedNormal: need sigma >= 0 and a < b, but got sigma={sigma}, a={a}, b={b}.")
        self.sigma, self.mean, self.a, self.b = sigma, mean, a, b

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        out = rng.normal(self.mean, self.sigma, shape)
        for _ in range(100):  # rejection sampling; the bounds are rarely far in the tails
            bad = (out < self.a) | (out > self.b)
            if not bad.any():
                return out
            out[bad] = rng.normal(self.mean, self.sigma, int(bad.sum()))
        return np.clip(out, self.a, self.b)


class Uniform(Initializer):
    def __init__(self, scale: float = 0.07) -> None:
        super().__init__(scale=scale)
        self.scale = scale

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        return rng.uniform(-self.scale, self.scale, shape)


class XavierUniform(Initializer):
    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        bound = self.gain * math.sqrt(6.0 / (fan_in + fan_out))
        return rng.uniform(-bound, bound, shape)


class XavierNormal(Initializer):
    def __init__(self, gain: float = 1) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        return rng.normal(0.0, self.gain * math.sqrt(2.0 / (fan_in + fan_out)), shape)


class HeUniform(Initializer):
    """Kaiming uniform: bound = gain * sqrt(3 / fan); MindSpore's layer default is ``HeUniform(math.sqrt(5))``."""

    def __init__(self, negative_slope: float = 0, mode: str = "fan_in", nonlinearity: str = "leaky_relu") -> None:
        super().__init__(negative_slope=negative_slope, mode=mode, nonlinearity=nonlinearity)
        self.negative_slope, self.mode, self.nonlinearity = negative_slope, mode, nonlinearity

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        bound = _gain(self.nonlinearity, self.negative_slope) * math.sqrt(3.0 / fan)
        return rng.uniform(-bound, bound, shape)


class HeNormal(HeUniform):
    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        fan = fan_in if self.mode == "fan_in" else fan_out
        return rng.normal(0.0, _gain(self.nonlinearity, self.negative_slope) / math.sqrt(fan), shape)


class VarianceScaling(Initializer):
    def __init__(self, scale: float = 1.0, mode: str = "fan_in", distribution: str = "truncated_normal") -> None:
        super().__init__(scale=scale, mode=mode, distribution=distribution)
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
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
    def __init__(self, value: Any) -> None:
        super().__init__(value=value)
        self.value = value

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        return np.full(shape, self.value, np.float64)


class One(Constant):
    def __init__(self) -> None:
        super().__init__(1)


class Zero(Constant):
    def __init__(self) -> None:
        super().__init__(0)


class Orthogonal(Initializer):
    def __init__(self, gain: float = 1.0) -> None:
        super().__init__(gain=gain)
        self.gain = gain

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        if len(shape) < 2:
            raise ValueError(f"Orthogonal initializer needs at least 2 dimensions, but got shape {tuple(shape)}.")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        a = rng.normal(0.0, 1.0, (max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))
        q = q if rows >= cols else q.T
        return self.gain * q[:rows, :cols].reshape(shape)


class Identity(Initializer):
    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        if len(shape) != 2:
            raise ValueError(f"Identity initializer needs a 2-D shape, but got {tuple(shape)}.")
        return np.eye(*shape)


class Sparse(Initializer):
    """A 2-D matrix with ``ceil(sparsity * rows)`` zeros per column, the rest drawn from Normal(0, sigma)."""

    def __init__(self, sparsity: float, sigma: float = 0.01) -> None:
        super().__init__(sparsity=sparsity, sigma=sigma)
        self.sparsity, self.sigma = sparsity, sigma

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        if len(shape) != 2:
            raise ValueError(f"Sparse initializer needs a 2-D shape, but got {tuple(shape)}.")
        rows, cols = shape
        out = rng.normal(0.0, self.sigma, shape)
        zeros = int(np.ceil(self.sparsity * rows))
        for c in range(cols):
            out[rng.permutation(rows)[:zeros], c] = 0.0
        return out


class Dirac(Initializer):
    def __init__(self, groups: int = 1) -> None:
        super().__init__(groups=groups)
        self.groups = groups

    def sample(self, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
        if len(shape) not in (3, 4, 5) or shape[0] % self.groups:
            raise ValueError(f"Dirac initializer needs a 3-D, 4-D or 5-D shape whose first dimension is divisible "
                             f"by groups={self.groups}, but got {tuple(shape)}.")
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
          "orthogonal": Orthogonal, "identity": Identity, "eye": Identity, "dirac": Dirac,
          "variancescaling": VarianceScaling, "variance_scaling": VarianceScaling}


def initializer(init: Any, shape: int | tuple[int, ...] | list[int] | None = None,
                dtype: Any = mstype.float32) -> Tensor:
    """Create a Tensor of ``shape`` and ``dtype`` from an Initializer, its name, a number or a Tensor.

    Random initializers draw from the generator seeded by ``ms.set_seed``.

    Example:
        >>> w = initializer(HeUniform(math.sqrt(5)), (6, 1, 5, 5), ms.float32)
    """
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    elif shape is not None:
        shape = tuple(shape)
        if not all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s > 0 for s in shape):
            raise ValueError(f"For 'initializer', the argument 'shape' must contain positive integers, "
                             f"but got {shape}.")
    dtype = mstype.to_ms_dtype(dtype)
    if isinstance(init, np.ndarray):
        init = Tensor(init)
    if isinstance(init, Tensor):
        if shape is not None and tuple(init.shape) != shape:
            raise ValueError(f"For 'initializer', the shape of the 'init' Tensor {list(init.shape)} is not the same "
                             f"as 'shape' {list(shape)}.")
        return init if init.dtype == dtype else init.astype(dtype)
    if isinstance(init, (bool, int, float, np.number)):
        init = Constant(init)
    elif isinstance(init, str):
        key = init.lower()
        if key not in _NAMES:
            raise ValueError(f"For 'initializer', the initializer name {init!r} is unknown; known names: "
                             f"{sorted(set(_NAMES))}.")
        init = _NAMES[key]()
    elif isinstance(init, type) and issubclass(init, Initializer):
        init = init()
    if not isinstance(init, Initializer):
        raise TypeError(f"For 'initializer', 'init' must be a Tensor, number, str or Initializer, but got "
                        f"{type(init).__name__}.")
    if shape is None:
        raise ValueError("For 'initializer', 'shape' is required unless 'init' is a Tensor.")
    values = np.asarray(init.sample(shape, numpy_rng()), dtype=np.float64 if dtype.is_floating else None)
    return Tensor(values.astype(dtype.to_numpy()))


register("initializer", initializer)  # Tensor(init=...).init_data() materialises through this module
