"""Segmentation surface-distance metrics: ``HausdorffDistance``, ``MeanSurfaceDistance``, ``RootMeanSquareDistance``.

Each ``update(y_pred, y, label_idx)`` takes two label maps of one shape and the label to compare; the surfaces
are the mask pixels that a binary erosion removes, and the distances come from SciPy's distance transforms.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np

from ._metric import Metric, check_num_inputs, rearrange_inputs

__all__ = ["HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance"]

_METRICS = ("euclidean", "chessboard", "taxicab")


def _check_metric(name: str, distance_metric: Any) -> str:
    if not isinstance(distance_metric, str) or distance_metric not in _METRICS:
        raise ValueError(f"For '{name}', 'distance_metric' must be one of {list(_METRICS)}, but got "
                         f"{distance_metric!r}.")
    return distance_metric


def _check_bool(name: str, arg: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{name}', '{arg}' must be a bool, but got {type(value).__name__}.")
    return value


def _masks(metric: Metric, inputs: tuple[Any, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(pred mask, true mask) for ``label_idx`` after the checks MindSpore makes."""
    name = type(metric).__name__
    check_num_inputs(metric, inputs, 3, "(predicted value, true value, label index)")
    y_pred, y = metric._convert_data(inputs[0]), metric._convert_data(inputs[1])
    label = inputs[2]
    if not isinstance(label, (int, float)):
        raise ValueError(f"For '{name}.update', the label index (input[2]) must be int or float, but got "
                         f"{type(label)}.")
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise ValueError(f"For '{name}.update', the predicted value (input[0]) and true value (input[1]) must be "
                         f"non-empty and of one shape, but got shapes {y_pred.shape} and {y.shape}.")
    if label not in y_pred and label not in y:
        raise ValueError(f"For '{name}.update', the label index (input[2]) must be in predicted value (input[0]) "
                         f"or true value (input[1]), but {label} is not.")
    pred_mask = y_pred if y_pred.dtype == bool else y_pred == label
    true_mask = y if y.dtype == bool else y == label
    return pred_mask, true_mask


def _ndimage() -> ModuleType:
    """SciPy's ndimage, imported on first use: it would add about a second to ``import mindspore_hl``."""
    return importlib.import_module("scipy.ndimage")


def _edges(mask: np.ndarray) -> np.ndarray:
    return _ndimage().binary_erosion(mask) ^ mask


def _distances(from_edges: np.ndarray, to_edges: np.ndarray, distance_metric: str) -> np.ndarray:
    """Distance from each ``from_edges`` pixel to the nearest ``to_edges`` pixel (inf when there is none)."""
    if not from_edges.any():
        return np.array([])
    if not to_edges.any():
        field = np.full(to_edges.shape, np.inf)
    elif distance_metric == "euclidean":
        field = _ndimage().distance_transform_edt(~to_edges)
    else:
        field = _ndimage().distance_transform_cdt(~to_edges, metric=distance_metric)
    return field[from_edges]


class _SurfaceMetric(Metric):
    def clear(self) -> None:
        """Forget the last update."""
        self._pred_edges: np.ndarray | None = None
        self._true_edges: np.ndarray | None = None

    def _ready(self) -> tuple[np.ndarray, np.ndarray]:
        if self._pred_edges is None or self._true_edges is None:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._pred_edges, self._true_edges


