"""Argument and input checks shared by the layers; errors name the Cell, the expectation and what was received."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...common import dtype as mstype
from ...common.initializer import HeUniform, Uniform, initializer
from ...common.parameter import Parameter
from ...common.tensor import Tensor

if TYPE_CHECKING:
    from typing import Any, Sequence

    from ...common.initializer import Initializer
    from ..cell import Cell


def _fmt(spec):
    return "(" + ", ".join(str(s) for s in spec) + ")"


def _matches(spec, shape):
    """Whether ``shape`` fits ``spec``: ints must be equal, names match any size, one '...' matches 0+ dims."""
    if "..." in spec:
        i = spec.index("...")
        head, tail = spec[:i], spec[i + 1:]
        if len(shape) < len(head) + len(tail):
            return False
        return _matches(head, shape[:len(head)]) and _matches(tail, shape[len(shape) - len(tail):])
    if len(spec) != len(shape):
        return False
    return all(not isinstance(s, int) or s == d for s, d in zip(spec, shape))


def check_input(cell: Cell, x: Tensor, *specs: Any, note: str = "") -> tuple[int, ...]:
    """Check that Tensor ``x`` matches one of ``specs`` (tuples of ints and free names; '...' leads any dims).

    Raises ValueError like ``Conv2d: expected input of shape (N, 1, H, W) (in_channels=1), but got (8, 3, 32, 32).``
    """
    name = type(cell).__name__
    if not isinstance(x, Tensor):
        raise TypeError(f"{name}: expected a Tensor input, but got {type(x).__name__}.")
    shape = tuple(x.shape)
    if any(_matches(s, shape) for s in specs):
        return shape
    want = " or ".join(_fmt(s) for s in specs)
    raise ValueError(f"{name}: expected input of shape {want}{f' ({note})' if note else ''}, but got {shape}.")


def check_float(cell: Cell, x: Tensor) -> None:
    """The input's dtype must be floating: layers compute in it (and cast their float32 parameters to it)."""
    if not x.dtype.is_floating:
        raise TypeError(f"{type(cell).__name__}: expected a floating-point input (float16/32/64, bfloat16), but got "
                        f"{x.dtype}. Cast it first, e.g. x.astype(ms.float32).")


def positive_int(cell_name: str, what: str, v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
        raise ValueError(f"{cell_name}: '{what}' must be a positive int, but got {v!r}.")
    return v


def int_tuple(cell_name: str, what: str, v: Any, n: int = 2, allow_zero: bool = False) -> tuple[int, ...]:
    """An int or n ints -> n-tuple of ints (positive, or non-negative with ``allow_zero``)."""
    if isinstance(v, int) and not isinstance(v, bool):
        vals = (v,) * n
    else:
        vals = tuple(v) if isinstance(v, (tuple, list)) else ()
    low = 0 if allow_zero else 1
    if len(vals) != n or not all(isinstance(i, int) and not isinstance(i, bool) and i >= low for i in vals):
        kind = "non-negative" if allow_zero else "positive"
        raise ValueError(f"{cell_name}: '{what}' must be a {kind} int or a tuple of {n} such ints, but got {v!r}.")
    return vals


def choice(cell_name: str, what: str, v: Any, options: Sequence[Any]) -> Any:
    if v not in options:
        raise ValueError(f"{cell_name}: '{what}' must be one of {list(options)}, but got {v!r}.")
    return v


def make_param(init: str | float | Tensor | Initializer, shape: tuple[int, ...] | list[int],
               dtype: mstype.Type = mstype.float32, requires_grad: bool = True, cell_name: str = "",
               what: str = "weight_init") -> Parameter:
    """A Parameter of ``shape`` from an Initializer, name, number or Tensor (whose shape must match)."""
    if isinstance(init, Tensor) and tuple(init.shape) != tuple(shape):
        raise ValueError(f"{cell_name}: '{what}' Tensor has shape {tuple(init.shape)}, but the parameter needs "
                         f"{tuple(shape)}.")
    return Parameter(initializer(init, shape, dtype), requires_grad=requires_grad)


def default_weight_init(init: str | float | Tensor | Initializer | None) -> str | float | Tensor | Initializer:
    """MindSpore's default weight init for Dense and Conv: HeUniform(negative_slope=sqrt(5))."""
    return HeUniform(math.sqrt(5)) if init is None else init


def default_bias_init(init: str | float | Tensor | Initializer | None,
                      fan_in: int) -> str | float | Tensor | Initializer:
    """MindSpore's default bias init for Dense and Conv: Uniform(1 / sqrt(fan_in))."""
    return Uniform(1 / math.sqrt(fan_in)) if init is None else init


def check_kernel_fits(cell: Cell, shape: Sequence[int], spatial: Sequence[int], kernel: Sequence[int],
                      dilation: Sequence[int], pad_mode: str, padding: int | Sequence[int]) -> None:
    """The (padded) input must be at least as large as the dilated kernel in every spatial dim (MindSpore:
    "input shape's h and w after padding must be greater than or equal to kernel_size's h and w").

    Args:
        cell: the Cell. shape: the full input shape. spatial: its spatial sizes. kernel, dilation: per dim.
        pad_mode: 'same' (always fits), 'valid' or 'pad'. padding: int or (before, after) per dim, flattened.
    """
    if pad_mode == "same":
        return
    n = len(spatial)
    pads = (padding,) * (2 * n) if isinstance(padding, int) else tuple(padding)
    padded = tuple(s + (pads[2 * i] + pads[2 * i + 1] if pad_mode == "pad" else 0) for i, s in enumerate(spatial))
    needed = tuple(d * (k - 1) + 1 for k, d in zip(kernel, dilation))
    if all(p >= k for p, k in zip(padded, needed)):
        return
    via = f" (with padding {pads} the input is {padded})" if pad_mode == "pad" and any(pads) else ""
    dil = f" dilated by {tuple(dilation)} to {needed}" if any(d != 1 for d in dilation) else ""
    raise ValueError(f"{type(cell).__name__}: the kernel {tuple(kernel)}{dil} is larger than the input's spatial size "
                     f"{tuple(spatial)}{via} with pad_mode='{pad_mode}', for input of shape {tuple(shape)}. The input "
                     f"after padding must be at least as large as the kernel: use a larger input, a smaller "
                     f"kernel_size, pad_mode='same', or more padding.")
