"""Random ops and random Primitives: shapes and dtypes (as real MindSpore 2.10 returns them for the same calls,
recorded by hand from its CPU build), ranges, seeding, and the distribution of the samples (moments or a
Kolmogorov-Smirnov test at a fixed seed). Their values cannot be replayed: MindSpore's generators differ.
"""
import jax
import numpy as np
import pytest
from scipy import stats

import mindspore_hl as ms
from mindspore_hl import ops

F32 = np.float32
T = ms.Tensor


def _np(x):
    return x.asnumpy()


@pytest.fixture(autouse=True)
def _seeded():
    ms.set_seed(7)


# (call, [(shape, dtype), ...]) -- the shapes and dtypes real MindSpore 2.10 returned for the same call
_PROBS = np.array([[0.2, 0.8, 0.5], [0.1, 0.9, 0.3]], F32)
_TC = np.array([[1, 3], [2, 4]], np.int64)
SHAPES = {
    "P.Bernoulli": (lambda: ops.Bernoulli()(T(_PROBS), T(0.5, ms.float32)), [((2, 3), "float32")]),
    "P.Cauchy": (lambda: ops.Cauchy([2, 3])(), [((2, 3), "float32")]),
    "P.Multinomial": (lambda: ops.Multinomial()(T(_PROBS), 4), [((2, 4), "int32")]),
    "P.MultinomialWithReplacement": (lambda: ops.MultinomialWithReplacement(4, True)(
        T(_PROBS), T(1, ms.int64), T(0, ms.int64)), [((2, 4), "int64")]),
    "P.RandomCategorical": (lambda: ops.RandomCategorical()(T(np.log(_PROBS)), 4, 1), [((2, 4), "int64")]),
    "P.RandomChoiceWithMask": (lambda: ops.RandomChoiceWithMask(4)(T(np.array([[True, False], [True, True]]))),
                               [((4, 2), "int32"), ((4,), "bool")]),
    "P.RandomGamma": (lambda: ops.RandomGamma()(T(np.array([3, 2], np.int32)), T(np.array([1.0, 2.0], F32))),
                      [((3, 2, 2), "float32")]),
    "P.RandomPoisson": (lambda: ops.RandomPoisson()(T(np.array([3, 2], np.int32)), T(np.array([1.0, 2.0], F32))),
                        [((3, 2, 2), "int64")]),
    "P.RandomShuffle": (lambda: ops.RandomShuffle()(T(np.arange(6, dtype=np.int32).reshape(3, 2))),
                        [((3, 2), "int32")]),
    "P.RandpermV2": (lambda: ops.RandpermV2()(T(5, ms.int64)), [((5,), "int64")]),
    "P.StandardLaplace": (lambda: ops.StandardLaplace()((2, 3)), [((2, 3), "float32")]),
    "P.TruncatedNormal": (lambda: ops.TruncatedNormal()(T(np.array([2, 3], np.int32))), [((2, 3), "float32")]),
    "P.ParameterizedTruncatedNormal": (lambda: ops.ParameterizedTruncatedNormal()(
        T(np.array([2, 3], np.int32)), T(np.array([0.0, 1.0], F32)), T(np.array([1.0, 1.0], F32)),
        T(np.array([-1.0, 0.0], F32)), T(np.array([1.0, 2.0], F32))), [((2, 3), "float32")]),
    "P.LogNormalReverse": (lambda: ops.LogNormalReverse()(T(np.zeros((2, 3), F32))), [((2, 3), "float32")]),
    "P.NonDeterministicInts": (lambda: ops.NonDeterministicInts()(T(np.array([2, 2], np.int32))),
                               [((2, 2), "int64")]),
    "P.UniformCandidateSampler": (lambda: ops.UniformCandidateSampler(2, 3, True, 6)(T(_TC)),
                                  [((3,), "int64"), ((2, 2), "float32"), ((3,), "float32")]),
    "P.LogUniformCandidateSampler": (lambda: ops.LogUniformCandidateSampler(2, 3, True, 6)(T(_TC)),
                                     [((3,), "int64"), ((2, 2), "float32"), ((3,), "float32")]),
    "ops.random_gamma": (lambda: ops.random_gamma(T(np.array([3, 2], np.int32)), T(np.array([1.0, 2.0], F32)), 3),
                         [((3, 2, 2), "float32")]),
    "ops.random_poisson": (lambda: ops.random_poisson(T(np.array([3, 2], np.int32)), T(np.array([1.0, 2.0], F32))),
                           [((3, 2, 2), "float32")]),
    "ops.random_categorical": (lambda: ops.random_categorical(T(np.log(_PROBS)), 4), [((2, 4), "int64")]),
    "ops.multinomial_with_replacement": (lambda: ops.multinomial_with_replacement(T(_PROBS), 1, 0, 4, True),
                                         [((2, 4), "int64")]),
    "ops.standard_laplace": (lambda: ops.standard_laplace((2, 3), seed=1), [((2, 3), "float32")]),
    "ops.standard_normal": (lambda: ops.standard_normal((2, 3), seed=1), [((2, 3), "float32")]),
    "ops.laplace": (lambda: ops.laplace((2, 3), T(1.0, ms.float32), T(2.0, ms.float32), seed=1),
                    [((2, 3), "float32")]),
    "ops.uniform_candidate_sampler": (lambda: ops.uniform_candidate_sampler(T(_TC), 2, 3, True, 6),
                                      [((3,), "int64"), ((2, 2), "float32"), ((3,), "float32")]),
    "ops.log_uniform_candidate_sampler": (lambda: ops.log_uniform_candidate_sampler(T(_TC), 2, 3, True, 6),
                                          [((3,), "int64"), ((2, 2), "float32"), ((3,), "float32")]),
    "ops.choice_with_mask": (lambda: ops.choice_with_mask(T(np.array([[True, False], [True, True]])), 4),
                             [((4, 2), "int32"), ((4,), "bool")]),
    # documented shapes (no CPU kernel in MindSpore 2.10): broadcast of shape with the parameters
    "ops.gamma": (lambda: ops.gamma((3, 1, 2), T(np.array([[3, 4], [5, 6]], F32)), T(np.array([1.0], F32)), 5),
                  [((3, 2, 2), "float32")]),
    "ops.poisson": (lambda: ops.poisson((3, 2), T(np.array([1.0, 5.0], F32)), seed=3), [((3, 2), "int32")]),
    "P.Gamma": (lambda: ops.Gamma()((3, 1, 2), T(np.array([[3, 4], [5, 6]], F32)), T(np.array([1.0], F32))),
                [((3, 2, 2), "float32")]),
    "P.Poisson": (lambda: ops.Poisson()((3, 2), T(np.array([1.0, 5.0], F32))), [((3, 2), "int32")]),
    "P.Randperm": (lambda: ops.Randperm(max_length=6, pad=-1)(T(np.array([4], np.int32))), [((6,), "int32")]),
    "ops.bernoulli_ext": (lambda: ops.bernoulli_ext(T(_PROBS)), [((2, 3), "float32")]),
}


