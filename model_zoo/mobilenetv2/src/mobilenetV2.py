"""MobileNetV2 as in MindSpore ModelZoo (official/cv/MobileNetV2/src/mobilenetV2.py), ModelZoo parameter names.

``mobilenet_v2(backbone, head)`` combines without a name prefix (``auto_prefix=False``), so the parameters are
``features.<i>...`` and ``dense.*`` exactly as in ModelZoo's checkpoints.

>>> backbone = MobileNetV2Backbone(width_mult=0.25, last_channel=64)
>>> net = mobilenet_v2(backbone, MobileNetV2Head(input_channel=backbone.out_channels, num_classes=10))
>>> [name for name, _ in net.parameters_and_names()][:2]
['features.0.features.0.weight', 'features.0.features.1.moving_mean']
"""
from __future__ import annotations

import mindspore_hl.nn as nn
import mindspore_hl.ops as ops
from mindspore_hl.common.tensor import Tensor

__all__ = ["GlobalAvgPooling", "ConvBNReLU", "InvertedResidual", "MobileNetV2Backbone", "MobileNetV2Head",
           "MobileNetV2Combine", "mobilenet_v2"]

_DEFAULT_SETTING = [  # t (expansion), c (channels), n (repeats), s (first stride)
    [1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1]]


def _make_divisible(v: float, divisor: int, min_value: int | None = None) -> int:
    min_value = divisor if min_value is None else min_value
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:  # rounding down may not lose more than 10%
        new_v += divisor
    return new_v


class GlobalAvgPooling(nn.Cell):
    """Mean over H and W: (N, C, H, W) -> (N, C)."""

    def __init__(self) -> None:
        super().__init__()
        self.mean = ops.ReduceMean(keep_dims=False)  # type: ignore[attr-defined]

    def construct(self, x: Tensor) -> Tensor:
        return self.mean(x, (2, 3))


class ConvBNReLU(nn.Cell):
    """Convolution (depthwise when ``groups != 1``) + BatchNorm2d + ReLU6, in ``self.features``."""

    def __init__(self, in_planes: int, out_planes: int, kernel_size: int = 3, stride: int = 1,
                 groups: int = 1) -> None:
        super().__init__()
        padding = (kernel_size - 1) // 2
        if groups == 1:
            conv = nn.Conv2d(in_planes, out_planes, kernel_size, stride, pad_mode="pad", padding=padding)
        else:  # ModelZoo's depthwise convolution: one group per input channel
            conv = nn.Conv2d(in_planes, in_planes, kernel_size, stride, pad_mode="pad", padding=padding,
                             group=in_planes)
        self.features = nn.SequentialCell([conv, nn.BatchNorm2d(out_planes), nn.ReLU6()])

    def construct(self, x: Tensor) -> Tensor:
        return self.features(x)


class InvertedResidual(nn.Cell):
    """Expand (1x1) -> depthwise 3x3 -> project (1x1, linear), with a residual when shapes allow."""

    def __init__(self, inp: int, oup: int, stride: int, expand_ratio: int) -> None:
        super().__init__()
        if stride not in (1, 2):
            raise ValueError(f"InvertedResidual: stride must be 1 or 2, got {stride}.")
        hidden_dim = int(round(inp * expand_ratio))
        self.use_res_connect = stride == 1 and inp == oup
        layers: list[nn.Cell] = []
        if expand_ratio != 1:
            layers.append(ConvBNReLU(inp, hidden_dim, kernel_size=1))
        layers.extend([ConvBNReLU(hidden_dim, hidden_dim, stride=stride, groups=hidden_dim),
                       nn.Conv2d(hidden_dim, oup, kernel_size=1, stride=1, has_bias=False),
                       nn.BatchNorm2d(oup)])
        self.conv = nn.SequentialCell(layers)

    def construct(self, x: Tensor) -> Tensor:
        out = self.conv(x)
        if self.use_res_connect:
            return x + out
        return out


class MobileNetV2Backbone(nn.Cell):
    """The feature extractor; ``out_channels`` is the width of its output."""

    def __init__(self, width_mult: float = 1., inverted_residual_setting: list[list[int]] | None = None,
                 round_nearest: int = 8, input_channel: int = 32, last_channel: int = 1280) -> None:
        super().__init__()
        self.cfgs = inverted_residual_setting if inverted_residual_setting is not None else _DEFAULT_SETTING
        input_channel = _make_divisible(input_channel * width_mult, round_nearest)
        self.out_channels = _make_divisible(last_channel * max(1.0, width_mult), round_nearest)
        features: list[nn.Cell] = [ConvBNReLU(3, input_channel, stride=2)]
        for t, c, n, s in self.cfgs:
            output_channel = _make_divisible(c * width_mult, round_nearest)
            for i in range(n):
                features.append(InvertedResidual(input_channel, output_channel, s if i == 0 else 1, expand_ratio=t))
                input_channel = output_channel
        features.append(ConvBNReLU(input_channel, self.out_channels, kernel_size=1))
        self.features = nn.SequentialCell(features)

    def construct(self, x: Tensor) -> Tensor:
        return self.features(x)

    @property
    def get_features(self) -> nn.SequentialCell:
        return self.features


class MobileNetV2Head(nn.Cell):
    """Global average pooling (+ Dropout(p=0.8) when ``has_dropout``) + Dense (+ optional activation)."""

    def __init__(self, input_channel: int = 1280, num_classes: int = 1000, has_dropout: bool = False,
                 activation: str = "None") -> None:
        super().__init__()
        head: list[nn.Cell] = [GlobalAvgPooling()] if not has_dropout else [GlobalAvgPooling(), nn.Dropout(p=0.8)]
        self.head = nn.SequentialCell(head)
        self.dense = nn.Dense(input_channel, num_classes, has_bias=True)
        self.need_activation = activation in ("Sigmoid", "Softmax")
        if self.need_activation:
            self.activation: nn.Cell = nn.Sigmoid() if activation == "Sigmoid" else nn.Softmax()

    def construct(self, x: Tensor) -> Tensor:
        x = self.dense(self.head(x))
        if self.need_activation:
            x = self.activation(x)
        return x


class MobileNetV2Combine(nn.Cell):
    """Backbone + head without a name prefix (ModelZoo's checkpoint names)."""

    def __init__(self, backbone: nn.Cell, head: nn.Cell) -> None:
        super().__init__(auto_prefix=False)
        self.backbone = backbone
        self.head = head

    def construct(self, x: Tensor) -> Tensor:
        return self.head(self.backbone(x))


def mobilenet_v2(backbone: nn.Cell, head: nn.Cell) -> MobileNetV2Combine:
    return MobileNetV2Combine(backbone, head)
