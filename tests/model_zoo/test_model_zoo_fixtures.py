"""ModelZoo networks + real MindSpore checkpoints: everything loads and reproduces MindSpore's outputs (issue 6)."""
import json
import lzma
import shutil

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor, nn
from model_zoo.lenet.src import LeNet5
from model_zoo.resnet.src import resnet50

LENET_TOL = dict(rtol=1e-4, atol=1e-5)
RESNET_TOL = dict(rtol=1e-3, atol=1e-4)


@pytest.fixture
def lenet_dir(fixtures_dir):
    return fixtures_dir / "lenet5"


def _train_net(net, lr=0.01, momentum=0.9):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=lr, momentum=momentum)
    return nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt), opt


def test_lenet_checkpoint_loads_completely_and_reproduces_logits(lenet_dir, mode):
    net = LeNet5(10)
    param_dict = ms.load_checkpoint(str(lenet_dir / "lenet5_trained.ckpt"))
    not_loaded, unused = ms.load_param_into_net(net, param_dict)
    assert not_loaded == []
    assert sorted(unused) == sorted(k for k in param_dict if k in ("global_step", "learning_rate", "momentum")
                                    or k.startswith("moments."))
    net.set_train(False)
    logits = net(Tensor(np.load(lenet_dir / "input.npy"))).asnumpy()
    np.testing.assert_allclose(logits, np.load(lenet_dir / "logits.npy"), **LENET_TOL)


def test_lenet_optimizer_state_resumes_momentum(lenet_dir, mode):
    """Loading network + optimizer state into the train network, one more step gives MindSpore's parameters."""
    net = LeNet5(10)
    train_net, opt = _train_net(net)
    not_loaded, unused = ms.load_param_into_net(train_net, ms.load_checkpoint(str(lenet_dir / "lenet5_trained.ckpt")))
    assert not_loaded == [] and unused == []
    train_net.set_train(True)
    loss = train_net(Tensor(np.load(lenet_dir / "input.npy")), Tensor(np.load(lenet_dir / "labels.npy")))
    expected_loss = json.loads((lenet_dir / "loss.json").read_text())
    expected_loss = expected_loss["loss"] if isinstance(expected_loss, dict) else expected_loss
    np.testing.assert_allclose(float(loss.asnumpy()), expected_loss, **LENET_TOL)
    after = np.load(lenet_dir / "params_after_one_more_step.npz")
    for name, param in net.parameters_and_names():
        np.testing.assert_allclose(param.asnumpy(), after[name], err_msg=name, **LENET_TOL)


def test_checkpoint_written_by_us_has_mindspores_layout(lenet_dir, tmp_path):
    """Same tags, types, dims and order as real MindSpore's file (the values are the loaded ones)."""
    from mindspore_hl.serialization import _ckpt_format
    net = LeNet5(10)
    train_net, _ = _train_net(net)
    ms.load_param_into_net(train_net, ms.load_checkpoint(str(lenet_dir / "lenet5_trained.ckpt")))
    ms.save_checkpoint(train_net, str(tmp_path / "ours.ckpt"))
    ours = _ckpt_format.read(str(tmp_path / "ours.ckpt"))
    theirs = _ckpt_format.read(str(lenet_dir / "lenet5_trained.ckpt"))
    assert [n for n, _ in ours] == [n for n, _ in theirs]
    for (n, a), (_, b) in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape, n
    assert (tmp_path / "ours.ckpt").read_bytes() == (lenet_dir / "lenet5_trained.ckpt").read_bytes()


@pytest.fixture(scope="module")
def resnet_ckpt(tmp_path_factory, fixtures_dir):
    src = fixtures_dir / "resnet50" / "resnet50.ckpt.xz"
    if not src.exists():
        pytest.skip("ResNet50 fixture missing")
    dst = tmp_path_factory.mktemp("resnet") / "resnet50.ckpt"
    with lzma.open(src) as fin, open(dst, "wb") as fout:
        shutil.copyfileobj(fin, fout)
    return dst


@pytest.mark.slow
def test_resnet50_checkpoint_reproduces_eval_and_train_outputs(resnet_ckpt, fixtures_dir):
    d = fixtures_dir / "resnet50"
    ms.set_context(mode=ms.GRAPH_MODE)
    net = resnet50(10)
    not_loaded, unused = ms.load_param_into_net(net, ms.load_checkpoint(str(resnet_ckpt)))
    assert not_loaded == [] and unused == []
    x = Tensor(np.load(d / "input.npy"))
    net.set_train(False)
    np.testing.assert_allclose(net(x).asnumpy(), np.load(d / "logits_eval.npy"), **RESNET_TOL)
    net.set_train(True)
    np.testing.assert_allclose(net(x).asnumpy(), np.load(d / "logits_train.npy"), **RESNET_TOL)
    bn = np.load(d / "bn_after_train_forward.npz")
    params = net.parameters_dict()
    for name in bn.files:
        np.testing.assert_allclose(params[name].asnumpy(), bn[name], err_msg=name, **RESNET_TOL)