# (the same samplers as cheaper cases; each new shape compiles a loop)
_SLOW = {"P.RandomPoisson", "P.RandomGamma", "ops.poisson", "P.Gamma", "ops.random_poisson"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] if n in _SLOW else []) for n in SHAPES])
def test_shape_and_dtype(name):
    fn, want = SHAPES[name]
    out = fn()
    outs = out if isinstance(out, tuple) else (out,)
    assert [(o.shape, str(_np(o).dtype)) for o in outs] == [(tuple(s), d) for s, d in want]


def test_set_seed_reproduces_and_calls_advance():
    ms.set_seed(3)
    a, b = _np(ops.StandardLaplace()((50,))), _np(ops.StandardLaplace()((50,)))
    ms.set_seed(3)
    assert np.array_equal(a, _np(ops.StandardLaplace()((50,))))
    assert not np.array_equal(a, b)
    p1, p2 = ops.TruncatedNormal(seed=4, seed2=1), ops.TruncatedNormal(seed=4, seed2=1)
    x1, x2 = _np(p1(T(np.array([8], np.int32)))), _np(p2(T(np.array([8], np.int32))))
    assert np.array_equal(x1, x2) and not np.array_equal(x1, _np(p1(T(np.array([8], np.int32)))))
    assert np.array_equal(_np(ops.standard_normal((5,), seed=9)), _np(ops.standard_normal((5,), seed=9)))


