"""FFT, special-function and linear-algebra ops against NumPy / SciPy (the second implementation).

Values checked by hand against real MindSpore 2.10's CPU build for the dtype rules (fft of Int32/Float16 ->
Complex64, of Float64 -> Complex128; svd returns (s, u, v); LU pivots 1-based); values here come from NumPy/SciPy.
Float32 tolerance 1e-4 relative (LAPACK/pocketfft vs XLA).
"""
import numpy as np
import pytest
import scipy.linalg as sl
import scipy.special as ss

import mindspore_hl as ms
from mindspore_hl import ops

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 4)).astype(np.float32)
S = rng.standard_normal((3, 3)).astype(np.float32)
SPD = (S @ S.T + 3 * np.eye(3)).astype(np.float32)


def close(got, want, rtol=1e-4, atol=1e-5):
    g = got.asnumpy() if hasattr(got, "asnumpy") else np.asarray(got)
    assert g.shape == np.shape(want)
    np.testing.assert_allclose(g, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name,ref,kw", [
    ("fft", np.fft.fft, {}), ("ifft", np.fft.ifft, {}), ("rfft", np.fft.rfft, {}), ("irfft", np.fft.irfft, {}),
    ("hfft", np.fft.hfft, {}), ("ihfft", np.fft.ihfft, {}), ("fft2", np.fft.fft2, {}), ("ifft2", np.fft.ifft2, {}),
    ("rfft2", np.fft.rfft2, {}), ("irfft2", np.fft.irfft2, {}), ("fftn", np.fft.fftn, {}),
    ("ifftn", np.fft.ifftn, {}), ("rfftn", np.fft.rfftn, {}), ("irfftn", np.fft.irfftn, {}),
    ("fft", np.fft.fft, {"n": 6, "dim": 0, "norm": "ortho"}), ("rfft", np.fft.rfft, {"n": 3, "norm": "forward"}),
    ("fftshift", np.fft.fftshift, {}), ("ifftshift", np.fft.ifftshift, {"dim": 1})])
def test_fft_matches_numpy(name, ref, kw):
    rename = {"dim": "axes" if name in ("fftshift", "ifftshift") else "axis"}
    np_kw = {rename.get(k, k): v for k, v in kw.items()}
    out = getattr(ops, name)(ms.Tensor(X), **kw)
    want = ref(X, **np_kw)
    close(out, want)
    if name not in ("fftshift", "ifftshift"):
        assert out.dtype in (ms.complex64, ms.float32)


def test_fft_dtype_rules():
    assert ops.fft(ms.Tensor(np.arange(4, dtype=np.int32))).dtype == ms.complex64
    assert ops.fft(ms.Tensor(np.arange(4, dtype=np.float64))).dtype == ms.complex128
    assert ops.irfft(ms.Tensor(np.arange(4, dtype=np.float64))).dtype == ms.float64
    # hfftn is irfftn of the conjugate without the 1/n scaling (MindSpore's and torch's definition)
    close(ops.hfftn(ms.Tensor(X)), np.fft.irfftn(np.conj(X)) * (X.shape[0] * 2 * (X.shape[1] - 1)))
    close(ops.fftfreq(5, 0.5), np.fft.fftfreq(5, 0.5))
    close(ops.rfftfreq(6), np.fft.rfftfreq(6))


_SLOW = pytest.mark.slow


@pytest.mark.parametrize("name,ref,lo", [
    ("lgamma", ss.gammaln, 0.1), pytest.param("digamma", ss.digamma, 0.1, marks=_SLOW), ("i0", ss.i0, -3),
    pytest.param("bessel_i0", ss.i0, -3, marks=_SLOW), pytest.param("bessel_i0e", ss.i0e, -3, marks=_SLOW),
    pytest.param("bessel_i1", ss.i1, -3, marks=_SLOW), pytest.param("bessel_i1e", ss.i1e, -3, marks=_SLOW),
    ("bessel_j0", ss.j0, -30), pytest.param("bessel_j1", ss.j1, -30, marks=_SLOW),
    pytest.param("bessel_y0", ss.y0, 0.01, marks=_SLOW), ("bessel_y1", ss.y1, 0.01), ("bessel_k0", ss.k0, 0.01),
    pytest.param("bessel_k0e", ss.k0e, 0.01, marks=_SLOW), pytest.param("bessel_k1", ss.k1, 0.01, marks=_SLOW),
    pytest.param("bessel_k1e", ss.k1e, 0.01, marks=_SLOW)])
@pytest.mark.slow      # the oracle fixtures (test_linalg_oracle.py) cover these by default
def test_special_matches_scipy(name, ref, lo):
    x = np.concatenate([np.linspace(lo, 30, 40), [11.99, 12.0, 12.01, 80.0]]).astype(np.float32)
    close(getattr(ops, name)(ms.Tensor(x)), ref(x.astype(np.float64)).astype(np.float32), rtol=2e-4, atol=1e-6)


