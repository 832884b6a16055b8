"""The attributes and bookkeeping methods every MindSpore ``Dataset`` object carries: cached sizes and shapes,
``input_indexs``, the resume step (``set_init_step``), source details and ``to_json`` (the pipeline as MindSpore
serialises it)."""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from ._dataset import Dataset

__all__ = ["DatasetAttrs", "CONNECTOR_QUEUE_SIZE", "JSON_FIELDS"]

# MindSpore's default ``ds.config.get_op_connector_size()``: written into every node of ``to_json``.
CONNECTOR_QUEUE_SIZE = 16

# node class -> function(node) -> the node's own fields of ``to_json`` (filled by ``_serialize``).
JSON_FIELDS: dict[type, Callable[[Any], dict[str, Any]]] = {}


class DatasetAttrs:
    """Mixin of ``Dataset``. Class-level values are the defaults of nodes that do not set them (as in MindSpore,
    where ``cache`` is None without a cache and ``schema`` None without a schema file)."""

    children: Sequence[Dataset] = ()
    num_parallel_workers: int | None = None
    column_names: list[str] = None  # type: ignore[assignment]  # every node sets its columns in __init__
    cache: Any = None
    schema: Any = None
    source: Any = None
    sampler: Any = None
    num_samples: Any = None
    num_shards: Any = None
    shard_id: Any = None
    python_multiprocessing = False
    max_rowsize: int | Sequence[int] | None = None
    _input_indexs: Sequence[int] = ()
    _global_step: int | None = None
    _estimated = False
    _size_cache: int | None = None
    _shape_cache: list[np.ndarray] | None = None

    @property
    def column_types(self) -> list:
        """The ``column_types`` a ``GeneratorDataset`` was given ([] when none, as MindSpore keeps it)."""
        types = getattr(self, "_types", None)
        return [] if types is None else list(types)

    @property
    def source_len(self) -> int:
        """``len(source)`` of a GeneratorDataset, -1 when the source has no length (MindSpore's value)."""
        if self.source is None:
            raise AttributeError(f"{type(self).__name__} has no Python source, so no source_len")
        try:
            return len(self.source)
        except TypeError:
            return -1

    # --------------------------------------------------------------- caches filled by the getters
    @property
    def dataset_size(self) -> int | None:
        """The size ``get_dataset_size()`` found (None before it is asked)."""
        return self._size_cache

    @dataset_size.setter
    def dataset_size(self, value: int | None) -> None:
        self._size_cache = value

    @property
    def saved_output_types(self) -> list[np.dtype] | None:
        """The types ``output_types()`` found (None before it is asked)."""
        return None if self._shape_cache is None else [v.dtype for v in self._shape_cache]

    @property
    def saved_output_shapes(self) -> list[list[int]] | None:
        """The shapes ``output_shapes()`` found (None before it is asked)."""
        return None if self._shape_cache is None else [list(v.shape) for v in self._shape_cache]

    @property
    def estimated_output_shapes(self) -> list[list[int]] | None:
        """The shapes ``output_shapes(estimate=True)`` found (None before it is asked)."""
        return self.saved_output_shapes if getattr(self, "_estimated", False) else None

    # --------------------------------------------------------------- sink-mode column order
    @property
    def input_indexs(self) -> Sequence[int]:
        """The column order a network takes in sink mode: this node's value, else the first non-empty one of its
        children, else ``()``.

        >>> import mindspore_hl.dataset as ds
        >>> d = ds.NumpySlicesDataset([1, 2], "x")
        >>> d.input_indexs = (1, 0)
        >>> d.batch(1).input_indexs
        (1, 0)
        """
        if self._input_indexs != ():
            return self._input_indexs
        for child in self.children:
            if child.input_indexs != ():
                return child.input_indexs
        return self._input_indexs

    @input_indexs.setter
    def input_indexs(self, value: Sequence[int]) -> None:
        self._input_indexs = value

    # --------------------------------------------------------------- resuming
    def set_init_step(self, init_step: int) -> None:
        """Start the next iterators at step ``init_step`` of their first epoch (rows, or batches after
        ``batch``): the first ``init_step`` of them are skipped, as when MindSpore resumes training."""
        if isinstance(init_step, bool) or not isinstance(init_step, int) or init_step < 0:
            raise TypeError(f"set_init_step: init_step must be a non-negative int, but got {init_step!r}")
        self._global_step = init_step

    def get_init_step(self) -> int:
        """The step set by ``set_init_step`` here or (for a one-input node) below; 0 when none."""
        if self._global_step is not None:
            return self._global_step
        if len(self.children) == 1:
            return self.children[0].get_init_step()
        return 0

    def reset(self) -> None:
        """Prepare for the next epoch. Every iterator of a mindspore_hl pipeline already starts each epoch from
        the sources' first row (as MindSpore's ``reset``, a no-op, leaves it), so there is nothing to undo."""

    # --------------------------------------------------------------- sync_wait barriers
    def get_sync_notifiers(self) -> dict[str, Callable[[int | None, Any], None]]:
        """condition name -> release function of the ``sync_wait`` barriers below (through first inputs)."""
        return self.children[0].get_sync_notifiers() if self.children else {}

    def is_sync(self) -> bool:
        """Whether a ``sync_wait`` barrier is below (through first inputs)."""
        return self.children[0].is_sync() if self.children else False

    def disable_sync(self) -> None:
        """Open the ``sync_wait`` barriers below for good."""
        if self.children:
            self.children[0].disable_sync()

    def sync_update(self, condition_name: str, num_batch: int | None = None, data: Any = None) -> None:
        """Release ``num_batch`` batches (default: the barrier's ``num_batch``) at the barrier ``condition_name``
        and call its callback with ``data``."""
        if (num_batch is not None and (isinstance(num_batch, bool) or not isinstance(num_batch, int))) or \
                (isinstance(num_batch, int) and num_batch <= 0):
            self.disable_sync()   # as MindSpore: never leave the pipeline hanging on a bad call
            raise RuntimeError(f"Sync_update batch size can only be positive integer, got: {num_batch}.")
        if not isinstance(condition_name, str):
            raise TypeError(f"sync_update: condition_name must be a str, but got {condition_name!r}")
        notifiers = self.get_sync_notifiers()
        if condition_name not in notifiers:
            self.disable_sync()
            raise RuntimeError(f"Condition name not found: {condition_name!r}; the pipeline has "
                               f"{sorted(notifiers)}")
        notifiers[condition_name](num_batch, data)

    # --------------------------------------------------------------- serialisation
    def _json_fields(self) -> dict[str, Any]:
        for cls in type(self).__mro__:
            if cls in JSON_FIELDS:
                return JSON_FIELDS[cls](self)
        raise TypeError(f"to_json: {type(self).__name__} cannot be serialised (MindSpore's JSON format is "
                        f"written for GeneratorDataset/NumpySlicesDataset sources and map, batch, shuffle, repeat, "
                        f"take, skip, project, rename and zip)")

    def _json_tree(self) -> dict[str, Any]:
        node = self._json_fields()
        node["children"] = [child._json_tree() for child in self.children]
        return dict(sorted(node.items()))

    def to_json(self, filename: str = "") -> dict[str, Any]:
        """The pipeline as MindSpore's JSON dict (``op_type``, the operation's arguments and ``children``);
        also written to ``filename`` when given.

        >>> import mindspore_hl.dataset as ds
        >>> ds.NumpySlicesDataset([1, 2], "x", shuffle=False).repeat(2).to_json()["op_type"]
        'Repeat'
        """
        tree = self._json_tree()
        if filename:
            if not isinstance(filename, (str, os.PathLike)):
                raise TypeError(f"to_json: filename must be a str, but got {filename!r}")
            with open(filename, "w") as f:
                json.dump(tree, f, indent=2)
        return tree
