"""``mindspore_hl.numpy`` names the fixture format cannot express (function arguments, slice grids, dtypes,
random draws), against NumPy and the values real MindSpore 2.10 printed for them."""
import numpy as np
import pytest

import mindspore_hl as ms
import mindspore_hl.numpy as mnp

X = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_mgrid_ogrid_like_numpy():
    g = mnp.mgrid[0:3, 0:2]                       # one stacked Int32 Tensor, as MindSpore returns
    np.testing.assert_array_equal(g.asnumpy(), np.mgrid[0:3, 0:2])
    assert g.dtype == ms.int32
    o = mnp.ogrid[0:1:3j, 0:2]
    want = np.ogrid[0:1:3j, 0:2]
    for got, w in zip(o, want):
        np.testing.assert_allclose(got.asnumpy(), w)
    assert o[0].dtype == ms.float32


def test_function_arguments_like_numpy():
    out = mnp.apply_along_axis(lambda v: v.sum(), 1, ms.Tensor(X))
    np.testing.assert_allclose(out.asnumpy(), X.sum(1))
    out = mnp.apply_over_axes(mnp.sum, ms.Tensor(X), [0, 1])
    np.testing.assert_allclose(out.asnumpy(), np.apply_over_axes(np.sum, X, [0, 1]))
    x = ms.Tensor(np.array([-2.0, -0.5, 0.5, 2.0], np.float32))
    out = mnp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2])
    np.testing.assert_allclose(out.asnumpy(), [2.0, 0.5, 1.0, 4.0])


def test_dtype_helpers():
    assert mnp.promote_types(mnp.int8, mnp.uint8) == ms.int16
    # MindSpore's rule (a float beats any integer, keeping its width), as real MindSpore 2.10 answers
    assert mnp.promote_types(mnp.int32, mnp.float16) == ms.float16
    assert mnp.result_type(ms.Tensor(np.ones(2, np.int32)), mnp.float32) == ms.float32
    assert mnp.float32 == ms.float32 and mnp.int_ == ms.int64 and mnp.float_ == ms.float64
    assert mnp.isscalar(3.0) and not mnp.isscalar(ms.Tensor(1.0))
    assert mnp.array_str(ms.Tensor(np.array([1, 2], np.int32))) == "[1 2]"


def test_histogramdd_like_numpy():
    s = np.random.default_rng(0).standard_normal((20, 2)).astype(np.float32)
    h, edges = mnp.histogramdd(ms.Tensor(s), bins=3)
    wh, we = np.histogramdd(s, bins=3)
    np.testing.assert_allclose(h.asnumpy(), wh)
    for got, w in zip(edges, we):
        np.testing.assert_allclose(got.asnumpy(), w, rtol=1e-5)


@pytest.mark.parametrize("call,shape,dtype", [
    (lambda: mnp.rand(2, 3), (2, 3), ms.float32), (lambda: mnp.randn((4,)), (4,), ms.float32),
    (lambda: mnp.randint(1, 5, (3, 2)), (3, 2), ms.int32), (lambda: mnp.empty((2, 2)), (2, 2), ms.float32),
    (lambda: mnp.empty_like(ms.Tensor(np.ones(3, np.int32))), (3,), ms.int32)])
def test_random_and_empty(call, shape, dtype):
    out = call()
    assert out.shape == shape and out.dtype == dtype


def test_randint_range():
    v = mnp.randint(2, 5, (200,)).asnumpy()
    assert v.min() >= 2 and v.max() < 5


def test_linspace_retstep_is_tensor():
    # MindSpore 2.10 returns the step as a Tensor (0.25 for these arguments, checked on the oracle).
    samples, step = mnp.linspace(0, 1, 5, retstep=True)
    assert isinstance(step, ms.Tensor) and isinstance(samples, ms.Tensor)
    np.testing.assert_allclose(step.asnumpy(), 0.25)
