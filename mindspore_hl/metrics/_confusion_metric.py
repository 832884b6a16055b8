"""``ConfusionMatrixMetric``: rates derived from binary confusion matrices (sensitivity, precision, F1, MCC, ...)
over one-hot (batch, class, ...) predictions and labels."""
from __future__ import annotations

from typing import Any

import numpy as np

from ._metric import Metric, check_num_inputs, rearrange_inputs

__all__ = ["ConfusionMatrixMetric"]

# every accepted name (spaces become '_', case ignored) -> the short name of the rate
_ALIASES = {
    "tpr": ("sensitivity", "recall", "hit_rate", "true_positive_rate", "tpr"),
    "tnr": ("specificity", "selectivity", "true_negative_rate", "tnr"),
    "ppv": ("precision", "positive_predictive_value", "ppv"),
    "npv": ("negative_predictive_value", "npv"),
    "fnr": ("miss_rate", "false_negative_rate", "fnr"),
    "fpr": ("fall_out", "false_positive_rate", "fpr"),
    "fdr": ("false_discovery_rate", "fdr"),
    "for": ("false_omission_rate", "for"),
    "pt": ("prevalence_threshold", "pt"),
    "ts": ("threat_score", "critical_success_index", "ts", "csi"),
    "acc": ("accuracy", "acc"),
    "ba": ("balanced_accuracy", "ba"),
    "f1": ("f1_score", "f1"),
    "mcc": ("matthews_correlation_coefficient", "mcc"),
    "fm": ("fowlkes_mallows_index", "fm"),
    "bm": ("informedness", "bookmaker_informedness", "bm"),
    "mk": ("markedness", "deltap", "mk"),
}
_NAME = {alias: short for short, aliases in _ALIASES.items() for alias in aliases}
_DECREASE = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")


def _short_name(metric_name: str) -> str:
    short = _NAME.get(metric_name.replace(" ", "_").lower())
    if short is None:
        raise NotImplementedError(f"For 'ConfusionMatrixMetric', the metric {metric_name!r} is not implemented; "
                                  f"known names: {sorted(_NAME)}.")
    return short


def _confusion(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """(batch, class, 4) counts of [tp, fp, tn, fn] over the spatial positions."""
    if not skip_channel:  # leave the background channel out
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise ValueError(f"For 'ConfusionMatrixMetric.update', the predicted value (inputs[0]) and the true value "
                         f"(inputs[1]) must have the same shape, but got {y_pred.shape} and {y.shape}.")
    b, c = y_pred.shape[:2]
    pred = y_pred.astype(float).reshape(b, c, -1)
    true = y.astype(float).reshape(b, c, -1)
    tp = (pred + true == 2).sum(axis=2).astype(float)
    tn = (pred + true == 0).sum(axis=2).astype(float)
    pos = true.sum(axis=2)
    neg = true.shape[-1] - pos
    return np.stack([tp, neg - tn, tn, pos - tp], axis=-1)


def _rate(short: str, cm: np.ndarray) -> np.ndarray:
    """The rate named ``short`` for each confusion matrix (nan where its denominator is 0)."""
    if cm.ndim == 1:
        cm = cm[None]
    tp, fp, tn, fn = (cm[..., i] for i in range(4))
    p, n = tp + fn, fp + tn
    nan = np.array(np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        tpr = np.where(p > 0, tp / p, nan)
        tnr = np.where(n > 0, tn / n, nan)
        ppv = np.where(tp + fp > 0, tp / (tp + fp), nan)
        fractions = {"tpr": (tp, p), "tnr": (tn, n), "ppv": (tp, tp + fp), "npv": (tn, tn + fn), "fnr": (fn, p),
                     "fpr": (fp, n), "fdr": (fp, fp + tp), "for": (fn, fn + tn),
                     "pt": (np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0), "ts": (tp, tp + fn + fp),
                     "acc": (tp + tn, p + n), "ba": (tpr + tnr, 2.0), "f1": (2.0 * tp, 2.0 * tp + fn + fp),
                     "mcc": (tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))),
                     "fm": (np.sqrt(ppv * tpr), 1.0), "bm": (tpr + tnr - 1.0, 1.0),
                     "mk": (ppv + tn / (tn + fn) - 1.0, 1.0)}
        num, den = fractions[short]
        if isinstance(den, np.ndarray):
            return np.where(den != 0, num / den, nan)
        return num / den


