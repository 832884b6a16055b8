"""Loss Cells against NumPy formulas (float64), all reductions, in GRAPH_MODE and PYNATIVE_MODE."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor, nn, ops

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype(np.float32)


def _log_softmax(x, axis):
    x = x.astype(np.float64)
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


def _reduce(x, reduction):
    return {"mean": np.mean, "sum": np.sum, "none": lambda a: a}[reduction](x)


def _check(loss, args, expected, rtol=1e-5, atol=1e-6):
    out = loss(*[Tensor(a) for a in args])
    np.testing.assert_allclose(out.asnumpy(), expected, rtol=rtol, atol=atol)
    return out


REDUCTIONS = ["mean", "sum", "none"]


def test_softmax_cross_entropy_with_logits_defaults_and_sparse(mode):
    logits, labels = _x(5, 4), RNG.integers(0, 4, 5).astype(np.int32)
    per = -_log_softmax(logits, 1)[np.arange(5), labels]
    loss = nn.SoftmaxCrossEntropyWithLogits()
    assert loss.sparse is False and loss.reduction == "none"
    onehot = np.eye(4, dtype=np.float32)[labels]
    _check(loss, [logits, onehot], per)  # defaults: dense labels, no reduction
    _check(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), [logits, labels], per.mean())
    soft = np.abs(_x(5, 4))
    soft /= soft.sum(1, keepdims=True)
    _check(nn.SoftmaxCrossEntropyWithLogits(reduction="sum"), [logits, soft], -(soft * _log_softmax(logits, 1)).sum())
    with pytest.raises(ValueError, match=r"SoftmaxCrossEntropyWithLogits\(sparse=True\): expected integer labels of "
                                         r"shape \(5,\), but got \(5, 4\)"):
        nn.SoftmaxCrossEntropyWithLogits(sparse=True)(Tensor(logits), Tensor(onehot))


def ref_ce_indices(logits, target, weight, ignore_index, reduction, smoothing):
    lp = _log_softmax(logits, 1)
    c = logits.shape[1]
    w = np.ones(c) if weight is None else weight.astype(np.float64)
    lp_m = np.moveaxis(lp, 1, -1)  # (N, ..., C)
    valid = target != ignore_index
    t = np.where(valid, target, 0)
    nll = -np.take_along_axis(lp_m, t[..., None], -1)[..., 0] * w[t] * valid
    smooth = -(lp_m * w).sum(-1) * valid
    per = (1 - smoothing) * nll + smoothing / c * smooth
    if reduction == "mean":
        return per.sum() / (w[t] * valid).sum()
    return _reduce(per, reduction)


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("weighted, smoothing, spatial", [(False, 0.0, False), (True, 0.0, False),
                                                          (True, 0.2, False), (False, 0.1, True)])
def test_cross_entropy_loss_class_indices(mode, reduction, weighted, smoothing, spatial):
    shape = (6, 4, 3) if spatial else (6, 4)
    logits = _x(*shape)
    target = RNG.integers(0, 4, (6, 3) if spatial else 6).astype(np.int64)
    target.flat[1] = -100  # ignored
    weight = np.array([0.5, 2.0, 1.0, 3.0], np.float32) if weighted else None
    loss = nn.CrossEntropyLoss(weight=None if weight is None else Tensor(weight), reduction=reduction,
                               label_smoothing=smoothing)
    _check(loss, [logits, target], ref_ce_indices(logits, target, weight, -100, reduction, smoothing))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_cross_entropy_loss_probabilities(mode, reduction):
    logits = _x(5, 3)
    probs = np.abs(_x(5, 3))
    probs /= probs.sum(1, keepdims=True)
    weight = np.array([1.0, 2.0, 0.5], np.float32)
    t = probs * 0.9 + 0.1 / 3
    per = -(t * _log_softmax(logits, 1) * weight).sum(1)
    _check(nn.CrossEntropyLoss(weight=Tensor(weight), reduction=reduction, label_smoothing=0.1), [logits, probs],
           _reduce(per, reduction))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_nll_loss(mode, reduction):
    lp = _log_softmax(_x(6, 5), 1).astype(np.float32)
    target = np.array([0, 4, 2, 7, 1, 3], np.int32)
    weight = np.array([1, 2, 3, 4, 5], np.float32)
    loss = nn.NLLLoss(weight=Tensor(weight), ignore_index=7, reduction=reduction)
    valid = target != 7
    t = np.where(valid, target, 0)
    per = -lp[np.arange(6), t] * weight[t] * valid
    expected = per.sum() / (weight[t] * valid).sum() if reduction == "mean" else _reduce(per, reduction)
    _check(loss, [lp, target], expected)


ELEMENTWISE = {
    "MSELoss": (lambda r: nn.MSELoss(r), lambda x, y: (x - y) ** 2),
    "L1Loss": (lambda r: nn.L1Loss(r), lambda x, y: np.abs(x - y)),
    "SmoothL1Loss_beta0.5": (lambda r: nn.SmoothL1Loss(beta=0.5, reduction=r),
                             lambda x, y: np.where(np.abs(x - y) < 0.5, 0.5 * (x - y) ** 2 / 0.5,
                                                   np.abs(x - y) - 0.25)),
    "HuberLoss_delta0.7": (lambda r: nn.HuberLoss(r, delta=0.7),
                           lambda x, y: np.where(np.abs(x - y) <= 0.7, 0.5 * (x - y) ** 2,
                                                 0.7 * (np.abs(x - y) - 0.35))),
}


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name", list(ELEMENTWISE))
def test_elementwise_losses(mode, name, reduction):
    make, f = ELEMENTWISE[name]
    x, y = _x(4, 3), _x(4, 3)
    _check(make(reduction), [x, y], _reduce(f(x.astype(np.float64), y), reduction))


def test_loss_defaults_match_mindspore():
    assert nn.SmoothL1Loss().reduction == "none" and nn.SmoothL1Loss().beta == 1.0
    assert nn.MSELoss().reduction == "mean" and nn.HuberLoss().delta == 1.0
    assert nn.CrossEntropyLoss().ignore_index == -100
    np.testing.assert_allclose(nn.L1Loss()(Tensor(np.array([1, 2, 3], np.float32)),
                                           Tensor(np.array([1, 2, 2], np.float32))).asnumpy(), 1 / 3, rtol=1e-6)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_bce_losses(mode, reduction):
    p = 1 / (1 + np.exp(-_x(4, 3)))
    y = (RNG.random((4, 3)) > 0.5).astype(np.float32)
    w = np.abs(_x(4, 3))
    per = -w * (y * np.log(p) + (1 - y) * np.log(1 - p))
    _check(nn.BCELoss(weight=Tensor(w), reduction=reduction), [p.astype(np.float32), y], _reduce(per, reduction),
           rtol=1e-5)
    logits = _x(4, 3)
    pw = np.array([1.0, 2.0, 0.5], np.float32)
    sig = 1 / (1 + np.exp(-logits.astype(np.float64)))
    per = -w * (pw * y * np.log(sig) + (1 - y) * np.log(1 - sig))
    _check(nn.BCEWithLogitsLoss(reduction, weight=Tensor(w), pos_weight=Tensor(pw)), [logits, y],
           _reduce(per, reduction), rtol=1e-5)
    with pytest.raises(ValueError, match=r"BCELoss: 'logits' and 'labels' must have the same shape, but got \(4, 3\) "
                                         r"and \(3,\)"):
        nn.BCELoss()(Tensor(p.astype(np.float32)), Tensor(y[0]))


@pytest.mark.parametrize("reduction", ["mean", "batchmean", "sum", "none"])
def test_kl_div_loss(mode, reduction):
    lp = _log_softmax(_x(3, 4), 1).astype(np.float32)
    q = np.abs(_x(3, 4))
    q /= q.sum(1, keepdims=True)
    q[0, 0] = 0.0  # 0 * log 0 counts as 0
    per = np.where(q > 0, q * (np.log(np.where(q > 0, q, 1)) - lp), 0)
    expected = per.sum() / 3 if reduction == "batchmean" else _reduce(per, reduction)
    _check(nn.KLDivLoss(reduction), [lp, q], expected)


def test_loss_gradients_match_formulas(mode):
    logits, labels = _x(4, 5), np.array([0, 3, 1, 4], np.int32)
    loss = nn.CrossEntropyLoss()
    fn = ms.grad(lambda a, b: loss(a, b))
    g = (ms.jit(fn) if mode == ms.GRAPH_MODE else fn)(Tensor(logits), Tensor(labels)).asnumpy()
    expected = (np.exp(_log_softmax(logits, 1)) - np.eye(5)[labels]) / 4
    np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-7)


class WeightedMAE(nn.LossBase):
    """A user loss in the ModelZoo style: elementwise loss, then get_loss with weights."""

    def construct(self, logits, labels):
        return self.get_loss(ops.abs(logits - labels), weights=Tensor(np.array([1.0, 0.0, 2.0], np.float32)))


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_loss_base_subclass_get_loss(mode, reduction):
    x, y = _x(2, 3), _x(2, 3)
    per = np.abs(x - y) * np.array([1.0, 0.0, 2.0])
    out = _check(WeightedMAE(reduction), [x, y], _reduce(per, reduction))
    assert out.dtype == ms.float32
    half = WeightedMAE(reduction)(Tensor(x.astype(np.float16)), Tensor(y.astype(np.float16)))
    assert half.dtype == ms.float16  # computed in float32, returned in the input's dtype
    with pytest.raises(ValueError, match="WeightedMAE: 'reduction' must be one of \\['mean', 'sum', 'none'\\], but got "
                                         "'avg'"):
        WeightedMAE("avg")
    assert nn.LossBase().get_axis(Tensor(x)) == (0, 1)
