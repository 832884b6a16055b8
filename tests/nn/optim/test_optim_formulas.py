"""Every optimizer against a plain-NumPy implementation of MindSpore's kernel, over several steps.

Hypothesis draws shapes, hyper-parameters, gradients and the learning-rate kind (a float or a per-step list);
each test runs in GRAPH and PYNATIVE mode, then again inside compiled train steps (a Cell calling the
optimizer, ``ms.jit``, ``nn.TrainOneStepCell``).
"""
import jax.numpy as jnp
import numpy as np
import optim_numpy_ref as ref
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.common.tensor import wrap

STEPS = 3
SETTINGS = settings(max_examples=4, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

lrs = st.floats(1e-3, 0.5)
betas1, betas2 = st.floats(0.5, 0.95), st.floats(0.9, 0.9999)
decays = st.sampled_from([0.0, 0.01, 0.1])
scales = st.sampled_from([1.0, 8.0])


def _hp(**kw):
    return st.fixed_dictionaries(kw)


# name -> (hyper-parameter strategy, optimizer builder, reference, {state prefix: reference state key})
CASES = {
    "Momentum": (
        _hp(mom=st.floats(0.0, 0.99), wd=decays, ls=scales, nesterov=st.booleans()),
        lambda ps, lr, h: nn.Momentum(ps, lr, h["mom"], weight_decay=h["wd"], loss_scale=h["ls"],
                                      use_nesterov=h["nesterov"]),
        lambda p, steps, h, dec: ref.momentum(p, steps, h["mom"], h["wd"], h["ls"], h["nesterov"], dec),
        {"moments": "moments"}),
    "SGD": (
        _hp(mom=st.sampled_from([0.0, 0.5, 0.9]), damp=st.sampled_from([0.0, 0.3]), wd=decays, ls=scales,
            nesterov=st.booleans()),
        lambda ps, lr, h: nn.SGD(ps, lr, h["mom"], h["damp"] if not h["nesterov"] else 0.0, h["wd"],
                                 h["nesterov"] and h["mom"] > 0, h["ls"]),
        lambda p, steps, h, dec: ref.sgd(p, steps, h["mom"], h["damp"] if not h["nesterov"] else 0.0, h["wd"],
                                         h["nesterov"] and h["mom"] > 0, h["ls"]),
        {"accum": "accum", "stat": "stat"}),
    "Adam": (
        _hp(b1=betas1, b2=betas2, eps=st.sampled_from([1e-8, 1e-6]), wd=decays, ls=scales,
            nesterov=st.booleans(), amsgrad=st.booleans()),
        lambda ps, lr, h: nn.Adam(ps, lr, h["b1"], h["b2"], h["eps"], use_nesterov=h["nesterov"],
                                  weight_decay=h["wd"], loss_scale=h["ls"], use_amsgrad=h["amsgrad"]),
        lambda p, steps, h, dec: ref.adam(p, steps, h["b1"], h["b2"], h["eps"], h["wd"], h["ls"], h["nesterov"],
                                          h["amsgrad"], dec),
        {"moment1": "moment1", "moment2": "moment2"}),
    "AdamWeightDecay": (
        _hp(b1=betas1, b2=betas2, eps=st.sampled_from([1e-6, 1e-8]), wd=decays),
        lambda ps, lr, h: nn.AdamWeightDecay(ps, lr, h["b1"], h["b2"], h["eps"], h["wd"]),
        lambda p, steps, h, dec: ref.adam_weight_decay(p, steps, h["b1"], h["b2"], h["eps"], h["wd"], dec),
        {"adam_m": "adam_m", "adam_v": "adam_v"}),
    "AdamW": (
        _hp(b1=betas1, b2=betas2, eps=st.sampled_from([1e-8, 1e-6]), wd=decays, amsgrad=st.booleans(),
            maximize=st.booleans()),
        lambda ps, lr, h: nn.AdamW(ps, lr, h["b1"], h["b2"], h["eps"], h["wd"], h["amsgrad"], h["maximize"]),
        lambda p, steps, h, dec: ref.adamw(p, steps, h["b1"], h["b2"], h["eps"], h["wd"], h["amsgrad"],
                                           h["maximize"], dec),
        {"exp_avg": "exp_avg", "exp_avg_sq": "exp_avg_sq"}),
    "Lamb": (
        _hp(b1=betas1, b2=betas2, eps=st.sampled_from([1e-6, 1e-8]), wd=decays),
        lambda ps, lr, h: nn.Lamb(ps, lr, h["b1"], h["b2"], h["eps"], h["wd"]),
        lambda p, steps, h, dec: ref.lamb(p, steps, h["b1"], h["b2"], h["eps"], h["wd"], dec),
        {"lamb_m": "lamb_m", "lamb_v": "lamb_v"}),
    "RMSProp": (
        _hp(decay=st.floats(0.5, 0.99), mom=st.sampled_from([0.0, 0.9]), eps=st.sampled_from([1e-10, 1e-6]),
            centered=st.booleans(), wd=decays, ls=scales),
        lambda ps, lr, h: nn.RMSProp(ps, lr, h["decay"], h["mom"], h["eps"], centered=h["centered"],
                                     loss_scale=h["ls"], weight_decay=h["wd"]),
        lambda p, steps, h, dec: ref.rmsprop(p, steps, h["decay"], h["mom"], h["eps"], h["centered"], h["wd"],
                                             h["ls"], dec),
        {"mean_square": "mean_square", "moment": "moment"}),
    "Adagrad": (
        _hp(accum=st.sampled_from([0.1, 0.5]), slots=st.booleans(), wd=decays, ls=scales),
        lambda ps, lr, h: nn.Adagrad(ps, h["accum"], lr, h["slots"], h["ls"], h["wd"]),
        lambda p, steps, h, dec: ref.adagrad(p, steps, h["accum"], h["slots"], h["wd"], h["ls"], dec),
        {"accum": "accum"}),
}
NAMES = ["layer.weight", "bn.gamma"]  # the second is excluded from weight decay (MindSpore's name filter)


@st.composite
def problems(draw, name):
    """(hyper-parameters, initial values, per-step gradients, per-step learning rates, lr as given)."""
    shapes = draw(st.lists(st.lists(st.integers(1, 4), min_size=1, max_size=3).map(tuple), min_size=2,
                           max_size=2))
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 31)))
    init = [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]
    grads = [[rng.normal(0, 1, s).astype(np.float32) for s in shapes] for _ in range(STEPS)]
    if draw(st.booleans()):
        rates = [draw(lrs) for _ in range(STEPS)]
        given_lr = list(rates)
    else:
        given_lr = draw(lrs)
        rates = [given_lr] * STEPS
    return draw(CASES[name][0]), init, grads, rates, given_lr


