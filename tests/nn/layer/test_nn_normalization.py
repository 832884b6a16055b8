"""BatchNorm1d/2d, LayerNorm, GroupNorm against the textbook formulas written here."""
import jax.numpy as jnp
import numpy as np
import pytest
from layer_harness import run_layer_test

import mindspore_hl as ms
from mindspore_hl import Tensor, nn

RNG = np.random.default_rng(0)


def _x(*shape, scale=1.0, shift=0.0):
    return (RNG.normal(size=shape) * scale + shift).astype(np.float32)


def _bn_kwargs(c):
    """Non-trivial statistics and affine parameters, so eval and train outputs and all gradients differ."""
    return dict(gamma_init=Tensor(_x(c, shift=1.0)), beta_init=Tensor(_x(c)), moving_mean_init=Tensor(_x(c)),
                moving_var_init=Tensor(np.abs(_x(c)) + 0.5))


def ref_batch_norm(x, p, eps, train):
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if train:
        mean, var = x.mean(axis=axes), x.var(axis=axes)
    else:
        mean, var = p["moving_mean"], p["moving_variance"]
    return (x - mean.reshape(shape)) / jnp.sqrt(var.reshape(shape) + eps) * p["gamma"].reshape(shape) + \
        p["beta"].reshape(shape)


BN_PARAMS = lambda c: [("moving_mean", (c,)), ("moving_variance", (c,)), ("gamma", (c,)), ("beta", (c,))]  # noqa


@pytest.mark.parametrize("cls, shape", [(nn.BatchNorm2d, (4, 3, 5, 4)), (nn.BatchNorm1d, (6, 3)),
                                        (nn.BatchNorm1d, (4, 3, 5))])
@pytest.mark.parametrize("train", [True, False], ids=["train", "eval"])
def test_batch_norm(mode, cls, shape, train):
    c, kw = shape[1], _bn_kwargs(shape[1])
    bad = _x(shape[0], c + 1, *shape[2:])
    run_layer_test(lambda: cls(c, eps=1e-3, **kw), [_x(*shape, scale=2.0, shift=0.5)], expected_shape=shape,
                   params=BN_PARAMS(c), reference=lambda p, x: ref_batch_norm(x, p, 1e-3, train), train=train,
                   train_eval="differ", bad_input=bad, rtol=1e-4, atol=1e-4, grad_rtol=2e-4, grad_atol=2e-5)


def test_batch_norm_moving_statistics_update_with_keep_factor(mode):
    bn = nn.BatchNorm2d(3, momentum=0.8, **_bn_kwargs(3)).set_train()
    m0, v0 = bn.moving_mean.asnumpy().copy(), bn.moving_variance.asnumpy().copy()
    x = _x(4, 3, 5, 5, scale=3.0, shift=1.0)
    bn(Tensor(x))
    n = 4 * 5 * 5
    np.testing.assert_allclose(bn.moving_mean.asnumpy(), 0.8 * m0 + 0.2 * x.mean(axis=(0, 2, 3)), rtol=1e-5)
    unbiased = x.var(axis=(0, 2, 3)) * n / (n - 1)
    np.testing.assert_allclose(bn.moving_variance.asnumpy(), 0.8 * v0 + 0.2 * unbiased, rtol=1e-5)
    assert [p.name for p in bn.trainable_params()] == ["gamma", "beta"]
    assert not bn.moving_mean.requires_grad and not bn.moving_variance.requires_grad
    bn.set_train(False)
    before = bn.moving_mean.asnumpy().copy()
    bn(Tensor(x))
    np.testing.assert_array_equal(bn.moving_mean.asnumpy(), before)  # eval never updates


def test_batch_norm_use_batch_statistics_and_affine(mode):
    x = _x(4, 3, 2, 2, shift=2.0)
    always = nn.BatchNorm2d(3, use_batch_statistics=True).set_train(False)
    y = always(Tensor(x)).asnumpy()
    np.testing.assert_allclose(y.mean(axis=(0, 2, 3)), 0, atol=1e-5)  # batch statistics even in eval
    assert not np.allclose(always.moving_mean.asnumpy(), 0)  # ... and the moving ones are updated
    never = nn.BatchNorm2d(3, use_batch_statistics=False).set_train(True)
    np.testing.assert_allclose(never(Tensor(x)).asnumpy(), x / np.sqrt(1 + 1e-5), rtol=1e-5)
    fixed = nn.BatchNorm2d(3, affine=False)
    assert fixed.trainable_params() == [] and [n for n, _ in fixed.parameters_and_names()] == \
        ["moving_mean", "moving_variance", "gamma", "beta"]


