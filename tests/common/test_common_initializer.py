"""Initializers: distributions (moments and bounds from their formulas), names, seeding, errors."""
import math

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl.common import initializer as init


def _sample(i, shape=(200, 300)):
    return init.initializer(i, shape, ms.float32).asnumpy()


def test_constants_and_names():
    assert _sample(init.One(), (2, 3)).tolist() == [[1, 1, 1], [1, 1, 1]]
    assert _sample("zeros", (2,)).tolist() == [0, 0]
    assert _sample("ones", (1,)).tolist() == [1]
    assert _sample(init.Constant(3.5), (2,)).tolist() == [3.5, 3.5]
    assert _sample(7, (2,)).tolist() == [7, 7]
    t = init.initializer(0, [2, 2], ms.int32)
    assert t.dtype == ms.int32 and t.asnumpy().sum() == 0
    np.testing.assert_array_equal(_sample("identity", (2, 3)), np.eye(2, 3))


def test_normal_and_uniform_moments():
    x = _sample(init.Normal(sigma=0.5, mean=1.0))
    assert abs(x.mean() - 1.0) < 0.01 and abs(x.std() - 0.5) < 0.01
    u = _sample(init.Uniform(scale=0.2))
    assert u.min() >= -0.2 and u.max() <= 0.2 and abs(u.std() - 0.2 / math.sqrt(3)) < 0.003
    n = _sample("normal")
    assert abs(n.std() - 0.01) < 0.0005  # MindSpore's default sigma


def test_truncated_normal_bounds():
    x = _sample(init.TruncatedNormal(sigma=1.0, a=-0.5, b=0.5))
    assert x.min() >= -0.5 and x.max() <= 0.5 and abs(x.mean()) < 0.01


@pytest.mark.parametrize("shape", [(64, 128), (16, 8, 3, 3)])
def test_xavier_and_he_scales(shape):
    fan_in = shape[1] * int(np.prod(shape[2:]))
    fan_out = shape[0] * int(np.prod(shape[2:]))
    xu = _sample(init.XavierUniform(), shape)
    bound = math.sqrt(6.0 / (fan_in + fan_out))
    assert np.abs(xu).max() <= bound and np.abs(xu).max() > 0.9 * bound
    xn = _sample(init.XavierNormal(gain=2), shape)
    assert abs(xn.std() - 2 * math.sqrt(2.0 / (fan_in + fan_out))) < 0.1 * xn.std()
    hu = _sample(init.HeUniform(negative_slope=math.sqrt(5)), shape)
    he_bound = math.sqrt(2.0 / (1 + 5)) * math.sqrt(3.0 / fan_in)  # MindSpore's default layer init
    assert np.abs(hu).max() <= he_bound and np.abs(hu).max() > 0.9 * he_bound
    hn = _sample(init.HeNormal(mode="fan_out", nonlinearity="relu"), shape)
    assert abs(hn.std() - math.sqrt(2.0) / math.sqrt(fan_out)) < 0.1 * hn.std()


def test_orthogonal_sparse_dirac():
    q = _sample(init.Orthogonal(), (6, 4))
    np.testing.assert_allclose(q.T @ q, np.eye(4), atol=1e-5)
    s = _sample(init.Sparse(sparsity=0.5), (10, 4))
    assert ((s == 0).sum(axis=0) >= 5).all()
    d = _sample(init.Dirac(), (2, 2, 3, 3))
    assert d[0, 0, 1, 1] == 1 and d[1, 1, 1, 1] == 1 and d.sum() == 2


def test_seeded_by_set_seed():
    ms.set_seed(5)
    a = _sample("normal", (4, 4))
    b = _sample("normal", (4, 4))
    ms.set_seed(5)
    np.testing.assert_array_equal(_sample("normal", (4, 4)), a)
    assert not np.array_equal(a, b)


def test_tensor_init_and_lazy_tensor():
    t = ms.Tensor(np.ones((2, 2), np.float32))
    assert init.initializer(t, (2, 2)) is t
    lazy = ms.Tensor(shape=(3, 3), dtype=ms.float32, init=init.Normal())
    assert lazy.init_data().shape == (3, 3)


def test_errors():
    with pytest.raises(ValueError, match="unknown"):
        init.initializer("nonsense", (2,))
    with pytest.raises(ValueError, match="positive integers"):
        init.initializer("ones", (2, 0))
    with pytest.raises(ValueError, match=r"shape of the 'init' Tensor \[2\]"):
        init.initializer(ms.Tensor([1.0, 2.0]), (3,))
    with pytest.raises(TypeError, match="Initializer"):
        init.initializer(object(), (2,))
    with pytest.raises(ValueError, match="fewer than 2 dimensions"):
        init.initializer(init.XavierUniform(), (5,))
