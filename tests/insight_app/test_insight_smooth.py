"""TensorBoard's debiased EMA smoothing and min/max decimation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from insight_app import decimate, ema_smooth, minmax_indices


def _tensorboard_loop(ys, w):
    """A transcription of TensorBoard's classicSmoothing (data_transformer.ts), one point at a time."""
    finite = [y for y in ys if math.isfinite(y)]
    if finite and all(y == finite[0] for y in finite):
        return list(ys)
    last, n, out = 0.0, 0, []
    for y in ys:
        if not math.isfinite(y):
            out.append(y)
            continue
        last = last * w + (1 - w) * y
        n += 1
        out.append(last / (1 - w ** n))
    return out


def test_hand_computed():
    # w = 0.5: last = 0.5, 1.25, 2.125; debias by 1 - 0.5**n = 0.5, 0.75, 0.875.
    np.testing.assert_allclose(ema_smooth(np.array([1.0, 2.0, 3.0]), 0.5), [1.0, 1.25 / 0.75, 2.125 / 0.875])
    # A NaN passes through and does not count: the third point is the second finite one.
    out = ema_smooth(np.array([1.0, np.nan, 3.0]), 0.5)
    assert out[0] == 1.0 and np.isnan(out[1]) and out[2] == pytest.approx((0.25 + 1.5) / 0.75)
    out = ema_smooth(np.array([np.inf, 2.0, -np.inf]), 0.9)
    assert out.tolist() == [np.inf, 2.0, -np.inf]


def test_constant_series_and_zero_weight_unchanged():
    y = np.full(1000, 0.1)
    assert np.array_equal(ema_smooth(y, 0.99), y)
    z = np.random.default_rng(0).standard_normal(50)
    assert np.array_equal(ema_smooth(z, 0.0), z)
    with pytest.raises(ValueError, match="smoothing weight"):
        ema_smooth(z, 1.0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.floats(-1e6, 1e6), st.sampled_from([math.nan, math.inf, -math.inf])), max_size=700),
       st.floats(0.0, 0.999))
def test_matches_tensorboard_loop(ys, w):
    got = ema_smooth(np.array(ys, np.float64), w)
    want = np.array(_tensorboard_loop(ys, w), np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-9 * (1 + np.nanmax(np.abs(np.nan_to_num(want, posinf=0,
                                                                                                    neginf=0)),
                                                                              initial=0)))


def test_long_series_matches_loop():
    y = np.random.default_rng(1).standard_normal(20_000).cumsum()
    for w in (0.6, 0.99, 0.999):
        np.testing.assert_allclose(ema_smooth(y, w), _tensorboard_loop(y.tolist(), w), rtol=1e-9, atol=1e-9)


def test_decimation_keeps_spikes_and_ends():
    rng = np.random.default_rng(2)
    y = rng.standard_normal(1_000_000) * 0.01
    spikes = rng.choice(y.size, 5, replace=False)
    y[spikes[:3]] = 50.0
    y[spikes[3:]] = -50.0
    idx = minmax_indices(y, 2000)
    assert idx.size <= 2000 and idx[0] == 0 and idx[-1] == y.size - 1 and np.all(np.diff(idx) > 0)
    assert set(spikes.tolist()) <= set(idx.tolist())
    # Every bucket's extremes are kept, so the envelope of the drawn line is the envelope of the data.
    assert y[idx].max() == y.max() and y[idx].min() == y.min()


def test_decimation_small_and_ranged():
    x = np.arange(100, dtype=np.float64)
    y = np.sin(x)
    assert np.array_equal(minmax_indices(y, 2000), np.arange(100))
    dx, dy = decimate(x, y, 2000, (10.5, 20.5))
    assert dx[0] == 10 and dx[-1] == 21 and np.array_equal(dy, y[10:22])  # one point beyond each side
