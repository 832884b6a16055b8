"""``nn.FractionalMaxPool2d`` / ``nn.FractionalMaxPool3d``: Cells that hold the pooling arguments and call
``ops.fractional_max_pool2d`` / ``ops.fractional_max_pool3d`` (the one implementation), as MindSpore's do.

Like MindSpore, the arguments are only stored here; the functional op checks them when the Cell runs.
"""
from __future__ import annotations

from typing import Any

from ... import ops
from ...common.tensor import Tensor
from ..cell import Cell

__all__ = ["FractionalMaxPool2d", "FractionalMaxPool3d"]


class _FractionalMaxPool(Cell):
    """The arguments both Cells hold, and the call of their functional op ``_pool``."""

    _pool: Any

    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Tensor | None = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.output_size = output_size
        self.output_ratio = output_ratio
        self.return_indices = return_indices
        self._random_samples = _random_samples

    def construct(self, input: Tensor) -> Any:
        return type(self)._pool(input, self.kernel_size, self.output_size, self.output_ratio, self.return_indices,
                                self._random_samples)


class FractionalMaxPool2d(_FractionalMaxPool):
    """2-D fractional max pooling of an (N, C, H, W) or (C, H, W) input; ``output_size`` wins over
    ``output_ratio``; with ``return_indices`` the Cell also returns the flat (H * W) index of each maximum.
    ``_random_samples`` (N or 1, C, 2) in [0, 1) fix the pooling regions (drawn per call when None).

    >>> import numpy as np
    >>> from mindspore_hl import Tensor, nn
    >>> x = Tensor(np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5))
    >>> s = Tensor(np.array([[[0.8, 0.8]]], np.float32))
    >>> y, argmax = nn.FractionalMaxPool2d(2, output_size=(2, 2), return_indices=True, _random_samples=s)(x)
    >>> y.shape, argmax.shape
    ((1, 1, 2, 2), (1, 1, 2, 2))
    """

    _pool = staticmethod(ops.fractional_max_pool2d)

    def __init__(self, kernel_size: int | tuple[int, int], output_size: int | tuple[int, int] | None = None,
                 output_ratio: float | tuple[float, float] | None = None, return_indices: bool = False,
                 _random_samples: Tensor | None = None) -> None:
        super().__init__(kernel_size, output_size, output_ratio, return_indices, _random_samples)


class FractionalMaxPool3d(_FractionalMaxPool):
    """3-D fractional max pooling of an (N, C, D, H, W) or (C, D, H, W) input; ``output_size`` wins over
    ``output_ratio``; with ``return_indices`` the Cell also returns the flat (D * H * W) index of each maximum.
    ``_random_samples`` (N or 1, C, 3) in [0, 1), of the input's dtype, fix the regions (drawn per call when None).

    >>> import numpy as np
    >>> from mindspore_hl import Tensor, nn
    >>> x = Tensor(np.arange(1, 17, dtype=np.float32).reshape(1, 1, 2, 2, 4))
    >>> s = Tensor(np.full((1, 1, 3), 0.7, np.float32))
    >>> y, argmax = nn.FractionalMaxPool3d((1, 1, 1), output_size=(1, 1, 3), return_indices=True,
    ...                                    _random_samples=s)(x)
    >>> y.asnumpy().ravel().tolist(), argmax.asnumpy().ravel().tolist()
    ([13.0, 14.0, 16.0], [12, 13, 15])
    """

    _pool = staticmethod(ops.fractional_max_pool3d)

    def __init__(self, kernel_size: int | tuple[int, int, int], output_size: int | tuple[int, int, int] | None = None,
                 output_ratio: float | tuple[float, float, float] | None = None, return_indices: bool = False,
                 _random_samples: Tensor | None = None) -> None:
        super().__init__(kernel_size, output_size, output_ratio, return_indices, _random_samples)
