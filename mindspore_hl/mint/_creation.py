"""``mindspore.mint`` creation and random functions (delegating to ``ops``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..common import dtype as _mstype
from ..common.seed import seed_from_generator
from ._functions import _op, _uses

if TYPE_CHECKING:
    from .._toplevel_misc import Generator
    from ..common.tensor import Tensor


def _size(size):
    """``f(2, 3)`` and ``f((2, 3))`` both mean shape (2, 3)."""
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        return tuple(size[0])
    return tuple(size)


@_uses("arange")
def arange(start: int | float = 0, end: int | float | None = None, step: int | float = 1, *,
           dtype: _mstype.Type | None = None) -> Tensor:
    """Values from ``start`` to ``end`` (exclusive) by ``step``."""
    return _op("arange")(start, end, step, dtype=dtype)


@_uses("eye")
def eye(n: int, m: int | None = None, dtype: _mstype.Type | None = None) -> Tensor:
    """An n x m identity matrix (Float32 by default)."""
    return _op("eye")(n, m, _mstype.float32 if dtype is None else dtype)


@_uses("zeros")
def zeros(size: int | tuple[int, ...], *, dtype: _mstype.Type | None = None) -> Tensor:
    """A tensor of zeros of shape ``size`` (Float32 by default)."""
    return _op("zeros")((size,) if isinstance(size, int) else tuple(size), _mstype.float32 if dtype is None else dtype)


@_uses("ones")
def ones(*size: Any, dtype: _mstype.Type | None = None) -> Tensor:
    """A tensor of ones (Float32 by default)."""
    return _op("ones")(_size(size), _mstype.float32 if dtype is None else dtype)


@_uses("full")
def full(size: int | tuple[int, ...], fill_value: float | Tensor, *, dtype: _mstype.Type | None = None) -> Tensor:
    """A tensor filled with ``fill_value``."""
    return _op("full")(size, fill_value, dtype=dtype)


@_uses("zeros_like")
def zeros_like(input: Tensor, *, dtype: _mstype.Type | None = None) -> Tensor:
    """Zeros of ``input``'s shape (and dtype unless given)."""
    return _op("zeros_like")(input, dtype=dtype)


@_uses("ones_like")
def ones_like(input: Tensor, *, dtype: _mstype.Type | None = None) -> Tensor:
    """Ones of ``input``'s shape (and dtype unless given)."""
    return _op("ones_like")(input, dtype=dtype)


@_uses("full_like")
def full_like(input: Tensor, fill_value: float | Tensor, *, dtype: _mstype.Type | None = None) -> Tensor:
    """``fill_value`` in ``input``'s shape (and dtype unless given)."""
    return _op("full_like")(input, fill_value, dtype=dtype)


@_uses("zeros")
def empty(*size: Any, dtype: _mstype.Type | None = None, device: str | None = None) -> Tensor:
    """An uninitialised tensor: here zero-filled (Float32 by default)."""
    return _op("zeros")(_size(size), _mstype.float32 if dtype is None else dtype)


@_uses("zeros_like")
def empty_like(input: Tensor, *, dtype: _mstype.Type | None = None, device: str | None = None) -> Tensor:
    """An uninitialised tensor like ``input``: here zero-filled."""
    return _op("zeros_like")(input, dtype=dtype)


@_uses("identity")
def clone(input: Tensor) -> Tensor:
    """A copy of ``input``."""
    return _op("identity")(input)


@_uses("rand")
def rand(*size: Any, generator: Generator | None = None, dtype: _mstype.Type | None = None,
         device: str | None = None) -> Tensor:
    """Uniform samples in [0, 1)."""
    return _op("rand")(*_size(size), dtype=dtype, seed=seed_from_generator(generator, "mint.rand"))


@_uses("randn")
def randn(*size: Any, generator: Generator | None = None, dtype: _mstype.Type | None = None,
          device: str | None = None) -> Tensor:
    """Standard normal samples."""
    return _op("randn")(*_size(size), dtype=dtype, seed=seed_from_generator(generator, "mint.randn"))


@_uses("rand_like")
def rand_like(input: Tensor, *, dtype: _mstype.Type | None = None, device: str | None = None) -> Tensor:
    """Uniform samples in [0, 1) shaped like ``input``."""
    return _op("rand_like")(input, dtype=dtype)


@_uses("randn_like")
def randn_like(input: Tensor, *, dtype: _mstype.Type | None = None, device: str | None = None) -> Tensor:
    """Standard normal samples shaped like ``input``."""
    return _op("randn_like")(input, dtype=dtype)


@_uses("randint")
def randint(*args: Any, generator: Generator | None = None, dtype: _mstype.Type | None = None,
            device: str | None = None) -> Tensor:
    """``randint(high, size)`` or ``randint(low, high, size)``: integers in [low, high) (Int64)."""
    low, high, size = (0,) + tuple(args) if len(args) == 2 else args
    return _op("randint")(low, high, tuple(size), seed_from_generator(generator, "mint.randint"),
                          dtype=_mstype.int64 if dtype is None else dtype)


@_uses("randint_like")
def randint_like(*args: Any, dtype: _mstype.Type | None = None, device: str | None = None) -> Tensor:
    """``randint_like(input, high)`` or ``randint_like(input, low, high)``."""
    input, low, high = (args[0], 0, args[1]) if len(args) == 2 else args
    return _op("randint_like")(input, low, high, dtype=dtype)


@_uses("randperm")
def randperm(n: int, *, generator: Generator | None = None, dtype: _mstype.Type = _mstype.int64) -> Tensor:
    """A random permutation of 0..n-1."""
    return _op("randperm")(n, seed_from_generator(generator, "mint.randperm") or 0, dtype=dtype)


@_uses("bernoulli")
def bernoulli(input: Tensor, *, generator: Generator | None = None) -> Tensor:
    """0/1 samples with probabilities ``input``."""
    return _op("bernoulli")(input, input, seed_from_generator(generator, "mint.bernoulli"))


@_uses("multinomial")
def multinomial(input: Tensor, num_samples: int, replacement: bool = False, *,
                generator: Generator | None = None) -> Tensor:
    """Indices sampled from the rows of ``input`` (unnormalised probabilities)."""
    # Int64 indices, as PyTorch's (ops.multinomial gives MindSpore's Int32)
    return _op("multinomial")(input, num_samples, replacement,
                              seed_from_generator(generator, "mint.multinomial")).astype(_mstype.int64)


@_uses("normal")
def normal(mean: float | Tensor = 0.0, std: float | Tensor = 1.0, size: tuple[int, ...] | None = None,
           generator: Generator | None = None) -> Tensor:
    """Normal samples of ``size`` (or of the broadcast shape of Tensor ``mean`` / ``std``)."""
    shape = tuple(size) if size is not None else tuple(getattr(mean, "shape", ()) or getattr(std, "shape", ()))
    return _op("normal")(shape, mean, std, seed_from_generator(generator, "mint.normal"))
