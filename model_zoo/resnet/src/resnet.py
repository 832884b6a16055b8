"""ResNet18/34/50/101/152 as in MindSpore ModelZoo (official/cv/ResNet/src/resnet.py): v1.5 bottlenecks,
ModelZoo parameter names.

``resnet50(class_num=10)`` takes CIFAR-10 (32x32) as well as ImageNet (224x224) inputs.
"""
from __future__ import annotations

import math

import mindspore_hl.nn as nn
import mindspore_hl.ops as ops
from mindspore_hl.common.initializer import HeNormal, HeUniform
from mindspore_hl.common.tensor import Tensor


def _conv(cin: int, cout: int, k: int, stride: int = 1, res_base: bool = False) -> nn.Conv2d:
    weight = HeNormal(mode="fan_out", nonlinearity="relu")
    if res_base:
        return nn.Conv2d(cin, cout, k, stride=stride, padding=k // 2, pad_mode="pad", weight_init=weight)
    return nn.Conv2d(cin, cout, k, stride=stride, padding=0, pad_mode="same", weight_init=weight)


def _bn(channel: int, res_base: bool = False) -> nn.BatchNorm2d:
    if res_base:  # ModelZoo's R18/34 setting (momentum is MindSpore's keep factor)
        return nn.BatchNorm2d(channel, eps=1e-5, momentum=0.1, gamma_init=1, beta_init=0,
                              moving_mean_init=0, moving_var_init=1)
    return nn.BatchNorm2d(channel, eps=1e-4, momentum=0.9, gamma_init=1, beta_init=0,
                          moving_mean_init=0, moving_var_init=1)


def _fc(cin: int, cout: int) -> nn.Dense:
    return nn.Dense(cin, cout, has_bias=True, weight_init=HeUniform(math.sqrt(5)), bias_init=0)


class ResidualBlock(nn.Cell):
    """Bottleneck block (expansion 4), stride on the 3x3 convolution (ResNet v1.5)."""

    expansion = 4

    def __init__(self, in_channel: int, out_channel: int, stride: int = 1) -> None:
        super().__init__()
        channel = out_channel // self.expansion
        self.conv1 = _conv(in_channel, channel, 1)
        self.bn1 = _bn(channel)
        self.conv2 = _conv(channel, channel, 3, stride)
        self.bn2 = _bn(channel)
        self.conv3 = _conv(channel, out_channel, 1)
        self.bn3 = _bn(out_channel)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        self.down_sample_layer: nn.SequentialCell | None = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv(in_channel, out_channel, 1, stride), _bn(out_channel)])

    def construct(self, x: Tensor) -> Tensor:
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.down_sample_layer is not None:  # (set exactly when down_sample)
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResidualBlockBase(nn.Cell):
    """Basic block of ResNet18/34 (two 3x3 convolutions)."""

    expansion = 1

    def __init__(self, in_channel: int, out_channel: int, stride: int = 1) -> None:
        super().__init__()
        self.conv1 = _conv(in_channel, out_channel, 3, stride, res_base=True)
        # ModelZoo builds bn1d/bn2d with _bn(out_channel): eps=1e-4, momentum=0.9 (only the stem and the
        # down-sampling BatchNorm take the res_base setting)
        self.bn1d = _bn(out_channel)
        self.conv2 = _conv(out_channel, out_channel, 3, 1, res_base=True)
        self.bn2d = _bn(out_channel)
        self.relu = nn.ReLU()
        self.down_sample = stride != 1 or in_channel != out_channel
        self.down_sample_layer: nn.SequentialCell | None = None
        if self.down_sample:
            self.down_sample_layer = nn.SequentialCell([_conv(in_channel, out_channel, 1, stride, res_base=True),
                                                        _bn(out_channel, res_base=True)])

    def construct(self, x: Tensor) -> Tensor:
        identity = x
        out = self.relu(self.bn1d(self.conv1(x)))
        out = self.bn2d(self.conv2(out))
        if self.down_sample_layer is not None:  # (set exactly when down_sample)
            identity = self.down_sample_layer(identity)
        return self.relu(out + identity)


class ResNet(nn.Cell):
    """ResNet backbone + head.

    Args:
        block: ResidualBlock or ResidualBlockBase; layer_nums, in_channels, out_channels, strides: per stage.
        num_classes: classes of the final Dense layer; res_base: ResNet18/34 stem (explicit padding).
    """

    def __init__(self, block: type[ResidualBlock] | type[ResidualBlockBase], layer_nums: list[int],
                 in_channels: list[int], out_channels: list[int], strides: list[int], num_classes: int,
                 res_base: bool = False) -> None:
        super().__init__()
        if not len(layer_nums) == len(in_channels) == len(out_channels) == len(strides) == 4:
            raise ValueError("ResNet: layer_nums, in_channels, out_channels and strides must each have 4 entries.")
        self.res_base = res_base
        self.conv1 = _conv(3, 64, 7, 2, res_base=res_base)
        self.bn1 = _bn(64, res_base)
        self.relu = ops.ReLU()
        if res_base:
            self.pad = nn.Pad(paddings=((0, 0), (0, 0), (1, 1), (1, 1)))
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="valid")
        else:
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")
        stages = []
        for n, cin, cout, s in zip(layer_nums, in_channels, out_channels, strides):
            blocks = [block(cin, cout, s)] + [block(cout, cout, 1) for _ in range(n - 1)]
            stages.append(nn.SequentialCell(blocks))
        self.layer1, self.layer2, self.layer3, self.layer4 = stages
        self.mean = ops.ReduceMean(keep_dims=True)  # type: ignore[attr-defined]  # (ops' names are not static)
        self.flatten = nn.Flatten()
        self.end_point = _fc(out_channels[3], num_classes)

    def construct(self, x: Tensor) -> Tensor:
        x = self.relu(self.bn1(self.conv1(x)))
        if self.res_base:
            x = self.pad(x)
        x = self.maxpool(x)
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        x = self.flatten(self.mean(x, (2, 3)))
        return self.end_point(x)


def resnet18(class_num: int = 10) -> ResNet:
    return ResNet(ResidualBlockBase, [2, 2, 2, 2], [64, 64, 128, 256], [64, 128, 256, 512], [1, 2, 2, 2],
                  class_num, res_base=True)


def resnet34(class_num: int = 10) -> ResNet:
    return ResNet(ResidualBlockBase, [3, 4, 6, 3], [64, 64, 128, 256], [64, 128, 256, 512], [1, 2, 2, 2],
                  class_num, res_base=True)


def resnet50(class_num: int = 10) -> ResNet:
    return ResNet(ResidualBlock, [3, 4, 6, 3], [64, 256, 512, 1024], [256, 512, 1024, 2048], [1, 2, 2, 2],
                  class_num)


def resnet101(class_num: int = 1001) -> ResNet:
    return ResNet(ResidualBlock, [3, 4, 23, 3], [64, 256, 512, 1024], [256, 512, 1024, 2048], [1, 2, 2, 2],
                  class_num)


def resnet152(class_num: int = 1001) -> ResNet:
    return ResNet(ResidualBlock, [3, 8, 36, 3], [64, 256, 512, 1024], [256, 512, 1024, 2048], [1, 2, 2, 2],
                  class_num)
