"""The Optimizer base: parameter groups, weight decay, state names, argument errors, user-defined optimizers."""
import numpy as np
import optim_numpy_ref as ref
import pytest

import mindspore_hl as ms
from mindspore_hl import nn, ops


def _param(name, shape=(2, 3), seed=0):
    return ms.Parameter(ms.Tensor(np.random.default_rng(seed).uniform(-1, 1, shape).astype(np.float32)), name=name)


def _grads(params, seed=1):
    rng = np.random.default_rng(seed)
    return tuple(ms.Tensor(rng.normal(0, 1, p.shape).astype(np.float32)) for p in params)


# ---- state names (what checkpoints hold) ---------------------------------------------------------------------
@pytest.mark.parametrize("make, own", [
    (lambda ps: nn.Momentum(ps, 0.1, 0.9), ["global_step", "learning_rate", "momentum", "moments.{}"]),
    (lambda ps: nn.SGD(ps, 0.1, 0.9), ["global_step", "learning_rate", "momentum", "accum.{}", "stat.{}"]),
    (lambda ps: nn.Adam(ps), ["global_step", "learning_rate", "beta1_power", "beta2_power", "moment1.{}",
                              "moment2.{}"]),
    (lambda ps: nn.Adam(ps, use_amsgrad=True), ["global_step", "learning_rate", "beta1_power", "beta2_power",
                                                "moment1.{}", "moment2.{}", "vhat.{}"]),
    (lambda ps: nn.AdamWeightDecay(ps), ["global_step", "learning_rate", "adam_m.{}", "adam_v.{}"]),
    (lambda ps: nn.AdamW(ps, amsgrad=True), ["global_step", "learning_rate", "exp_avg.{}", "exp_avg_sq.{}",
                                             "max_exp_avg_sq.{}"]),
    (lambda ps: nn.Lamb(ps, 0.1), ["global_step", "learning_rate", "lamb_m.{}", "lamb_v.{}"]),
    (lambda ps: nn.RMSProp(ps, centered=True), ["global_step", "learning_rate", "mean_grad.{}", "mean_square.{}",
                                                "moment.{}"]),
    (lambda ps: nn.Adagrad(ps), ["global_step", "learning_rate", "accum.{}"]),
])
def test_state_names(make, own):
    params = [_param("conv1.weight"), _param("fc.bias", (4,))]
    opt = make(params)
    names = [n for n, _ in opt.parameters_and_names()]
    expected = []
    for n in own:
        expected += [n.format(p.name) for p in params] if "{}" in n else [n]
    assert [n for n in names if n not in ("conv1.weight", "fc.bias")] == expected
    assert names[2:4] == ["conv1.weight", "fc.bias"]  # the trained parameters belong to the optimizer too
    state = dict(opt.parameters_and_names())
    assert state["global_step"].dtype == ms.int32 and state["global_step"].shape == (1,)
    assert state["learning_rate"].dtype == ms.float32 and state["learning_rate"].shape == ()
    assert opt.parameters == tuple(params) and isinstance(opt.parameters, ms.ParameterTuple)


def test_unnamed_parameters_get_distinct_slots():
    a = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)))
    b = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)))
    opt = nn.Momentum([a, b], 0.1, 0.9)
    assert [n for n, _ in opt.parameters_and_names() if n.startswith("moments.")] == ["moments.Parameter$0",
                                                                                       "moments.Parameter$1"]


# ---- parameter groups ----------------------------------------------------------------------------------------
def test_groups_lr_weight_decay_order(mode):
    conv, fc_w, fc_b = _param("conv.weight", seed=1), _param("fc.weight", seed=2), _param("fc.bias", (3,), 3)
    init = [p.asnumpy().copy() for p in (conv, fc_w, fc_b)]
    groups = [{"params": [conv], "weight_decay": 0.01},
              {"params": [fc_w, fc_b], "lr": 0.05},
              {"order_params": [fc_w, conv, fc_b]}]
    opt = nn.Momentum(groups, learning_rate=0.1, momentum=0.9, weight_decay=0.0)
    assert list(opt.parameters) == [fc_w, conv, fc_b]
    assert opt.get_lr_parameter(conv).name == "learning_rate"
    assert [p.name for p in opt.get_lr_parameter([fc_w, fc_b])] == ["learning_rate_group_1"] * 2
    names = [n for n, _ in opt.parameters_and_names()]
    assert names[:3] == ["global_step", "learning_rate_group_1", "learning_rate"]
    grads = [_grads(opt.parameters, seed=s) for s in range(3)]
    for g in grads:
        opt(g)
    settings = {"conv.weight": (0.1, 0.01), "fc.weight": (0.05, 0.0), "fc.bias": (0.05, 0.0)}
    for i, p in enumerate(opt.parameters):
        lr, wd = settings[p.name]
        p0 = init[[q is p for q in (conv, fc_w, fc_b)].index(True)]
        want, _ = ref.momentum(p0, [(g[i].asnumpy(), lr) for g in grads], 0.9, wd)
        np.testing.assert_allclose(p.asnumpy(), want, rtol=1e-5, atol=1e-6, err_msg=p.name)
    lr = opt.get_lr()
    assert isinstance(lr, tuple) and [float(x.asnumpy()) for x in lr] == pytest.approx([0.05, 0.1, 0.05])


