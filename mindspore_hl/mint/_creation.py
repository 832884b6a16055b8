"""``mindspore.mint`` creation and random functions (delegating to ``ops``)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common import dtype as _mstype
from ._functions import _op, _uses


def _seed_from(generator: Any, name: str) -> int | None:
    """A seed drawn from ``generator`` (advancing its offset), so that its state decides the samples; None for
    the global random stream when no generator is given."""
    if generator is None:
        return None
    if not callable(getattr(generator, "next_key", None)):
        raise TypeError(f"For 'mint.{name}', 'generator' must be a mindspore.Generator, but got "
                        f"{type(generator).__name__}.")
    hi, lo = (int(w) for w in np.asarray(generator.next_key()))
    # Never 0: ops.randperm reads seed 0 as "no seed".
    return ((hi << 32) | lo) % 2 ** 63 or 1


def _size(size):
    """``f(2, 3)`` and ``f((2, 3))`` both mean shape (2, 3)."""
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        return tuple(size[0])
    return tuple(size)


@_uses("arange")
def arange(start=0, end=None, step=1, *, dtype=None):
    """Values from ``start`` to ``end`` (exclusive) by ``step``."""
    return _op("arange")(start, end, step, dtype=dtype)


@_uses("eye")
def eye(n, m=None, dtype=None):
    """An n x m identity matrix (Float32 by default)."""
    return _op("eye")(n, m, _mstype.float32 if dtype is None else dtype)


@_uses("zeros")
def zeros(size, *, dtype=None):
    """A tensor of zeros of shape ``size`` (Float32 by default)."""
    return _op("zeros")((size,) if isinstance(size, int) else tuple(size), _mstype.float32 if dtype is None else dtype)


@_uses("ones")
def ones(*size, dtype=None):
    """A tensor of ones (Float32 by default)."""
    return _op("ones")(_size(size), _mstype.float32 if dtype is None else dtype)


@_uses("full")
def full(size, fill_value, *, dtype=None):
    """A tensor filled with ``fill_value``."""
    return _op("full")(size, fill_value, dtype=dtype)


@_uses("zeros_like")
def zeros_like(input, *, dtype=None):
    """Zeros of ``input``'s shape (and dtype unless given)."""
    return _op("zeros_like")(input, dtype=dtype)


@_uses("ones_like")
def ones_like(input, *, dtype=None):
    """Ones of ``input``'s shape (and dtype unless given)."""
    return _op("ones_like")(input, dtype=dtype)


@_uses("full_like")
def full_like(input, fill_value, *, dtype=None):
    """``fill_value`` in ``input``'s shape (and dtype unless given)."""
    return _op("full_like")(input, fill_value, dtype=dtype)


@_uses("zeros")
def empty(*size, dtype=None, device=None):
    """An uninitialised tensor: here zero-filled (Float32 by default)."""
    return _op("zeros")(_size(size), _mstype.float32 if dtype is None else dtype)


@_uses("zeros_like")
def empty_like(input, *, dtype=None, device=None):
    """An uninitialised tensor like ``input``: here zero-filled."""
    return _op("zeros_like")(input, dtype=dtype)


@_uses("identity")
def clone(input):
    """A copy of ``input``."""
    return _op("identity")(input)


@_uses("rand")
def rand(*size, generator=None, dtype=None, device=None):
    """Uniform samples in [0, 1)."""
    return _op("rand")(*_size(size), dtype=dtype, seed=_seed_from(generator, "rand"))


@_uses("randn")
def randn(*size, generator=None, dtype=None, device=None):
    """Standard normal samples."""
    return _op("randn")(*_size(size), dtype=dtype, seed=_seed_from(generator, "randn"))


@_uses("rand_like")
def rand_like(input, *, dtype=None, device=None):
    """Uniform samples in [0, 1) shaped like ``input``."""
    return _op("rand_like")(input, dtype=dtype)


@_uses("randn_like")
def randn_like(input, *, dtype=None, device=None):
    """Standard normal samples shaped like ``input``."""
    return _op("randn_like")(input, dtype=dtype)


@_uses("randint")
def randint(*args, generator=None, dtype=None, device=None):
    """``randint(high, size)`` or ``randint(low, high, size)``: integers in [low, high) (Int64)."""
    low, high, size = (0,) + tuple(args) if len(args) == 2 else args
    return _op("randint")(low, high, tuple(size), _seed_from(generator, "randint"),
                          dtype=_mstype.int64 if dtype is None else dtype)


@_uses("randint_like")
def randint_like(*args, dtype=None, device=None):
    """``randint_like(input, high)`` or ``randint_like(input, low, high)``."""
    input, low, high = (args[0], 0, args[1]) if len(args) == 2 else args
    return _op("randint_like")(input, low, high, dtype=dtype)


@_uses("randperm")
def randperm(n, *, generator=None, dtype=_mstype.int64):
    """A random permutation of 0..n-1."""
    return _op("randperm")(n, _seed_from(generator, "randperm") or 0, dtype=dtype)


@_uses("bernoulli")
def bernoulli(input, *, generator=None):
    """0/1 samples with probabilities ``input``."""
    return _op("bernoulli")(input, input, _seed_from(generator, "bernoulli"))


@_uses("multinomial")
def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices sampled from the rows of ``input`` (unnormalised probabilities)."""
    return _op("multinomial")(input, num_samples, replacement, _seed_from(generator, "multinomial"))


@_uses("normal")
def normal(mean=0.0, std=1.0, size=None, generator=None):
    """Normal samples of ``size`` (or of the broadcast shape of Tensor ``mean`` / ``std``)."""
    shape = tuple(size) if size is not None else tuple(getattr(mean, "shape", ()) or getattr(std, "shape", ()))
    return _op("normal")(shape, mean, std, _seed_from(generator, "normal"))
