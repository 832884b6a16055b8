"""Data sinking without a device queue: ``data_sink``, ``DatasetHelper``, ``connect_network_with_dataset``, and the
functional ``recompute``.

MindSpore sinks batches into a device queue that the compiled graph reads; here the batches stream from the host
(``DataSource``) and each sink call runs ``sink_size`` steps, returning the last step's output, as MindSpore's
sink functions do.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import jax
import numpy as np

from .._jit import jit
from ..common.tensor import Tensor, wrap
from ..model._data import DataSource
from ..nn.cell import Cell

__all__ = ["data_sink", "DatasetHelper", "connect_network_with_dataset", "recompute"]


def _check_sink_size(sink_size: Any, api: str, allow_minus_one: bool = False) -> int:
    if not isinstance(sink_size, int) or isinstance(sink_size, bool):
        raise TypeError(f"For '{api}', 'sink_size' must be an int, but got {type(sink_size).__name__}.")
    if sink_size <= 0 and not (allow_minus_one and sink_size == -1):
        raise ValueError(f"For '{api}', 'sink_size' must be positive{' or -1' if allow_minus_one else ''}, but got "
                         f"sink_size {sink_size}.")
    return sink_size


def _tensors(columns: list[Any]) -> tuple[Tensor, ...]:
    return tuple(wrap(c) if isinstance(c, jax.Array) else Tensor(np.asarray(c)) for c in columns)


def data_sink(fn: Callable[..., Any], dataset: Any, sink_size: int = 1, jit_config: Any = None,
              input_signature: Any = None) -> Callable[[], Any]:
    """A function that, at each call, runs ``fn(*batch)`` on the next ``sink_size`` batches of ``dataset`` (which
    repeats endlessly) and returns the last output. With ``jit_config`` the step is compiled (``ms.jit``).

    >>> cols = {"x": np.ones((2,), np.int32), "y": np.ones((2,), np.int32)}
    >>> data = ms.dataset.NumpySlicesDataset(cols, shuffle=False)
    >>> step = data_sink(lambda x, y: x + y, data)
    >>> int(step())
    2
    """
    _check_sink_size(sink_size, "data_sink")
    if not callable(fn):
        raise TypeError(f"For 'data_sink', 'fn' must be callable, but got {type(fn).__name__}.")
    step = jit(fn) if jit_config is not None else fn
    stream = DataSource(dataset)._stream()

    def sink_process(*args: Any, **kwargs: Any) -> Any:
        out = None
        for _ in range(sink_size):
            try:
                columns = next(stream)
            except StopIteration:
                raise ValueError("For 'data_sink', the dataset is empty.") from None
            out = step(*_tensors(columns))
        return out

    return sink_process


class DatasetHelper:
    """Iterates a dataset for a training loop.

    Not in sink mode, each item is one batch (a tuple of Tensors) for ``network(*inputs)``. In sink mode each
    item is ``()``: the network returned by :func:`connect_network_with_dataset` reads ``sink_size`` batches
    itself per call. ``len()`` is the number of items over ``epoch_num`` epochs.

    Args:
        dataset: a mindspore_hl dataset (or re-iterable of batches).
        dataset_sink_mode: sink mode (see above).
        sink_size: batches per sink call; -1 means a whole epoch.
        epoch_num: the number of epochs to iterate.
    """

    def __init__(self, dataset: Any, dataset_sink_mode: bool = True, sink_size: int = -1, epoch_num: int = 1) -> None:
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"For 'DatasetHelper', 'dataset_sink_mode' must be a bool, but got "
                            f"{type(dataset_sink_mode).__name__}.")
        _check_sink_size(sink_size, "DatasetHelper", allow_minus_one=True)
        if not isinstance(epoch_num, int) or epoch_num <= 0:
            raise ValueError(f"For 'DatasetHelper', 'epoch_num' must be a positive int, but got {epoch_num!r}.")
        self.dataset = dataset
        self.dataset_sink_mode = dataset_sink_mode
        self._source = DataSource(dataset)
        self._sink_size = self._source.size() if sink_size == -1 else sink_size
        self.epoch_num = epoch_num
        self._stream: Iterator[list[Any]] | None = None

    def sink_size(self) -> int:
        """Batches per sink call (the dataset size when created with -1)."""
        return self._sink_size

    def __len__(self) -> int:
        if self.dataset_sink_mode:
            return self.epoch_num * max(self._source.size() // self._sink_size, 1)
        return self.epoch_num * self._source.size()

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        if self.dataset_sink_mode:
            for _ in range(len(self)):
                yield ()
            return
        for epoch in self._source.epochs(self.epoch_num):
            for columns in epoch:
                yield _tensors(columns)

    def next_batch(self) -> tuple[Tensor, ...]:
        """The next batch of the endless stream the sink network reads."""
        if self._stream is None:
            self._stream = self._source._stream()
        try:
            return _tensors(next(self._stream))
        except StopIteration:
            raise ValueError("For 'DatasetHelper', the dataset is empty.") from None

    def types_shapes(self) -> tuple[list[Any], list[tuple[int, ...]]]:
        """The dtypes and shapes of one batch's columns."""
        for epoch in self._source.epochs(1):
            for columns in epoch:
                batch = _tensors(columns)
                return [t.dtype for t in batch], [tuple(t.shape) for t in batch]
        return [], []

    def get_data_info(self) -> tuple[list[Any], list[tuple[int, ...]]]:
        """Same as :meth:`types_shapes` (the next batch's dtypes and shapes)."""
        return self.types_shapes()


