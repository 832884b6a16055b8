"""Ops whose recorded MindSpore 2.10 call has no CPU kernel (RuntimeError on the CPU build): checked against a
second implementation, NumPy, with MindSpore's documented formulas and dtypes."""
import numpy as np

import mindspore_hl as ms
from mindspore_hl import Tensor, ops

RNG = np.random.default_rng(3)
A = RNG.uniform(-3, 3, (2, 3)).astype(np.float32)
B = RNG.uniform(-3, 3, (2, 3)).astype(np.float32)


def test_fmin_fmax_ignore_nan():
    a = np.array([np.nan, 1.0, 2.0], np.float32)
    b = np.array([0.5, np.nan, 3.0], np.float32)
    np.testing.assert_array_equal(ops.fmin(Tensor(a), Tensor(b)).asnumpy(), np.fmin(a, b))
    np.testing.assert_array_equal(ops.fmax(Tensor(a), Tensor(b)).asnumpy(), np.fmax(a, b))
    np.testing.assert_array_equal(ops.Fmin()(Tensor(A), Tensor(B)).asnumpy(), np.fmin(A, B))


def test_quantile_and_nanquantile():
    q = np.array([0.25, 0.5], np.float32)
    np.testing.assert_allclose(ops.quantile(Tensor(A), Tensor(q), axis=1).asnumpy(), np.quantile(A, q, axis=1),
                               rtol=1e-6)
    a = A.copy()
    a[0, 0] = np.nan
    np.testing.assert_allclose(ops.nanquantile(Tensor(a), Tensor(q), axis=1).asnumpy(),
                               np.nanquantile(a, q, axis=1), rtol=1e-6)


def test_tensor_unique_is_sorted_with_inverse_and_counts():
    x = np.array([3, 1, 3, 2], np.int32)
    vals, inv, counts = Tensor(x).unique(return_inverse=True, return_counts=True)
    want_v, want_i, want_c = np.unique(x, return_inverse=True, return_counts=True)
    assert vals.tolist() == want_v.tolist() and inv.tolist() == want_i.tolist() and counts.tolist() == want_c.tolist()


def test_take_searchsorted_bucketize_roll():
    idx = np.array([[0, 5], [2, 3]], np.int64)
    np.testing.assert_array_equal(ops.take(Tensor(A), Tensor(idx)).asnumpy(), np.take(A, idx))
    seq, v = np.array([1, 3, 5, 7], np.float32), np.array([3, 6], np.float32)
    got = ops.searchsorted(Tensor(seq), Tensor(v), right=True, out_int32=True)
    assert got.dtype.to_numpy() == np.int32 and got.tolist() == np.searchsorted(seq, v, side="right").tolist()
    assert ops.bucketize(Tensor(np.array([0, 3, 6, 8], np.float32)), [1.0, 3.0, 5.0]).tolist() == [0, 1, 3, 3]
    np.testing.assert_array_equal(ops.roll(Tensor(A), 1, 1).asnumpy(), np.roll(A, 1, 1))
    np.testing.assert_array_equal(Tensor(A).roll(1, 0).asnumpy(), np.roll(A, 1, 0))
    np.testing.assert_array_equal(ops.Roll(1, 1)(Tensor(A)).asnumpy(), np.roll(A, 1, 1))


def test_soft_margin_and_triplet_margin_losses():
    x, y = A.reshape(-1), np.sign(B.reshape(-1)).astype(np.float32)
    want = np.mean(np.log1p(np.exp(-y * x)))
    np.testing.assert_allclose(ops.soft_margin_loss(Tensor(x), Tensor(y)).asnumpy(), want, rtol=1e-6)
    a, p, n = (RNG.normal(size=(3, 4)).astype(np.float32) for _ in range(3))

    def d(u, v):
        return np.sum(np.abs(u - v + 1e-6) ** 2, -1) ** 0.5
    want = np.mean(np.maximum(d(a, p) - d(a, n) + 1.0, 0))
    np.testing.assert_allclose(ops.triplet_margin_loss(Tensor(a), Tensor(p), Tensor(n)).asnumpy(), want, rtol=1e-5)


def test_rms_norm_add_rms_norm_mse_loss_ext():
    x, r, g = A, B, np.array([0.5, 1.0, 2.0], np.float32)
    y, rstd = ops.rms_norm(Tensor(x), Tensor(g))
    want_rstd = 1 / np.sqrt(np.mean(x * x, -1, keepdims=True) + 1e-6)
    np.testing.assert_allclose(rstd.asnumpy(), want_rstd, rtol=1e-5)
    np.testing.assert_allclose(y.asnumpy(), x * want_rstd * g, rtol=1e-5)
    y2, _, s = ops.add_rms_norm(Tensor(x), Tensor(r), Tensor(g))
    np.testing.assert_allclose(s.asnumpy(), x + r, rtol=1e-6)
    np.testing.assert_allclose(y2.asnumpy(), (x + r) / np.sqrt(np.mean((x + r) ** 2, -1, keepdims=True) + 1e-6) * g,
                               rtol=1e-5)
    np.testing.assert_allclose(ops.mse_loss_ext(Tensor(x), Tensor(r)).asnumpy(), np.mean((x - r) ** 2), rtol=1e-6)