def _expected(name, h, init, grads, rates):
    out = []
    for i, p0 in enumerate(init):
        decays = name == "SGD" or NAMES[i] != "bn.gamma"
        out.append(CASES[name][2](p0, [(grads[s][i], rates[s]) for s in range(STEPS)], h, decays))
    return out


def _check(name, opt, params, expected, steps_done=STEPS):
    for p, (want, state) in zip(params, expected):
        np.testing.assert_allclose(p.asnumpy(), want, rtol=2e-5, atol=2e-6, err_msg=f"{name} param {p.name}")
        for prefix, key in CASES[name][3].items():
            slot = dict(opt.parameters_and_names())[f"{prefix}.{p.name}"]
            np.testing.assert_allclose(slot.asnumpy(), state[key], rtol=2e-5, atol=2e-6,
                                       err_msg=f"{name} state {prefix}.{p.name}")
    assert opt.global_step.asnumpy().tolist() == [steps_done]


@pytest.mark.parametrize("name", list(CASES))
@SETTINGS
@given(data=st.data())
def test_optimizer_matches_numpy(name, mode, data):
    h, init, grads, rates, given_lr = data.draw(problems(name))
    params = [ms.Parameter(ms.Tensor(v), name=n) for v, n in zip(init, NAMES)]
    opt = CASES[name][1](params, given_lr, h)
    for step_grads in grads:
        assert bool(opt(tuple(ms.Tensor(g) for g in step_grads)))
    _check(name, opt, params, _expected(name, h, init, grads, rates))


