"""``ops.fractional_max_pool2d`` / ``ops.fractional_max_pool3d``: argument handling over the fractional max-pool
Primitives (``FractionalMaxPoolWithFixedKsize`` / ``FractionalMaxPool3DWithFixedKsize``), which hold the one
implementation, as in MindSpore.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common import dtype as mstype
from ..common.tensor import Tensor, wrap
from ._core import check, unwrap
from ._creation import rand

# the Primitive classes are generated from a table, which mypy cannot see
from ._primitives_ext3 import FractionalMaxPool3DWithFixedKsize as _POOL3D  # type: ignore[attr-defined]
from ._primitives_ext3 import FractionalMaxPoolWithFixedKsize as _POOL2D  # type: ignore[attr-defined]

__all__ = ["fractional_max_pool2d", "fractional_max_pool3d"]

_FLOATS = (np.float16, np.float32, np.float64)
_INPUTS = _FLOATS + (np.int32, np.int64)


def _common_checks(name: str, output_size: Any, output_ratio: Any, return_indices: Any) -> None:
    check(output_size is not None or output_ratio is not None, name,
          f"'output_size' and 'output_ratio' can not be None at the same time, but got {output_ratio} and "
          f"{output_size}.")
    check(isinstance(return_indices, bool), name,
          f"the type of 'return_indices' should be 'bool', but got type '{type(return_indices).__name__}'.",
          TypeError)


def _size_from_ratio(name: str, output_ratio: Any, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """The output size ``int(size * ratio)`` per spatial axis; each ratio must lie in the open range (0, 1)."""
    if isinstance(output_ratio, (float, int)):
        # a bare ratio must be a float (an int, bool included, is refused as MindSpore does)
        check(isinstance(output_ratio, float), name, "the type of 'output_ratio' should be 'float', but got type "
              f"'{type(output_ratio).__name__}'.", TypeError)
        output_ratio = (output_ratio,) * len(sizes)
    ratios = tuple(output_ratio)
    check(len(ratios) == len(sizes), name, f"'output_ratio' must be a float or a tuple of {len(sizes)} floats, "
          f"but got {output_ratio}.")
    for i, r in enumerate(ratios):
        check(0.0 < r < 1.0, name, f"the 'output_ratio[{i}]' must be in range of (0.0, 1.0), but got {r} with "
              f"type '{type(r).__name__}'.")
    return tuple(int(s * r) for s, r in zip(sizes, ratios))


def _check_dtypes(name: str, x: Any, samples: Any) -> None:
    check(isinstance(x, Tensor), name, f"'input' must be a Tensor, but got {type(x).__name__}.", TypeError)
    check(unwrap(x).dtype in _INPUTS, name, "'input' must be float16, float32, float64, int32 or int64, but got "
          f"{x.dtype}.", TypeError)
    check(isinstance(samples, Tensor) and unwrap(samples).dtype in _FLOATS, name,
          "'_random_samples' must be a float16, float32 or float64 Tensor, but got "
          f"{getattr(samples, 'dtype', type(samples).__name__)}.", TypeError)
    check(samples.ndim == 3, name, f"'_random_samples' must be 3-D, but got shape {list(samples.shape)}.")


def _default_samples(x: Tensor, n: int, nd: int) -> Tensor:
    dtype = x.dtype if x.dtype in mstype.float_type else None
    return rand(n, x.shape[1], nd, dtype=dtype)


def _fractional_pool(name: str, nd: int, pool: Any, input: Tensor, kernel_size: Any, output_size: Any,
                     output_ratio: Any, return_indices: bool, random_samples: Tensor | None,
                     same_dtype: bool = False) -> Tensor | tuple[Tensor, Tensor]:
    """The functions' shared argument handling around the Primitive ``pool`` of ``nd`` spatial dims (an unbatched
    input is one batch, its samples (1, C, nd)); ``same_dtype``: the samples must have the input's dtype."""
    _common_checks(name, output_size, output_ratio, return_indices)
    check(isinstance(input, Tensor) and input.ndim in (nd + 1, nd + 2), name,
          f"'input' must be a {nd + 1}-D or {nd + 2}-D Tensor, but got "
          f"{getattr(input, 'shape', type(input).__name__)}.", TypeError)
    squeeze = input.ndim == nd + 1
    x = wrap(unwrap(input)[None]) if squeeze else input
    samples = _default_samples(x, x.shape[0], nd) if random_samples is None else random_samples
    _check_dtypes(name, x, samples)
    size = output_size if output_size is not None else _size_from_ratio(name, output_ratio, tuple(x.shape[-nd:]))
    if same_dtype:
        check(x.dtype == samples.dtype, name, "'input' and '_random_samples' must be same dtype, but got "
              f"Tensor[{x.dtype}] and Tensor[{samples.dtype}].", TypeError)
    y, argmax = pool(kernel_size, size)(x, samples)
    if squeeze:
        y, argmax = y[0], argmax[0]
    return (y, argmax) if return_indices else y


def fractional_max_pool2d(input: Tensor, kernel_size: int | tuple[int, int],
                          output_size: int | tuple[int, int] | None = None,
                          output_ratio: float | tuple[float, float] | None = None, return_indices: bool = False,
                          _random_samples: Tensor | None = None) -> Tensor | tuple[Tensor, Tensor]:
    """2-D fractional max pooling of an (N, C, H, W) or (C, H, W) input; with ``return_indices`` also the flat
    (H * W) index of each maximum. ``_random_samples`` (N or 1, C, 2) in [0, 1) place the pooling regions.

    >>> import numpy as np
    >>> from mindspore_hl import Tensor, ops
    >>> x = Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    >>> s = Tensor(np.full((1, 1, 2), 0.5, np.float32))
    >>> ops.fractional_max_pool2d(x, 2, output_size=2, _random_samples=s).shape
    (1, 1, 2, 2)
    """
    return _fractional_pool("fractional_max_pool2d", 2, _POOL2D, input, kernel_size, output_size, output_ratio,
                            return_indices, _random_samples)

def fractional_max_pool3d(input: Tensor, kernel_size: int | tuple[int, int, int],
                          output_size: int | tuple[int, int, int] | None = None,
                          output_ratio: float | tuple[float, float, float] | None = None, return_indices: bool = False,
                          _random_samples: Tensor | None = None) -> Tensor | tuple[Tensor, Tensor]:
    """3-D fractional max pooling of an (N, C, D, H, W) or (C, D, H, W) input; with ``return_indices`` also the
    flat (D * H * W) index of each maximum. ``_random_samples`` (N or 1, C, 3) in [0, 1) place the regions and
    must have the input's dtype.

    >>> import numpy as np
    >>> from mindspore_hl import Tensor, ops
    >>> x = Tensor(np.arange(64, dtype=np.float32).reshape(1, 1, 4, 4, 4))
    >>> s = Tensor(np.full((1, 1, 3), 0.5, np.float32))
    >>> ops.fractional_max_pool3d(x, 2, output_size=2, _random_samples=s).shape
    (1, 1, 2, 2, 2)
    """
    return _fractional_pool("fractional_max_pool3d", 3, _POOL3D, input, kernel_size, output_size, output_ratio,
                            return_indices, _random_samples, same_dtype=True)
