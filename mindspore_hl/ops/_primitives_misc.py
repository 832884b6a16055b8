"""MindSpore's Primitive classes for random numbers, control flow, printing and summaries."""

from __future__ import annotations

from typing import Any, Callable

import jax
import jax.numpy as jnp

from ..common import seed as _seed
from ..common.tensor import Tensor, wrap
from . import _control_flow, _debug
from ._core import unwrap
from ._primitives import Primitive

__all__ = ["UniformReal", "StandardNormal", "UniformInt", "WhileLoop", "ForiLoop", "Scan", "Print", "ScalarSummary",
           "ImageSummary", "TensorSummary", "HistogramSummary"]


class _Random(Primitive):
    def __init__(self, seed=0, seed2=0):
        super().__init__()
        self.seed, self.seed2 = seed, seed2

    def _key(self):
        return _seed.next_key()


class UniformReal(_Random):
    """``UniformReal(seed=0, seed2=0)(shape)``: Float32 samples in [0, 1)."""

    def __call__(self, shape: tuple[int, ...]) -> Tensor:
        return wrap(jax.random.uniform(self._key(), tuple(shape), jnp.float32))


class StandardNormal(_Random):
    """``StandardNormal(seed=0, seed2=0)(shape)``: Float32 N(0, 1) samples."""

    def __call__(self, shape: tuple[int, ...]) -> Tensor:
        return wrap(jax.random.normal(self._key(), tuple(shape), jnp.float32))


class UniformInt(_Random):
    """``UniformInt(seed=0, seed2=0)(shape, minval, maxval)``: Int32 samples in [minval, maxval)."""

    def __call__(self, shape: tuple[int, ...], minval: Tensor, maxval: Tensor) -> Tensor:
        return wrap(jax.random.randint(self._key(), tuple(shape), unwrap(minval), unwrap(maxval), jnp.int32))


class WhileLoop(Primitive):
    """``WhileLoop()(cond_func, loop_func, init_val)``."""

    def __call__(self, cond_func: Callable[..., Any], loop_func: Callable[..., Any], init_val: Any) -> Any:
        return _control_flow.while_loop(cond_func, loop_func, init_val)


class ForiLoop(Primitive):
    """``ForiLoop()(lower, upper, loop_func, init_val, unroll=True)``."""

    def __call__(self, lower: int, upper: int, loop_func: Callable[..., Any], init_val: Any,
                 unroll: bool | int = True) -> Any:
        return _control_flow.fori_loop(lower, upper, loop_func, init_val, unroll)


class Scan(Primitive):
    """``Scan()(loop_func, init, xs, length=None, unroll=True)`` -> ``(carry, ys)``."""

    def __call__(self, loop_func: Callable[..., Any], init: Any, xs: Any, length: int | None = None,
                 unroll: bool | int = True) -> tuple[Any, Any]:
        return _control_flow.scan(loop_func, init, xs, length)


class Print(Primitive):
    """``Print()(*inputs)``: print strings and Tensors (also from compiled code)."""

    def __call__(self, *input_x: Any) -> None:
        _debug.print_(*input_x)


class _Summary(Primitive):
    _kind: str  # the summary kind, set by each subclass

    def __call__(self, name, value):
        _debug.summary(self._kind, name, value)


class ScalarSummary(_Summary):
    """``ScalarSummary()(name, value)``: record a scalar for SummaryRecord/SummaryCollector."""
    _kind = "scalar"


class ImageSummary(_Summary):
    """``ImageSummary()(name, value)``: record an (N, C, H, W) image batch."""
    _kind = "image"


class TensorSummary(_Summary):
    """``TensorSummary()(name, value)``: record a whole tensor."""
    _kind = "tensor"


class HistogramSummary(_Summary):
    """``HistogramSummary()(name, value)``: record a tensor's histogram."""
    _kind = "histogram"
