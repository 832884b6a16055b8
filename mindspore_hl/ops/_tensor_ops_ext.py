"""Functional implementations behind Tensor methods that MindSpore exposes only as methods.

``Tensor.choose``, ``fill_diagonal``, ``index_put``, ``masked_scatter``, ``cauchy`` and ``log_normal`` have no
``mindspore.ops`` function in MindSpore 2.10, so these are registered in the op table under their method names
(the methods look them up there) without becoming public ``ops`` names. ``triangular_solve`` is registered for
``Tensor.triangular_solve`` from its one implementation in ``_linalg_decomp``.

>>> import mindspore_hl as ms
>>> from mindspore_hl.ops import _registry
>>> _registry.lookup("masked_scatter")(ms.Tensor([1., 2., 3.]), ms.Tensor([True, False, True]),
...                                    ms.Tensor([7., 8.])).asnumpy().tolist()
[7.0, 2.0, 8.0]
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from ..common import seed as _seed
from ..common.tensor import Tensor, to_array, wrap
from . import _linalg_decomp
from ._core import check, op, unwrap
from ._registry import register

# The @op functions take and return arrays (the decorator unwraps and wraps Tensors), hence ``Any``.
__all__: list[str] = []  # nothing public: these are reached through the op table by Tensor methods

_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64), np.dtype(jnp.bfloat16))


def _key(seed: int | None) -> jax.Array:
    if seed is not None:
        return jax.random.key_data(jax.random.key(int(seed)))
    return _seed.next_key()


@op("choose")
def choose(x: Any, choices: Any, mode: str = "clip") -> Any:
    """``out[i] = choices[x[i]][i]`` after broadcasting ``x`` and every choice to one shape.

    As MindSpore computes it: a Tensor ``choices`` of shape (n, ...) is broadcast (right-aligned) to
    ``(n,) + shape``; the choices are gathered as Int32 (float choices are truncated) and cast back. Modes:
    'clip' (indices clipped to [0, n-1], negatives included) and 'wrap'; other modes but 'raise' act as 'clip';
    'raise' is not implemented (as in MindSpore).
    """
    if mode == "raise":
        raise NotImplementedError('"raise" mode is not implemented')
    try:
        if isinstance(choices, (jax.Array, jax.core.Tracer)):
            shape = jnp.broadcast_shapes(jnp.shape(x), jnp.shape(choices)[1:])
            stacked = jnp.broadcast_to(choices, jnp.shape(choices)[:1] + shape)
        else:
            options = [c if isinstance(c, (jax.Array, jax.core.Tracer)) else to_array(c) for c in choices]
            check(len(options) > 0, "Tensor.choose", "'choices' must not be empty.")
            shape = jnp.broadcast_shapes(jnp.shape(x), *(jnp.shape(c) for c in options))
            dtype = jnp.result_type(*options)
            stacked = jnp.stack([jnp.broadcast_to(c, shape).astype(dtype) for c in options])
    except ValueError:
        raise ValueError(f"For 'Tensor.choose', the input of shape {list(jnp.shape(x))} cannot be broadcast with "
                         f"the choices.") from None
    if jnp.ndim(x) == 0:
        raise ValueError("For 'Tensor.choose', the original tensor and the argument 'choices' cannot be scalars.")
    n = stacked.shape[0]
    idx = jnp.broadcast_to(x, shape).astype(jnp.int32)
    idx = jnp.mod(idx, n) if mode == "wrap" else jnp.clip(idx, 0, n - 1)
    picked = jnp.take_along_axis(stacked.astype(jnp.int32), idx[None], axis=0)[0]
    return picked.astype(stacked.dtype)


def _diagonal_positions(shape: tuple[int, ...], wrap: bool) -> np.ndarray:
    """Flat positions of the main diagonal (NumPy's fill_diagonal rule, tall 2-D matrices optionally wrapped)."""
    if len(shape) == 2:
        rows, cols = shape
        end = rows * cols if wrap else min(rows, cols) * cols
        return np.arange(0, end, cols + 1, dtype=np.int64)
    step = 1 + int(np.sum(np.cumprod(shape[:-1])))
    return np.arange(0, int(np.prod(shape)), step, dtype=np.int64)


@op("fill_diagonal")
def fill_diagonal(x: Any, fill_value: float, wrap: bool = False) -> Any:
    """``x`` with its main diagonal set to ``fill_value`` (cast to ``x``'s dtype)."""
    if not isinstance(fill_value, float):
        raise TypeError(f"For 'FillDiagonal', the type of 'fill_value' should be 'float', but got type "
                        f"'{type(fill_value).__name__}'.")
    shape = tuple(jnp.shape(x))
    if len(shape) < 2:
        raise ValueError(f"The primitive[FillDiagonal] argument [input_x] must be a Tensor whose dimension is "
                         f"greater than or equal to 2, but got its dimension [{len(shape)}].")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError("The primitive[FillDiagonal] argument [input_x] must be a Tensor with the same size in "
                         f"all dimensions when its dimension is greater than 2, but got shape {list(shape)}.")
    flat = jnp.ravel(x)
    return flat.at[_diagonal_positions(shape, wrap)].set(jnp.asarray(fill_value).astype(flat.dtype)).reshape(shape)


@op("index_put")
def index_put(x: Any, indices: Sequence[Any], values: Any, accumulate: bool = False) -> Any:
    """``x`` with ``x[indices] = values`` (``+=`` with ``accumulate``); ``values`` broadcast to the selection."""
    if not isinstance(accumulate, bool):
        raise TypeError(f"For 'Tensor.index_put', the type of 'accumulate' should be 'bool', but got type "
                        f"'{type(accumulate).__name__}'.")
    if not isinstance(indices, (tuple, list)):
        raise TypeError(f"For 'Tensor.index_put', 'indices' must be a tuple or list of Tensors, but got "
                        f"{type(indices).__name__}.")
    check(len(indices) <= jnp.ndim(x), "Tensor.index_put",
          f"the number of index tensors ({len(indices)}) must not exceed the rank of the input ({jnp.ndim(x)}).")
    for i, ind in enumerate(indices):
        dt = jnp.result_type(ind)
        if dt not in (np.dtype(np.int32), np.dtype(np.int64)):
            raise TypeError(f"For primitive[IndexPut], the input argument[indices[{i}]:] must be a type of "
                            f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{str(wrap(ind).dtype)}].")
    if jnp.result_type(values) != jnp.result_type(x):
        raise TypeError(f"For primitive[IndexPut], the input type must be same: the input is "
                        f"{wrap(x).dtype} but 'values' is {wrap(values).dtype}.")
    at = x.at[tuple(indices)]
    return at.add(values) if accumulate else at.set(values)


@op("masked_scatter")
def masked_scatter(x: Any, mask: Any, source: Any) -> Any:
    """``x`` with its masked positions filled, in order, by the first elements of ``source``."""
    if jnp.result_type(mask) not in (np.dtype(np.bool_), np.dtype(np.uint8)):
        raise TypeError(f"For 'MaskedScatter', 'mask' must be a bool Tensor, but got {wrap(mask).dtype}.")
    if jnp.result_type(source) != jnp.result_type(x):
        raise TypeError(f"For 'MaskedScatter', 'source' must have the input's dtype {wrap(x).dtype}, but got "
                        f"{wrap(source).dtype}.")
    try:
        m = jnp.broadcast_to(mask, jnp.shape(x)).astype(bool).ravel()
    except ValueError:
        raise ValueError(f"For 'MaskedScatter', 'mask' of shape {list(jnp.shape(mask))} cannot be broadcast to "
                         f"the input's shape {list(jnp.shape(x))}.") from None
    src = jnp.ravel(source)
    if not isinstance(m, jax.core.Tracer):  # the count is only known for concrete masks
        count = int(jnp.sum(m))
        check(src.size >= count, "MaskedScatter",
              f"number of elements of updates ({src.size}) < number of ones in mask ({count}).")
    if src.size == 0:
        return x
    pos = jnp.clip(jnp.cumsum(m) - 1, 0, src.size - 1)
    return jnp.where(m, src[pos], jnp.ravel(x)).reshape(jnp.shape(x))


def cauchy(x: Tensor, median: float = 0.0, sigma: float = 1.0, seed: int | None = None) -> Tensor:
    """Cauchy(median, sigma) samples in ``x``'s shape, cast to ``x``'s dtype (drawn in Float32)."""
    a = unwrap(x)
    draw = jax.random.cauchy(_key(seed), jnp.shape(a), jnp.float32) * sigma + median
    return wrap(draw.astype(a.dtype))


def log_normal(x: Tensor, mean: float = 1.0, std: float = 2.0, seed: int | None = None) -> Tensor:
    """exp(Normal(mean, std)) samples in ``x``'s shape and (floating) dtype."""
    a = unwrap(x)
    if np.dtype(a.dtype) not in _FLOATS:
        raise TypeError(f"For primitive[LogNormalReverse], the input argument[x] must be a type of "
                        f"{{Tensor[Float16], Tensor[Float32], Tensor[Float64]}}, but got Tensor[{wrap(a).dtype}].")
    draw = jnp.exp(mean + std * jax.random.normal(_key(seed), jnp.shape(a), jnp.float32))
    return wrap(draw.astype(a.dtype))


for _name, _fn in (("choose", choose), ("fill_diagonal", fill_diagonal), ("index_put", index_put),
                   ("masked_scatter", masked_scatter), ("cauchy", cauchy), ("log_normal", log_normal)):
    register(_name, _fn, replace=False)  # a public op of the same name, if one is added, takes precedence
register("triangular_solve", _linalg_decomp.triangular_solve, replace=False)
