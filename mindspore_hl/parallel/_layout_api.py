"""``mindspore.parallel.Layout``: a device matrix with named axes, and which axes split each tensor dimension.

``Layout((2, 4), ("dp", "mp"))("dp", "None")`` says "dimension 0 is split over the 'dp' axis (2 parts), dimension
1 is not split". ``Cell.shard`` / ``ms.shard`` take such layouts as in_strategy / out_strategy / parameter_plan
entries: each becomes the strategy of split counts (here ``(2, 1)``) that the engine lays on its device mesh.
"""
from __future__ import annotations

import copy
import math
from typing import Any

__all__ = ["Layout"]

_INTERLEAVED = "interleaved_parallel"


class Layout:
    """Topological abstraction of the devices, for describing how a tensor is sliced over them.

    Args:
        device_matrix (tuple[int]): the shape of the device arrangement.
        alias_name (tuple[str]): a name for each axis of ``device_matrix``.
        rank_list (list[int], optional): the ranks, in device-matrix order. Default: ``None`` (``0 .. n-1``).

    Example:
        >>> from mindspore_hl.parallel import Layout
        >>> layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
        >>> layout("dp", "mp").to_dict()["tensor_map"]
        (2, 0)
    """

    def __init__(self, device_matrix: tuple[int, ...], alias_name: tuple[str, ...],
                 rank_list: list[int] | None = None) -> None:
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix length should be equal to alias_name length")
        for dim in device_matrix:
            if not isinstance(dim, int):
                raise TypeError(f"The element of device_matrix must be int type, but got:{type(dim)}")
        for name in alias_name:
            if not isinstance(name, str):
                raise TypeError(f"The element of alias_name must be str type, but got:{type(name)}")
            if not name:
                raise ValueError("The element of alias_name can not be empty.")
            if name == "None":
                raise ValueError("The element of alias_name can not set 'None', because 'None' means no sharding.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} should be different")
        if _INTERLEAVED in alias_name and alias_name.index(_INTERLEAVED) != len(alias_name) - 1:
            raise ValueError(f"When alias_name {alias_name} contains keyword 'interleaved_parallel', it should be at "
                             "the last dim of alias_name, which means the virtual sharding.")
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._tensor_map: tuple[Any, ...] | None = None
        size = math.prod(device_matrix)
        self._rank_list = list(range(size))
        if rank_list is not None:
            if not isinstance(rank_list, list):
                raise TypeError(f"The rank_list should be a list, but got {type(rank_list).__name__}.")
            for rank in rank_list:
                if not isinstance(rank, int):
                    raise TypeError(f"The element of rank_list should be int, but got {type(rank).__name__}.")
            if len(rank_list) != size:
                raise ValueError("The length of rank_list should be equal to the product of device_matrix, but got "
                                 f"{len(rank_list)} and {size}.")
            self._rank_list = rank_list

    def __call__(self, *tensor_map: str | tuple[str, ...]) -> Layout:
        """A copy of this layout that maps each tensor dimension to an axis name, a tuple of names, or ``"None"``."""
        self._tensor_map = ()
        written: list[str] = []
        for entry in tensor_map:
            if isinstance(entry, tuple):
                self._tensor_map += (tuple(self._axis(item, written) for item in entry),)
            else:
                self._tensor_map += (self._axis(entry, written),)
        return copy.deepcopy(self)

    def _axis(self, name: Any, written: list[str]) -> int:
        """The tensor-map value of one axis name (its index counted from the last axis; -1 for "None")."""
        if name == "None":
            return -1
        if name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in written:
            raise ValueError(f"The axis {name} has been set more than one in {self._alias_name}")
        written.append(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def to_dict(self) -> dict[str, Any]:
        """``device_matrix``, ``tensor_map``, ``interleaved_parallel``, ``alias_name`` and ``rank_list``."""
        if self._device_shape is None:
            raise ValueError("The device_shape of layout is None")
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {"device_matrix": self._device_shape, "tensor_map": self._tensor_map,
                "interleaved_parallel": _INTERLEAVED in self._alias_name, "alias_name": self._alias_name,
                "rank_list": self._rank_list}

    def _as_strategy(self) -> tuple[int, ...]:
        """The split count of each tensor dimension (what ``Cell.shard`` lays on the mesh).

        The 'interleaved_parallel' axis splits a slice into copies on one device, so it adds no device split.
        """
        info = self.to_dict()
        matrix = info["device_matrix"]
        skip = len(matrix) - 1 if info["interleaved_parallel"] else None
        counts = []
        for entry in info["tensor_map"]:
            parts = 1
            for axis in entry if isinstance(entry, tuple) else (entry,):
                index = len(matrix) - 1 - axis
                if axis != -1 and index != skip:
                    parts *= matrix[index]
            counts.append(parts)
        return tuple(counts)
