"""Dense, Flatten, Identity, Dropout, Pad, Embedding."""
import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from layer_harness import run_layer_test

import mindspore_hl as ms
from mindspore_hl import Tensor, nn

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype(np.float32)


@pytest.mark.parametrize("kw, shape", [
    (dict(in_channels=4, out_channels=3), (5, 4)),
    (dict(in_channels=4, out_channels=3, has_bias=False, activation="relu"), (2, 6, 4)),
    (dict(in_channels=3, out_channels=2, activation=nn.Tanh()), (3,)),
])
def test_dense(mode, kw, shape):
    act = kw.get("activation")

    def ref(p, x):
        y = x @ p["weight"].T + (p["bias"] if "bias" in p else 0)
        return jnp.where(y > 0, y, 0) if act == "relu" else jnp.tanh(y) if act is not None else y

    cin, cout = kw["in_channels"], kw["out_channels"]
    params = [("weight", (cout, cin))] + ([("bias", (cout,))] if kw.get("has_bias", True) else [])
    run_layer_test(lambda: nn.Dense(**kw), [_x(*shape)], expected_shape=shape[:-1] + (cout,), params=params,
                   reference=ref, bad_input=_x(*shape[:-1], cin + 2))


def test_dense_repr_init_and_errors(mode):
    assert repr(nn.Dense(4, 8)) == "Dense(input_channels=4, output_channels=8, has_bias=True)"
    assert repr(nn.Dense(4, 8, has_bias=False)) == "Dense(input_channels=4, output_channels=8)"
    assert "activation=ReLU()" in repr(nn.Dense(4, 8, activation="relu"))
    d = nn.Dense(64, 128)
    bound = 1 / math.sqrt(64)  # HeUniform(sqrt(5)) weight and Uniform(1/sqrt(in)) bias share this bound
    for p in (d.weight, d.bias):
        a = p.asnumpy()
        assert np.abs(a).max() <= bound and np.abs(a).max() > 0.8 * bound
    with pytest.raises(ValueError, match=r"^Dense: expected input of shape \(\.\.\., 64\) \(in_channels=64\), but "
                                         r"got \(2, 3\)\."):
        d(Tensor(_x(2, 3)))
    with pytest.raises(TypeError, match="Dense: expected a floating-point input"):
        d(Tensor(np.ones((2, 64), np.int32)))
    with pytest.raises(ValueError, match="'weight_init' Tensor has shape \\(2, 2\\)"):
        nn.Dense(3, 2, weight_init=Tensor(np.ones((2, 2), np.float32)))


@pytest.mark.parametrize("kw, shape, out", [
    (dict(), (2, 3, 4, 5), (2, 60)),
    (dict(start_dim=0), (2, 3, 4), (24,)),
    (dict(start_dim=1, end_dim=2), (2, 3, 4, 5), (2, 12, 5)),
])
def test_flatten(mode, kw, shape, out):
    run_layer_test(lambda: nn.Flatten(**kw), [_x(*shape)], expected_shape=out, reference=lambda p, x: x.reshape(out))


def test_flatten_bad_dims_and_identity(mode):
    with pytest.raises(ValueError, match="Flatten: start_dim=2, end_dim=-1 do not fit an input of shape \\(4, 5\\)"):
        nn.Flatten(start_dim=2)(Tensor(_x(4, 5)))
    run_layer_test(nn.Identity, [_x(3, 2)], expected_shape=(3, 2), reference=lambda p, x: x)


def test_dropout_train_and_eval(mode):
    x = np.ones((200, 50), np.float32)
    drop = nn.Dropout(p=0.2).set_train()
    ms.set_seed(7)
    y1 = drop(Tensor(x)).asnumpy()
    kept = y1 != 0
    assert 0.75 < kept.mean() < 0.85
    np.testing.assert_allclose(y1[kept], 1 / 0.8, rtol=1e-6)  # survivors are scaled by 1/(1-p)
    y2 = drop(Tensor(x)).asnumpy()
    assert not np.array_equal(y1, y2)  # a fresh mask per call
    ms.set_seed(7)
    np.testing.assert_array_equal(drop(Tensor(x)).asnumpy(), y1)  # reproducible from set_seed
    drop.set_train(False)
    np.testing.assert_array_equal(drop(Tensor(x)).asnumpy(), x)
    # gradient flows through the kept elements only, scaled like the forward pass
    drop.set_train()
    ms.set_seed(3)
    fn = ms.grad(lambda t: (drop(t) * 2).sum())
    g = (ms.jit(fn) if mode == ms.GRAPH_MODE else fn)(Tensor(x)).asnumpy()
    assert set(np.unique(g).tolist()) <= {0.0, 2 / 0.8} and 0.7 < (g != 0).mean() < 0.9


