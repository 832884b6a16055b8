"""TrainOneStepCell & co against a hand-written NumPy SGD on a linear model, in both modes."""
import numpy as np
import pytest

from mindspore_hl import Parameter, ParameterTuple, Tensor, nn, ops


class Linear(nn.Cell):
    def __init__(self, w):
        super().__init__()
        self.weight = Parameter(Tensor(w.copy()), name="weight")

    def construct(self, x):
        return ops.matmul(x, self.weight)


class MSE(nn.Cell):
    def construct(self, pred, y):
        return ops.mean((pred - y) ** 2)


class PlainSGD(nn.Cell):
    """A minimal optimizer Cell (the real ones live in nn.optim) so this test only exercises the wrapper."""

    def __init__(self, params, lr):
        super().__init__(auto_prefix=False)
        self.parameters = ParameterTuple(params)
        self.lr = lr

    def construct(self, grads):
        for p, g in zip(self.parameters, grads):
            p.set_data(p - self.lr * g)
        return True


def _numpy_sgd(w, x, y, lr, steps):
    losses = []
    for _ in range(steps):
        err = x @ w - y
        losses.append(np.mean(err ** 2))
        w = w - lr * 2 * x.T @ err / err.size
    return w, losses


@pytest.mark.parametrize("sens", [None, 4.0])
def test_train_one_step_matches_numpy(mode, sens):
    rng = np.random.default_rng(0)
    w0 = rng.normal(size=(3, 2)).astype(np.float32)
    x, y = rng.normal(size=(8, 3)).astype(np.float32), rng.normal(size=(8, 2)).astype(np.float32)
    net = Linear(w0)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, MSE()), PlainSGD(net.trainable_params(), 0.1), sens=sens)
    losses = [float(step(Tensor(x), Tensor(y)).asnumpy()) for _ in range(4)]
    eff_lr = 0.1 * (sens or 1.0)  # sens scales the gradients (the optimizer's loss_scale would undo it)
    w_ref, loss_ref = _numpy_sgd(w0.astype(np.float64), x, y, eff_lr, 4)
    np.testing.assert_allclose(losses, loss_ref, rtol=1e-5)
    np.testing.assert_allclose(net.weight.asnumpy(), w_ref, rtol=1e-5, atol=1e-6)


def test_with_loss_and_eval_cells_keep_parameter_names():
    net = Linear(np.ones((3, 2), np.float32))
    loss_net = nn.WithLossCell(net, MSE())
    assert [n for n, _ in loss_net.parameters_and_names()] == ["weight"]
    x, y = Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 2), np.float32))
    loss, out, label = nn.WithEvalCell(net, MSE())(x, y)
    np.testing.assert_allclose(out.asnumpy(), np.full((2, 2), 3.0))
    assert float(loss.asnumpy()) == pytest.approx(9.0)


def test_loss_scale_cell_skips_update_on_overflow_and_adapts_scale(mode):
    net = Linear(np.ones((3, 1), np.float32))
    manager = nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 10, scale_factor=2, scale_window=2)
    manager._init_scale = 2.0 ** 10
    step = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, MSE()), PlainSGD(net.trainable_params(), 0.01),
                                            scale_sense=manager)
    x, y = Tensor(np.ones((2, 3), np.float32)), Tensor(np.zeros((2, 1), np.float32))
    loss, overflow, scale = step(x, y)
    assert not bool(overflow.asnumpy()) and float(scale.asnumpy()) == 2.0 ** 10
    # loss = mean_rows((x.w)^2) with x.w = 3: dloss/dw_j = 2 * 3 * x_j = 6 -> w = 1 - 0.01 * 6 (unscaled)
    np.testing.assert_allclose(net.weight.asnumpy(), np.full((3, 1), 1 - 0.06), rtol=1e-5)
    before = net.weight.asnumpy().copy()
    bad = Tensor(np.full((2, 3), np.inf, np.float32))
    loss, overflow, scale = step(bad, y)
    assert bool(overflow.asnumpy())
    assert float(scale.asnumpy()) == 2.0 ** 9  # halved on overflow
    np.testing.assert_array_equal(net.weight.asnumpy(), before)  # update skipped
