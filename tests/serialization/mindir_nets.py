"""Networks exported to MindIR by the tests and by ``tools/oracle/export_mindir_here.py`` (whose files real
MindSpore then runs), with weights drawn from a seeded generator so both sides hold the same values."""
from __future__ import annotations

import numpy as np

from mindspore_hl import Tensor, nn, ops
from model_zoo.lenet.src import LeNet5


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
            "mini_resnet": (seeded(MiniResNet(), 2), rng.normal(size=(2, 3, 16, 16)).astype(np.float32))}
    for net, _ in nets.values():
        net.set_train(False)
    return nets
