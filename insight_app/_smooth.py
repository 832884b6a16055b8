"""TensorBoard's debiased EMA smoothing and min/max decimation for rendering, both vectorised."""

from __future__ import annotations

import numpy as np
from scipy.signal import lfilter


def ema_smooth(y: np.ndarray, weight: float) -> np.ndarray:
    """TensorBoard's scalar smoothing (``data_transformer.ts`` classicSmoothing).

    For finite points in order: ``last = last * w + (1 - w) * y``; shown value ``last / (1 - w**n)``,
    with ``n`` the count of finite points so far. Non-finite points pass through unchanged and do not
    advance the average. A constant series (all finite values equal) is returned as is.

    Args:
        y: values (any float array).
        weight: smoothing weight w in [0, 1).
    Returns:
        float64 array of the same length.
    """
    y = np.asarray(y, np.float64)
    if not 0.0 <= weight < 1.0:
        raise ValueError(f"smoothing weight must be in [0, 1), got {weight}")
    out = y.copy()
    finite = np.isfinite(y)
    x = y[finite]
    if weight == 0.0 or x.size == 0 or np.all(x == x[0]):
        return out
    # One C pass of the first-order IIR filter last_i = w*last_{i-1} + (1-w)*x_i over the values and over
    # ones: the second gives the debiasing term 1 - w**n without a power per point.
    both = lfilter([1.0 - weight], [1.0, -weight], np.stack([x, np.ones_like(x)]), axis=1)
    out[finite] = both[0] / both[1]
    return out


def minmax_indices(y: np.ndarray, target: int) -> np.ndarray:
    """Indices of the points to draw so that every spike survives: the min and max of each bucket.

    Args:
        y: values in x order.
        target: about how many points to keep (at least 4).
    Returns:
        Sorted int64 indices, always including the first and last point; all indices when
        ``len(y) <= target``.
    """
    n = y.size
    if n <= target:
        return np.arange(n, dtype=np.int64)
    nb = max(1, (target - 2) // 2)
    size = -(-n // nb)
    full = (n // size) * size
    yy = np.asarray(y, np.float64)
    lo_key = np.where(np.isnan(yy), np.inf, yy)
    hi_key = np.where(np.isnan(yy), -np.inf, yy)
    base = np.arange(0, full, size, dtype=np.int64)
    parts = [np.array([0, n - 1], np.int64)]
    if full:
        parts += [base + lo_key[:full].reshape(-1, size).argmin(1), base + hi_key[:full].reshape(-1, size).argmax(1)]
    if full < n:
        parts += [np.array([full + int(lo_key[full:].argmin()), full + int(hi_key[full:].argmax())], np.int64)]
    return np.unique(np.concatenate(parts))


def decimate(x: np.ndarray, y: np.ndarray, target: int, x_range: tuple[float, float] | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """Points to draw for one series: those within ``x_range`` (plus one on each side), min/max decimated.

    Args:
        x, y: the full series.
        target: about how many points to return.
        x_range: optional (lo, hi) visible x range.
    Returns:
        (x, y) arrays of at most about ``target`` points.
    """
    if x_range is not None and x.size:
        lo, hi = x_range
        if np.all(x[1:] >= x[:-1]):
            a = max(int(np.searchsorted(x, lo, "left")) - 1, 0)
            b = min(int(np.searchsorted(x, hi, "right")) + 1, x.size)
            x, y = x[a:b], y[a:b]
        else:
            keep = (x >= lo) & (x <= hi)
            x, y = x[keep], y[keep]
    idx = minmax_indices(y, target)
    return x[idx], y[idx]
