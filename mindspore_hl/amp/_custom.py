"""``custom_mixed_precision``: mixed precision by the user's own white list or black list of Cell / Primitive types.

It is ``auto_mixed_precision``'s O1 (white list) and O2 (black list) with the user's classes. A white-listed
Primitive class additionally converts the Primitive instances that Cells hold as attributes (``self.matmul =
ops.MatMul()``): their floating inputs are cast to the low dtype and their outputs back to float32, as MindSpore
inserts casts around such calls.
"""
from __future__ import annotations

import logging
from typing import Any

import jax.numpy as jnp

from ..common import dtype as mstype
from ..nn.cell import Cell
from ..ops._primitives import Primitive
from ._amp import _black_list_amp, _cast_floats, _white_list_amp, get_black_list

__all__ = ["custom_mixed_precision"]

_log = logging.getLogger(__name__)


class _CastPrimitive(Primitive):
    """Calls ``prim`` on inputs cast to ``dtype`` and casts its floating outputs to float32."""

    def __init__(self, prim: Primitive, dtype: Any) -> None:
        super().__init__(prim.name)
        self.attrs = prim.attrs
        self._prim = prim
        self._np_dtype = mstype.to_ms_dtype(dtype).to_numpy()

    def __getattr__(self, name: str) -> Any:
        # Only reached for names this wrapper lacks: the wrapped Primitive's attributes (transpose_b, ...).
        prim = self.__dict__.get("_prim")
        if prim is None:  # during copy / unpickling, before __dict__ is restored
            raise AttributeError(name)
        return getattr(prim, name)

    def __call__(self, *args: Any) -> Any:
        return _cast_floats(self._prim(*_cast_floats(args, self._np_dtype)), jnp.float32)


def _wrap_primitives(network: Cell, classes: tuple[type[Primitive], ...], dtype: Any) -> None:
    """Replace, in every Cell of ``network``, the Primitive attributes whose class is in ``classes``."""
    for _, cell in network.cells_and_names():
        for name, value in list(vars(cell).items()):
            if isinstance(value, classes) and not isinstance(value, _CastPrimitive):
                cell.__dict__[name] = _CastPrimitive(value, dtype)


def _list_check(custom_list: Any, list_name: str) -> None:
    if not isinstance(custom_list, list):
        raise TypeError(f"The type of {list_name} should be list, but got {type(custom_list)}")
    for elem in custom_list:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {list_name} should be a class, but got {elem}")
        if list_name == "white_list" and not issubclass(elem, (Cell, Primitive)):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell' and 'Primitive', "
                            f"but got {elem}")
        if list_name == "black_list" and not issubclass(elem, Cell):
            raise TypeError(f"The subclass of element in {list_name} should be one of 'Cell', but got {elem}")
    if list_name == "black_list":
        for elem in get_black_list():
            if elem not in custom_list:
                _log.warning("%s is removed from internal black list.", elem)


def custom_mixed_precision(network: Cell, *, white_list: list[type] | None = None,
                           black_list: list[type] | None = None, dtype: Any = mstype.float16) -> Cell:
    """Mixed precision by a white list or a black list of Cell / Primitive classes (give exactly one).

    - ``white_list``: the listed Cells (and Primitives held by Cells) compute in ``dtype``, their outputs are cast
      back to float32; the rest of the network stays float32.
    - ``black_list`` (Cells only): the whole network computes in ``dtype`` except the listed Cells, which stay
      float32 (their outputs cast to ``dtype``); the network's output is cast to float32.

    Args:
        network (Cell): the network, converted in place.
        white_list (list[type]): Cell / Primitive classes to run in low precision.
        black_list (list[type]): Cell classes to keep in float32.
        dtype: ``mstype.float16`` (default) or ``mstype.bfloat16``.

    Returns:
        Cell: the network to use.

    >>> import mindspore_hl as ms
    >>> from mindspore_hl import amp, nn
    >>> net = amp.custom_mixed_precision(nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()]), black_list=[nn.ReLU])
    >>> net(ms.ops.ones((1, 2), ms.float32)).dtype
    mindspore.float32
    """
    if not isinstance(network, Cell):
        raise TypeError("The network type should be Cell.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be provided "
                         "at the same time, please provide one or the other.")
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")
    if white_list is not None:
        _list_check(white_list, "white_list")
        prims = tuple(c for c in white_list if issubclass(c, Primitive))
        if prims:
            _wrap_primitives(network, prims, dtype)
        return _white_list_amp(network, tuple(c for c in white_list if issubclass(c, Cell)), dtype)
    black = black_list if black_list is not None else []  # (not None here: one of the two lists is given)
    _list_check(black, "black_list")
    return _black_list_amp(network, tuple(black), dtype)
