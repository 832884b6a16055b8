"""Automatic mixed precision: ``auto_mixed_precision`` and ``build_train_network`` (amp levels O0-O3, 'auto').

How it runs: ``Cell.to_float(dtype)`` makes a Cell cast its floating inputs to ``dtype``; layers cast their
float32 parameters to the input dtype, so the weights the optimizer updates stay float32 (master weights).

- O0: unchanged. O1: the white-list Cells (Dense, Conv*, RNN cells) compute in low precision, their
  outputs are cast back to float32. O2: the whole network in low precision except the black-list Cells
  (BatchNorm*, LayerNorm) which stay float32 (their outputs cast back to the low dtype); the network output
  is cast to float32. O3: everything in low precision, output cast to float32.
- ``build_train_network`` adds the loss in float32 and, for O2, a dynamic loss scale
  (``TrainOneStepWithLossScaleCell``: an overflowing step is skipped).
- 'auto' picks O2 on GPU, O3 on Ascend and O0 on CPU (XLA:CPU emulates float16; it is slower than float32).
- On CPU, ``dtype=bfloat16`` is the low precision that pays: the convolutions' and Dense layers' matrix products
  and their gradients run as bfloat16 products accumulated in float32 (``ops/_lowp.py``), which XLA:CPU executes
  natively on CPUs with AVX512-BF16 or AMX.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import jax.numpy as jnp

from .. import context
from ..common import dtype as mstype
from ..common.tensor import Tensor, wrap
from ..nn.cell import Cell
from ._loss_scale import DynamicLossScaleManager, LossScaleManager

__all__ = ["auto_mixed_precision", "build_train_network", "get_white_list", "get_black_list"]

_log = logging.getLogger(__name__)
_LEVELS = ("O0", "O1", "O2", "O3", "auto")
_WHITE = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "Dense",
          "LSTMCell", "RNNCell", "GRUCell")
_BLACK = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")


def _classes(names: tuple[str, ...]) -> tuple[type, ...]:
    from .. import nn
    return tuple(c for c in (getattr(nn, n, None) for n in names) if isinstance(c, type))


def get_white_list() -> list[type]:
    """The Cell classes O1 runs in low precision."""
    return list(_classes(_WHITE))


def get_black_list() -> list[type]:
    """The Cell classes O2 keeps in float32."""
    return list(_classes(_BLACK))


def _cast_floats(x: Any, np_dtype: Any) -> Any:
    if isinstance(x, Tensor) and jnp.issubdtype(x._value.dtype, jnp.floating) and x._value.dtype != np_dtype:
        return wrap(x._value.astype(np_dtype))
    if isinstance(x, (tuple, list)):
        return type(x)(_cast_floats(v, np_dtype) for v in x)
    return x


class _OutputCast(Cell):
    """Runs ``backbone`` and casts its floating outputs to ``dtype``."""

    def __init__(self, backbone: Cell, dtype: Any) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._np_dtype = mstype.to_ms_dtype(dtype).to_numpy()

    def construct(self, *inputs: Any) -> Any:
        return _cast_floats(self._backbone(*inputs), self._np_dtype)


class _AmpWithLossCell(Cell):
    """``loss_fn(float32(backbone(data)), float32(label))``: the loss of a low-precision network in float32."""

    def __init__(self, backbone: Cell, loss_fn: Cell) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data: Any, label: Any) -> Any:
        out = _cast_floats(self._backbone(data), jnp.float32)
        return self._loss_fn(out, _cast_floats(label, jnp.float32))

    @property
    def backbone_network(self) -> Cell:
        return self._backbone


def _replace_child(parent: Any, name: str, new: Cell) -> None:
    """Put ``new`` in place of the child ``name`` without renaming any Parameter."""
    old = parent._cells[name]
    new.__dict__["_scope_name"] = old.__dict__.get("_scope_name", name)
    parent._cells[name] = new
    parent.__dict__[name] = new
    cell_list = parent.__dict__.get("cell_list")  # SequentialCell-style containers keep a list as well
    if isinstance(cell_list, list):
        parent.__dict__["cell_list"] = [new if c is old else c for c in cell_list]


def _wrap_children(network: Any, classes: tuple[type, ...], make: Callable[[Any], Cell]) -> None:
    """Replace every descendant Cell whose class is in ``classes`` by ``make(cell)`` (not descending into it)."""
    for name, child in list(network._cells.items()):
        if child is None:
            continue
        if isinstance(child, classes):
            _replace_child(network, name, make(child))
        else:
            _wrap_children(child, classes, make)


def _check_level(level: object, api: str = "auto_mixed_precision") -> None:
    if not isinstance(level, str) or level not in _LEVELS:
        raise ValueError(f"For '{api}', the amp level must be one of {list(_LEVELS)}, but got {level!r}.")


def _low_dtype(dtype: Any) -> Any:
    dt = mstype.to_ms_dtype(dtype)
    if dt not in (mstype.float16, mstype.bfloat16, mstype.float32):
        raise ValueError(f"For 'auto_mixed_precision', 'dtype' must be float16, bfloat16 or float32, but got {dt}.")
    return dt


def auto_mixed_precision(network: Cell, amp_level: str = "O0", dtype: Any = mstype.float16) -> Cell:
    """Convert ``network`` to mixed precision in place (the returned Cell wraps it for O2 / O3).

    Args:
        network (Cell): the network.
        amp_level (str): 'O0', 'O1', 'O2', 'O3' or 'auto' (= 'O1' here: the white-list Cells in ``dtype``).
        dtype: the low-precision type, ``ms.float16`` (default) or ``ms.bfloat16``.

    Returns:
        Cell: the network to use.
    """
    if not isinstance(network, Cell):
        raise TypeError(f"For 'auto_mixed_precision', the network type should be Cell, but got "
                        f"{type(network).__name__}.")
    _check_level(amp_level)
    dtype = _low_dtype(dtype)
    if amp_level == "O0":
        return network
    if amp_level in ("O1", "auto"):
        return _white_list_amp(network, _classes(_WHITE), dtype)
    return _black_list_amp(network, _classes(_BLACK) if amp_level == "O2" else (), dtype)


def _white_list_amp(network: Cell, classes: tuple[type, ...], dtype: Any) -> Cell:
    """The Cells of ``classes`` compute in ``dtype``, their outputs cast back to float32 (in place)."""
    _wrap_children(network, classes, lambda c: _OutputCast(c.to_float(dtype), mstype.float32))
    return network


def _black_list_amp(network: Cell, classes: tuple[type, ...], dtype: Any) -> Cell:
    """All of ``network`` in ``dtype`` but the Cells of ``classes`` (float32, outputs cast to ``dtype``); the
    returned wrapper casts the network's output to float32."""
    network.to_float(dtype)
    if classes:
        _wrap_children(network, classes, lambda c: _OutputCast(c.to_float(mstype.float32), dtype))
    return _OutputCast(network, mstype.float32)


