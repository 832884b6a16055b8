"""Checkpoints with real nn layers: the MindSpore LeNet5 fixture reproduces MindSpore's logits once loaded."""
import numpy as np

import mindspore_hl as ms
from ckpt_test_support import LENET
from mindspore_hl import nn
from mindspore_hl.serialization import load_checkpoint, load_param_into_net, save_checkpoint


class LeNet5(nn.Cell):
    """ModelZoo LeNet5(num_class=10, num_channel=1), as in the fixture's ms_reference_nets.py."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120)
        self.fc2 = nn.Dense(120, 84)
        self.fc3 = nn.Dense(84, 10)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)


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