def test_special_two_argument():
    a = np.array([0.5, 1.0, 3.0], np.float32)
    x = np.array([0.2, 1.0, 5.0], np.float32)
    close(ops.igamma(ms.Tensor(a), ms.Tensor(x)), ss.gammainc(a, x))
    close(ops.igammac(ms.Tensor(a), ms.Tensor(x)), ss.gammaincc(a, x))
    close(ops.zeta(ms.Tensor(a + 1.5), ms.Tensor(x + 1)), ss.zeta(a + 1.5, x + 1))
    close(ops.polygamma(ms.Tensor(np.array(2)), ms.Tensor(x)), ss.polygamma(2, x))
    close(ops.mvlgamma(ms.Tensor(a + 2), 3), np.array([ss.multigammaln(v, 3) for v in a + 2]))
    assert ops.lgamma(ms.Tensor(np.arange(1, 4, dtype=np.int32))).dtype == ms.float32


def test_decompositions():
    s, u, v = ops.svd(ms.Tensor(X))
    close(s, np.linalg.svd(X, compute_uv=False))
    close((u.asnumpy() * s.asnumpy()) @ v.asnumpy().T, X)
    q, r = ops.qr(ms.Tensor(X))
    close(q.asnumpy() @ r.asnumpy(), X)
    L = ops.cholesky(ms.Tensor(SPD))
    close(L, np.linalg.cholesky(SPD))
    close(ops.cholesky(ms.Tensor(SPD), upper=True), np.linalg.cholesky(SPD).T)
    close(ops.cholesky_inverse(L), np.linalg.inv(SPD), rtol=1e-3)
    close(ops.cholesky_solve(ms.Tensor(X[:, :2].copy()), L), np.linalg.solve(SPD, X[:, :2]), rtol=1e-3)
    close(ops.pinv(ms.Tensor(X)), np.linalg.pinv(X), rtol=1e-3, atol=1e-5)
    w = ops.eigvals(ms.Tensor(S)).asnumpy()
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(np.linalg.eigvals(S)), rtol=1e-4, atol=1e-5)
    vals, vecs = ops.eig(ms.Tensor(S))
    close(S @ vecs.asnumpy(), vecs.asnumpy() * vals.asnumpy(), rtol=1e-3, atol=1e-4)


def test_determinants_norms_solvers():
    sign, logabs = ops.slogdet(ms.Tensor(S))
    ref = np.linalg.slogdet(S)
    close(sign, ref[0])
    close(logabs, ref[1])
    close(ops.logdet(ms.Tensor(SPD)), np.log(np.linalg.det(SPD)))
    assert np.isnan(ops.logdet(ms.Tensor(np.diag([-1.0, 1.0]).astype(np.float32))).asnumpy())
    close(ops.matrix_power(ms.Tensor(S), -2), np.linalg.matrix_power(S, -2), rtol=1e-3)
    close(ops.matrix_exp(ms.Tensor(S)), sl.expm(S), rtol=1e-4)
    close(ops.vector_norm(ms.Tensor(X), 3, 1, True), np.linalg.norm(X, 3, 1, keepdims=True))
    close(ops.vector_norm(ms.Tensor(X), 0), np.count_nonzero(X))
    for o in ("fro", "nuc", 1, -1, 2, -2, np.inf):
        close(ops.matrix_norm(ms.Tensor(X), o), np.linalg.norm(X, o))
    close(ops.lstsq(ms.Tensor(X.T.copy()), ms.Tensor(X[:2].T.copy())), np.linalg.lstsq(X.T, X[:2].T, rcond=None)[0],
          rtol=1e-3, atol=1e-4)
    close(ops.matrix_solve(ms.Tensor(S), ms.Tensor(X[:, :2].copy()), adjoint=True),
          np.linalg.solve(S.T, X[:, :2]), rtol=1e-3, atol=1e-4)
    close(ops.matrix_band_part(ms.Tensor(X), 1, 0), np.tril(np.triu(X, -1)))
    close(ops.adjoint(ms.Tensor(X)), X.T)


def test_lu():
    lu, piv = sl.lu_factor(S)
    p, l_, u = ops.lu_unpack(ms.Tensor(lu.astype(np.float32)), ms.Tensor((piv + 1).astype(np.int32)))
    close(p.asnumpy() @ l_.asnumpy() @ u.asnumpy(), S)
    b = X[:, :2].copy()
    close(ops.lu_solve(ms.Tensor(b), ms.Tensor(lu.astype(np.float32)), ms.Tensor((piv + 1).astype(np.int32))),
          np.linalg.solve(S, b), rtol=1e-3, atol=1e-4)


def test_linalg_rejects_bad_input():
    with pytest.raises(TypeError, match="svd"):
        ops.svd(ms.Tensor(np.eye(2, dtype=np.int32)))
    with pytest.raises(TypeError, match="qr"):
        ops.qr(ms.Tensor(X), "r")
    with pytest.raises(ValueError, match="cholesky"):
        ops.cholesky(ms.Tensor(X))


def test_ormqr_applies_orgqr_q():
    a, tau = ops.geqrf(ms.Tensor(X.T.copy()))
    q = ops.orgqr(a, tau).asnumpy()
    c = rng.standard_normal((3, 2)).astype(np.float32)
    close(ops.ormqr(a, tau, ms.Tensor(np.vstack([c, np.zeros((1, 2), np.float32)]))), q @ c, atol=1e-5)
    close(q @ np.triu(a.asnumpy())[:3], X.T, atol=1e-4)
