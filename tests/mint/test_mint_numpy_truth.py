"""mint functions real MindSpore 2.10's CPU build cannot run (Ascend-only kernels), against NumPy, and the
random functions (shapes and dtypes only: their streams differ from MindSpore's)."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import mint

rng = np.random.default_rng(0)


def test_conv_tbc_matches_numpy():
    x = rng.standard_normal((6, 2, 3)).astype(np.float32)
    w = rng.standard_normal((3, 3, 4)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    out = mint.conv_tbc(ms.Tensor(x), ms.Tensor(w), ms.Tensor(b), 1).asnumpy()
    xp = np.pad(x, ((1, 1), (0, 0), (0, 0)))
    want = np.stack([sum(xp[t + k] @ w[k] for k in range(3)) + b for t in range(6)])
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


def test_sync_batch_norm_statistics_match_numpy():
    x = rng.standard_normal((4, 3, 5)).astype(np.float32)
    mean, invstd = mint.batch_norm_stats(ms.Tensor(x), 1e-5)
    np.testing.assert_allclose(mean.asnumpy(), x.mean((0, 2)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(invstd.asnumpy(), 1 / np.sqrt(x.var((0, 2)) + 1e-5), rtol=1e-5)
    # two replicas' halves combine into the statistics of the whole batch
    halves = [mint.batch_norm_stats(ms.Tensor(h), 1e-5) for h in (x[:1], x[1:])]
    g_mean, g_invstd = mint.batch_norm_gather_stats_with_counts(
        ms.Tensor(x), ms.ops.stack([h[0] for h in halves]), ms.ops.stack([h[1] for h in halves]),
        counts=ms.Tensor(np.array([5, 15], np.float32)))
    np.testing.assert_allclose(g_mean.asnumpy(), mean.asnumpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(g_invstd.asnumpy(), invstd.asnumpy(), rtol=1e-4)
    w, b = np.array([1.0, 2.0, 0.5], np.float32), np.array([0.0, 1.0, -1.0], np.float32)
    out = mint.batch_norm_elemt(ms.Tensor(x), ms.Tensor(w), ms.Tensor(b), mean, invstd)
    want = (x - x.mean((0, 2))[:, None]) / np.sqrt(x.var((0, 2))[:, None] + 1e-5) * w[:, None] + b[:, None]
    np.testing.assert_allclose(out.asnumpy(), want, rtol=1e-4, atol=1e-5)


def test_kthvalue_and_vdot_match_numpy():
    x = rng.standard_normal((3, 5)).astype(np.float32)
    v, i = mint.kthvalue(ms.Tensor(x), 2, dim=1)
    np.testing.assert_allclose(v.asnumpy(), np.sort(x, 1)[:, 1])
    np.testing.assert_array_equal(i.asnumpy(), np.argsort(x, 1, kind="stable")[:, 1])
    assert i.dtype == ms.int64
    a, b = rng.standard_normal(4).astype(np.float32), rng.standard_normal(4).astype(np.float32)
    np.testing.assert_allclose(mint.vdot(ms.Tensor(a), ms.Tensor(b)).asnumpy(), np.vdot(a, b), rtol=1e-6)
    with pytest.raises(ValueError, match="kthvalue"):
        mint.kthvalue(ms.Tensor(x), 9)


@pytest.mark.parametrize("call,shape,dtype", [
    (lambda: mint.rand(2, 3), (2, 3), ms.float32), (lambda: mint.randn((4,)), (4,), ms.float32),
    (lambda: mint.randint(0, 5, (3, 2)), (3, 2), ms.int64), (lambda: mint.randint(5, (2,)), (2,), ms.int64),
    (lambda: mint.randperm(6), (6,), ms.int64), (lambda: mint.normal(0.0, 1.0, (2, 2)), (2, 2), ms.float32),
    (lambda: mint.rand_like(ms.Tensor(np.zeros((2, 2), np.float16))), (2, 2), ms.float16),
    (lambda: mint.empty(2, 3), (2, 3), ms.float32), (lambda: mint.ones(2, dtype=ms.int32), (2,), ms.int32)])
def test_random_and_empty_shapes(call, shape, dtype):
    out = call()
    assert out.shape == shape and out.dtype == dtype


def test_randperm_is_a_permutation():
    assert sorted(mint.randperm(7).asnumpy().tolist()) == list(range(7))
