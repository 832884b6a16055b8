"""ROC curves (``ROC`` metric) and the area under a curve (``auc`` function)."""
from __future__ import annotations

from typing import Any

import numpy as np

from ._metric import Metric, check_num_inputs, rearrange_inputs

__all__ = ["ROC", "auc"]


class ROC(Metric):
    """Receiver operating characteristic: ``eval()`` returns ``(fpr, tpr, thresholds)``.

    Binary inputs (scores and 0/1 labels of the same shape) give three arrays; multi-class inputs (scores
    (N, C), labels (N,)) give three lists with one array per class (one-vs-rest). Like MindSpore, each
    ``update`` replaces the data (it does not accumulate).

    Args:
        class_num (int): number of classes (None: inferred; 1 for binary).
        pos_label (int): the positive label for binary inputs (default 1).
    """

    def __init__(self, class_num: int | None = None, pos_label: int | None = None) -> None:
        super().__init__()
        if class_num is not None and (isinstance(class_num, bool) or not isinstance(class_num, int)):
            raise TypeError(f"The argument 'class_num' must be an int or None, but got {type(class_num)}.")
        if pos_label is not None and not isinstance(pos_label, int):
            raise TypeError(f"The argument 'pos_label' must be an int or None, but got {type(pos_label)}.")
        self.class_num, self.pos_label = class_num, pos_label
        self.clear()

    def clear(self) -> None:
        self.y_pred: Any = 0
        self.y: Any = 0
        self.sample_weights: np.ndarray | None = None
        self._is_update = False

    def _shape_inputs(self, y_pred: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, int, int | None]:
        class_num, pos_label = self.class_num, self.pos_label
        if y_pred.ndim == y.ndim:
            if class_num is not None and class_num != 1:
                raise ValueError(f"For 'ROC.update', y_pred and y have the same shape, which means binary inputs, "
                                 f"but class_num is {class_num}.")
            return y_pred.ravel(), y.ravel(), 1, 1 if pos_label is None else pos_label
        if y_pred.ndim == y.ndim + 1:
            if pos_label is not None:
                raise ValueError(f"For 'ROC.update', 'pos_label' should be None for multi-class inputs, but got "
                                 f"{pos_label}.")
            if class_num is None:
                class_num = y_pred.shape[1]
            if class_num != y_pred.shape[1]:
                raise ValueError(f"For 'ROC.update', class_num is {class_num} but the predicted value (inputs[0]) "
                                 f"has {y_pred.shape[1]} classes.")
            return y_pred.reshape(-1, class_num), y.ravel(), class_num, None
        raise ValueError(f"For 'ROC.update', the predicted value (inputs[0]) must have the same number of dimensions "
                         f"as the true value (inputs[1]) or one more, but got shapes {y_pred.shape} and {y.shape}.")

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Set ``(y_pred, y)``."""
        check_num_inputs(self, inputs, 2)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        self.y_pred, self.y, self._class_num, self._pos_label = self._shape_inputs(y_pred, y)
        self._is_update = True

    def _binary(self, y_pred: np.ndarray, y: np.ndarray,
                pos_label: int | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        fps, tps, thresholds = self._binary_clf_curve(y_pred, y, self.sample_weights, pos_label)
        # an extra point so the curve starts at (0, 0)
        tps = np.hstack([np.zeros(1, dtype=tps.dtype), tps])
        fps = np.hstack([np.zeros(1, dtype=fps.dtype), fps])
        thresholds = np.hstack([thresholds[0][None] + 1, thresholds])
        if fps[-1] <= 0:
            raise ValueError("No negative samples in y, false positive value should be meaningless.")
        if tps[-1] <= 0:
            raise ValueError("No positive samples in y, true positive value should be meaningless.")
        return fps / fps[-1], tps / tps[-1], thresholds

    def eval(self) -> tuple[Any, Any, Any]:
        if not self._is_update:
            raise RuntimeError("The 'ROC' can not be calculated, because 'update' has not been called.")
        if self._class_num == 1:
            return self._binary(self.y_pred, self.y, self._pos_label)
        fpr: list[np.ndarray] = []
        tpr: list[np.ndarray] = []
        thresholds: list[np.ndarray] = []
        for c in range(self._class_num):
            f, t, th = self._binary(self.y_pred[:, c], self.y, c)
            fpr.append(f)
            tpr.append(t)
            thresholds.append(th)
        return fpr, tpr, thresholds


def auc(x: np.ndarray, y: np.ndarray, reorder: bool = False) -> float:
    """Area under the curve through the points ``(x, y)`` (trapezoidal rule), e.g. ``auc(*ROC()(p, y)[:2])``.

    Args:
        x, y (numpy.ndarray): 1-D coordinates; x monotonic unless ``reorder``.
        reorder (bool): sort the points by x (ties by y) first.
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(f"For 'auc', x and y must be numpy.ndarray, but got {type(x).__name__} and "
                        f"{type(y).__name__}.")
    x, y = np.ravel(x), np.ravel(y)
    if x.shape != y.shape:
        raise ValueError(f"For 'auc', x and y must have the same length, but got {x.shape[0]} and {y.shape[0]}.")
    if x.shape[0] < 2:
        raise ValueError(f"At least 2 points are needed to compute the AUC, but x.shape = {x.shape}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        dx = np.diff(x)
        if np.any(dx < 0):
            if np.all(dx <= 0):
                direction = -1
            else:
                raise ValueError(f"Reordering is not turned on, and the x array is not increasing: {x}")
    return direction * float(np.sum((x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0))
