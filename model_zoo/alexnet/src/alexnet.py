"""AlexNet as in MindSpore ModelZoo (official/cv/AlexNet/src/alexnet.py), ModelZoo parameter names.

Input (N, 3, 227, 227) (or 224x224); with ``off_load=True`` the network takes raw NHWC pixels and normalises them
with ImageNet's mean/std first (``DataNormTranspose``), as ModelZoo does when preprocessing runs on the device.
"""
from __future__ import annotations

import numpy as np

import mindspore_hl.nn as nn
import mindspore_hl.ops as ops
from mindspore_hl.common.tensor import Tensor

__all__ = ["AlexNet", "DataNormTranspose", "conv", "fc_with_initialize"]


def conv(in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
         pad_mode: str = "valid", has_bias: bool = True) -> nn.Conv2d:
    return nn.Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, padding=padding,
                     has_bias=has_bias, pad_mode=pad_mode)


def fc_with_initialize(input_channels: int, out_channels: int, has_bias: bool = True) -> nn.Dense:
    return nn.Dense(input_channels, out_channels, has_bias=has_bias)


class DataNormTranspose(nn.Cell):
    """(x - mean) / std per RGB channel on NHWC pixels in [0, 255], then NHWC -> NCHW."""

    def __init__(self) -> None:
        super().__init__()
        self.mean = Tensor(np.array([0.485 * 255, 0.456 * 255, 0.406 * 255], np.float32).reshape((1, 1, 1, 3)))
        self.std = Tensor(np.array([0.229 * 255, 0.224 * 255, 0.225 * 255], np.float32).reshape((1, 1, 1, 3)))

    def construct(self, x: Tensor) -> Tensor:
        return ops.transpose((x - self.mean) / self.std, (0, 3, 1, 2))


class AlexNet(nn.Cell):
    """Five convolutions (64-128-192-256-256) with three max-pools, then fc1/fc2 (4096) and fc3."""

    def __init__(self, num_classes: int = 10, channel: int = 3, phase: str = 'train', include_top: bool = True,
                 off_load: bool = False) -> None:
        super().__init__()
        self.off_load = off_load
        if self.off_load is True:
            self.data_trans = DataNormTranspose()
        self.conv1 = conv(channel, 64, 11, stride=4, pad_mode="same", has_bias=True)
        self.conv2 = conv(64, 128, 5, pad_mode="same", has_bias=True)
        self.conv3 = conv(128, 192, 3, pad_mode="same", has_bias=True)
        self.conv4 = conv(192, 256, 3, pad_mode="same", has_bias=True)
        self.conv5 = conv(256, 256, 3, pad_mode="same", has_bias=True)
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode='valid')
        self.include_top = include_top
        if self.include_top:
            dropout_ratio = 0.65
            if phase == 'test':
                dropout_ratio = 1.0
            self.flatten = nn.Flatten()
            self.fc1 = fc_with_initialize(6 * 6 * 256, 4096)
            self.fc2 = fc_with_initialize(4096, 4096)
            self.fc3 = fc_with_initialize(4096, num_classes)
            self.dropout = nn.Dropout(p=1 - dropout_ratio)

    def construct(self, x: Tensor) -> Tensor:
        if self.off_load is True:
            x = self.data_trans(x)
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.relu(self.conv3(x))
        x = self.relu(self.conv4(x))
        x = self.max_pool2d(self.relu(self.conv5(x)))
        if not self.include_top:
            return x
        x = self.dropout(self.relu(self.fc1(self.flatten(x))))
        x = self.dropout(self.relu(self.fc2(x)))
        return self.fc3(x)
