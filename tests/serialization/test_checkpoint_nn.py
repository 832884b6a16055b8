"""Checkpoints with real nn layers: the MindSpore LeNet5 fixture reproduces MindSpore's logits once loaded."""
import numpy as np
from ckpt_test_support import LENET

import mindspore_hl as ms
from mindspore_hl.serialization import load_checkpoint, load_param_into_net, save_checkpoint
from model_zoo.lenet.src import LeNet5


def test_lenet_fixture_reproduces_mindspore_logits():
    net = LeNet5()
    net.set_train(False)
    not_loaded, unused = load_param_into_net(net, load_checkpoint(str(LENET / "lenet5_trained.ckpt")))
    assert not_loaded == [] and unused[:3] == ["global_step", "learning_rate", "momentum"]
    out = net(ms.Tensor(np.load(LENET / "input.npy"))).asnumpy()
    np.testing.assert_allclose(out, np.load(LENET / "logits.npy"), rtol=1e-4, atol=1e-5)


def test_dense_net_round_trip_gives_identical_outputs(tmp_path):
    src, dst = LeNet5(), LeNet5()
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 1, 32, 32)).astype(np.float32))
    assert not np.allclose(src(x).asnumpy(), dst(x).asnumpy())
    for fmt in ("ckpt", "safetensors"):
        path = str(tmp_path / f"lenet.{fmt}")
        save_checkpoint(src, path, format=fmt)
        dst = LeNet5()
        assert load_param_into_net(dst, load_checkpoint(path, format=fmt)) == ([], [])
        np.testing.assert_array_equal(src(x).asnumpy(), dst(x).asnumpy())
