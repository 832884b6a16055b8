"""The base of Tensor's method mixins (``TensorMethods``, ``TensorMathMethods``, ``TensorExtMethods``).

At run time it adds nothing. For the type checker it declares the members of ``Tensor`` that the mixins' methods
use, which ``common.tensor`` defines when it builds Tensor from them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from . import dtype as mstype

__all__ = ["TensorMixin"]


class TensorMixin:
    """Declares, for the type checker, what Tensor's method mixins use of Tensor (``self._value`` is the array)."""

    __slots__ = ()

    if TYPE_CHECKING:
        _init: Any

        @property
        def _value(self) -> Any: ...

        @property
        def dtype(self) -> mstype.Type: ...

        @property
        def shape(self) -> tuple[int, ...]: ...

        @property
        def ndim(self) -> int: ...

        @property
        def size(self) -> int: ...

        def _set_value(self, value: Any) -> None: ...

        def asnumpy(self) -> np.ndarray: ...