class HausdorffDistance(_SurfaceMetric):
    """The Hausdorff distance between the surfaces of the predicted and true masks of one label.

    Args:
        distance_metric: 'euclidean', 'chessboard' or 'taxicab'.
        percentile: take this percentile (0..100) of the surface distances instead of their maximum.
        directed: only the distance from the predicted surface to the true one.
        crop: cut both masks to the bounding box of their union first (the result does not change; the work does).

    >>> m = HausdorffDistance()
    >>> m.update(np.array([[0, 1, 1, 0]] * 3), np.array([[1, 1, 0, 0]] * 3), 1)
    >>> float(m.eval())
    1.0
    """

    def __init__(self, distance_metric: str = "euclidean", percentile: float | None = None, directed: bool = False,
                 crop: bool = True) -> None:
        super().__init__()
        self.distance_metric = _check_metric("HausdorffDistance", distance_metric)
        if percentile is not None and not isinstance(percentile, float):
            raise TypeError(f"For 'HausdorffDistance', 'percentile' must be a float or None, but got "
                            f"{type(percentile).__name__}.")
        self.percentile = percentile
        self.directed = _check_bool("HausdorffDistance", "directed", directed)
        self.crop = _check_bool("HausdorffDistance", "crop", crop)
        self.clear()

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Inputs: ``y_pred``, ``y`` (label maps of one shape) and ``label_idx``."""
        pred, true = _masks(self, inputs)
        if self.crop:
            union = pred | true
            if not union.any():
                self._pred_edges, self._true_edges = np.zeros_like(pred), np.zeros_like(true)
                return
            box = tuple(slice(int(i.min()), int(i.max()) + 1) for i in np.nonzero(union))
            pred, true = np.squeeze(pred[box]), np.squeeze(true[box])
        self._pred_edges, self._true_edges = _edges(pred), _edges(true)

    def _directed(self, a: np.ndarray, b: np.ndarray) -> float:
        d = _distances(a, b, self.distance_metric)
        if d.size == 0:
            return np.inf
        if not self.percentile:
            return d.max()
        if not 0 <= self.percentile <= 100:
            raise ValueError(f"For 'HausdorffDistance', 'percentile' must be in [0, 100], but got {self.percentile}.")
        return np.percentile(d, self.percentile)

    def eval(self) -> float:
        """The (percentile) Hausdorff distance; inf when one surface is empty."""
        pred, true = self._ready()
        forward = self._directed(pred, true)
        return forward if self.directed else max(forward, self._directed(true, pred))


class MeanSurfaceDistance(_SurfaceMetric):
    """The mean distance from the predicted surface to the true one (``symmetric``: the mean of both directions).

    >>> m = MeanSurfaceDistance()
    >>> m.update(np.array([[0, 1, 1, 0]] * 3), np.array([[1, 1, 0, 0]] * 3), 1)
    >>> float(m.eval())
    0.5
    """

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        super().__init__()
        self.distance_metric = _check_metric(type(self).__name__, distance_metric)
        self.symmetric = _check_bool(type(self).__name__, "symmetric", symmetric)
        self.clear()

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Inputs: ``y_pred``, ``y`` (label maps of one shape) and ``label_idx``."""
        pred, true = _masks(self, inputs)
        self._pred_edges, self._true_edges = _edges(pred), _edges(true)

    def _reduce(self, d: np.ndarray) -> float:
        return d.mean()

    def eval(self) -> float:
        """The mean surface distance; inf when a surface is empty."""
        pred, true = self._ready()
        d = _distances(pred, true, self.distance_metric)
        if d.size == 0:
            return np.inf
        value = self._reduce(d)
        if not self.symmetric:
            return value
        back = _distances(true, pred, self.distance_metric)
        if back.size == 0:
            return np.inf
        return float(np.mean((value, self._reduce(back))))


class RootMeanSquareDistance(MeanSurfaceDistance):
    """Root-mean-square surface distance, as MindSpore computes it: without ``symmetric``, the mean of the squared
    distances from the predicted surface to the true one (MindSpore takes no square root there); with it, the
    square root of the mean of both directions' mean squared distances.

    >>> m = RootMeanSquareDistance(symmetric=True)
    >>> m.update(np.array([[0, 1, 1, 0]] * 3), np.array([[1, 1, 0, 0]] * 3), 1)
    >>> round(float(m.eval()), 4)
    0.7071
    """

    def _reduce(self, d: np.ndarray) -> float:
        return np.mean(np.square(d))

    def eval(self) -> float:
        """The (symmetric) root-mean-square surface distance; inf when a surface is empty."""
        value = super().eval()
        return np.sqrt(value) if self.symmetric and np.isfinite(value) else value
