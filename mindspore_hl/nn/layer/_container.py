"""Containers: ``SequentialCell`` (runs its cells in order), ``CellList`` and ``CellDict``.

Children are named '0', '1', ... (or by the keys of an OrderedDict / CellDict), so parameters are named
``<container path>.<index>.<param>``, as in MindSpore.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, cast

from ..cell import Cell

if TYPE_CHECKING:
    from typing import Any, ItemsView, Iterable, KeysView, Mapping, NoReturn, ValuesView


__all__ = ["SequentialCell", "CellList", "CellDict"]


def _check_cell(owner, cell):
    if not isinstance(cell, Cell):
        raise TypeError(f"{type(owner).__name__}: expected a Cell, but got {type(cell).__name__}.")
    return cell


def _prefix(cells):
    """The naming prefix already applied to the children (e.g. 'layer1.' once the container is attached)."""
    for key, cell in cells.items():
        marker = f"{key}."
        for p in cell.get_parameters():
            i = p.name.find(marker)
            while i > 0 and p.name[i - 1] != ".":
                i = p.name.find(marker, i + 1)
            if i >= 0:
                return p.name[:i]
    return ""


class _IndexedCells(Cell):
    """Children kept under the keys '0'..'n-1'; re-keyed (and parameters renamed) on insert/delete."""

    def _add(self, key, cell):
        prefix = _prefix(self._cells)
        setattr(self, key, _check_cell(self, cell))
        if prefix:
            for p in cell.get_parameters():
                p.name = prefix + p.name

    def _rekey(self, cells):
        """Store ``cells`` (a list) under '0'..'n-1', renaming parameters of cells whose index changed."""
        prefix = _prefix(self._cells)
        old_keys = {id(c): k for k, c in self._cells.items()}
        for k in list(self._cells):
            del self.__dict__[k]
        self._cells.clear()
        for i, cell in enumerate(cells):
            new, old = str(i), old_keys.get(id(cell))
            if old is not None and old != new:
                head = f"{prefix}{old}."
                for p in cell.get_parameters():
                    if p.name.startswith(head):
                        p.name = f"{prefix}{new}.{p.name[len(head):]}"
            self.__dict__[new] = cell
            self._cells[new] = cell

    def _index(self, index):
        n = len(self._cells)
        if not isinstance(index, int) or not -n <= index < n:
            raise IndexError(f"{type(self).__name__}: index {index!r} is out of range for {n} cell(s).")
        return index % n

    def __getitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            return self._view(cells[index])
        return cells[self._index(index)]

    @classmethod
    def _view(cls, cells):
        """A container of existing cells that leaves their parameter names alone (for slicing)."""
        obj = cls.__new__(cls)
        Cell.__init__(obj, auto_prefix=False)
        for i, cell in enumerate(cells):
            setattr(obj, str(i), cell)
        obj.__dict__["_auto_prefix"] = True
        return obj

    def __setitem__(self, index, cell):
        key = list(self._cells)[self._index(index)]
        prefix = _prefix(self._cells)
        setattr(self, key, _check_cell(self, cell))
        if prefix:
            for p in cell.get_parameters():
                p.name = prefix + p.name

    def __delitem__(self, index):
        cells = list(self._cells.values())
        if isinstance(index, slice):
            del cells[index]
        else:
            del cells[self._index(index)]
        self._rekey(cells)

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells.values())

    def append(self, cell):
        """Add ``cell`` at the end."""
        self._add(str(len(self._cells)), cell)
        return self

    def extend(self, cells):
        for c in cells:
            self.append(c)
        return self

    def insert(self, index, cell):
        """Insert ``cell`` before position ``index``."""
        cells = list(self._cells.values())
        n = len(cells)
        if not isinstance(index, int) or not -n <= index <= n:
            raise IndexError(f"{type(self).__name__}: insert index {index!r} is out of range for {n} cell(s).")
        pos = index % (n + 1) if index < 0 else index
        if pos == n:
            return self.append(cell)
        prefix = _prefix(self._cells)
        self._rekey(cells[:pos] + [_check_cell(self, cell)] + cells[pos:])
        for p in cell.get_parameters():
            p.name = f"{prefix}{pos}.{p.name}"
        return self


class SequentialCell(_IndexedCells):
    """Runs its cells one after another: ``SequentialCell(a, b)``, ``SequentialCell([a, b])`` or an OrderedDict.

    Example:
        >>> seq = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU()])
        >>> _ = seq.append(nn.Dense(8, 2))
        >>> len(seq), seq(Tensor(np.ones((3, 4), np.float32))).shape
        (3, (3, 2))
    """

    def __init__(self, *args: Any) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, cell in args[0].items():
                setattr(self, str(key), _check_cell(self, cell))
            return
        if len(args) == 1 and isinstance(args[0], (list, tuple)):
            args = tuple(args[0])
        for i, cell in enumerate(args):
            setattr(self, str(i), _check_cell(self, cell))

    def construct(self, input_data: Any) -> Any:
        for cell in self._cells.values():
            input_data = cell(input_data)  # type: ignore[misc]  # every entry is a Cell (_check_cell)
        return input_data


class CellList(_IndexedCells):
    """A list of Cells whose parameters are registered (iterate it in your own ``construct``)."""

    def __init__(self, args: Iterable[Cell] | None = None, **kwargs: Any) -> None:
        super().__init__()
        for cell in args or ():
            self.append(cell)

    def construct(self, *inputs: Any) -> NoReturn:
        raise NotImplementedError("CellList is a container: iterate over it in a construct, it is not callable.")


class CellDict(Cell):
    """An ordered dict of Cells whose parameters are registered under their keys."""

    def __init__(self, args: Mapping[str, Cell] | Iterable[tuple[str, Cell]] | None = None, **kwargs: Any) -> None:
        super().__init__()
        if args is not None:
            self.update(args)

    def _key(self, key):
        if not isinstance(key, str) or not key or "." in key:
            raise KeyError(f"CellDict: keys must be non-empty str without '.', but got {key!r}.")
        return key

    def __getitem__(self, key):
        if key not in self._cells:
            raise KeyError(f"CellDict: no cell named {key!r}; keys: {list(self._cells)}.")
        return self._cells[key]

    def __setitem__(self, key, cell):
        setattr(self, self._key(key), _check_cell(self, cell))

    def __delitem__(self, key):
        self[key]  # raises a KeyError naming the keys
        delattr(self, key)

    def __contains__(self, key):
        return key in self._cells

    def __len__(self):
        return len(self._cells)

    def __iter__(self):
        return iter(self._cells)

    def keys(self) -> KeysView[str]:
        return self._cells.keys()

    # Every entry is a Cell (_check_cell), never None.
    def values(self) -> ValuesView[Cell]:
        return cast("ValuesView[Cell]", self._cells.values())

    def items(self) -> ItemsView[str, Cell]:
        return cast("ItemsView[str, Cell]", self._cells.items())

    def pop(self, key: str) -> Cell:
        cell = self[key]
        del self[key]
        return cell

    def clear(self) -> None:
        for key in list(self._cells):
            del self[key]

    def update(self, cells: Mapping[str, Cell] | Iterable[tuple[str, Cell]]) -> None:
        items = cells.items() if hasattr(cells, "items") else cells
        for key, cell in items:
            self[key] = cell

    def construct(self, *inputs: Any) -> NoReturn:
        raise NotImplementedError("CellDict is a container: look cells up in a construct, it is not callable.")
