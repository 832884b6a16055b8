"""Training-mode batch_norm's written-out derivative (``ops/_nn_norm.py:_normalize_batch``) against autodiff of
the textbook formula in float64: forward mode (``ops.jvp``), reverse mode, second order, and the statistics'
precision when the activations sit far from zero; and that a compiled training step keeps its activations
channels-last around BatchNorm, and along a chain of residual blocks (``ops.relu``'s channels-last form)."""
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mindspore_hl as ms
from mindspore_hl import ops
from mindspore_hl.amp import auto_mixed_precision


def _textbook(x, gamma, beta, eps=1e-5):
    """NCHW batch normalisation with batch statistics (biased variance), written the obvious way."""
    axes = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    m, v = x.mean(axis=axes, keepdims=True), x.var(axis=axes, keepdims=True)
    return (x - m) / jnp.sqrt(v + eps) * gamma.reshape(shape) + beta.reshape(shape)


def _ours(x, gamma, beta):
    return ops.batch_norm(x, None, None, gamma, beta, training=True)


def _data(shape, seed=0, offset=0.0):
    rng = np.random.default_rng(seed)
    c = shape[1]
    return (rng.normal(size=shape) * 2 + offset).astype(np.float32), rng.normal(size=c).astype(np.float32) + 1, \
        rng.normal(size=c).astype(np.float32)


def _f64(*arrays):
    return [np.asarray(a, np.float64) for a in arrays]


@pytest.mark.parametrize("shape", [(4, 3, 5, 6), (6, 3), (4, 2, 7)])
def test_forward_mode_matches_textbook(shape):
    x, g, b = _data(shape)
    tx, tg, tb = _data(shape, seed=1)
    out, tangent = ops.jvp(_ours, (ms.Tensor(x), ms.Tensor(g), ms.Tensor(b)),
                           (ms.Tensor(tx), ms.Tensor(tg), ms.Tensor(tb)))
    with jax.enable_x64():
        ref_out, ref_tangent = jax.jvp(_textbook, _f64(x, g, b), _f64(tx, tg, tb))
    np.testing.assert_allclose(np.asarray(out), ref_out, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np.asarray(tangent), ref_tangent, rtol=1e-3, atol=1e-4)


def test_reverse_and_second_order_match_textbook():
    x, g, b = _data((5, 3, 4, 4))
    cot = np.random.default_rng(2).normal(size=x.shape)

    def loss(fn, x, g, b):
        return jnp.sum(jnp.sin(fn(x, g, b)) * cot)

    ours = lambda x, g, b: loss(lambda *a: _ours(*a)._value, x, g, b)  # noqa: E731
    grads = jax.grad(ours, argnums=(0, 1, 2))(x, g, b)
    # Second order: the derivative of sum(d loss / d x) with respect to gamma.
    second = jax.grad(lambda g: jnp.sum(jax.grad(ours)(x, g, b)))(g)
    with jax.enable_x64():
        ref = lambda x, g, b: loss(_textbook, x, g, b)  # noqa: E731
        ref_grads = jax.grad(ref, argnums=(0, 1, 2))(*_f64(x, g, b))
        ref_second = jax.grad(lambda g: jnp.sum(jax.grad(ref)(*_f64(x), g, *_f64(b))))(*_f64(g))
    for got, want in zip(grads, ref_grads):
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)
    np.testing.assert_allclose(second, ref_second, rtol=1e-3, atol=1e-4)


