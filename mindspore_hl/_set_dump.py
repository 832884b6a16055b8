"""``mindspore_hl.set_dump``: mark Cells and Primitives whose ops ``dump_mode`` 2 of ``MINDSPORE_DUMP_CONFIG`` dumps."""
from __future__ import annotations

from typing import Any

from .nn.cell import Cell
from .ops._primitives import Primitive

__all__ = ["set_dump"]


def set_dump(target: Any, enabled: bool = True) -> None:
    """Enable or disable dump for ``target`` (a Cell with all its sub-Cells, or a Primitive).

    The marks take effect when ``MINDSPORE_DUMP_CONFIG`` names a dump configuration with ``"dump_mode": 2``:
    then only the ops run inside a marked Cell's ``construct`` (the innermost Cell decides, so a sub-Cell set
    back to ``False`` is left out) or through a marked Primitive are dumped. As in MindSpore, a Cell gets the
    flag ``dump`` (``cell.add_flags(dump=enabled)``) and a Primitive the attribute ``"dump"`` (``"true"`` /
    ``"false"``). Unlike MindSpore, whose CPU and GPU builds refuse ``dump_mode`` 2 (so it warns off Ascend),
    every device of this package honours the marks, without a warning; ops of the backward pass that ``grad``
    derives are not dumped (see ``mindspore_hl._dump``).

    Args:
        target: the ``nn.Cell`` or ``ops.Primitive`` instance to mark.
        enabled: ``True`` to dump it, ``False`` not to.

    Raises:
        ValueError: ``target`` is not a Cell or Primitive, or ``enabled`` is not a bool.

    Example:
        >>> import mindspore_hl as ms
        >>> net = ms.nn.SequentialCell([ms.nn.Dense(2, 2), ms.nn.ReLU()])
        >>> ms.set_dump(net[0])
        >>> net[0].get_flags()["dump"], "dump" in net[1].get_flags()
        (True, False)
    """
    if not isinstance(target, (Cell, Primitive)):
        raise ValueError(f"The \"target\" parameter must be an instance of Cell or Primitive, "
                         f"but got an instance of {type(target)}.")
    if not isinstance(enabled, bool):
        raise ValueError("The \"enabled\" parameter must be bool.")
    if isinstance(target, Cell):
        target.add_flags(dump=enabled)
        for cell in target.cells():
            set_dump(cell, enabled)
        # The Cell's Primitive attributes that were marked before follow it (MindSpore's _primitives).
        for value in list(vars(target).values()):
            if isinstance(value, Primitive) and "dump" in value.attrs:
                set_dump(value, enabled)
    else:
        target.add_prim_attr("dump", "true" if enabled else "false")
