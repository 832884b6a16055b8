"""Matrix products, linear algebra and tensor-creating ops against NumPy."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import mindspore_hl as ms
from mindspore_hl import Tensor, ops

_F = st.floats(-3, 3, width=32, allow_subnormal=False)


def _close(got, want, tol=1e-4):
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got.asnumpy(), want, rtol=tol, atol=tol)


@settings(max_examples=8, deadline=None)
@given(a=hnp.arrays(np.float32, (2, 3, 4), elements=_F), b=hnp.arrays(np.float32, (2, 4, 5), elements=_F),
       v=hnp.arrays(np.float32, (4,), elements=_F))
def test_products(a, b, v):
    _close(ops.matmul(Tensor(a), Tensor(b)), a @ b)
    _close(ops.matmul(Tensor(a), Tensor(v)), a @ v)
    _close(ops.matmul(Tensor(a[0]), Tensor(b[0])), a[0] @ b[0])
    _close(ops.bmm(Tensor(a), Tensor(b)), a @ b)
    _close(ops.mm(Tensor(a[0]), Tensor(b[0])), a[0] @ b[0])
    _close(ops.batch_matmul(Tensor(b), Tensor(a), transpose_a=True, transpose_b=True),
           b.swapaxes(1, 2) @ a.swapaxes(1, 2))
    _close(ops.MatMul(transpose_b=True)(Tensor(a[0]), Tensor(a[1])), a[0] @ a[1].T)
    _close(ops.BatchMatMul()(Tensor(a), Tensor(b)), a @ b)
    _close(ops.outer(Tensor(v), Tensor(v)), np.outer(v, v))
    _close(ops.inner(Tensor(v), Tensor(v)), np.inner(v, v))
    _close(ops.dot(Tensor(a[0]), Tensor(v)), a[0].dot(v))
    _close(ops.tensor_dot(Tensor(a), Tensor(b), ((2,), (1,))), np.tensordot(a, b, ((2,), (1,))))
    _close(ops.einsum("bij,bjk->bik", Tensor(a), Tensor(b)), np.einsum("bij,bjk->bik", a, b))
    _close(ops.norm(Tensor(a)), np.linalg.norm(a.ravel()))
    _close(ops.norm(Tensor(a), dim=-1), np.linalg.norm(a, axis=-1))
    _close(ops.cdist(Tensor(a), Tensor(a)), np.linalg.norm(a[:, :, None] - a[:, None], axis=-1), 1e-3)


def test_linalg_misc():
    m = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    _close(ops.inverse(Tensor(m)), np.linalg.inv(m))
    _close(ops.det(Tensor(m)), np.linalg.det(m))
    _close(ops.trace(Tensor(m)), np.trace(m))
    _close(ops.kron(Tensor(m), Tensor(m)), np.kron(m, m))
    x1, x2 = np.array([[1.0, 0.0], [1.0, 1.0]], np.float32), np.array([[1.0, 1.0], [2.0, 2.0]], np.float32)
    _close(ops.cosine_similarity(Tensor(x1), Tensor(x2)), [np.sqrt(0.5), 1.0])
    _close(ops.l2_normalize(Tensor([3.0, 4.0])), [0.6, 0.8])


def test_matmul_errors():
    with pytest.raises(ValueError, match=r"For 'matmul'.*\[2, 3\] and \[4, 5\]"):
        ops.matmul(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((4, 5), np.float32)))
    with pytest.raises(TypeError, match=r"For 'matmul', Bool"):
        ops.matmul(Tensor([[True]]), Tensor([[True]]))
    with pytest.raises(ValueError, match=r"For 'bmm', both inputs must have at least 3 dimensions"):
        ops.bmm(Tensor(np.ones((2, 3), np.float32)), Tensor(np.ones((3, 2), np.float32)))


def test_creation():
    assert ops.ones(5, ms.float32).shape == (5,) and ops.ones((2, 3)).dtype == ms.float32
    assert ops.zeros([2, 2], ms.int32).dtype == ms.int32 and ops.zeros(3).asnumpy().sum() == 0
    x = Tensor(np.ones((2, 3), np.float16))
    assert ops.ones_like(x).dtype == ms.float16 and ops.zeros_like(x, dtype=ms.int64).dtype == ms.int64
    assert ops.full((2,), 3).dtype == ms.int64 and ops.full((2,), 3.5).tolist() == [3.5, 3.5]
    assert ops.full_like(x, 7).asnumpy().max() == 7 and ops.fill(ms.float32, (2,), 4).tolist() == [4, 4]
    assert ops.arange(5).tolist() == list(range(5)) and ops.arange(5).dtype == ms.int64
    np.testing.assert_allclose(ops.arange(0, 1, 0.25).asnumpy(), [0, 0.25, 0.5, 0.75])
    assert ops.arange(0, 1, 0.25).dtype == ms.float32 and ops.range(1, 7, 2).tolist() == [1, 3, 5]
    np.testing.assert_array_equal(ops.eye(2, 3).asnumpy(), np.eye(2, 3))
    np.testing.assert_allclose(ops.linspace(0, 1, 5).asnumpy(), np.linspace(0, 1, 5))
    assert ms.tensor([1, 2]).dtype == ms.int64
    with pytest.raises(ValueError, match=r"For 'zeros'.*negative"):
        ops.zeros((2, -1))
    with pytest.raises(TypeError, match=r"For 'ones', the shape must be"):
        ops.ones("abc")


def test_random_ops_are_seeded_and_shaped():
    ms.set_seed(3)
    a = ops.randn(2, 3)
    b = ops.rand((2, 3))
    ms.set_seed(3)
    np.testing.assert_array_equal(ops.randn(2, 3).asnumpy(), a.asnumpy())
    np.testing.assert_array_equal(ops.rand((2, 3)).asnumpy(), b.asnumpy())
    assert a.dtype == ms.float32 and 0 <= b.asnumpy().min() and b.asnumpy().max() < 1
    r = ops.randint(2, 5, (100,))
    assert r.dtype == ms.int64 and r.asnumpy().min() >= 2 and r.asnumpy().max() <= 4
    u = ops.uniform((1000,), Tensor(1.0), Tensor(2.0))
    assert 1 <= u.asnumpy().min() and u.asnumpy().max() < 2
    n = ops.normal((4000,), 5.0, 2.0)
    assert abs(n.asnumpy().mean() - 5) < 0.15 and abs(n.asnumpy().std() - 2) < 0.15
    p = ops.randperm(6)
    assert sorted(p.tolist()) == list(range(6))
    m = ops.multinomial(Tensor([[0.0, 1.0, 0.0]]), 4)
    assert m.tolist() == [[1, 1, 1, 1]]
    m = ops.multinomial(Tensor([[0.2, 0.3, 0.5]]), 3, replacement=False)
    assert sorted(m.tolist()[0]) == [0, 1, 2]
    assert set(np.unique(ops.bernoulli(Tensor(np.zeros(50, np.float32)), 0.5).asnumpy())) <= {0.0, 1.0}
    assert ops.randn(2, seed=7).tolist() == ops.randn(2, seed=7).tolist()


def test_remaining_ops_against_numpy():
    a = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    b3 = np.ones((2, 3, 2), np.float32)
    _close(ops.baddbmm(Tensor(np.ones((2, 2, 2), np.float32)), Tensor(b3.transpose(0, 2, 1) * 2), Tensor(b3), 0.5, 2),
           0.5 + 2 * (b3.transpose(0, 2, 1) * 2) @ b3)
    _close(ops.addmm(Tensor(np.ones((2, 2), np.float32)), Tensor(a), Tensor(a.T), beta=2), 2 + a @ a.T)
    _close(ops.cross(Tensor([[1.0, 0, 0]]), Tensor([[0, 1.0, 0]])), [[0, 0, 1.0]])
    v, i = ops.cummin(Tensor([3.0, 1.0, 2.0, 0.5]), 0)
    _close(v, [3.0, 1.0, 1.0, 0.5])
    assert i.tolist() == [0, 1, 1, 3]
    var, mean = ops.var_mean(Tensor(a), 1)
    _close(var, a.var(1))
    _close(mean, a.mean(1))
    assert [t.tolist() for t in ops.unbind(Tensor(a), 1)] == a.T.tolist()
    _close(ops.repeat_elements(Tensor(a), 2, 1), np.repeat(a, 2, 1))
    _close(ops.movedim(Tensor(b3), 0, 2), np.moveaxis(b3, 0, 2))
    r = ops.randint_like(Tensor(np.zeros((3,), np.int32)), 0, 2)
    assert r.dtype == ms.int32 and r.shape == (3,)
    assert ops.rand_like(Tensor(a)).shape == (2, 3) and ops.randn_like(Tensor(a)).dtype == ms.float32
    assert sorted(ops.shuffle(Tensor(np.arange(5))).tolist()) == [0, 1, 2, 3, 4]
