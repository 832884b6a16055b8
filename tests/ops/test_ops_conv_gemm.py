"""The matrix-product convolutions (``ops/_nn_conv_gemm.py``) equal XLA's convolution, with their derivatives."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import lax

import mindspore_hl  # noqa: F401  (x64 on, as in every use)
from mindspore_hl.ops._nn_conv_gemm import conv_few_inputs, conv_gemm, few_inputs_suits, gemm_suits

CASES = [  # (N, H, W, Ci, Co, (kh, kw), stride, pads, dilation)
    (2, 9, 10, 3, 4, (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),
    (2, 8, 8, 3, 4, (3, 3), (2, 2), ((0, 1), (0, 1)), (1, 1)),     # 'same' with stride 2 on an even size
    (2, 8, 7, 3, 5, (1, 1), (2, 2), ((0, 0), (0, 0)), (1, 1)),     # strided 1x1 (ResNet down-sampling)
    (2, 10, 9, 2, 3, (3, 2), (1, 2), ((2, 2), (1, 0)), (2, 1)),    # dilation, uneven pads
    (3, 2, 2, 4, 6, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),     # output smaller than the kernel
    (2, 3, 3, 3, 9, (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),     # fewer output positions than channels
    (2, 11, 11, 3, 4, (7, 7), (2, 2), ((3, 3), (2, 3)), (1, 1)),
]


def _reference(x, w, stride, pads, dilation):
    return lax.conv_general_dilated(x, w, stride, pads, rhs_dilation=dilation,
                                    dimension_numbers=("NHWC", "OIHW", "NHWC"))


FEW_INPUT_CASES = [
    (2, 12, 11, 1, 6, (5, 5), (1, 1), ((0, 0), (0, 0)), (1, 1)),     # LeNet's conv1
    (2, 9, 10, 6, 4, (5, 5), (1, 1), ((2, 2), (1, 3)), (1, 1)),      # LeNet's conv2, padded
    (2, 11, 11, 3, 4, (7, 7), (2, 2), ((3, 3), (2, 3)), (1, 1)),     # a ResNet stem
    (2, 10, 9, 2, 3, (3, 2), (1, 2), ((2, 2), (1, 0)), (2, 1)),
]


@pytest.mark.parametrize("impl,case", [(conv_gemm, c) for c in CASES] + [(conv_few_inputs, c) for c in FEW_INPUT_CASES])
def test_values_gradients_and_forward_mode_match_xla(impl, case):
    n, h, wd, ci, co, k, stride, pads, dilation = case
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(n, h, wd, ci)))
    w = jnp.asarray(rng.normal(size=(co, ci) + k))
    ref = _reference(x, w, stride, pads, dilation)
    got = impl(x, w, stride, pads, dilation)
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-12)
    g = jnp.asarray(rng.normal(size=ref.shape))
    grads_ref = jax.grad(lambda a, b: jnp.sum(_reference(a, b, stride, pads, dilation) * g), (0, 1))(x, w)
    grads = jax.grad(lambda a, b: jnp.sum(impl(a, b, stride, pads, dilation) * g), (0, 1))(x, w)
    for a, b in zip(grads, grads_ref):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-11)
    tx, tw = jnp.ones_like(x), jnp.full_like(w, 0.5)
    _, t_ref = jax.jvp(lambda a, b: _reference(a, b, stride, pads, dilation), (x, w), (tx, tw))
    _, t_got = jax.jvp(lambda a, b: impl(a, b, stride, pads, dilation), (x, w), (tx, tw))
    np.testing.assert_allclose(t_got, t_ref, rtol=1e-12, atol=1e-12)
    # only the weight differentiated (the usual first layer)
    gw = jax.grad(lambda b: jnp.sum(impl(x, b, stride, pads, dilation) * g))(w)
    np.testing.assert_allclose(gw, grads_ref[1], rtol=1e-11, atol=1e-11)


def test_choice_of_formulation():
    one = ((0, 0), (0, 0))
    assert gemm_suits((8, 56, 56, 256), (64, 256, 1, 1), (1, 1), one, (1, 1), 1)            # 1x1: always
    assert gemm_suits((32, 2, 2, 512), (512, 512, 3, 3), (2, 2), ((1, 1),) * 2, (1, 1), 1)  # 1x1 output
    assert gemm_suits((8, 14, 14, 512), (512, 512, 3, 3), (2, 2), ((0, 1),) * 2, (1, 1), 1)  # 7x7, wide
    assert not gemm_suits((8, 56, 56, 64), (64, 64, 3, 3), (1, 1), ((1, 1),) * 2, (1, 1), 1)  # large map
    assert not gemm_suits((32, 32, 32, 1), (6, 1, 5, 5), (1, 1), one, (1, 1), 1)             # LeNet conv1
    assert not gemm_suits((2, 4, 4, 4), (4, 2, 1, 1), (1, 1), one, (1, 1), 2)                # grouped
    assert few_inputs_suits((16, 6, 5, 5), 1) and not few_inputs_suits((64, 16, 3, 3), 1)
    assert not few_inputs_suits((4, 2, 3, 3), 2)


def test_few_inputs_second_derivative_matches_xla():
    rng = np.random.default_rng(3)
    x, w = jnp.asarray(rng.normal(size=(2, 8, 8, 2))), jnp.asarray(rng.normal(size=(3, 2, 3, 3)))
    args = ((1, 1), ((1, 1), (1, 1)), (1, 1))

    def loss(f):
        return lambda a, b: jnp.sum(jnp.tanh(f(a, b, *args)))

    hvp_ref = jax.grad(lambda a: jnp.sum(jax.grad(loss(_reference), 1)(a, w) ** 2))(x)
    hvp = jax.grad(lambda a: jnp.sum(jax.grad(loss(conv_few_inputs), 1)(a, w) ** 2))(x)
    np.testing.assert_allclose(hvp, hvp_ref, rtol=1e-10, atol=1e-10)