class _ApplyGrads(nn.Cell):
    """A Cell whose compiled construct calls the optimizer (the shape of a GRAPH_MODE train step)."""

    def __init__(self, opt):
        super().__init__(auto_prefix=False)
        self.opt = opt

    def construct(self, *grads):
        return self.opt(grads)


class _Linear(nn.Cell):
    """loss = sum(weight * x) + sum(gamma * y): the gradients are exactly (x, y)."""

    def __init__(self, w, g):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(w))
        self.gamma = ms.Parameter(ms.Tensor(g))

    def construct(self, x, y):
        return wrap(jnp.sum(self.weight._value * x._value) + jnp.sum(self.gamma._value * y._value))


def _default_problem(name):
    """Fixed hyper-parameters (momentum, decay and the optional variants switched on) and data."""
    hp = {"Momentum": dict(mom=0.9, wd=0.01, ls=1.0, nesterov=True),
          "SGD": dict(mom=0.9, damp=0.0, wd=0.01, ls=1.0, nesterov=True),
          "Adam": dict(b1=0.9, b2=0.999, eps=1e-8, wd=0.01, ls=1.0, nesterov=False, amsgrad=True),
          "AdamWeightDecay": dict(b1=0.9, b2=0.999, eps=1e-6, wd=0.01),
          "AdamW": dict(b1=0.9, b2=0.999, eps=1e-8, wd=0.01, amsgrad=False, maximize=False),
          "Lamb": dict(b1=0.9, b2=0.999, eps=1e-6, wd=0.01),
          "RMSProp": dict(decay=0.9, mom=0.9, eps=1e-10, centered=True, wd=0.01, ls=1.0),
          "Adagrad": dict(accum=0.1, slots=True, wd=0.01, ls=1.0)}[name]
    rng = np.random.default_rng(7)
    init = [rng.uniform(-1, 1, (3, 4)).astype(np.float32), rng.uniform(-1, 1, (4,)).astype(np.float32)]
    grads = [[rng.normal(0, 1, (3, 4)).astype(np.float32), rng.normal(0, 1, (4,)).astype(np.float32)]
             for _ in range(STEPS)]
    return hp, init, grads, [0.05, 0.02, 0.01]


@pytest.mark.parametrize("name", list(CASES))
def test_optimizer_inside_compiled_cell(name):
    ms.set_context(mode=ms.GRAPH_MODE)
    h, init, grads, rates = _default_problem(name)
    params = [ms.Parameter(ms.Tensor(v), name=n) for v, n in zip(init, NAMES)]
    opt = CASES[name][1](params, rates, h)
    apply = _ApplyGrads(opt)
    for step_grads in grads:
        apply(*[ms.Tensor(g) for g in step_grads])
    _check(name, opt, params, _expected(name, h, init, grads, rates))


@pytest.mark.parametrize("name", ["Momentum", "Adam", "Lamb"])
def test_optimizer_inside_ms_jit(name):
    h, init, grads, rates = _default_problem(name)
    params = [ms.Parameter(ms.Tensor(v), name=n) for v, n in zip(init, NAMES)]
    opt = CASES[name][1](params, rates, h)

    @ms.jit
    def step(g0, g1):
        return opt((g0, g1))

    for step_grads in grads:
        step(*[ms.Tensor(g) for g in step_grads])
    _check(name, opt, params, _expected(name, h, init, grads, rates))


@pytest.mark.parametrize("name", list(CASES))
def test_optimizer_in_train_one_step_cell(name, mode):
    h, init, grads, rates = _default_problem(name)
    net = _Linear(*init)
    opt = CASES[name][1](net.trainable_params(), rates, h)
    train = nn.TrainOneStepCell(net, opt)
    for x, y in grads:
        train(ms.Tensor(x), ms.Tensor(y))
    params = [net.weight, net.gamma]
    names_as_ref = ["weight", "gamma"]
    assert [p.name for p in params] == names_as_ref
    expected = []
    for i, p0 in enumerate(init):
        decays = name == "SGD" or names_as_ref[i] != "gamma"
        expected.append(CASES[name][2](p0, [(grads[s][i], rates[s]) for s in range(STEPS)], h, decays))
    _check(name, opt, params, expected)
