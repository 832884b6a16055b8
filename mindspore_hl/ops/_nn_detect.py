"""Detection and sequence helpers computed on the host: greedy non-maximum suppression (over boxes or over a
precomputed overlap matrix), edit distance of sparse sequences, CTC greedy decoding and accidental-hit search.

Their outputs have data-dependent lengths (as in MindSpore, where they are dynamic-shape kernels), so they run
eagerly on concrete arrays.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common.tensor import Tensor
from ._core import check


def _host(x: Any) -> np.ndarray:
    return np.asarray(x.asnumpy() if isinstance(x, Tensor) else x)


def _greedy_nms(name: str, overlaps: np.ndarray, scores: np.ndarray, max_output_size: Any, threshold: Any,
                score_threshold: Any) -> Tensor:
    limit = int(_host(max_output_size))
    check(limit >= 0, name, f"'max_output_size' must be >= 0, but got {limit}.")
    thr, s_thr = float(_host(threshold)), float(_host(score_threshold))
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    for i in order:
        if len(keep) >= limit or scores[i] <= s_thr:
            break
        if all(overlaps[i, j] <= thr for j in keep):
            keep.append(int(i))
    return Tensor(np.asarray(keep, np.int32))


def non_max_suppression_with_overlaps(overlaps: Tensor, scores: Tensor, max_output_size: Tensor | int,
                                      overlap_threshold: Tensor | float,
                                      score_threshold: Tensor | float) -> Tensor:
    """Indices (int32) of the highest-scoring entries kept greedily, dropping any whose overlap with one already
    kept exceeds ``overlap_threshold`` and any scoring at most ``score_threshold``."""
    name = "NonMaxSuppressionWithOverlaps"
    ov, sc = _host(overlaps), _host(scores)
    check(ov.ndim == 2 and ov.shape[0] == ov.shape[1], name, f"'overlaps' must be square 2-D, but got {ov.shape}.")
    check(sc.shape == (ov.shape[0],), name, f"'scores' must have shape ({ov.shape[0]},), but got {sc.shape}.")
    return _greedy_nms(name, ov, sc, max_output_size, overlap_threshold, score_threshold)


def box_iou(boxes: np.ndarray) -> np.ndarray:
    """Pairwise IoU of (N, 4) boxes given as two opposite corners (y1, x1, y2, x2) in any order."""
    b = boxes.astype(np.float64)
    y1, y2 = np.minimum(b[:, 0], b[:, 2]), np.maximum(b[:, 0], b[:, 2])
    x1, x2 = np.minimum(b[:, 1], b[:, 3]), np.maximum(b[:, 1], b[:, 3])
    area = (y2 - y1) * (x2 - x1)
    ih = np.clip(np.minimum(y2[:, None], y2[None]) - np.maximum(y1[:, None], y1[None]), 0, None)
    iw = np.clip(np.minimum(x2[:, None], x2[None]) - np.maximum(x1[:, None], x1[None]), 0, None)
    inter = ih * iw
    union = area[:, None] + area[None] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def non_max_suppression_v3(boxes: Tensor, scores: Tensor, max_output_size: Tensor | int,
                           iou_threshold: Tensor | float, score_threshold: Tensor | float) -> Tensor:
    """Greedy NMS over (N, 4) boxes by IoU; int32 indices of the kept boxes, highest score first."""
    name = "NonMaxSuppressionV3"
    b, sc = _host(boxes), _host(scores)
    check(b.ndim == 2 and b.shape[1] == 4, name, f"'boxes' must have shape (N, 4), but got {b.shape}.")
    check(sc.shape == (b.shape[0],), name, f"'scores' must have shape ({b.shape[0]},), but got {sc.shape}.")
    return _greedy_nms(name, box_iou(b), sc, max_output_size, iou_threshold, score_threshold)


def _levenshtein(a: list, b: list) -> int:
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y))
        prev = cur
    return prev[-1]


def _sparse_sequences(indices: np.ndarray, values: np.ndarray) -> dict[tuple, list]:
    seqs: dict[tuple, list] = {}
    for pos in np.lexsort(indices.T[::-1]):  # row-major order, so each sequence reads by its last index
        seqs.setdefault(tuple(int(i) for i in indices[pos, :-1]), []).append(values[pos].item())
    return seqs


def edit_distance(hypothesis_indices: Tensor, hypothesis_values: Tensor, hypothesis_shape: Tensor,
                  truth_indices: Tensor, truth_values: Tensor, truth_shape: Tensor, normalize: bool = True) -> Tensor:
    """Levenshtein distance between sparse sequences, per position of the leading (all but last) dimensions;
    ``normalize`` divides by the truth length (an empty truth gives inf, or 0 against an empty hypothesis)."""
    name = "EditDistance"
    hi, ti = _host(hypothesis_indices), _host(truth_indices)
    hs, ts = _host(hypothesis_shape), _host(truth_shape)
    check(hi.ndim == 2 and ti.ndim == 2 and hi.shape[1] == ti.shape[1] == hs.size == ts.size, name,
          f"the indices must be (N, R) with R the length of both shapes, but got {hi.shape}, {ti.shape}, "
          f"{hs.shape}, {ts.shape}.")
    hyp, truth = _sparse_sequences(hi, _host(hypothesis_values)), _sparse_sequences(ti, _host(truth_values))
    out_shape = tuple(int(v) for v in np.maximum(hs, ts)[:-1])
    out = np.zeros(out_shape, np.float32)
    for pos in np.ndindex(*out_shape):
        h, t = hyp.get(pos, []), truth.get(pos, [])
        d = float(_levenshtein(h, t))
        if normalize:
            d = d / len(t) if t else (np.inf if h else 0.0)
        out[pos] = d
    return Tensor(out)


def ctc_greedy_decoder(inputs: Tensor, sequence_length: Tensor,
                       merge_repeated: bool = True) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """Best-path CTC decoding of (T, B, C) logits (blank = C - 1) -> sparse (indices, values, dense shape) and the
    (B, 1) negative sum of each step's greatest logit."""
    name = "CTCGreedyDecoder"
    x, lengths = _host(inputs), _host(sequence_length)
    check(x.ndim == 3, name, f"'inputs' must be 3-D (T, B, C), but got shape {x.shape}.")
    check(lengths.shape == (x.shape[1],) and (lengths <= x.shape[0]).all(), name,
          f"'sequence_length' must have shape ({x.shape[1]},) with values <= {x.shape[0]}, but got {lengths}.")
    blank = x.shape[2] - 1
    idx, vals, logp, width = [], [], np.zeros((x.shape[1], 1), x.dtype), 0
    for b in range(x.shape[1]):
        steps = x[: int(lengths[b]), b]
        best = steps.argmax(-1)
        logp[b, 0] = -steps.max(-1).sum()
        seq, prev = [], -1
        for c in best:
            if c != blank and not (merge_repeated and c == prev):
                seq.append(int(c))
            prev = c
        idx += [[b, i] for i in range(len(seq))]
        vals += seq
        width = max(width, len(seq))
    return (Tensor(np.asarray(idx, np.int64).reshape(-1, 2)), Tensor(np.asarray(vals, np.int64)),
            Tensor(np.asarray([x.shape[1], width], np.int64)), Tensor(logp))


