"""Dynamic learning rates (lists), schedule Cells, and how optimizers index them by ``global_step``."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.nn import dynamic_lr, learning_rate_schedule


# ---- values verified against real MindSpore 2.10 (reference §2.6) and MindSpore's documented examples --------
@pytest.mark.parametrize("fn, args, expected", [
    (nn.cosine_decay_lr, (0.01, 0.1, 6, 2, 2), [0.1, 0.1, 0.055, 0.055, 0.01, 0.01]),
    (nn.piecewise_constant_lr, ([2, 5, 10], [0.1, 0.05, 0.01]), [0.1, 0.1, 0.05, 0.05, 0.05] + [0.01] * 5),
    (nn.exponential_decay_lr, (0.1, 0.9, 6, 2, 1), [0.1, 0.1, 0.09, 0.09, 0.081, 0.081]),
    (nn.warmup_lr, (0.1, 6, 2, 2), [0.0, 0.0, 0.05, 0.05, 0.1, 0.1]),
    (nn.natural_exp_decay_lr, (0.1, 0.9, 6, 2, 2, True),
     [0.1, 0.1, 0.1, 0.1, 0.016529888822158657, 0.016529888822158657]),
    (nn.inverse_decay_lr, (0.1, 0.5, 6, 1, 1, True),
     [0.1, 0.06666666666666667, 0.05, 0.04, 0.03333333333333333, 0.028571428571428574]),
    (nn.polynomial_decay_lr, (0.1, 0.01, 6, 2, 2, 0.5),
     [0.1, 0.1, 0.07363961030678928, 0.07363961030678928, 0.01, 0.01]),
    # hand-computed: natural_exp without stair uses the epoch itself; polynomial with update_decay_epoch
    # stretches the span to decay_epoch * ceil(epoch / decay_epoch) and does not clip the epoch.
    (nn.natural_exp_decay_lr, (0.1, 0.5, 4, 1, 2), [0.1 * math.exp(-0.5 * e) for e in range(4)]),
    (nn.inverse_decay_lr, (0.1, 0.5, 4, 1, 2), [0.1 / (1 + 0.5 * e / 2) for e in range(4)]),
    (nn.polynomial_decay_lr, (0.1, 0.01, 6, 1, 2, 1.0, True), [0.1, 0.055, 0.01, 0.0325, 0.01, 0.025]),
    (nn.exponential_decay_lr, (0.1, 0.5, 5, 1, 2, True), [0.1, 0.1, 0.05, 0.05, 0.025]),
])
def test_dynamic_lr_values(fn, args, expected):
    out = fn(*args)
    assert isinstance(out, list) and all(isinstance(v, float) for v in out)
    assert out == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_dynamic_lr_modules_are_importable():
    assert dynamic_lr.cosine_decay_lr is nn.cosine_decay_lr
    assert learning_rate_schedule.CosineDecayLR is nn.CosineDecayLR
    assert issubclass(nn.WarmUpLR, learning_rate_schedule.LearningRateSchedule)


@pytest.mark.parametrize("call, err", [
    (lambda: nn.cosine_decay_lr(0.1, 0.1, 6, 2, 2), ValueError),      # max_lr must exceed min_lr
    (lambda: nn.cosine_decay_lr(0, 0.1, 6, 2, 2), TypeError),         # min_lr must be a float
    (lambda: nn.exponential_decay_lr(1, 0.9, 6, 2, 1), TypeError),    # learning_rate must be a float
    (lambda: nn.exponential_decay_lr(0.1, 0.9, 0, 2, 1), ValueError),  # total_step must be positive
    (lambda: nn.warmup_lr(0.1, 6, 2.0, 2), TypeError),
    (lambda: nn.piecewise_constant_lr([2, 5], [0.1]), ValueError),
    (lambda: nn.piecewise_constant_lr([5, 2], [0.1, 0.2]), ValueError),
    (lambda: nn.polynomial_decay_lr(0.1, 0.01, 6, 2, 2, 0.5, update_decay_epoch=1), TypeError),
    (lambda: nn.CosineDecayLR(0.01, 0.1, 0), ValueError),
    (lambda: nn.WarmUpLR(1, 2), TypeError),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 4, is_stair=1), TypeError),
])
def test_bad_arguments(call, err):
    with pytest.raises(err):
        call()


# ---- schedule Cells -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("cell, step, expected", [
    (lambda: nn.CosineDecayLR(0.01, 0.1, 4), 2, 0.01 + 0.045 * (1 + math.cos(math.pi / 2))),
    (lambda: nn.CosineDecayLR(0.01, 0.1, 4), 9, 0.01),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 4), 2, 0.1 * 0.9 ** 0.5),
    (lambda: nn.ExponentialDecayLR(0.1, 0.9, 4, True), 5, 0.1 * 0.9),
    (lambda: nn.NaturalExpDecayLR(0.1, 0.9, 4, True), 2, 0.1),
    (lambda: nn.NaturalExpDecayLR(0.1, 0.9, 4), 2, 0.1 * math.exp(-1.8)),
    (lambda: nn.InverseDecayLR(0.1, 0.9, 4), 2, 0.1 / 1.45),
    (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5), 2, 0.09 * math.sqrt(0.5) + 0.01),
    (lambda: nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5, True), 6, 0.09 * math.sqrt(0.25) + 0.01),
    (lambda: nn.PolynomialDecayLR(1.0, 0.0, 3, 1.5), 3, 0.0),  # compiled, 3/3 may round above 1: no NaN
    (lambda: nn.WarmUpLR(0.1, 4), 1, 0.025),
    (lambda: nn.WarmUpLR(0.1, 4), 10, 0.1),
])
def test_schedule_cells(cell, step, expected, mode):
    out = cell()(ms.Tensor(step, ms.int32))
    assert out.dtype == ms.float32 and out.shape == ()
    assert float(out.asnumpy()) == pytest.approx(expected, rel=1e-6)


PAIRS = {  # schedule Cell at step i == dynamic_lr list[i] when every epoch is one step
    "cosine": (lambda h: nn.CosineDecayLR(h["lo"], h["hi"], h["k"]),
               lambda h, n: nn.cosine_decay_lr(h["lo"], h["hi"], n, 1, h["k"])),
    "exponential": (lambda h: nn.ExponentialDecayLR(h["hi"], h["rate"], h["k"], h["stair"]),
                    lambda h, n: nn.exponential_decay_lr(h["hi"], h["rate"], n, 1, h["k"], h["stair"])),
    "natural_exp": (lambda h: nn.NaturalExpDecayLR(h["hi"], h["rate"], h["k"], h["stair"]),
                    lambda h, n: nn.natural_exp_decay_lr(h["hi"], h["rate"], n, 1, h["k"], h["stair"])),
    "inverse": (lambda h: nn.InverseDecayLR(h["hi"], h["rate"], h["k"], h["stair"]),
                lambda h, n: nn.inverse_decay_lr(h["hi"], h["rate"], n, 1, h["k"], h["stair"])),
    "polynomial": (lambda h: nn.PolynomialDecayLR(h["hi"], h["lo"], h["k"], h["power"], h["stair"]),
                   lambda h, n: nn.polynomial_decay_lr(h["hi"], h["lo"], n, 1, h["k"], h["power"], h["stair"])),
    "warmup": (lambda h: nn.WarmUpLR(h["hi"], h["k"]), lambda h, n: nn.warmup_lr(h["hi"], n, 1, h["k"])),
}


@pytest.mark.parametrize("kind", list(PAIRS))
@settings(max_examples=10, deadline=None)
@given(h=st.fixed_dictionaries(dict(lo=st.floats(0.0, 0.01), hi=st.floats(0.02, 1.0), rate=st.floats(0.05, 0.99),
                                    k=st.integers(1, 6), stair=st.booleans(), power=st.floats(0.5, 3.0))))
def test_schedule_cell_matches_dynamic_lr(kind, h):
    n = 12
    cell = PAIRS[kind][0](h)
    got = [float(cell(ms.Tensor(i, ms.int32)).asnumpy()) for i in range(n)]
    np.testing.assert_allclose(got, PAIRS[kind][1](h, n), rtol=1e-5, atol=1e-7)


# ---- optimizers index the rates by global_step -------------------------------------------------------------
def _sgd_run(lr, steps, mode_grads=1.0):
    p = ms.Parameter(ms.Tensor(np.zeros((2,), np.float32)), name="w")
    opt = nn.SGD([p], learning_rate=lr)
    seen = []
    for _ in range(steps):
        before = p.asnumpy().copy()
        opt((ms.Tensor(np.full((2,), mode_grads, np.float32)),))
        seen.append(float(before[0] - p.asnumpy()[0]))
    return opt, seen


@pytest.mark.parametrize("lr", [[0.1, 0.2, 0.3], ms.Tensor(np.array([0.1, 0.2, 0.3], np.float32)),
                                (0.1, 0.2, 0.3), np.array([0.1, 0.2, 0.3])])
def test_per_step_rates_hold_the_last_value(lr, mode):
    opt, seen = _sgd_run(lr, 5)
    np.testing.assert_allclose(seen, [0.1, 0.2, 0.3, 0.3, 0.3], rtol=1e-6)
    assert opt.global_step.asnumpy().tolist() == [5]
    state = dict((n, p) for n, p in opt.parameters_and_names())
    assert state["learning_rate"].shape == (3,) and state["learning_rate"].dtype == ms.float32


def test_list_from_dynamic_lr_function(mode):
    rates = nn.cosine_decay_lr(0.01, 0.1, 6, 2, 2)
    _, seen = _sgd_run(rates, 6)
    np.testing.assert_allclose(seen, rates, rtol=1e-6)


@pytest.mark.parametrize("schedule, expected", [
    (lambda: nn.WarmUpLR(0.1, 2), [0.0, 0.05, 0.1, 0.1]),
    (lambda: nn.ExponentialDecayLR(0.1, 0.5, 1), [0.1, 0.05, 0.025, 0.0125]),
    (lambda: nn.CosineDecayLR(0.0, 0.1, 2), [0.1, 0.05, 0.0, 0.0]),
])
def test_schedule_as_learning_rate(schedule, expected, mode):
    _, seen = _sgd_run(schedule(), 4)
    np.testing.assert_allclose(seen, expected, rtol=1e-5, atol=1e-8)


def test_get_lr_reads_the_current_step_without_advancing_it():
    # MindSpore advances global_step only in the optimizer's construct: logging the rate must not speed it up.
    p = ms.Parameter(ms.Tensor(np.zeros((2,), np.float32)), name="w")
    opt = nn.Momentum([p], learning_rate=[0.1, 0.2, 0.3], momentum=0.9)
    for _ in range(3):
        assert float(opt.get_lr().asnumpy()) == pytest.approx(0.1)
    assert opt.global_step.asnumpy().tolist() == [0]
    opt((ms.Tensor(np.ones((2,), np.float32)),))
    assert opt.global_step.asnumpy().tolist() == [1]
    assert float(opt.get_lr().asnumpy()) == pytest.approx(0.2)
    np.testing.assert_allclose(p.asnumpy(), [-0.1, -0.1], rtol=1e-6)
    fixed = nn.Momentum([ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="v")], 0.05, 0.9)
    lr = fixed.get_lr()
    assert isinstance(lr, ms.Parameter) and lr.name == "learning_rate" and float(lr.asnumpy()) == pytest.approx(0.05)


@pytest.mark.parametrize("lr", [ms.Tensor(0.25, ms.float32), np.float32(0.25), np.array(0.25), 0.25])
def test_fixed_learning_rate_kinds(lr, mode):
    opt, seen = _sgd_run(lr, 3)
    np.testing.assert_allclose(seen, [0.25] * 3, rtol=1e-6)
    assert dict(opt.parameters_and_names())["learning_rate"].shape == ()


@pytest.mark.parametrize("lr, err", [(-0.1, ValueError), ("0.1", TypeError), (True, TypeError),
                                     (ms.Tensor(np.ones((2, 2), np.float32)), ValueError), ([], ValueError)])
def test_bad_learning_rates(lr, err):
    with pytest.raises(err, match="learning_rate"):
        nn.SGD([ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="w")], learning_rate=lr)
