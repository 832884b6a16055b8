"""Activation Cells against their formulas; ``get_activation`` names."""
import math

import jax.numpy as jnp
import numpy as np
import pytest
from layer_harness import run_layer_test

from mindspore_hl import Tensor, nn

X = np.random.default_rng(0).normal(size=(2, 3, 4)).astype(np.float32) * 3


def _sig(x):
    return 1 / (1 + jnp.exp(-x))


CASES = {
    "ReLU": (nn.ReLU, lambda x: jnp.where(x > 0, x, 0)),
    "ReLU6": (nn.ReLU6, lambda x: jnp.minimum(jnp.where(x > 0, x, 0), 6)),
    "LeakyReLU_default_0.2": (nn.LeakyReLU, lambda x: jnp.where(x >= 0, x, 0.2 * x)),
    "LeakyReLU_0.05": (lambda: nn.LeakyReLU(0.05), lambda x: jnp.where(x >= 0, x, 0.05 * x)),
    "GELU_tanh_default": (nn.GELU,
                          lambda x: 0.5 * x * (1 + jnp.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    "SiLU": (nn.SiLU, lambda x: x * _sig(x)),
    "Sigmoid": (nn.Sigmoid, _sig),
    "Tanh": (nn.Tanh, lambda x: (jnp.exp(x) - jnp.exp(-x)) / (jnp.exp(x) + jnp.exp(-x))),
    "Softmax": (nn.Softmax, lambda x: jnp.exp(x) / jnp.exp(x).sum(-1, keepdims=True)),
    "Softmax_axis1": (lambda: nn.Softmax(axis=1), lambda x: jnp.exp(x) / jnp.exp(x).sum(1, keepdims=True)),
    "LogSoftmax": (nn.LogSoftmax, lambda x: x - jnp.log(jnp.exp(x).sum(-1, keepdims=True))),
}


@pytest.mark.parametrize("name", list(CASES))
def test_activation(mode, name):
    make, ref = CASES[name]
    run_layer_test(make, [X], expected_shape=X.shape, reference=lambda p, x: ref(x), rtol=1e-5, atol=1e-5)


def test_gelu_exact(mode):
    x = X.astype(np.float64)
    expected = 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))
    np.testing.assert_allclose(nn.GELU(approximate=False)(Tensor(X)).asnumpy(), expected, rtol=1e-5, atol=1e-6)


def test_activation_errors_and_names():
    with pytest.raises(TypeError, match="ReLU: expected a Tensor input, but got ndarray"):
        nn.ReLU()(X)
    with pytest.raises(ValueError, match="Softmax: axis 3 is out of range for an input of shape \\(2, 3, 4\\)"):
        nn.Softmax(axis=3)(Tensor(X))
    assert isinstance(nn.get_activation("relu"), nn.ReLU) and isinstance(nn.get_activation("GELU"), nn.GELU)
    with pytest.raises(KeyError, match="unknown activation 'swishy'"):
        nn.get_activation("swishy")
    assert repr(nn.ReLU()) == "ReLU()"
