"""nn.probability against real MindSpore 2.10 (tools/oracle/record_nn_probability.py): every method MindSpore
answered for each distribution, and the four maps of each bijector. Methods MindSpore 2.10 leaves unimplemented
(e.g. HalfNormal's cdf, Laplace's and StudentT's statistics) are compared with scipy.stats below."""
import numpy as np
import pytest
from scipy import stats

import mindspore_hl as ms
from mindspore_hl.nn.probability import bijector as msb
from mindspore_hl.nn.probability import distribution as msd
from tests.nn import prob_cases
from tests.oracle import FIXTURE_ROOT, assert_close, load_cases

CASES = load_cases(FIXTURE_ROOT / "nn_probability.npz")
DISTS = {c[0]: c for c in prob_cases.DISTRIBUTIONS}
TOL = dict(rtol=1e-4, atol=1e-5)


def _dist(name):
    _, params, _, _ = DISTS[name]
    return getattr(msd, name)(**{k: ms.Tensor(np.asarray(v, np.float32)) for k, v in params.items()})


@pytest.mark.parametrize("name", list(DISTS))
def test_distribution_matches_mindspore(name):
    case = CASES[f"dist/{name}"]
    dist, other = _dist(name), DISTS[name][3]
    x = ms.Tensor(case.inputs["x"])
    for method, want in zip(case.meta["methods"], case.outputs):
        if method in prob_cases.METHODS:
            got = getattr(dist, method)(x)
        elif method in prob_cases.STATS:
            got = getattr(dist, method)()
        else:
            got = getattr(dist, method)(name, *(ms.Tensor(np.asarray(v, np.float32)) for v in other.values()))
        assert_close(got, want.astype(np.float32), check_dtype=False, what=f"{name}.{method}", **TOL)


@pytest.mark.parametrize("case", [c for k, c in CASES.items() if k.startswith("bijector/")], ids=lambda c: c.id)
def test_bijector_matches_mindspore(case):
    _, kw, _ = next(b for b in prob_cases.BIJECTORS if b[0] == case.name)
    b = getattr(msb, case.name)(**kw)
    x = ms.Tensor(case.inputs["x"])
    y = b.forward(x)
    for got, want, what in zip([y, b.inverse(y), b.forward_log_jacobian(x), b.inverse_log_jacobian(y)], case.outputs,
                               ["forward", "inverse", "forward_log_jacobian", "inverse_log_jacobian"]):
        assert_close(got, want, what=f"{case.name}.{what}", **TOL)


def test_methods_mindspore_leaves_out_match_scipy_formulas():
    x = np.array([[0.2, 1.3], [2.0, 0.6]], np.float32)
    half = msd.HalfNormal(ms.Tensor(np.float32(0.0)), ms.Tensor(np.float32(1.5)))
    np.testing.assert_allclose(half.cdf(ms.Tensor(x)).asnumpy(), 2 * stats.norm.cdf(x, 0, 1.5) - 1, rtol=1e-5)
    lap = msd.Laplace(ms.Tensor(np.float32(0.5)), ms.Tensor(np.float32(1.5)))
    np.testing.assert_allclose(lap.cdf(ms.Tensor(x)).asnumpy(), stats.laplace.cdf(x, 0.5, 1.5), rtol=1e-5)
    assert float(lap.var().asnumpy()) == pytest.approx(2 * 1.5 ** 2)
    t = msd.StudentT(ms.Tensor(np.float32(3.0)), ms.Tensor(np.float32(0.5)), ms.Tensor(np.float32(1.5)))
    np.testing.assert_allclose(t.cdf(ms.Tensor(x)).asnumpy(), stats.t.cdf(x, 3.0, 0.5, 1.5), rtol=1e-5)
    beta = msd.Beta(ms.Tensor(np.float32(2.0)), ms.Tensor(np.float32(3.0)))
    np.testing.assert_allclose(beta.cdf(ms.Tensor(np.array([0.3, 0.6], np.float32))).asnumpy(),
                               stats.beta.cdf(np.array([0.3, 0.6]), 2.0, 3.0), rtol=1e-5)


def test_samples_have_the_distribution_moments():
    ms.set_seed(0)
    s = msd.Gamma(ms.Tensor(np.float32(2.0)), ms.Tensor(np.float32(4.0))).sample((20000,)).asnumpy()
    assert abs(s.mean() - 0.5) < 0.02 and abs(s.var() - 0.125) < 0.01
    b = msd.Bernoulli(ms.Tensor(np.float32(0.3))).sample((4000,))
    assert b.dtype == ms.int32 and abs(b.asnumpy().mean() - 0.3) < 0.03


def test_transformed_distribution_is_lognormal():
    x = ms.Tensor(np.array([0.5, 1.5, 2.0], np.float32))
    td = msd.TransformedDistribution(msb.Exp(), msd.Normal(ms.Tensor(np.float32(0.2)), ms.Tensor(np.float32(0.8))))
    ln = msd.LogNormal(ms.Tensor(np.float32(0.2)), ms.Tensor(np.float32(0.8)))
    np.testing.assert_allclose(td.log_prob(x).asnumpy(), ln.log_prob(x).asnumpy(), rtol=1e-5)
    np.testing.assert_allclose(td.cdf(x).asnumpy(), ln.cdf(x).asnumpy(), rtol=1e-5)