def test_ext_aliases_and_products():
    b1, b2, m = (RNG.normal(size=s).astype(np.float32) for s in [(2, 2, 3), (2, 3, 2), (2, 2, 2)])
    np.testing.assert_allclose(ops.baddbmm_ext(Tensor(m), Tensor(b1), Tensor(b2), alpha=0.5).asnumpy(),
                               m + 0.5 * b1 @ b2, rtol=1e-5)
    np.testing.assert_allclose(ops.einsum_ext("bij,bjk->bik", Tensor(b1), Tensor(b2)).asnumpy(), b1 @ b2, rtol=1e-5)
    v2, v3 = RNG.normal(size=2).astype(np.float32), RNG.normal(size=3).astype(np.float32)
    np.testing.assert_allclose(Tensor(v2).addmv(Tensor(A), Tensor(v3)).asnumpy(), v2 + A @ v3, rtol=1e-5)
    np.testing.assert_allclose(Tensor(A).addr(Tensor(v2), Tensor(v3)).asnumpy(), A + np.outer(v2, v3), rtol=1e-5)
    np.testing.assert_allclose(Tensor(m[0]).addbmm(Tensor(b1), Tensor(b2)).asnumpy(),
                               m[0] + np.einsum("bij,bjk->ik", b1, b2), rtol=1e-5)
    assert ops.shape_mul((2, 3, 4)) == 24
    out = ops.mixed_precision_cast(ms.float16, (Tensor(A), Tensor(np.array([1], np.int32))))
    assert out[0].dtype == ms.float16 and out[1].dtype == ms.int32


def test_reverse_sequence_and_adaptive_1d_pools():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = Tensor(x).reverse_sequence(Tensor(np.array([2, 3], np.int32)), 1)
    assert got.tolist() == [[1, 0, 2], [5, 4, 3]]
    z = RNG.normal(size=(1, 2, 7)).astype(np.float32)
    bounds = [(0, 3), (2, 5), (4, 7)]  # PyTorch's adaptive windows for 7 -> 3
    np.testing.assert_allclose(ops.adaptive_avg_pool1d(Tensor(z), 3).asnumpy(),
                               np.stack([z[..., a:b].mean(-1) for a, b in bounds], -1), rtol=1e-6)
    np.testing.assert_allclose(ops.adaptive_max_pool1d(Tensor(z), 3).asnumpy(),
                               np.stack([z[..., a:b].max(-1) for a, b in bounds], -1), rtol=1e-6)


def test_multilabel_margin_loss_and_triplet_primitive():
    x = RNG.normal(size=(2, 4)).astype(np.float32)
    y = np.array([[3, 0, -1, 1], [0, 1, 2, 3]], np.int64)
    want = []
    for xi, yi in zip(x, y):
        tgt = list(yi[: list(yi).index(-1)] if -1 in yi else yi)
        want.append(sum(max(0, 1 - (xi[j] - xi[i])) for j in tgt for i in range(4) if i not in tgt) / 4)
    np.testing.assert_allclose(ops.multilabel_margin_loss(Tensor(x), Tensor(y)).asnumpy(), np.mean(want), rtol=1e-5)
    a, p, n = (RNG.normal(size=(3, 4)).astype(np.float32) for _ in range(3))
    np.testing.assert_allclose(ops.TripletMarginLoss()(Tensor(a), Tensor(p), Tensor(n),
                                                       Tensor(np.float32(1.0))).asnumpy(),
                               ops.triplet_margin_loss(Tensor(a), Tensor(p), Tensor(n)).asnumpy(), rtol=1e-6)


def test_tensor_conversions_and_index_add():
    x = Tensor(A)
    np.testing.assert_array_equal(x.H.asnumpy(), A.T)
    np.testing.assert_array_equal(Tensor(np.stack([A, B])).mH.asnumpy(), np.stack([A.T, B.T]))
    assert (x.bfloat16().dtype, x.byte().dtype, x.short().dtype) == (ms.bfloat16, ms.uint8, ms.int16)
    assert x.ndimension() == 2 and x.is_floating_point() and x.fills(2.0).tolist() == [[2.0] * 3] * 2
    idx, src = np.array([0, 2], np.int32), np.ones((2, 2), np.float32)
    want = A.copy()
    np.add.at(want, (slice(None), idx), 2 * src)
    np.testing.assert_allclose(x.index_add(1, Tensor(idx), Tensor(src), alpha=2).asnumpy(), want, rtol=1e-6)
    y = Tensor(A.copy())
    assert y.index_add_(1, Tensor(idx), Tensor(src), alpha=2) is y
    np.testing.assert_allclose(y.asnumpy(), want, rtol=1e-6)
    np.testing.assert_array_equal(Tensor(A).inplace_update(Tensor(B[:1]), (1,)).asnumpy(), np.stack([A[0], B[0]]))
