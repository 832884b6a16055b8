"""LeNet5 as in MindSpore ModelZoo (research/cv/lenet/src/lenet.py): same layers, defaults and parameter names."""
import mindspore_hl.nn as nn
from mindspore_hl.common.initializer import Normal
from mindspore_hl.common.tensor import Tensor


class LeNet5(nn.Cell):
    """LeNet5 for (N, num_channel, 32, 32) inputs.

    Args:
        num_class: number of classes; num_channel: input channels; include_top: add the three Dense layers.
    Returns:
        logits of shape (N, num_class), or the flattened (N, 400) features without the top.
    """

    def __init__(self, num_class: int = 10, num_channel: int = 1, include_top: bool = True) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.include_top = include_top
        if self.include_top:
            self.flatten = nn.Flatten()
            self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
            self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
            self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))

    def construct(self, x: Tensor) -> Tensor:
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        if not self.include_top:
            return x
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        return self.fc3(x)
