"""Classification metrics: Accuracy, Top-k accuracy, Precision, Recall, Fbeta / F1, ConfusionMatrix.

Values follow MindSpore 2.10: Accuracy and Top-k return floats; Precision, Recall and Fbeta return
per-class NumPy arrays (``eval(average=True)`` gives their mean).
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from ._metric import EvaluationBase, Metric, check_num_inputs, rearrange_inputs

__all__ = ["Accuracy", "TopKCategoricalAccuracy", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
           "Precision", "Recall", "Fbeta", "F1", "ConfusionMatrix"]


def _empty(metric: Metric) -> RuntimeError:
    return RuntimeError(f"The '{type(metric).__name__}' can not be calculated, because the number of samples is 0, "
                        f"please check whether your inputs (predicted value, true value) are empty, or has called "
                        f"update method before calling eval method.")


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise TypeError(f"The argument '{name}' must be a bool, but got {type(value).__name__}.")


class Accuracy(EvaluationBase):
    """Fraction of correct predictions.

    Args:
        eval_type (str): 'classification' (argmax of logits vs. class index or one-hot label) or 'multilabel'
            (0/1 predictions, a sample counts as correct when every label matches).

    Example:
        >>> metric = Accuracy()
        >>> metric.update(Tensor(np.array([[0.2, 0.8], [0.9, 0.1], [0.3, 0.7]], np.float32)),
        ...               Tensor(np.array([1, 0, 0], np.int32)))
        >>> metric.eval()
        0.6666666666666666
    """

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)
        self.clear()

    def clear(self) -> None:
        self._correct_num: Any = 0
        self._total_num = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``: logits (N, C, ...) and labels (N, ...) or one-hot (N, C, ...)."""
        y_pred, y = self._prepare(inputs)
        if self._type == "classification":
            result = (np.equal(y_pred.argmax(axis=1), y) * 1).reshape(-1)
        else:
            last = y_pred.ndim - 1
            y_pred = y_pred.swapaxes(1, last).reshape(-1, self._class_num)
            y = y.swapaxes(1, last).reshape(-1, self._class_num)
            result = np.equal(y_pred, y).all(axis=1) * 1
        self._correct_num += result.sum()
        self._total_num += result.shape[0]

    def eval(self) -> float:
        if self._total_num == 0:
            raise _empty(self)
        return float(self._correct_num / self._total_num)  # a Python float, as MindSpore returns


class TopKCategoricalAccuracy(Metric):
    """Fraction of samples whose true class is among the ``k`` highest scores.

    Args:
        k (int): how many top scores count (>= 1).
    """

    def __init__(self, k: int) -> None:
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"The argument 'k' must be an int >= 1, but got {k!r}.")
        self.k = k
        self.clear()

    def clear(self) -> None:
        self._correct_num: Any = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``: scores (N, C) and labels (N,) or one-hot (N, C)."""
        check_num_inputs(self, inputs, 2)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and self._check_onehot_data(y):
            y = y.argmax(axis=1)
        if y_pred.ndim != 2 or y.shape != (y_pred.shape[0],):
            raise ValueError(f"For '{type(self).__name__}.update', expected scores of shape (N, C) and labels of "
                             f"shape (N,), but got {y_pred.shape} and {y.shape}.")
        top = np.argsort(-y_pred, axis=1, kind="stable")[:, :self.k]
        correct = np.equal(top, y.reshape(-1, 1)).sum(axis=1)
        self._correct_num += correct.sum()
        self._samples_num += y.shape[0]

    def eval(self) -> float:
        if self._samples_num == 0:
            raise _empty(self)
        return float(self._correct_num / self._samples_num)


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 categorical accuracy."""

    def __init__(self) -> None:
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 categorical accuracy."""

    def __init__(self) -> None:
        super().__init__(5)


class _PrecisionRecall(EvaluationBase):
    """Shared state of Precision (denominator: predicted positives) and Recall (actual positives)."""

    _counted: Callable[[np.ndarray, np.ndarray], np.ndarray]  # the denominator's 0/1 counts, per subclass
    _true_positives: Any
    _denominator: Any

    def __init__(self, eval_type: str) -> None:
        super().__init__(eval_type)
        self.eps = sys.float_info.min
        self.clear()

    def clear(self) -> None:
        self._class_num = 0
        if self._type == "multilabel":
            self._true_positives = np.empty(0)
            self._denominator = np.empty(0)
        else:
            self._true_positives = 0
            self._denominator = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)`` (see Accuracy for the shapes)."""
        y_pred, y = self._prepare(inputs)
        if self._type == "classification":
            eye = np.eye(self._class_num)
            y = eye[y.reshape(-1).astype(np.int64)]
            y_pred = eye[y_pred.argmax(axis=1).reshape(-1)]
        else:
            y_pred = y_pred.swapaxes(1, 0).reshape(self._class_num, -1)
            y = y.swapaxes(1, 0).reshape(self._class_num, -1)
        true_positives = (y * y_pred).sum(axis=0)
        denominator = self._counted(y_pred, y).sum(axis=0)
        if self._type == "multilabel":
            self._true_positives = np.concatenate((self._true_positives, true_positives), axis=0)
            self._denominator = np.concatenate((self._denominator, denominator), axis=0)
        else:
            self._true_positives = self._true_positives + true_positives
            self._denominator = self._denominator + denominator

    def eval(self, average: bool = False) -> Any:
        """Per-class values (NumPy array), or their mean with ``average=True``."""
        if self._class_num == 0:
            raise _empty(self)
        _check_bool("average", average)
        result = self._true_positives / (self._denominator + self.eps)
        if average:
            return result.mean()
        return result


