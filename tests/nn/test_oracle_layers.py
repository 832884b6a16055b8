"""nn layers and losses against real MindSpore 2.10 (fixture recorded by tools/oracle/record_nn.py).

Each case rebuilds the layer with the recorded kwargs, checks its Parameter names and shapes, sets the recorded
weights by name and compares the outputs, the gradients w.r.t. the inputs and the trainable Parameters and
(cases run in training mode) the updated non-trainable Parameters. Eager (PYNATIVE) runs.
"""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import mint, nn
from tests.nn import nn_cases
from tests.oracle import FIXTURE_ROOT, assert_close, case_params

FIXTURE = FIXTURE_ROOT / "nn_layers.npz"
TOL = dict(rtol=2e-4, atol=2e-5)


@pytest.fixture(autouse=True)
def _graph_mode():
    mode = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=mode)


@pytest.mark.parametrize("case", case_params(FIXTURE))
def test_layer_matches_mindspore(case):
    meta = case.meta
    module = mint.nn if meta.get("mod") == "mint.nn" else nn
    net = getattr(module, meta["cls"])(**nn_cases.decode(meta["kwargs"], ms))
    net.set_train("after" in meta)
    params = list(net.get_parameters())
    assert [p.name for p in params] == meta["param_names"], case.id
    assert [list(p.shape) for p in params] == meta["param_shapes"], case.id
    for p in params:
        p.set_data(ms.Tensor(case.inputs[f"param:{p.name}"]))
    names = [k for k in case.inputs if not k.startswith(("param:", "__"))]
    xs = [ms.Tensor(case.inputs[k]) for k in names]
    out = net(*xs)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    n_fwd = meta["n_fwd"]
    assert len(outs) == n_fwd, case.id
    for i, (got, want) in enumerate(zip(outs, case.outputs[:n_fwd])):
        assert_close(got, want, what=f"{case.id} output {i}", **TOL)
    rest = case.outputs[n_fwd:]
    if meta["sens"]:
        sens = ms.Tensor(case.inputs["__sens"])
        trainable = [p for p in params if p.requires_grad]
        assert [p.name for p in trainable] == meta["grad_params"]

        def loss(*a):
            y = net(*a)
            y = y[0] if isinstance(y, (tuple, list)) else y
            return (y * sens).sum()

        pos = meta["grad_pos"]
        g = ms.grad(loss, grad_position=tuple(pos) if pos else None,
                    weights=ms.ParameterTuple(trainable) if trainable else None)(*xs)
        if pos and trainable:
            gin, gw = g
        elif pos:
            gin, gw = g, ()
        else:
            gin, gw = (), g
        gin = gin if isinstance(gin, tuple) else (gin,)
        grads = list(gin) + list(gw)
        for i, got in enumerate(grads):
            assert_close(got, rest[i], what=f"{case.id} gradient {i}", **TOL)
        rest = rest[len(grads):]
    if "after" in meta:
        by_name = {p.name: p for p in params}
        for name, want in zip(meta["after"], rest):
            assert_close(by_name[name], want, what=f"{case.id} {name} after the call", **TOL)


def test_elu_alpha_must_be_one_as_in_mindspore():
    with pytest.raises(ValueError, match="alpha"):
        nn.ELU(alpha=0.5)


def test_roll_matches_numpy():
    # MindSpore's CPU build has no Roll kernel: NumPy is the second implementation.
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(nn.Roll(2, 2)(ms.Tensor(x)).asnumpy(), np.roll(x, 2, 2))


def test_upsample_nearest_scale_factor_matches_repeat():
    # MindSpore 2.10 rejects scale_factor with mode='nearest' on 4-D input; an integer factor repeats pixels.
    x = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4)
    got = nn.Upsample(scale_factor=2.0)(ms.Tensor(x)).asnumpy()
    np.testing.assert_array_equal(got, x.repeat(2, 2).repeat(2, 3))