def test_group_dynamic_lr(mode):
    a, b = _param("a.weight", seed=1), _param("b.weight", seed=2)
    opt = nn.SGD([{"params": [a], "lr": [0.1, 0.2]}, {"params": [b], "lr": nn.WarmUpLR(0.4, 2)}], learning_rate=0.3)
    ones = (ms.Tensor(np.ones(a.shape, np.float32)), ms.Tensor(np.ones(b.shape, np.float32)))
    a0, b0 = a.asnumpy().copy(), b.asnumpy().copy()
    for _ in range(3):
        opt(ones)
    np.testing.assert_allclose(a0 - a.asnumpy(), np.full(a.shape, 0.1 + 0.2 + 0.2), rtol=1e-5)
    np.testing.assert_allclose(b0 - b.asnumpy(), np.full(b.shape, 0.0 + 0.2 + 0.4), rtol=1e-5)
    names = [n for n, _ in opt.parameters_and_names()]
    assert "learning_rate_group_0" in names and "learning_rate" not in names


def test_grad_centralization(mode):
    conv = _param("conv.weight", (2, 16, 3), seed=4)   # axis 1 is a multiple of 16: centralized
    odd = _param("odd.weight", (2, 5), seed=5)          # axis 1 is not: left alone
    init = [conv.asnumpy().copy(), odd.asnumpy().copy()]
    opt = nn.SGD([{"params": [conv, odd], "grad_centralization": True}], learning_rate=0.5)
    g = _grads([conv, odd], seed=6)
    opt(g)
    gc = g[0].asnumpy() - g[0].asnumpy().mean(axis=(1, 2), keepdims=True)
    np.testing.assert_allclose(conv.asnumpy(), init[0] - 0.5 * gc, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(odd.asnumpy(), init[1] - 0.5 * g[1].asnumpy(), rtol=1e-5, atol=1e-6)


def test_weight_decay_skips_beta_and_gamma_without_groups():
    params = [_param("bn.beta", seed=1), _param("bn.gamma", seed=2), _param("fc.weight", seed=3)]
    init = [p.asnumpy().copy() for p in params]
    opt = nn.Momentum(params, 0.1, 0.0, weight_decay=0.5)
    zeros = tuple(ms.Tensor(np.zeros(p.shape, np.float32)) for p in params)
    opt(zeros)
    np.testing.assert_allclose(params[0].asnumpy(), init[0])
    np.testing.assert_allclose(params[1].asnumpy(), init[1])
    np.testing.assert_allclose(params[2].asnumpy(), init[2] * (1 - 0.1 * 0.5), rtol=1e-6)


class _ConstantDecay(nn.Cell):
    def construct(self, global_step):
        return ms.Tensor(0.5, ms.float32)


def test_weight_decay_cell_equals_float(mode):
    p1, p2 = _param("w", seed=1), _param("w", seed=1)
    g = _grads([p1])
    nn.Momentum([p1], 0.1, 0.9, weight_decay=_ConstantDecay())(g)
    nn.Momentum([p2], 0.1, 0.9, weight_decay=0.5)(g)
    np.testing.assert_allclose(p1.asnumpy(), p2.asnumpy(), rtol=1e-6)


# ---- a user-defined optimizer, written as in MindSpore's tutorial -------------------------------------------
class MyMomentum(nn.Optimizer):
    def __init__(self, params, learning_rate, momentum=0.9):
        super().__init__(learning_rate, params)
        self.momentum = ms.Parameter(ms.Tensor(momentum, ms.float32), name="momentum")
        self.moments = self.parameters.clone(prefix="moments", init="zeros")

    def construct(self, gradients):
        lr = self.get_lr()
        # As in MindSpore, get_lr() only reads: a custom optimizer advances global_step itself.
        ops.assign_add(self.global_step, ms.Tensor(np.array([1], np.int32)))
        params = self.parameters
        for i in range(len(params)):
            ops.assign(self.moments[i], self.moments[i] * self.momentum + gradients[i])
            ops.assign(params[i], params[i] - self.moments[i] * lr)
        return params


def test_user_defined_optimizer_matches_momentum(mode):
    mine, theirs = [_param("w", seed=1), _param("b", (3,), 2)], [_param("w", seed=1), _param("b", (3,), 2)]
    custom, builtin = MyMomentum(mine, [0.1, 0.05]), nn.Momentum(theirs, [0.1, 0.05], 0.9)
    assert [n for n, _ in custom.parameters_and_names()] == [n for n, _ in builtin.parameters_and_names()]
    for s in range(3):
        custom(_grads(mine, s))
        builtin(_grads(theirs, s))
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6, atol=1e-7)
    assert custom.global_step.asnumpy().tolist() == [3]