def test_dropout_arguments_and_repr():
    assert repr(nn.Dropout(p=0.2)) == "Dropout(p=0.2)"
    assert repr(nn.Dropout(keep_prob=0.8)) == "Dropout(keep_prob=0.8)"
    assert repr(nn.Dropout()) == "Dropout(keep_prob=0.5)"
    assert nn.Dropout(p=0.3).keep_prob == pytest.approx(0.7)
    with pytest.raises(ValueError, match="'p' must be in \\[0, 1\\)"):
        nn.Dropout(p=1.0)
    with pytest.raises(ValueError, match="'keep_prob' must be in \\(0, 1\\]"):
        nn.Dropout(keep_prob=0)
    x = _x(3, 4)
    np.testing.assert_array_equal(nn.Dropout(keep_prob=1.0).set_train()(Tensor(x)).asnumpy(), x)


@pytest.mark.parametrize("paddings, mode_", [
    (((0, 0), (1, 2), (2, 1)), "CONSTANT"),
    (((1, 0), (2, 2), (0, 1)), "REFLECT"),
    (((0, 1), (3, 0), (1, 1)), "SYMMETRIC"),
])
def test_pad(mode, paddings, mode_):
    x = _x(2, 4, 3)
    out = tuple(d + a + b for d, (a, b) in zip(x.shape, paddings))
    np_mode = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}[mode_]
    run_layer_test(lambda: nn.Pad(paddings, mode_), [x], expected_shape=out, bad_input=_x(2, 4),
                   reference=lambda p, t: jnp.pad(t, paddings, mode=np_mode))
    assert np.array_equal(nn.Pad(paddings, mode_)(Tensor(x)).asnumpy(), np.pad(x, paddings, mode=np_mode))


def test_pad_bad_arguments():
    with pytest.raises(ValueError, match="'mode' must be one of"):
        nn.Pad(((1, 1),), "EDGE")
    with pytest.raises(ValueError, match="'paddings' must be a tuple of \\(before, after\\) pairs"):
        nn.Pad((1, 1))


@pytest.mark.parametrize("kw", [dict(), dict(use_one_hot=True), dict(padding_idx=2)])
def test_embedding(mode, kw):
    ids = np.array([[0, 2, 5], [5, 1, 2]], np.int32)
    pad = kw.get("padding_idx")

    def ref(p, i):
        table = p["embedding_table"]
        if pad is not None:  # the padding row takes no gradient
            table = table.at[pad].set(jax.lax.stop_gradient(table[pad]))
        return table[i]

    run_layer_test(lambda: nn.Embedding(6, 4, **kw), [ids], expected_shape=(2, 3, 4),
                   params=[("embedding_table", (6, 4))], fp16=False, reference=ref, grad_rtol=1e-5)


def test_embedding_padding_idx_row_is_zero_and_gets_no_gradient(mode):
    emb = nn.Embedding(5, 3, padding_idx=1)
    assert emb.embedding_table.asnumpy()[1].tolist() == [0, 0, 0]
    assert np.abs(emb.embedding_table.asnumpy()[0]).max() > 0  # 'normal' init elsewhere
    ids = Tensor(np.array([1, 1, 3], np.int64))
    fn = ms.grad(lambda t: (emb(t) * 3).sum(), None, emb.trainable_params())
    (g,) = (ms.jit(fn) if mode == ms.GRAPH_MODE else fn)(ids)
    expected = np.zeros((5, 3), np.float32)
    expected[3] = 3
    np.testing.assert_array_equal(g.asnumpy(), expected)
    with pytest.raises(TypeError, match="Embedding: expected integer indices, but got Float32"):
        emb(Tensor(np.ones(2, np.float32)))
    assert "vocab_size=5, embedding_size=3, use_one_hot=False, embedding_table=Parameter" in repr(emb)