def _ks(sample, cdf):
    assert stats.kstest(sample.ravel(), cdf).pvalue > 1e-3


def test_distributions():
    n = 2000
    _ks(_np(ops.standard_laplace((n,), seed=1)), stats.laplace.cdf)
    _ks(_np(ops.standard_normal((n,), seed=2)), stats.norm.cdf)
    _ks(_np(ops.laplace((n,), T(1.0, ms.float32), T(2.0, ms.float32), seed=3)), stats.laplace(1.0, 2.0).cdf)
    _ks(_np(ops.Cauchy([n], median=1.0, sigma=0.5)()), stats.cauchy(1.0, 0.5).cdf)
    _ks(_np(ops.TruncatedNormal()(T(np.array([n], np.int32)))), stats.truncnorm(-2, 2).cdf)
    _ks(_np(ops.LogNormalReverse(0.5, 0.3)(T(np.zeros(n, F32)))), stats.lognorm(0.3, scale=np.exp(0.5)).cdf)
    ptn = _np(ops.ParameterizedTruncatedNormal()(T(np.array([2, n], np.int32)), T(np.array([0.0, 1.0], F32)),
                                                  T(np.array([1.0, 2.0], F32)), T(np.array([-1.0, 0.0], F32)),
                                                  T(np.array([1.0, 5.0], F32))))
    _ks(ptn[0], stats.truncnorm(-1, 1).cdf)
    _ks(ptn[1], stats.truncnorm(-0.5, 2.0, loc=1.0, scale=2.0).cdf)


@pytest.mark.slow  # (JAX's gamma and Poisson samplers compile a loop per shape: ~15 s on a busy host)
def test_gamma_poisson_distributions():
    n = 2000
    _ks(_np(ops.random_gamma((n,), T(np.array(2.5, F32)), seed=4)), stats.gamma(2.5).cdf)
    _ks(_np(ops.gamma((n,), T(np.array(2.0, F32)), T(np.array(3.0, F32)), seed=5)), stats.gamma(2.0, scale=3.0).cdf)
    pois = _np(ops.random_poisson((n,), T(np.array(3.0, F32)), seed=6))
    assert abs(pois.mean() - 3.0) < 0.15 and abs(pois.var() - 3.0) < 0.4
    pois = _np(ops.Poisson()((n,), T(np.array(4.0, F32))))
    assert abs(pois.mean() - 4.0) < 0.2 and pois.dtype == np.int32


def test_categorical_and_bernoulli_frequencies():
    p = np.array([[0.1, 0.6, 0.3]], F32)
    for draw in (_np(ops.random_categorical(T(np.log(p)), 6000, seed=2))[0],
                 _np(ops.Multinomial()(T(p), 6000))[0],
                 _np(ops.multinomial_with_replacement(T(p), 5, 0, 6000, True))[0]):
        np.testing.assert_allclose(np.bincount(draw, minlength=3) / 6000, p[0], atol=0.03)
    b = _np(ops.Bernoulli()(T(np.zeros(5000, F32)), T(np.array(0.3, F32))))
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.3) < 0.03
    e = _np(ops.bernoulli_ext(T(np.full(5000, 0.7, F32)), generator=ms.Generator().manual_seed(1)))
    assert abs(e.mean() - 0.7) < 0.03


def test_permutations_and_choice():
    for perm in (_np(ops.RandpermV2()(T(9, ms.int64))), _np(ops.RandomShuffle()(T(np.arange(9, dtype=np.int32))))):
        assert sorted(perm.tolist()) == list(range(9))
    rp = _np(ops.Randperm(max_length=7, pad=-1)(T(np.array([4], np.int32))))
    assert sorted(rp[:4].tolist()) == [0, 1, 2, 3] and rp[4:].tolist() == [-1, -1, -1]
    mask_in = np.array([[True, False, True], [False, True, False]])
    idx, mask = ops.choice_with_mask(T(mask_in), 5, seed=1)
    idx, mask = _np(idx), _np(mask)
    assert mask.tolist() == [True, True, True, False, False]
    chosen = {tuple(r) for r in idx[mask]}
    assert chosen == {(0, 0), (0, 2), (1, 1)} and (idx[~mask] == 0).all()
    assert _np(ops.NonDeterministicInts(ms.int32)(T(np.array([3], np.int32)))).dtype == np.int32


