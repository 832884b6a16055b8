"""Reductions, scans and sorting against NumPy."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mindspore_hl as ms
from mindspore_hl import Tensor, ops

_X = hnp.arrays(np.float32, (3, 4), elements=st.floats(-10, 10, width=32, allow_subnormal=False))
_AXES = st.sampled_from([None, 0, 1, -1, (0, 1)])


def _close(got, want):
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=1e-5, atol=1e-4)


@settings(max_examples=5, deadline=None)
@given(a=_X, axis=_AXES, keep=st.booleans())
def test_reductions_match_numpy(a, axis, keep):
    t = Tensor(a)
    _close(ops.sum(t, axis, keep), a.sum(axis, keepdims=keep))
    _close(ops.mean(t, axis, keep), a.mean(axis, keepdims=keep))
    _close(ops.prod(t / 5, axis, keep), (a / 5).prod(axis, keepdims=keep))
    _close(ops.amax(t, axis, keep), a.max(axis, keepdims=keep))
    _close(ops.amin(t, axis, keep), a.min(axis, keepdims=keep))
    _close(ops.std(t, axis, keepdims=keep), a.std(axis, keepdims=keep))
    _close(ops.var(t, axis, 1, keep), a.var(axis, ddof=1, keepdims=keep))
    _close(ops.logsumexp(t, axis, keep), np.log(np.exp(a).sum(axis, keepdims=keep)))
    _close(ops.all(t > 0, axis, keep), (a > 0).all(axis, keepdims=keep))
    _close(ops.any(t > 0, axis, keep), (a > 0).any(axis, keepdims=keep))


@settings(max_examples=10, deadline=None)
@given(a=_X, axis=st.sampled_from([0, 1, -1]))
def test_arg_and_max_min_tuple(a, axis):
    t = Tensor(a)
    _close(ops.argmax(t, axis), a.argmax(axis))
    _close(ops.argmin(t, axis), a.argmin(axis))
    assert ops.argmax(t).item() == a.argmax() and ops.argmax(t).dtype == ms.int64
    values, index = ops.max(t, axis)
    _close(values, a.max(axis))
    _close(index, a.argmax(axis))
    values, index = ops.min(t, axis, keepdims=True)
    _close(values, a.min(axis, keepdims=True))
    _close(index, np.expand_dims(a.argmin(axis), axis))


@settings(max_examples=4, deadline=None)
@given(a=_X, axis=st.sampled_from([0, 1]))
def test_scans_and_sorting(a, axis):
    t = Tensor(a)
    _close(ops.cumsum(t, axis), a.cumsum(axis))
    _close(ops.cumprod(t / 5, axis), (a / 5).cumprod(axis))
    cm, ci = ops.cummax(t, axis)
    _close(cm, np.maximum.accumulate(a, axis))
    got = np.take_along_axis(a, ci.asnumpy(), axis)
    np.testing.assert_array_equal(got, np.maximum.accumulate(a, axis))
    vals, idx = ops.sort(t, axis)
    _close(vals, np.sort(a, axis))
    np.testing.assert_array_equal(idx.asnumpy(), np.argsort(a, axis, kind="stable"))
    assert idx.dtype == ms.int32
    vals, _ = ops.sort(t, axis, descending=True)
    _close(vals, -np.sort(-a, axis))
    np.testing.assert_array_equal(ops.argsort(t, axis).asnumpy(), np.argsort(a, axis, kind="stable"))
    v, i = ops.topk(t, 2, dim=axis)
    _close(v, -np.sort(-a, axis).take([0, 1], axis))
    np.testing.assert_array_equal(np.take_along_axis(a, i.asnumpy(), axis), v.asnumpy())
    v, _ = ops.topk(t, 2, dim=axis, largest=False)
    _close(v, np.sort(a, axis).take([0, 1], axis))


def test_sum_dtypes_and_misc():
    assert ops.sum(Tensor([True, True, False])).item() == 2
    assert ops.sum(Tensor([True])).dtype == ms.int64
    assert ops.sum(Tensor([1, 2]), dtype=ms.float32).dtype == ms.float32
    # MindSpore 2.10 keeps an integer input's dtype, truncating toward 0 (recorded: tests/fixtures/oracle/ops_sweep.npz)
    assert ops.mean(Tensor([1, 2])).dtype == ms.int64 and ops.mean(Tensor([1, 2])).item() == 1
    assert ops.mean(Tensor([-1, -2], ms.int32)).item() == -1
    assert ops.count_nonzero(Tensor([[0, 1], [2, 0]]), 1).tolist() == [1, 1]
    v, i = ops.median(Tensor([[3.0, 1.0, 2.0]]), -1)
    assert v.tolist() == [2.0] and i.tolist() == [2]
    s, m = ops.std_mean(Tensor([1.0, 3.0]))
    assert s.item() == 1.0 and m.item() == 2.0
    assert ops.nansum(Tensor([1.0, np.nan])).item() == 1.0


def test_reduction_errors():
    with pytest.raises(ValueError, match=r"For 'sum', 'axis' 2 is out of range for a 2-D input"):
        ops.sum(Tensor(np.ones((2, 3))), 2)
    with pytest.raises(ValueError, match=r"For 'topk', 'k' must be an int in \[0, 3\]"):
        ops.topk(Tensor([1.0, 2.0, 3.0]), 5)