def test_selu_gradient_matches_jax():
    # Real MindSpore 2.10's CPU SeLU gradient is wrong for negative inputs (-0.117 at x=-1): compare with JAX.
    import jax

    x = np.array([-1.0, -0.5, 0.5, 1.0], np.float32)
    got = ms.grad(lambda t: nn.SeLU()(t).sum())(ms.Tensor(x)).asnumpy()
    want = np.asarray(jax.grad(lambda t: jax.nn.selu(t).sum())(x))
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_rrelu_draws_slopes_in_range():
    x = -np.ones((4000,), np.float32)
    y = nn.RReLU(0.1, 0.3)(ms.Tensor(x)).asnumpy()
    assert y.min() >= -0.3 and y.max() <= -0.1 and abs(y.mean() + 0.2) < 0.01
    assert nn.RReLU()(ms.Tensor(np.ones(3, np.float32))).asnumpy().tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("cls,shape", [("InstanceNorm1d", (2, 3, 5)), ("InstanceNorm2d", (2, 3, 4, 5)),
                                       ("InstanceNorm3d", (1, 3, 2, 3, 4))])
def test_instance_norm_matches_numpy(cls, shape):
    # MindSpore 2.10's CPU build has no InstanceNorm kernel: NumPy is the second implementation.
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    net = getattr(nn, cls)(3, eps=1e-3)
    assert [p.name for p in net.get_parameters()] == ["moving_mean", "moving_variance", "gamma", "beta"]
    g, b = rng.standard_normal(3).astype(np.float32), rng.standard_normal(3).astype(np.float32)
    net.gamma.set_data(ms.Tensor(g))
    net.beta.set_data(ms.Tensor(b))
    axes = tuple(range(2, len(shape)))
    bshape = (1, 3) + (1,) * (len(shape) - 2)
    want = (x - x.mean(axes, keepdims=True)) / np.sqrt(x.var(axes, keepdims=True) + 1e-3) * g.reshape(bshape) + \
        b.reshape(bshape)
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), want, rtol=1e-5, atol=1e-5)


# MindSpore 2.10's CPU build has no SoftMarginLoss, TripletMarginLoss or MultilabelMarginLoss kernel: these
# compare with the documented formulas in NumPy (PyTorch's definitions, which MindSpore follows).
def test_soft_margin_loss_matches_numpy():
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((2, 5)).astype(np.float32), np.sign(rng.standard_normal((2, 5))).astype(np.float32)
    got = nn.SoftMarginLoss()(ms.Tensor(x), ms.Tensor(y)).asnumpy()
    np.testing.assert_allclose(got, np.log1p(np.exp(-y * x)).mean(), rtol=1e-6)


@pytest.mark.parametrize("p,swap", [(2, False), (1, True)])
def test_triplet_margin_loss_matches_numpy(p, swap):
    rng = np.random.default_rng(2)
    a, pos, neg = (rng.standard_normal((4, 3)).astype(np.float32) for _ in range(3))

    def dist(u, v):
        return (np.abs(u - v + 1e-6) ** p).sum(-1) ** (1 / p)

    d_an = np.minimum(dist(a, neg), dist(pos, neg)) if swap else dist(a, neg)
    want = np.maximum(dist(a, pos) - d_an + 1.0, 0).mean()
    got = nn.TripletMarginLoss(p=p, swap=swap)(*(ms.Tensor(t) for t in (a, pos, neg))).asnumpy()
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_multilabel_margin_loss_matches_numpy():
    x = np.array([[0.1, 0.2, 0.4, 0.8], [0.3, -0.5, 0.2, 0.1]], np.float32)
    t = np.array([[3, 0, -1, 1], [1, 2, 3, -1]], np.int32)
    want = []
    for row, tr in zip(x, t):
        targets = list(tr[:list(tr).index(-1)] if -1 in tr else tr)
        others = [i for i in range(4) if i not in targets]
        want.append(sum(max(0, 1 - (row[j] - row[i])) for j in targets for i in others) / 4)
    got = nn.MultilabelMarginLoss()(ms.Tensor(x), ms.Tensor(t)).asnumpy()
    np.testing.assert_allclose(got, np.mean(want), rtol=1e-6)