def test_batch_norm_repr_shows_update_factor_like_mindspore():
    r = repr(nn.BatchNorm2d(2))
    assert r.startswith("BatchNorm2d(num_features=2, eps=1e-05, momentum=0.09999999999999998, gamma=Parameter "
                        "(name=gamma, shape=(2,), dtype=Float32, requires_grad=True), beta=Parameter (name=beta")
    with pytest.raises(ValueError, match="'momentum' must be in \\[0, 1\\]"):
        nn.BatchNorm2d(2, momentum=1.5)


def test_batch_norm_float16_input_keeps_float32_statistics(mode):
    bn = nn.BatchNorm2d(3).set_train()
    y = bn(Tensor(_x(4, 3, 3, 3, scale=100.0).astype(np.float16)))
    assert y.dtype == ms.float16 and bn.moving_mean.dtype == ms.float32 and bn.moving_variance.dtype == ms.float32
    assert np.isfinite(bn.moving_variance.asnumpy()).all()


def ref_layer_norm(x, gamma, beta, norm_axis, params_axis, eps):
    axes = tuple(range(norm_axis % x.ndim, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    pshape = x.shape[params_axis % x.ndim:]
    return (x - mean) / jnp.sqrt(var + eps) * gamma.reshape(pshape) + beta.reshape(pshape)


@pytest.mark.parametrize("ns, norm_axis, params_axis, shape", [
    ((5,), -1, -1, (2, 3, 5)),
    ((3, 5), 1, 1, (2, 3, 5)),
    ((5,), 1, -1, (2, 3, 5)),  # normalise over (3, 5), scale per last axis
])
def test_layer_norm(mode, ns, norm_axis, params_axis, shape):
    kw = dict(gamma_init=Tensor(_x(*ns, shift=1.0)), beta_init=Tensor(_x(*ns)))
    run_layer_test(lambda: nn.LayerNorm(ns, norm_axis, params_axis, epsilon=1e-5, **kw), [_x(*shape, scale=3.0)],
                   expected_shape=shape, params=[("gamma", ns), ("beta", ns)],
                   reference=lambda p, x: ref_layer_norm(x, p["gamma"], p["beta"], norm_axis, params_axis, 1e-5),
                   bad_input=_x(2, 3, 4), rtol=1e-4, atol=1e-4)


def test_layer_norm_defaults_and_errors():
    ln = nn.LayerNorm((4,))
    assert ln.epsilon == 1e-7 and ln.begin_norm_axis == -1 and ln.begin_params_axis == -1
    with pytest.raises(TypeError, match="'normalized_shape' must be a tuple or list"):
        nn.LayerNorm(4)


def ref_group_norm(x, groups, gamma, beta, eps):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1)
    mean, var = g.mean(axis=2, keepdims=True), g.var(axis=2, keepdims=True)
    y = ((g - mean) / jnp.sqrt(var + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return y * gamma.reshape(shape) + beta.reshape(shape)


@pytest.mark.parametrize("groups, shape", [(2, (2, 4, 3, 3)), (3, (3, 6, 5))])
def test_group_norm(mode, groups, shape):
    c = shape[1]
    kw = dict(gamma_init=Tensor(_x(c, shift=1.0)), beta_init=Tensor(_x(c)))
    run_layer_test(lambda: nn.GroupNorm(groups, c, **kw), [_x(*shape, scale=2.0)], expected_shape=shape,
                   params=[("gamma", (c,)), ("beta", (c,))],
                   reference=lambda p, x: ref_group_norm(x, groups, p["gamma"], p["beta"], 1e-5),
                   bad_input=_x(shape[0], c + 1, 3), rtol=1e-4, atol=1e-4)
    with pytest.raises(ValueError, match="must divide 'num_channels'"):
        nn.GroupNorm(4, 6)