# ---- errors ---------------------------------------------------------------------------------------------------
W = _param("w")


@pytest.mark.parametrize("call, err, match", [
    (lambda: nn.Momentum([W], 0.1, 1), TypeError, "momentum"),
    (lambda: nn.Momentum([W], 0.1, -0.5), ValueError, "momentum"),
    (lambda: nn.Momentum([W], 0.1, 0.9, use_nesterov=1), TypeError, "use_nesterov"),
    (lambda: nn.Momentum([], 0.1, 0.9), ValueError, "empty"),
    (lambda: nn.Momentum(None, 0.1, 0.9), ValueError, "None"),
    (lambda: nn.Momentum([W, 3], 0.1, 0.9), TypeError, "Parameter"),
    (lambda: nn.Momentum([W], 0.1, 0.9, weight_decay=-1.0), ValueError, "weight_decay"),
    (lambda: nn.Momentum([W], 0.1, 0.9, loss_scale=0.0), ValueError, "loss_scale"),
    (lambda: nn.Momentum([W], 0.1, 0.9, loss_scale="2"), TypeError, "loss_scale"),
    (lambda: nn.Momentum([W, _param("w")], 0.1, 0.9), ValueError, "unique"),
    (lambda: nn.Momentum([{"params": [W], "momentum": 0.1}], 0.1, 0.9), KeyError, "unknown"),
    (lambda: nn.Momentum([{"params": [W]}, {"params": [W]}], 0.1, 0.9), RuntimeError, "more than one group"),
    (lambda: nn.Momentum([{"params": [W]}, {"order_params": [W, _param("x")]}], 0.1, 0.9), ValueError,
     "order_params"),
    (lambda: nn.Momentum([{"params": [W], "grad_centralization": 1}], 0.1, 0.9), TypeError, "grad_centralization"),
    (lambda: nn.SGD([W], 0.1, momentum=0.0, nesterov=True), ValueError, "nesterov"),
    (lambda: nn.SGD([W], 0.1, weight_decay=_ConstantDecay()), TypeError, "dynamic weight decay"),
    (lambda: nn.Adam([W], beta1=1.0), ValueError, "beta1"),
    (lambda: nn.Adam([W], eps=1), TypeError, "eps"),
    (lambda: nn.Adam([W], use_amsgrad=True, use_lazy=True), ValueError, "use_amsgrad"),
    (lambda: nn.Adam([W], foo=True), TypeError, "foo"),
    (lambda: nn.RMSProp([W], epsilon=0.0), ValueError, "epsilon"),
    (lambda: nn.Adagrad([W], accum=1), TypeError, "accum"),
])
def test_bad_arguments(call, err, match):
    with pytest.raises(err, match=match):
        call()


@pytest.mark.parametrize("grads, err, match", [
    (lambda: (ms.Tensor(np.zeros((2, 3), np.float32)),) * 2, ValueError, "2 gradients for 1 parameters"),
    (lambda: (ms.Tensor(np.zeros((3, 2), np.float32)),), ValueError, "shape"),
    (lambda: ms.Tensor(np.zeros((2, 3), np.float32)), TypeError, "tuple"),
])
def test_bad_gradients(grads, err, match, mode):
    opt = nn.Momentum([_param("w")], 0.1, 0.9)
    with pytest.raises(err, match=match):
        opt(grads())