class _SinkNetwork(Cell):
    """``network`` fed by a DatasetHelper: each call runs ``sink_size`` batches and returns the last output."""

    def __init__(self, network: Cell, helper: DatasetHelper) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self._helper = helper

    def construct(self, *inputs: Any) -> Any:
        out = None
        for _ in range(self._helper.sink_size()):
            out = self.network(*self._helper.next_batch())
        return out

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # reading the host queue cannot be compiled
        return self.construct(*args)


def connect_network_with_dataset(network: Cell, dataset_helper: DatasetHelper) -> Cell:
    """In sink mode, a Cell that reads its inputs from ``dataset_helper`` (call it with no inputs); otherwise
    ``network`` itself."""
    if not isinstance(dataset_helper, DatasetHelper):
        raise TypeError(f"For 'connect_network_with_dataset', 'dataset_helper' must be a DatasetHelper, but got "
                        f"{type(dataset_helper).__name__}.")
    if not dataset_helper.dataset_sink_mode:
        return network
    return _SinkNetwork(network, dataset_helper)


def recompute(block: Callable[..., Any], *args: Any, use_reentrant: bool = True, output_recompute: bool = False,
              early_stop: bool = True, context_fn: Any = None, **kwargs: Any) -> Any:
    """``block(*args, **kwargs)`` whose activations are recomputed in the backward pass instead of being kept
    (``jax.checkpoint``); Parameters the block reads are taken inside, Tensor arguments are the checkpoint's inputs.
    """
    if not callable(block):
        raise TypeError(f"For 'recompute', 'block' must be a Cell or function, but got {type(block).__name__}.")
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=lambda t: isinstance(t, Tensor))
    where = [i for i, t in enumerate(leaves) if isinstance(t, Tensor)]
    out_tree: dict[str, Any] = {}

    @jax.checkpoint
    def body(*arrays: Any) -> tuple[Any, ...]:
        filled = list(leaves)
        for i, a in zip(where, arrays):
            filled[i] = wrap(a)
        a, k = jax.tree_util.tree_unflatten(tree, filled)
        out = block(*a, **k)
        flat, out_tree["tree"] = jax.tree_util.tree_flatten(out, is_leaf=lambda t: isinstance(t, Tensor))
        return tuple(t._value if isinstance(t, Tensor) else t for t in flat)

    flat = body(*(leaves[i]._value for i in where))
    return jax.tree_util.tree_unflatten(out_tree["tree"], [wrap(a) for a in flat])