def compute_accidental_hits(true_classes: Tensor, sampled_candidates: Tensor,
                            num_true: int = 1) -> tuple[Tensor, Tensor, Tensor]:
    """Where a sampled candidate equals one of a row's true classes: (row indices int32, candidate positions int64,
    weights -FLT_MAX float32)."""
    name = "ComputeAccidentalHits"
    tc, sc = _host(true_classes), _host(sampled_candidates)
    check(tc.ndim == 2 and tc.shape[1] == num_true, name,
          f"'true_classes' must have shape (batch, {num_true}), but got {tc.shape}.")
    check(sc.ndim == 1, name, f"'sampled_candidates' must be 1-D, but got shape {sc.shape}.")
    rows, cols = np.nonzero((tc[:, :, None] == sc[None, None, :]).any(1))
    return (Tensor(rows.astype(np.int32)), Tensor(cols.astype(np.int64)),
            Tensor(np.full(rows.shape, np.finfo(np.float32).min, np.float32)))


def sub_and_filter(input_x: Tensor, max_num: int, offset: int) -> tuple[Tensor, Tensor]:
    """``x - offset`` for the entries with ``0 <= x - offset < max_num``, and their positions."""
    x = _host(input_x)
    check(x.ndim == 1, "SubAndFilter", f"'input_x' must be 1-D, but got shape {x.shape}.")
    shifted = x - x.dtype.type(offset)
    keep = np.nonzero((shifted >= 0) & (shifted < max_num))[0]
    return Tensor(shifted[keep]), Tensor(keep.astype(x.dtype))


__all__: list[str] = []
