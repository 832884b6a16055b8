"""Mixed precision: amp levels, float32 master weights, loss scalers / managers, overflow skipping."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import amp, nn
from mindspore_hl.amp import (
    DynamicLossScaleManager,
    DynamicLossScaler,
    FixedLossScaleManager,
    StaticLossScaler,
    all_finite,
    auto_mixed_precision,
    build_train_network,
)
from mindspore_hl.train import Model


class BNNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(6, 8)
        self.bn = nn.BatchNorm1d(8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.bn(self.fc1(x))))


class RecordingBN(nn.BatchNorm1d):
    """A BatchNorm (so amp treats it as one) that records the dtype it computes in."""

    seen = []

    def construct(self, x):
        RecordingBN.seen.append(("bn", str(x.dtype)))
        return super().construct(x)


class RecordingNet(BNNet):
    def __init__(self):
        super().__init__()
        self.bn = RecordingBN(8)

    def construct(self, x):
        h = self.fc1(x)
        RecordingBN.seen.append(("fc1", str(h.dtype)))
        return self.fc2(self.relu(self.bn(h)))


def _x(n=4):
    return ms.Tensor(np.random.default_rng(0).normal(size=(n, 6)).astype(np.float32))


@pytest.mark.parametrize("level, dtype, inner, bn", [("O2", ms.float16, "Float16", "Float32"),
                                                     ("O3", ms.float16, "Float16", "Float16"),
                                                     ("O2", ms.bfloat16, "BFloat16", "Float32")])
def test_levels_compute_dtypes(level, dtype, inner, bn):
    net = RecordingNet()
    names = [p.name for p in net.get_parameters()]
    RecordingBN.seen = []
    out = auto_mixed_precision(net, level, dtype=dtype)
    y = out(_x())
    assert y.dtype == ms.float32  # O2 / O3 cast the output back to float32
    assert RecordingBN.seen == [("fc1", inner), ("bn", bn)]
    assert all(p.dtype == ms.float32 for p in net.get_parameters())  # float32 master weights
    assert [p.name for p in out.get_parameters()] == names


def test_o1_casts_white_list_cells_only():
    net = BNNet()
    out = auto_mixed_precision(net, "O1")
    assert out is net
    assert type(net.fc1).__name__ == "_OutputCast" and type(net.bn).__name__ == "BatchNorm1d"
    assert net(_x()).dtype == ms.float32
    with pytest.raises(ValueError, match="amp level"):
        auto_mixed_precision(BNNet(), "O4")


def test_build_train_network_levels():
    def build(level, **kw):
        net = BNNet()
        return build_train_network(net, nn.Momentum(net.trainable_params(), 0.1, 0.9),
                                   nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), level, **kw)
    assert type(build("O0")).__name__ == "TrainOneStepCell"
    o2 = build("O2")
    assert isinstance(o2, nn.TrainOneStepWithLossScaleCell)
    assert isinstance(o2.loss_scaling_manager, nn.DynamicLossScaleUpdateCell)
    assert float(o2.scale_sense.asnumpy()) == 2.0 ** 24
    fixed = build("O3", loss_scale_manager=FixedLossScaleManager(1024.0, drop_overflow_update=False))
    assert type(fixed).__name__ == "TrainOneStepCell" and fixed.sens == 1024.0
    dyn = build("O2", loss_scale_manager=DynamicLossScaleManager(init_loss_scale=256, scale_window=10))
    assert float(dyn.scale_sense.asnumpy()) == 256.0
    auto = build("auto")  # 'auto' is O0 on CPU and O2 on GPU, as in MindSpore
    if ms.get_context("device_target") == "GPU":
        assert isinstance(auto, nn.TrainOneStepWithLossScaleCell)
    else:
        assert type(auto).__name__ == "TrainOneStepCell"
    with pytest.raises(ValueError, match="unsupported argument"):
        build("O0", precision="half")


def test_overflow_skips_the_update_and_halves_the_scale():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = BNNet()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    train = build_train_network(net, opt, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), "O2",
                                loss_scale_manager=DynamicLossScaleManager(init_loss_scale=2.0 ** 40,
                                                                           scale_window=2))
    x, y = _x(), ms.Tensor(np.array([0, 1, 2, 0], np.int32))
    before = {n: p.asnumpy().copy() for n, p in net.parameters_and_names() if "moving" not in n}
    loss, overflow, scale = train(x, y)
    assert bool(overflow.asnumpy()) and float(scale.asnumpy()) == 2.0 ** 39  # float16 gradients overflowed
    for n, p in net.parameters_and_names():
        if n in before:
            np.testing.assert_array_equal(p.asnumpy(), before[n], err_msg=n)
    for _ in range(40):  # the scale falls until the gradients fit, then training updates the weights
        loss, overflow, scale = train(x, y)
    assert not bool(overflow.asnumpy())
    assert not np.array_equal(net.fc1.weight.asnumpy(), before["fc1.weight"])
    assert net.fc1.weight.dtype == ms.float32


def test_dynamic_loss_scaler_sequence():
    s = DynamicLossScaler(scale_value=2 ** 10, scale_factor=2, scale_window=3)
    grads = (ms.Tensor(np.array([2.0, 4.0], np.float32)),)
    np.testing.assert_allclose(s.unscale(s.scale(grads))[0].asnumpy(), [2.0, 4.0])
    assert float(s.scale(ms.Tensor(1.5)).asnumpy()) == 1.5 * 1024
    history = []
    for finite in (True, True, True, False, True):
        s.adjust(ms.Tensor(finite))
        history.append((float(s.scale_value.asnumpy()), int(s.counter.asnumpy())))
    assert history == [(1024, 1), (1024, 2), (2048, 0), (1024, 0), (1024, 1)]
    assert StaticLossScaler(8).adjust(ms.Tensor(False)) is False
    assert bool(all_finite((ms.Tensor(np.ones(2, np.float32)),)).asnumpy())
    assert not bool(all_finite([ms.Tensor(np.array([1.0, np.inf], np.float32))]).asnumpy())


def test_scaler_inside_jit():
    s = DynamicLossScaler(scale_value=4.0, scale_factor=2, scale_window=1)

    @ms.jit
    def step(x):
        s.adjust(all_finite((x,)))
        return s.scale(x)

    ms.set_context(mode=ms.GRAPH_MODE)
    out = step(ms.Tensor(np.ones(2, np.float32)))
    np.testing.assert_allclose(out.asnumpy(), [8.0, 8.0])
    assert float(s.scale_value.asnumpy()) == 8.0


def test_model_amp_o2_trains_and_syncs_manager():
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(1)
    x = rng.normal(size=(64, 6)).astype(np.float32)
    y = (x @ rng.normal(size=(6, 3))).argmax(1).astype(np.int32)
    data = [(x[i:i + 16], y[i:i + 16]) for i in range(0, 64, 16)]
    net = BNNet()
    manager = DynamicLossScaleManager(init_loss_scale=2.0 ** 16, scale_window=4)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.05, 0.9), metrics={"acc"}, amp_level="O2",
                  loss_scale_manager=manager)
    model.train(8, data)
    assert model.eval(data)["acc"] > 0.8
    assert manager.get_loss_scale() == float(model.train_network.scale_sense.asnumpy())
    assert manager.get_loss_scale() != 2.0 ** 16  # it moved during training (growth or overflow)
    assert net.fc1.weight.dtype == ms.float32


def test_manager_validation():
    with pytest.raises(ValueError):
        FixedLossScaleManager(0.5)
    with pytest.raises(ValueError):
        DynamicLossScaleManager(scale_window=0)
    m = DynamicLossScaleManager(init_loss_scale=8, scale_factor=2, scale_window=2)
    m.update_loss_scale(True)
    m.update_loss_scale(False)
    m.update_loss_scale(False)
    assert m.get_loss_scale() == 8  # halved to 4, then doubled after 2 good steps
    assert amp.get_black_list() and nn.BatchNorm2d in amp.get_black_list()