def test_candidate_samplers():
    tc = T(_TC)
    cand, t_exp, s_exp = ops.UniformCandidateSampler(2, 3, True, 6)(tc)
    c = _np(cand)
    assert len(set(c.tolist())) == 3 and ((c >= 0) & (c < 6)).all()
    # MindSpore 2.10: num_sampled / range_max when no draw repeated, else 1 - (1 - 1/6) ** tries (e.g. 0.5177,
    # 0.5981 and 0.6651 recorded for 4, 5 and 6 draws)
    allowed = [0.5] + [1 - (5 / 6) ** k for k in range(4, 200)]
    assert np.isclose(_np(t_exp)[0, 0], allowed, rtol=1e-6).any()
    assert (_np(t_exp) == _np(t_exp)[0, 0]).all() and (_np(s_exp) == _np(t_exp)[0, 0]).all()
    cand, t_exp, s_exp = ops.log_uniform_candidate_sampler(tc, 2, 3, False, 6, seed=2)
    p = np.log((_TC + 2) / (_TC + 1)) / np.log(7)
    np.testing.assert_allclose(_np(t_exp), 3 * p, rtol=1e-5)             # without unique: num_sampled * p
    cand, t_exp, _ = ops.LogUniformCandidateSampler(2, 3, True, 6)(tc)
    assert len(set(_np(cand).tolist())) == 3 and (_np(t_exp) > 0).all() and (_np(t_exp) <= 1).all()


def test_uniform_sampler_removes_accidental_hits_like_mindspore():
    # MindSpore 2.10 (oracle): with unique and num_true 1, no true class of the batch is ever drawn (0 hits in 20
    # seeds, 22 without the option); with num_true 2 the option changes nothing. Eight seeds here: without the
    # option they draw a true class 8 times. Each eager call compiled its own while loop (~0.5 s); the 16 samplers
    # run in one jitted program instead (the same keys and ops, so the same draws).
    tc = np.array([[1], [3]], np.int64)

    @jax.jit
    def draws(tc):
        return {rah: [ops.UniformCandidateSampler(1, 3, True, 5, seed=seed, remove_accidental_hits=rah)(T(tc))[0]
                      for seed in range(1, 9)] for rah in (False, True)}

    hits = {False: 0, True: 0}
    for rah, cands in draws(tc).items():
        for cand in cands:
            cand = _np(cand)
            assert len(set(cand.tolist())) == 3
            hits[rah] += int(np.isin(cand, [1, 3]).sum())
    assert hits[True] == 0 and hits[False] > 0
    with pytest.raises(ValueError, match="must not exceed the 3 classes"):
        ops.UniformCandidateSampler(1, 4, True, 5, remove_accidental_hits=True)(T(tc))


def test_bad_input_names_the_op():
    with pytest.raises(ValueError, match="standard_laplace.*shape"):
        ops.standard_laplace((2, -1))
    with pytest.raises(ValueError, match="random_categorical.*2-D"):
        ops.random_categorical(T(np.zeros(3, F32)), 2)
    with pytest.raises(ValueError, match="choice_with_mask.*bool"):
        ops.choice_with_mask(T(np.zeros(3, F32)))
    with pytest.raises(ValueError, match="uniform_candidate_sampler.*num_true"):
        ops.uniform_candidate_sampler(T(_TC), 3, 2, True, 6)


def test_multinomial_index_dtypes_follow_each_api():
    # Real MindSpore 2.10: ops.multinomial and P.Multinomial give Int32, P.MultinomialWithReplacement Int64;
    # mint.multinomial gives Int64, as PyTorch's.
    p = ms.Tensor(np.array([[0.2, 0.3, 0.5]], np.float32))
    assert ms.ops.multinomial(p, 4, True).dtype == ms.int32
    assert ms.ops.multinomial(p, 2, False).dtype == ms.int32
    assert ms.mint.multinomial(p, 4, True).dtype == ms.int64
    replacement = ms.ops.MultinomialWithReplacement(3, True)
    assert replacement(p, ms.Tensor(1, ms.int64), ms.Tensor(0, ms.int64)).dtype == ms.int64
