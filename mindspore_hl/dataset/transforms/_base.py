"""The transform protocol shared by ``dataset.vision`` and ``dataset.transforms``.

A transform is called eagerly on NumPy arrays (``vision.Resize((8, 8))(img)``) or run by ``Dataset.map``. Map
hands a *block* of rows to ``_apply_batch`` when the transform says it is ``batchable`` (row-independent, and the
rows are stacked into one array), else it calls ``_apply`` once per row. Random transforms draw from the ``rng``
they are given, which the pipeline derives from the seed, the epoch and the block, so results do not depend on
thread scheduling.
"""
from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

from .. import config
from .._block import as_array

__all__ = ["TensorOperation", "eager_rng", "to_numpy_dtype"]

_eager: dict[str, Any] = {"seed": None, "rng": None}


def eager_rng() -> np.random.Generator:
    """Generator for random transforms called eagerly; restarts whenever the dataset seed changes."""
    key = (config.effective_seed(), config._state["generation"])
    if _eager["rng"] is None or key != _eager["seed"]:
        _eager["seed"] = key
        _eager["rng"] = np.random.default_rng(key[0])
    return _eager["rng"]


def to_numpy_dtype(data_type: Any, op_name: str = "TypeCast") -> np.dtype:
    """A mindspore_hl dtype (``ms.int32``), NumPy dtype, Python type or name -> ``np.dtype``."""
    mstype: ModuleType | None
    try:
        from mindspore_hl.common import dtype as _mstype
        mstype = _mstype
    except ImportError:  # the dtype module is optional for the dataset package
        mstype = None
    if mstype is not None and isinstance(data_type, mstype.Type):
        np_type = data_type.to_numpy()
        if np_type is None:
            raise TypeError(f"{op_name}: {data_type!r} has no NumPy equivalent")
        return np.dtype(np_type)
    if isinstance(data_type, str) and mstype is not None:
        try:
            return np.dtype(mstype.to_ms_dtype(data_type).to_numpy())
        except (TypeError, AttributeError):
            pass
    try:
        return np.dtype(data_type)
    except TypeError:
        raise TypeError(f"{op_name}: data_type must be a mindspore dtype (e.g. ms.int32) or a NumPy dtype, "
                        f"but got {data_type!r}") from None


class TensorOperation:
    """Base class of built-in transforms: call it on NumPy arrays, or pass it to ``Dataset.map``."""

    batchable = False   # _apply_batch works on stacked rows (N, ...) and equals _apply row by row
    random = False      # draws from the rng it is given

    def __call__(self, *inputs: Any) -> Any:
        """Apply eagerly. Args: inputs (numpy.ndarray, or PIL images for vision ops). Returns: ndarray(s)."""
        if not inputs:
            raise TypeError(f"{type(self).__name__}: expected at least one input array")
        arrays = [as_array(x) for x in inputs]
        return self._apply(eager_rng(), *arrays)

    def _apply(self, rng, *inputs):
        """One row. Default: the batched implementation on a block of one row."""
        out = self._apply_batch(rng, *[x[None] for x in inputs])
        if isinstance(out, tuple):
            return tuple(o[0] for o in out)
        return out[0]

    def _apply_batch(self, rng, *columns):
        raise NotImplementedError(f"{type(self).__name__} has no batched implementation")

    def __repr__(self):
        return f"{type(self).__name__}()"


def check_rank(op: str, x: np.ndarray, ranks: tuple[int, ...], layout: str, batched: bool = False) -> None:
    """Raise a RuntimeError naming ``op`` when the image rank is not one of ``ranks``."""
    rank = x.ndim - (1 if batched else 0)
    if rank not in ranks:
        shape = x.shape[1:] if batched else x.shape
        hint = " You may need to apply Decode first." if rank == 1 else ""
        raise RuntimeError(f"{op}: the input image should be in shape of {layout}, but got shape "
                           f"{tuple(shape)} (rank {rank}).{hint}")
