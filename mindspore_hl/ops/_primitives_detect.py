"""``CombinedNonMaxSuppression``: per-class greedy NMS over a batch of boxes, then the best ``max_total_size``
detections over all classes, zero-padded to a fixed size (TensorFlow's ``combined_non_max_suppression``).

Like the other NMS kernels (``_nn_detect``) it runs on the host over concrete arrays, reusing their greedy NMS.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common.tensor import Tensor
from ._core import check
from ._nn_detect import _greedy_nms, _host, box_iou
from ._primitives import primitive_class

__all__ = ["CombinedNonMaxSuppression"]


def _scalar(p: Any, arg: str, value: Any, kind: str) -> Any:
    v = _host(value)
    check(v.ndim == 0, p.name, f"'{arg}' must be a scalar, but got shape {v.shape}.")
    check(v.dtype.kind in kind, p.name, f"'{arg}' has the wrong dtype {v.dtype}.", TypeError)
    return v.item()


def _call(p: Any, boxes: Tensor, scores: Tensor, max_output_size_per_class: Tensor, max_total_size: Tensor,
          iou_threshold: Tensor, score_threshold: Tensor) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    for arg, value in (("boxes", boxes), ("scores", scores)):
        check(isinstance(value, Tensor) and str(np.dtype(value._value.dtype)) in ("float16", "float32"), p.name,
              f"'{arg}' must be a float16 or float32 Tensor, but got {getattr(value, 'dtype', type(value))}.",
              TypeError)
    b, s = _host(boxes).astype(np.float32), _host(scores).astype(np.float32)
    check(b.ndim == 4 and b.shape[3] == 4, p.name, f"'boxes' must have shape (batch, num_boxes, q, 4), but got "
          f"{b.shape}.")
    check(s.ndim == 3 and s.shape[:2] == b.shape[:2], p.name,
          f"'scores' must have shape (batch, num_boxes, num_classes) = {b.shape[:2]} + (num_classes,), but got "
          f"{s.shape}.")
    num_classes = s.shape[2]
    check(b.shape[2] in (1, num_classes), p.name, f"'boxes' q (dim 2) must be 1 or num_classes ({num_classes}), but "
          f"got {b.shape[2]}.")
    per_class = int(_scalar(p, "max_output_size_per_class", max_output_size_per_class, "i"))
    total = int(_scalar(p, "max_total_size", max_total_size, "i"))
    check(per_class > 0, p.name, f"'max_output_size_per_class' must be > 0, but got {per_class}.")
    check(total > 0, p.name, f"'max_total_size' must be > 0, but got {total}.")
    iou, s_thr = float(_scalar(p, "iou_threshold", iou_threshold, "f")), float(
        _scalar(p, "score_threshold", score_threshold, "f"))
    check(0 <= iou <= 1, p.name, f"'iou_threshold' must be in [0, 1], but got {iou}.")
    size = min(total, per_class * num_classes) if p.pad_per_class else total
    out_boxes = np.zeros((b.shape[0], size, 4), np.float32)
    out_scores = np.zeros((b.shape[0], size), np.float32)
    out_classes = np.zeros((b.shape[0], size), np.float32)
    valid = np.zeros((b.shape[0],), np.int32)
    for n in range(b.shape[0]):
        found = []  # (score, class, box) of every kept box of every class
        for c in range(num_classes):
            bx = b[n, :, 0 if b.shape[2] == 1 else c]
            keep = _greedy_nms(p.name, box_iou(bx), s[n, :, c], per_class, iou, s_thr).asnumpy()
            found += [(s[n, k, c], c, bx[k]) for k in keep]
        found.sort(key=lambda t: -t[0])  # stable: equal scores keep class order
        found = found[:size]
        valid[n] = len(found)
        for i, (score, c, box) in enumerate(found):
            out_scores[n, i], out_classes[n, i], out_boxes[n, i] = score, c, box
    if p.clip_boxes:
        out_boxes = np.clip(out_boxes, 0.0, 1.0)
    return Tensor(out_boxes), Tensor(out_scores), Tensor(out_classes), Tensor(valid)


def _init(p: Any) -> None:
    for arg in ("pad_per_class", "clip_boxes"):
        check(isinstance(getattr(p, arg), bool), p.name, f"'{arg}' must be a bool, but got "
              f"{type(getattr(p, arg)).__name__}.", TypeError)


CombinedNonMaxSuppression = primitive_class(
    "CombinedNonMaxSuppression", [("pad_per_class", False), ("clip_boxes", True)], _call,
    "``CombinedNonMaxSuppression(pad_per_class, clip_boxes)(boxes, scores, max_output_size_per_class, "
    "max_total_size, iou_threshold, score_threshold)`` -> (nmsed_boxes, nmsed_scores, nmsed_classes, "
    "valid_detections): greedy NMS per class (on the host), then the best detections over all classes.",
    __name__, _init)