_CONFIG: dict[str, dict[str, Any]] = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16, "loss_scale_manager": "dynamic"},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None},
}


def _resolve_auto(level: str) -> str:
    if level != "auto":
        return level
    target = context.get_context("device_target")
    return {"GPU": "O2", "Ascend": "O3"}.get(target, "O0")


def build_train_network(network: Cell, optimizer: Cell, loss_fn: Cell | None = None, level: str = "O0",
                        boost_level: str = "O0", **kwargs: Any) -> Cell:
    """The one-step train Cell for ``network`` at amp ``level``.

    Args:
        network (Cell): the network (the loss network when ``loss_fn`` is None).
        optimizer (Cell): the optimizer.
        loss_fn (Cell): the loss, computed in float32.
        level (str): 'O0', 'O1', 'O2', 'O3' or 'auto' (O2 on GPU, O3 on Ascend, O0 on CPU).
        boost_level (str): 'O0', 'O1' or 'O2' (accepted; no boost is applied).
        kwargs: ``cast_model_type`` (float16 / bfloat16 / float32), ``keep_batchnorm_fp32`` (bool),
            ``loss_scale_manager`` (a LossScaleManager or None) override the level's defaults.

    Returns:
        Cell: ``TrainOneStepCell`` (sens = the fixed loss scale, if any) or ``TrainOneStepWithLossScaleCell``.
    """
    from ..nn.wrap import TrainOneStepCell, TrainOneStepWithLossScaleCell, WithLossCell
    _check_level(level, "build_train_network")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"For 'build_train_network', 'boost_level' must be 'O0', 'O1' or 'O2', but got "
                         f"{boost_level!r}.")
    for key in kwargs:
        if key not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"For 'build_train_network', unsupported argument '{key}'.")
    if not isinstance(optimizer, Cell):
        raise TypeError(f"For 'build_train_network', 'optimizer' must be an optimizer Cell, but got "
                        f"{type(optimizer).__name__}.")
    level = _resolve_auto(level)
    config = dict(_CONFIG[level], **kwargs)
    if config["loss_scale_manager"] == "dynamic":
        config["loss_scale_manager"] = DynamicLossScaleManager()
    manager = config["loss_scale_manager"]
    if manager is not None and not isinstance(manager, LossScaleManager):
        raise TypeError(f"For 'build_train_network', 'loss_scale_manager' must be a LossScaleManager, but got "
                        f"{type(manager).__name__}.")
    if not isinstance(config["keep_batchnorm_fp32"], bool):
        raise TypeError("For 'build_train_network', 'keep_batchnorm_fp32' must be a bool.")
    cast = _low_dtype(config["cast_model_type"])
    if cast != mstype.float32:
        network.to_float(cast)
        if config["keep_batchnorm_fp32"]:
            _wrap_children(network, _classes(_BLACK), lambda c: _OutputCast(c.to_float(mstype.float32), cast))
    elif level == "O1":
        network = auto_mixed_precision(network, "O1")
    if loss_fn is not None:
        network = _AmpWithLossCell(network, loss_fn) if cast != mstype.float32 else WithLossCell(network, loss_fn)
    if manager is not None:
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
        return TrainOneStepCell(network, optimizer, manager.get_loss_scale()).set_train()
    return TrainOneStepCell(network, optimizer).set_train()
