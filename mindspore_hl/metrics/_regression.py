"""Loss, error and overlap metrics: Loss, MAE, MSE, Perplexity, Dice."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._metric import Metric, check_num_inputs, rearrange_inputs

__all__ = ["Loss", "MAE", "MSE", "Perplexity", "Dice"]


def _empty(metric: Metric, what: str = "the number of samples is 0") -> RuntimeError:
    return RuntimeError(f"The '{type(metric).__name__}' can not be calculated, because {what}; call update before "
                        f"eval.")


class Loss(Metric):
    """Mean of the loss values given to ``update`` (each update's loss is first averaged)."""

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._sum_loss: Any = 0
        self._total_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate one loss value (a scalar or a 1-D Tensor)."""
        check_num_inputs(self, inputs, 1, "(loss)")
        loss = self._convert_data(inputs[0])
        if loss.ndim == 0:
            loss = loss.reshape(1)
        if loss.ndim != 1:
            raise ValueError(f"For 'Loss.update', the dimension of your input (loss) must be 1, but got {loss.ndim}.")
        self._sum_loss += loss.mean(-1)
        self._total_num += 1

    def eval(self) -> float:
        if self._total_num == 0:
            raise _empty(self, "the total number is 0")
        return float(self._sum_loss / self._total_num)


class _Error(Metric):
    _error: Callable[[np.ndarray], np.ndarray]  # the per-element error, per subclass

    def __init__(self) -> None:
        super().__init__()
        self.clear()

    def clear(self) -> None:
        self._error_sum: Any = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)``; the error is summed over all elements and divided by the batch size."""
        check_num_inputs(self, inputs, 2)
        y_pred = self._convert_data(inputs[0])
        y = self._convert_data(inputs[1])
        if y.size != y_pred.size:
            raise ValueError(f"For '{type(self).__name__}.update', the predicted value (inputs[0]) of shape "
                             f"{y_pred.shape} and the true value (inputs[1]) of shape {y.shape} must have the same "
                             f"number of elements.")
        diff = y.reshape(y_pred.shape) - y_pred
        self._error_sum += self._error(diff).sum()
        self._samples_num += y.shape[0] if y.ndim else 1

    def eval(self) -> Any:
        if self._samples_num == 0:
            raise _empty(self)
        return self._error_sum / self._samples_num


class MAE(_Error):
    """Mean absolute error (summed per sample, averaged over samples).

    Example:
        >>> MAE()(Tensor(np.array([0.1, 0.2, 0.6], np.float32)), Tensor(np.array([0.0, 0.2, 1.0], np.float32)))
        np.float32(0.16666666)
    """

    @staticmethod
    def _error(diff: np.ndarray) -> np.ndarray:
        return np.abs(diff)


class MSE(_Error):
    """Mean squared error (summed per sample, averaged over samples)."""

    @staticmethod
    def _error(diff: np.ndarray) -> np.ndarray:
        return diff * diff


class Perplexity(Metric):
    """``exp(mean negative log probability of the true label)``.

    Args:
        ignore_label (int): a label value excluded from the average (None: none).
    """

    def __init__(self, ignore_label: int | None = None) -> None:
        super().__init__()
        if ignore_label is not None and not isinstance(ignore_label, int):
            raise TypeError(f"The argument 'ignore_label' must be an int or None, but got {type(ignore_label)}.")
        self.ignore_label = ignore_label
        self.clear()

    def clear(self) -> None:
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(probs, labels)``: probabilities (..., C) and labels (...)."""
        check_num_inputs(self, inputs, 2, "(predicted probabilities, labels)")
        pred = self._convert_data(inputs[0])
        label = self._convert_data(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(f"For 'Perplexity.update', predicted value (inputs[0]) and label (inputs[1]) should "
                               f"have the same shape, but got predicted value shape {pred.shape}, label shape "
                               f"{label.shape}.")
        label = label.reshape(-1)
        pred = pred.reshape(-1, pred.shape[-1])[np.arange(label.size), label.astype(np.int64)]
        num = pred.size
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(pred.dtype)
            num -= int(ignore.sum())
            pred = pred * (1 - ignore) + ignore
        self._sum_metric -= float(np.sum(np.log(np.maximum(1e-10, pred))))
        self._num_inst += num

    def eval(self) -> float:
        if self._num_inst == 0:
            raise _empty(self)
        return math.exp(self._sum_metric / self._num_inst)


class Dice(Metric):
    """Dice coefficient ``2 |X.Y| / (|X|^2 + |Y|^2 + smooth)`` averaged over updates' samples.

    Args:
        smooth (float): added to the denominator (> 0).
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        super().__init__()
        if not isinstance(smooth, (int, float)) or smooth <= 0:
            raise ValueError(f"The argument 'smooth' must be a positive float, but got {smooth!r}.")
        self.smooth = float(smooth)
        self.clear()

    def clear(self) -> None:
        self._dice_coeff_sum = 0.0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Accumulate ``(y_pred, y)`` of the same shape."""
        check_num_inputs(self, inputs, 2)
        y_pred = self._convert_data(inputs[0]).astype(np.float64)
        y = self._convert_data(inputs[1]).astype(np.float64)
        if y_pred.shape != y.shape:
            raise RuntimeError(f"For 'Dice.update', predicted value (inputs[0]) and true value (inputs[1]) should "
                               f"have the same shape, but got {y_pred.shape} and {y.shape}.")
        self._samples_num += y.shape[0]
        a, b = y_pred.ravel(), y.ravel()
        self._dice_coeff_sum += 2 * float(a @ b) / float(a @ a + b @ b + self.smooth)

    def eval(self) -> float:
        if self._samples_num == 0:
            raise _empty(self)
        return self._dice_coeff_sum / float(self._samples_num)
