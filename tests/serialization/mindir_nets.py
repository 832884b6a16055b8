"""Networks exported to MindIR by the tests and by ``tools/oracle/export_mindir_here.py`` (whose files real
MindSpore then runs), with weights drawn from a seeded generator so both sides hold the same values."""
from __future__ import annotations

import numpy as np
from mindir_weights import seeded_value

from mindspore_hl import Tensor, nn, ops
from model_zoo.lenet.src import LeNet5
from model_zoo.resnet.src.resnet import resnet50


class MiniResNet(nn.Cell):
    """A stem and one residual block: Conv2d (pad and same), BatchNorm2d, MaxPool2d (same), mean pooling, Dense."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, stride=2, pad_mode="pad", padding=1)
        self.bn1 = nn.BatchNorm2d(8, eps=1e-4)
        self.pool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")
        self.conv2 = nn.Conv2d(8, 8, 1)
        self.bn2 = nn.BatchNorm2d(8, eps=1e-4)
        self.fc = nn.Dense(8, 4)

    def construct(self, x):
        y = self.pool(ops.relu(self.bn1(self.conv1(x))))
        y = ops.relu(ops.add(self.bn2(self.conv2(y)), y))
        return self.fc(ops.flatten(ops.mean(y, (2, 3), True)))


class Encoder(nn.Cell):
    """Two Transformer encoder layers (post-norm, exact GELU, batch first), a final LayerNorm and a Dense head."""

    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.1, activation="gelu",
                                           batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, norm=nn.LayerNorm((16,), epsilon=1e-5))
        self.head = nn.Dense(16, 4)

    def construct(self, x):
        return self.head(self.encoder(x))


def seeded(net: nn.Cell, seed: int) -> nn.Cell:
    """Give every parameter values from a seeded generator: weights scaled by their fan-in, so outputs stay near
    1 and float32 rounding stays far below the tests' tolerance; BatchNorm variances positive."""
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        if "moving_variance" in p.name:
            value = rng.uniform(0.5, 1.5, p.shape)
        else:
            fan_in = int(np.prod(p.shape[1:])) if len(p.shape) > 1 else 4
            value = rng.normal(0.0, 1.0 / np.sqrt(fan_in), p.shape)
        p.set_data(Tensor(value.astype(np.float32)))
    return net


def networks() -> dict[str, tuple[nn.Cell, np.ndarray]]:
    """Name -> (network in eval mode, example input)."""
    rng = np.random.default_rng(7)
    nets = {"lenet5": (seeded(LeNet5(10), 1), rng.normal(size=(2, 1, 32, 32)).astype(np.float32)),
            "mini_resnet": (seeded(MiniResNet(), 2), rng.normal(size=(2, 3, 16, 16)).astype(np.float32)),
            "encoder": (seeded(Encoder(), 3), rng.normal(size=(2, 5, 16)).astype(np.float32))}
    for net, _ in nets.values():
        net.set_train(False)
    return nets


def resnet50_case(seed: int = 5) -> tuple[nn.Cell, np.ndarray]:
    """ModelZoo's ResNet50 (10 classes) in eval mode with ``seeded_value`` weights, and a CIFAR-sized input. Its
    MindIR (94 MB with the weights) is not committed; real MindSpore's outputs on it and its SHA-256 are."""
    net = resnet50(10)
    for p in net.get_parameters():
        p.set_data(Tensor(seeded_value(p.name, p.shape, seed)))
    net.set_train(False)
    return net, np.random.default_rng(11).normal(size=(2, 3, 32, 32)).astype(np.float32)
