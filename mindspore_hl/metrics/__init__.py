"""Evaluation metrics (``mindspore.train`` / ``mindspore.nn`` metrics): ``Metric`` objects with clear / update / eval.

String names accepted by ``Model(metrics={...})`` are listed by :func:`names`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ._classification import (
    F1,
    Accuracy,
    ConfusionMatrix,
    Fbeta,
    Precision,
    Recall,
    Top1CategoricalAccuracy,
    Top5CategoricalAccuracy,
    TopKCategoricalAccuracy,
)
from ._confusion_metric import ConfusionMatrixMetric
from ._metric import Metric, rearrange_inputs
from ._occlusion import OcclusionSensitivity
from ._regression import MAE, MSE, Dice, Loss, Perplexity
from ._roc import ROC, auc
from ._similarity import BleuScore, CosineSimilarity
from ._surface import HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance

__all__ = ["names", "get_metric_fn", "get_metrics", "Metric", "rearrange_inputs", "Accuracy", "MAE", "MSE",
           "Precision", "Recall", "Fbeta", "F1", "Dice", "ROC", "auc", "TopKCategoricalAccuracy",
           "Top1CategoricalAccuracy", "Top5CategoricalAccuracy", "Loss", "Perplexity", "ConfusionMatrix",
           "BleuScore", "CosineSimilarity", "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance",
           "ConfusionMatrixMetric", "OcclusionSensitivity"]

_FACTORY: dict[str, Callable[..., Any]] = {
    "accuracy": Accuracy,
    "acc": Accuracy,
    "precision": Precision,
    "recall": Recall,
    "F1": F1,
    "dice": Dice,
    "roc": ROC,
    "auc": auc,
    "topk": TopKCategoricalAccuracy,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
    "mae": MAE,
    "mse": MSE,
    "loss": Loss,
    "perplexity": Perplexity,
    "confusion_matrix": ConfusionMatrix,
}


def names() -> list[str]:
    """The sorted metric names accepted by :func:`get_metric_fn` and ``Model(metrics={...})``."""
    return sorted(_FACTORY)


def get_metric_fn(name: str, *args: Any, **kwargs: Any) -> Any:
    """A new metric object for ``name`` (see :func:`names`), built with ``*args, **kwargs``."""
    if name not in _FACTORY:
        raise KeyError(f"For 'get_metric_fn', unsupported metric {name!r}; supported names: {names()}.")
    return _FACTORY[name](*args, **kwargs)


def get_metrics(metrics: dict[str, Metric] | Iterable[str] | None) -> dict[str, Any] | None:
    """``{name: Metric}`` from a set of names or a dict of Metric objects (None stays None)."""
    if metrics is None:
        return None
    if isinstance(metrics, dict):
        for name, metric in metrics.items():
            if not isinstance(name, str) or not isinstance(metric, Metric):
                raise TypeError(f"For 'get_metrics', if 'metrics' is a dict its keys must be str and its values "
                                f"Metric objects, but got key {type(name).__name__}, value {type(metric).__name__}.")
        return dict(metrics)
    if isinstance(metrics, (set, frozenset, list, tuple)):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(f"For 'get_metrics', the argument 'metrics' must be None, a dict or a set, but got "
                    f"{type(metrics).__name__}.")