class Precision(_PrecisionRecall):
    """Precision per class: true positives / predicted positives.

    Args:
        eval_type (str): 'classification' or 'multilabel'.

    Example:
        >>> Precision()(Tensor(np.array([[0.2, 0.8], [0.9, 0.1], [0.3, 0.7]], np.float32)),
        ...             Tensor(np.array([1, 0, 0], np.int32)))
        array([1. , 0.5])
    """

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)

    @staticmethod
    def _counted(y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        return y_pred


class Recall(_PrecisionRecall):
    """Recall per class: true positives / actual positives.

    Args:
        eval_type (str): 'classification' or 'multilabel'.
    """

    def __init__(self, eval_type: str = "classification") -> None:
        super().__init__(eval_type)

    @staticmethod
    def _counted(y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        return y


class Fbeta(Metric):
    """F-beta score per class: ``(1 + beta^2) * TP / (beta^2 * actual positives + predicted positives)``.

    Args:
        beta (float): weight of recall relative to precision (> 0).
    """

    def __init__(self, beta: float) -> None:
        super().__init__()
        if isinstance(beta, bool) or not isinstance(beta, (int, float)) or beta <= 0:
            raise ValueError(f"The argument 'beta' must be a float > 0, but got {beta!r}.")
        self.beta = beta
        self.eps = sys.float_info.min
        self.clear()

    def clear(self) -> None:
        self._true_positives: Any = 0
        self._actual_positives: Any = 0
        self._positives: Any = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``: logits (N, C) and labels (N,) or one-hot (N, C)."""
        check_num_inputs(self, inputs, 2)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim == y.ndim and self._check_onehot_data(y):
            y = y.argmax(axis=1)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(f"For '{type(self).__name__}.update', class number not match: {self._class_num} "
                             f"before, {y_pred.shape[1]} in the current predicted value (inputs[0]).")
        if y.size and (y.min() < 0 or y.max() + 1 > self._class_num):
            raise ValueError(f"For '{type(self).__name__}.update', the true value (inputs[1]) must be class indexes "
                             f"in [0, {self._class_num}), but got values in [{y.min()}, {y.max()}].")
        eye = np.eye(self._class_num)
        y = eye[y.reshape(-1).astype(np.int64)]
        y_pred = eye[y_pred.argmax(axis=1).reshape(-1)]
        self._true_positives = self._true_positives + (y_pred * y).sum(axis=0)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)

    def eval(self, average: bool = False) -> Any:
        """Per-class F-beta (NumPy array), or the mean with ``average=True``."""
        _check_bool("average", average)
        if self._class_num == 0:
            raise _empty(self)
        b2 = self.beta ** 2
        fbeta = (1.0 + b2) * self._true_positives / (b2 * self._actual_positives + self._positives + self.eps)
        return fbeta.mean() if average else fbeta


class F1(Fbeta):
    """F1 score per class (Fbeta with beta = 1)."""

    def __init__(self) -> None:
        super().__init__(1.0)


class ConfusionMatrix(Metric):
    """Confusion matrix: rows are true classes, columns predicted classes.

    Args:
        num_classes (int): number of classes.
        normalize (str): 'no_norm', 'target' (rows sum to 1), 'prediction' (columns) or 'all'.
        threshold (float): binarisation threshold when predictions are scores of the same shape as labels.

    Example:
        >>> metric = ConfusionMatrix(num_classes=2)
        >>> metric.update(Tensor(np.array([1, 0, 1, 1], np.int32)), Tensor(np.array([1, 0, 0, 1], np.int32)))
        >>> metric.eval()
        array([[1., 1.],
               [0., 2.]])
    """

    def __init__(self, num_classes: int, normalize: str = "no_norm", threshold: float = 0.5) -> None:
        super().__init__()
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes < 1:
            raise ValueError(f"The argument 'num_classes' must be a positive int, but got {num_classes!r}.")
        if normalize not in ("target", "prediction", "all", "no_norm"):
            raise ValueError(f"The argument 'normalize' must be one of ['target', 'prediction', 'all', 'no_norm'], "
                             f"but got {normalize!r}.")
        self.num_classes, self.normalize, self.threshold = num_classes, normalize, float(threshold)
        self.clear()

    def clear(self) -> None:
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``: logits (N, C, ...) or predictions shaped like the labels (N, ...)."""
        check_num_inputs(self, inputs, 2)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y_pred.ndim not in (y.ndim, y.ndim + 1):
            raise ValueError(f"For 'ConfusionMatrix.update', the predicted value (inputs[0]) must have the same "
                             f"number of dimensions as the true value (inputs[1]) or one more, but got shapes "
                             f"{y_pred.shape} and {y.shape}.")
        if y_pred.ndim == y.ndim + 1:
            y_pred = np.argmax(y_pred, axis=1)
        elif np.issubdtype(y_pred.dtype, np.floating):
            y_pred = (y_pred >= self.threshold).astype(np.int64)
        trans = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(np.int64)
        counts = np.bincount(trans, minlength=self.num_classes ** 2)
        if counts.size != self.num_classes ** 2:
            raise ValueError(f"For 'ConfusionMatrix.update', found a class index >= num_classes={self.num_classes}.")
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)

    def eval(self) -> np.ndarray:
        cm = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return cm
        with np.errstate(divide="ignore", invalid="ignore"):
            if self.normalize == "target":
                out = cm / cm.sum(axis=1, keepdims=True)
            elif self.normalize == "prediction":
                out = cm / cm.sum(axis=0, keepdims=True)
            else:
                out = cm / cm.sum()
        out[np.isnan(out)] = 0
        return out