def _reduce(chart: np.ndarray, decrease: str) -> tuple[np.ndarray, np.ndarray]:
    """(reduced rate, count of non-nan values behind it) for a (batch, class) rate array."""
    valid = (~np.isnan(chart)).astype(float)
    chart = np.where(np.isnan(chart), 0.0, chart)
    with np.errstate(divide="ignore", invalid="ignore"):
        if decrease == "mean":  # mean over classes per sample, then over the samples that had one
            per_sample_n = valid.sum(axis=1)
            per_sample = np.where(per_sample_n > 0, chart.sum(axis=1) / per_sample_n, 0.0)
            n = (per_sample_n > 0).astype(float).sum(axis=0)
            return np.where(n > 0, per_sample.sum(axis=0) / n, 0.0), n
        if decrease == "sum":
            return chart.sum(axis=(0, 1)), valid.sum(axis=(0, 1))
        if decrease in ("mean_batch", "sum_batch", "mean_channel", "sum_channel"):
            axis = 0 if decrease.endswith("batch") else 1
            n = valid.sum(axis=axis)
            total = chart.sum(axis=axis)
            return (np.where(n > 0, total / n, 0.0) if decrease.startswith("mean") else total), n
    return chart, valid


class ConfusionMatrixMetric(Metric):
    """A rate of the binary confusion matrix (``metric_name``) of one-hot predictions against one-hot labels.

    Args:
        skip_channel: include the first (background) channel; False leaves it out.
        metric_name: 'sensitivity' / 'recall' / 'tpr', 'specificity', 'precision', 'f1 score', 'accuracy',
            'matthews correlation coefficient', ... (17 rates, with their usual aliases).
        calculation_method: True: compute the rate per sample and class, reduce it with ``decrease`` and average
            over updates; False: sum the confusion matrices of all updates and compute the rate once.
        decrease: how per-sample rates reduce when ``calculation_method`` is True: 'mean' or 'sum' (to one
            value), or 'none', 'mean_batch', 'sum_batch', 'mean_channel', 'sum_channel'.

    >>> m = ConfusionMatrixMetric(metric_name="tpr")
    >>> m.update(np.array([[[[0], [1]], [[1], [0]]]]), np.array([[[[0], [1]], [[0], [1]]]]))
    >>> m.eval().tolist()
    [0.5]
    """

    def __init__(self, skip_channel: bool = True, metric_name: str = "sensitivity", calculation_method: bool = False,
                 decrease: str = "mean") -> None:
        super().__init__()
        for arg, value in (("skip_channel", skip_channel), ("calculation_method", calculation_method)):
            if not isinstance(value, bool):
                raise TypeError(f"For 'ConfusionMatrixMetric', '{arg}' must be a bool, but got "
                                f"{type(value).__name__}.")
        if not isinstance(metric_name, str):
            raise TypeError(f"For 'ConfusionMatrixMetric', 'metric_name' must be a str, but got "
                            f"{type(metric_name).__name__}.")
        if decrease not in _DECREASE:
            raise ValueError(f"For 'ConfusionMatrixMetric', 'decrease' must be one of {list(_DECREASE)}, but got "
                             f"{decrease!r}.")
        self.skip_channel, self.metric_name = skip_channel, metric_name
        self.calculation_method, self.decrease = calculation_method, decrease
        self._short = _short_name(metric_name)
        self.clear()

    def clear(self) -> None:
        """Reset the accumulated counts."""
        self._total_num = 0.0
        self._class_num = 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Inputs: ``y_pred`` and ``y``, one-hot (binary) arrays of shape (batch, class, ...)."""
        check_num_inputs(self, inputs, 2)
        y_pred, y = self._convert_data(inputs[0]), self._convert_data(inputs[1])
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrixMetric.update', the true value (inputs[1]) must be a binarized "
                             "ndarray.")
        if y_pred.ndim < 2:
            raise ValueError(f"For 'ConfusionMatrixMetric.update', the predicted value (inputs[0]) must have at "
                             f"least 2 dimensions, but got {y_pred.ndim}.")
        cm = _confusion(y_pred, y, self.skip_channel)
        if not self.calculation_method:
            self._totals += cm.reshape(-1, 4).sum(axis=0)
            return
        score, valid = _reduce(_rate(self._short, cm), self.decrease)
        if np.ndim(score) != 0:
            raise ValueError(f"For 'ConfusionMatrixMetric', calculation_method=True accumulates one value per "
                             f"update: 'decrease' must be 'mean' or 'sum', but got {self.decrease!r}.")
        self._total_num += float(score) * int(valid)
        self._class_num += int(valid)

    def eval(self) -> Any:
        """The rate (a 1-element array when ``calculation_method`` is False)."""
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError("The 'ConfusionMatrixMetric' can not be calculated, because the number of "
                                   "samples is 0: check that the inputs are not empty and that update was called.")
            return self._total_num / self._class_num
        return _rate(self._short, self._totals)
