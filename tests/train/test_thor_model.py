"""``ModelThor`` (from ``ConvertModelUtils.convert_to_thor_model``): training without dataset sinking refreshes
THOR's statistics every step, as in MindSpore; sink mode raises on a CPU target, as MindSpore's DatasetHelper."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor, nn
from mindspore_hl.dataset import NumpySlicesDataset


def _setup():
    ms.set_seed(7)
    net = nn.SequentialCell([nn.Dense(6, 8, activation="relu"), nn.Dense(8, 3)])
    lr = Tensor(np.full((16,), 0.05, np.float32))
    opt = nn.thor(net, lr, Tensor(np.full((16,), 0.3, np.float32)), 0.9, batch_size=4, frequency=2)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = ms.Model(net, loss_fn=loss, optimizer=opt)
    model = ms.ConvertModelUtils.convert_to_thor_model(model, network=net, loss_fn=loss, optimizer=opt)
    r = np.random.default_rng(0)
    data = {"x": r.standard_normal((12, 6)).astype(np.float32), "y": r.integers(0, 3, (12,)).astype(np.int32)}
    return net, opt, model, NumpySlicesDataset(data, shuffle=False).batch(4)


def test_model_thor_trains_with_a_thor_step_every_step():
    net, opt, model, ds = _setup()
    assert type(model).__name__ == "ModelThor" and model._frequency == 2
    w0 = net[0].weight.asnumpy().copy()
    model.train(1, ds, dataset_sink_mode=False)
    assert int(opt.cov_step.asnumpy()[0]) == 3
    assert not np.allclose(net[0].weight.asnumpy(), w0)
    assert np.abs(net[1].matrix_g.asnumpy() - np.eye(3)).max() > 0  # G was recorded during training
    assert np.all(np.isfinite(opt.matrix_a[0].asnumpy()))


def test_model_thor_sink_mode_raises_on_cpu():
    if ms.get_context("device_target") != "CPU":
        pytest.skip("checks MindSpore's CPU behaviour")
    _, _, model, ds = _setup()
    with pytest.raises(RuntimeError, match="dataset sink mode is not supported"):
        model.train(1, ds, dataset_sink_mode=True)
