"""The ``Metric`` base class (clear / update / eval), ``rearrange_inputs`` and the input helpers."""
from __future__ import annotations

import functools
from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

__all__ = ["Metric", "EvaluationBase", "rearrange_inputs", "check_num_inputs"]

_F = TypeVar("_F", bound=Callable[..., Any])


def rearrange_inputs(func: _F) -> _F:
    """Decorator for ``update``: when ``set_indexes`` was called, pick and reorder the inputs by those indexes."""
    @functools.wraps(func)
    def wrapper(self: Metric, *inputs: Any) -> Any:
        indexes = self.indexes
        if indexes is not None:
            try:
                inputs = tuple(inputs[i] for i in indexes)
            except IndexError:
                raise ValueError(f"For '{type(self).__name__}.update', set_indexes({indexes}) selects an input that "
                                 f"does not exist: update got {len(inputs)} input(s).") from None
        return func(self, *inputs)
    return wrapper  # type: ignore[return-value]


def check_num_inputs(metric: Metric, inputs: Sequence[Any], expected: int,
                     what: str = "(predicted value, true value)") -> None:
    """Raise a ValueError naming ``metric`` unless ``inputs`` holds ``expected`` values."""
    if len(inputs) != expected:
        raise ValueError(f"For '{type(metric).__name__}.update', it needs {expected} inputs {what}, "
                         f"but got {len(inputs)}.")


class Metric(metaclass=ABCMeta):
    """Base class of evaluation metrics: ``clear()`` resets, ``update(*inputs)`` accumulates, ``eval()`` returns.

    ``metric(*inputs)`` is ``clear(); update(*inputs); return eval()``.
    """

    def __init__(self) -> None:
        self._indexes: list[int] | None = None

    @staticmethod
    def _convert_data(data: Any) -> np.ndarray:
        """Tensor / list / number / ndarray -> ndarray."""
        from ..common.tensor import Tensor
        if isinstance(data, Tensor):
            return data.asnumpy()
        if isinstance(data, np.ndarray):
            return data
        if isinstance(data, (list, tuple, int, float, np.number)):
            return np.array(data)
        if hasattr(data, "__array__"):  # a jax.Array
            return np.asarray(data)
        raise TypeError(f"The input data type must be a Tensor, list or numpy.ndarray, but got {type(data)}.")

    @staticmethod
    def _check_onehot_data(data: np.ndarray) -> bool:
        """True when ``data`` (ndim > 1) is one-hot: every row sums to 1 and holds only 0/1."""
        if data.ndim > 1 and np.equal(data ** 2, data).all():
            shp = (data.shape[0],) + data.shape[2:]
            if np.equal(np.ones(shp), data.sum(axis=1)).all():
                return True
        return False

    @staticmethod
    def _binary_clf_curve(preds: np.ndarray, target: np.ndarray, sample_weights: Any = None,
                          pos_label: int | None = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(false positives, true positives, thresholds) at each distinct score, highest score first."""
        if sample_weights is not None and not isinstance(sample_weights, np.ndarray):
            sample_weights = np.array(sample_weights)
        if preds.ndim > target.ndim:
            preds = preds[:, 0]
        order = np.argsort(-preds, kind="stable")
        preds, target = preds[order], target[order]
        weight: np.ndarray | float = sample_weights[order] if sample_weights is not None else 1.0
        distinct = np.where(preds[1:] - preds[:-1])[0]
        threshold_idxs = np.pad(distinct, (0, 1), constant_values=target.shape[0] - 1)
        target = np.array(target == pos_label).astype(np.int64)
        tps = np.cumsum(target * weight, axis=0)[threshold_idxs]
        if sample_weights is not None:
            fps = np.cumsum((1 - target) * weight, axis=0)[threshold_idxs]
        else:
            fps = 1 + threshold_idxs - tps
        return fps, tps, preds[threshold_idxs]

    @property
    def indexes(self) -> list[int] | None:
        """The input indexes chosen by ``set_indexes`` (None: use the inputs as given)."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes: list[int]) -> Metric:
        """Use ``inputs[i] for i in indexes`` in ``update`` (e.g. ``[0, 2]`` picks logits and label); returns self."""
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(f"For 'set_indexes', the argument 'indexes' must be a list of int, but got {indexes!r}.")
        self._indexes = indexes
        return self

    def __call__(self, *inputs: Any) -> Any:
        self.clear()
        self.update(*inputs)
        return self.eval()

    @abstractmethod
    def clear(self) -> None:
        """Reset the accumulated state."""

    @abstractmethod
    def update(self, *inputs: Any) -> None:
        """Accumulate one batch."""

    @abstractmethod
    def eval(self) -> Any:
        """The metric over everything accumulated since ``clear``."""


class EvaluationBase(Metric):
    """Base for classification metrics with ``eval_type`` 'classification' or 'multilabel'."""

    _class_num: int  # set by the subclass's clear()

    def __init__(self, eval_type: str) -> None:
        super().__init__()
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(f"The argument 'eval_type' must be 'classification' or 'multilabel', but got "
                             f"{eval_type!r}.")
        self._type = eval_type

    def _check_shape(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        name = type(self).__name__
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1:
                raise ValueError(f"For '{name}.update' with eval_type 'classification', the predicted value "
                                 f"(inputs[0]) must have one dimension more than the true value (inputs[1]), but got "
                                 f"shapes {y_pred.shape} and {y.shape}.")
            if y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(f"For '{name}.update', the predicted value (inputs[0]) of shape {y_pred.shape} does "
                                 f"not match the true value (inputs[1]) of shape {y.shape}: expected "
                                 f"{(y_pred.shape[0],) + y_pred.shape[2:]}.")
        elif y_pred.shape != y.shape:
            raise ValueError(f"For '{name}.update' with eval_type 'multilabel', the predicted value (inputs[0]) and "
                             f"the true value (inputs[1]) must have the same shape, but got {y_pred.shape} and "
                             f"{y.shape}.")

    def _check_value(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        name = type(self).__name__
        if self._type == "classification" and y.size and (y.min() < 0 or y.max() >= y_pred.shape[1]):
            raise ValueError(f"For '{name}.update', the true value (inputs[1]) must be class indexes in "
                             f"[0, {y_pred.shape[1]}), but got values in [{y.min()}, {y.max()}].")
        if self._type == "multilabel" and not (np.equal(y_pred ** 2, y_pred).all() and np.equal(y ** 2, y).all()):
            raise ValueError(f"For '{name}.update' with eval_type 'multilabel', the predicted value (inputs[0]) and "
                             f"the true value (inputs[1]) must only contain 0 and 1.")

    def _prepare(self, inputs: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """Converted (y_pred, y); one-hot labels become indexes; shapes, values and class count checked."""
        check_num_inputs(self, inputs, 2)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and self._check_onehot_data(y):
            y = y.argmax(axis=1)
        self._check_shape(y_pred, y)
        self._check_value(y_pred, y)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For '{type(self).__name__}.update', class number not match: earlier predicted data had "
                             f"{self._class_num} classes, but the current predicted data (inputs[0]) has "
                             f"{y_pred.shape[1]} classes.")
        return y_pred, y