def test_float16_input_and_no_affine_parameters():
    x, _, _ = _data((8, 4, 3, 3))
    tx, _, _ = _data((8, 4, 3, 3), seed=1)
    f = lambda x: ops.batch_norm(x, None, None, None, None, training=True)  # noqa: E731
    out, tangent = ops.jvp(f, ms.Tensor(x.astype(np.float16)), ms.Tensor(tx.astype(np.float16)))
    assert out.dtype == ms.float16 and tangent.dtype == ms.float16
    ones, zeros = np.ones(4), np.zeros(4)
    with jax.enable_x64():
        ref_out, ref_tangent = jax.jvp(lambda x: _textbook(x, ones, zeros), _f64(x.astype(np.float16)),
                                       _f64(tx.astype(np.float16)))
    np.testing.assert_allclose(np.asarray(out, np.float64), ref_out, rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(np.asarray(tangent, np.float64), ref_tangent, rtol=1e-2, atol=2e-2)


@settings(max_examples=25, deadline=None)
@given(offset=st.floats(-1e3, 1e3), scale=st.floats(1e-2, 1e2), n=st.integers(2, 9), seed=st.integers(0, 99))
def test_statistics_stay_accurate_far_from_zero(offset, scale, n, seed):
    """Activations with a large mean relative to their spread still normalise to mean 0, variance 1."""
    x = (np.random.default_rng(seed).normal(size=(n, 3, 4, 4)) * scale + offset).astype(np.float32)
    ones, zeros = np.ones(3, np.float32), np.zeros(3, np.float32)
    out = np.asarray(_ours(ms.Tensor(x), ms.Tensor(ones), ms.Tensor(zeros)))
    with jax.enable_x64():
        ref = np.asarray(_textbook(*_f64(x, ones, zeros)))
    np.testing.assert_allclose(out, ref, atol=2e-3 * max(1.0, abs(offset) / scale / 100))


class _ConvBN(ms.nn.Cell):
    """Two 1x1 convolutions, each followed by BatchNorm and ReLU, then a classifier."""

    def __init__(self, c):
        super().__init__()
        nn = ms.nn
        self.c1, self.b1 = nn.Conv2d(c, c, 1, has_bias=False), nn.BatchNorm2d(c)
        self.c2, self.b2 = nn.Conv2d(c, c, 1, has_bias=False), nn.BatchNorm2d(c)
        self.relu, self.pool, self.flat, self.fc = nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dense(c, 4)

    def construct(self, x):
        y = self.relu(self.b1(self.c1(x)))
        y = self.relu(self.b2(self.c2(y)))
        return self.fc(self.flat(self.pool(y)))


class _Residual(ms.nn.Cell):
    """``relu(bn(conv1x1(x)) + x)``: a residual block's shape without its inner layers."""

    def __init__(self, c):
        super().__init__()
        self.conv, self.bn, self.relu = ms.nn.Conv2d(c, c, 1, has_bias=False), ms.nn.BatchNorm2d(c), ms.nn.ReLU()

    def construct(self, x):
        return self.relu(self.bn(self.conv(x)) + x)


class _ResidualChain(ms.nn.Cell):
    """A 1x1 convolution stem with BatchNorm and ReLU, ``blocks`` residual blocks, then a classifier."""

    def __init__(self, c, blocks):
        super().__init__()
        nn = ms.nn
        self.conv, self.bn, self.relu = nn.Conv2d(c, c, 1, has_bias=False), nn.BatchNorm2d(c), nn.ReLU()
        self.blocks = nn.SequentialCell([_Residual(c) for _ in range(blocks)])
        self.pool, self.flat, self.fc = nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dense(c, 4)

    def construct(self, x):
        y = self.blocks(self.relu(self.bn(self.conv(x))))
        return self.fc(self.flat(self.pool(y)))


def _nchw_activations(net, amp, n, c, hw):
    """The instructions of ``net``'s compiled training step (under O2 ``amp`` when given) that write an (n, c,
    hw, hw) activation in a physical NCHW layout, other than the input and its cast."""
    ms.set_context(mode=ms.GRAPH_MODE)
    if amp is not None:
        net = auto_mixed_precision(net, "O2", dtype=amp)
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, loss), ms.nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train(True)
    x = ms.Tensor(np.random.default_rng(0).random((n, c, hw, hw), np.float32))
    y = ms.Tensor(np.arange(n, dtype=np.int32) % 4)
    hlo = step.lower(x, y).compile().as_text()
    body = hlo[hlo.index("\nENTRY"):]
    params = set(re.findall(r"%(\S+) = \S+ parameter\(", body))
    return [name for name, operands in
            re.findall(rf"^\s*(?:ROOT )?%(\S+) = \w+\[{n},{c},{hw},{hw}\]\{{3,2,1,0\}} \w+\((.*?)\)", body, re.M)
            if not set(re.findall(r"%([\w.\-]+)", operands)) <= params]


@pytest.mark.host_cpu
@pytest.mark.parametrize("amp", [None, ms.bfloat16])
def test_a_training_step_keeps_activations_channels_last(amp):
    """Convolutions and BatchNorm compute channels-last and their transposes cancel when compiled: no activation
    is copied into a physical NCHW layout, in float32 or under O2 bfloat16. In bfloat16 this once failed: XLA:CPU
    transposes bfloat16 arrays in float32 between conversions, the two transposes could not cancel, and
    BatchNorm's statistics read an NCHW copy of every convolution's output."""
    # 8x64x56x56: large enough for XLA to hand the statistics to YNNPACK
    assert _nchw_activations(_ConvBN(64), amp, 8, 64, 56) == []


@pytest.mark.host_cpu
@pytest.mark.parametrize("amp", [None, ms.bfloat16])
def test_a_residual_chain_keeps_activations_channels_last(amp):
    """Eight residual blocks in a row stay channels-last too. In bfloat16 this once failed: with ReLU computed on
    the NCHW view, XLA:CPU's simplifier cancelled the layout transposes one block per pass from the loss
    backwards, stopped before the first blocks, and their ReLU backwards wrote NCHW copies (11 here; the three
    middle blocks of ResNet50's layer3)."""
    assert _nchw_activations(_ResidualChain(64, 8), amp, 8, 64, 14) == []
