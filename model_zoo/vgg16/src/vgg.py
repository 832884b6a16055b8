"""VGG as in MindSpore ModelZoo (official/cv/VGG/vgg16/src/vgg.py), ModelZoo parameter names.

``vgg16(num_classes, args, phase)`` reads its settings from ``args`` like ModelZoo's config: ``image_size``
(H, W), ``pad_mode``, ``has_bias``, ``batch_norm``, ``has_dropout`` and ``initialize_mode`` ("XavierUniform" or
"KaimingNormal"). Parameters are ``layers.<i>.*`` (convolutions, BatchNorm) and ``classifier.{0,3,6}.*``.

>>> import numpy as np
>>> from types import SimpleNamespace
>>> args = SimpleNamespace(image_size=(32, 32), pad_mode="same", has_bias=False, batch_norm=True,
...                        has_dropout=False, initialize_mode="XavierUniform")
>>> net = Vgg([8, "M", 512, "M", "M", "M", "M"], num_classes=10, batch_norm=True, args=args)
>>> net(Tensor(np.zeros((1, 3, 32, 32), np.float32))).shape
(1, 10)
"""
from __future__ import annotations

import math
from typing import Any

import mindspore_hl.nn as nn
from mindspore_hl.common.initializer import HeNormal, Normal, initializer
from mindspore_hl.common.tensor import Tensor

__all__ = ["Vgg", "vgg11", "vgg13", "vgg16", "vgg19", "cfg"]

cfg = {
    '11': [64, 'M', 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
    '13': [64, 64, 'M', 128, 128, 'M', 256, 256, 'M', 512, 512, 'M', 512, 512, 'M'],
    '16': [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 'M', 512, 512, 512, 'M', 512, 512, 512, 'M'],
    '19': [64, 64, 'M', 128, 128, 'M', 256, 256, 256, 256, 'M', 512, 512, 512, 512, 'M', 512, 512, 512, 512, 'M'],
}

_ARGS = ("image_size", "pad_mode", "has_bias", "has_dropout", "initialize_mode")


def _make_layer(base: list[Any], args: Any, batch_norm: bool) -> nn.SequentialCell:
    """Convolution stages: an int is a 3x3 convolution of that width (+ BatchNorm) + ReLU, 'M' a 2x2 max-pool."""
    layers: list[nn.Cell] = []
    in_channels = 3
    padding = 0 if args.pad_mode == 'same' else 1
    for v in base:
        if v == 'M':
            layers += [nn.MaxPool2d(kernel_size=2, stride=2)]
            continue
        weight: Any = 'ones'
        if args.initialize_mode == "XavierUniform":
            weight = 'xavier_uniform'
        conv2d = nn.Conv2d(in_channels=in_channels, out_channels=v, kernel_size=3, padding=padding,
                           pad_mode=args.pad_mode, has_bias=args.has_bias, weight_init=weight)
        layers += [conv2d, nn.BatchNorm2d(v), nn.ReLU()] if batch_norm else [conv2d, nn.ReLU()]
        in_channels = v
    return nn.SequentialCell(layers)


class Vgg(nn.Cell):
    """VGG: ``layers`` built from ``base``, then ``classifier`` (Dense 4096, 4096, ``num_classes``)."""

    def __init__(self, base: list[Any], num_classes: int = 1000, batch_norm: bool = False, batch_size: int = 1,
                 args: Any = None, phase: str = "train", include_top: bool = True) -> None:
        super().__init__()
        missing = [name for name in _ARGS if not hasattr(args, name)]
        if missing:
            raise ValueError(f"Vgg: 'args' must carry {', '.join(_ARGS)}; missing {', '.join(missing)}.")
        self.image_h, self.image_w = int(args.image_size[0]), int(args.image_size[1])
        self.layers = _make_layer(base, args, batch_norm=batch_norm)
        self.include_top = include_top
        self.flatten = nn.Flatten()
        dropout_ratio = 0.5
        if not args.has_dropout or phase == "test":
            dropout_ratio = 1.0
        self.classifier = nn.SequentialCell([
            nn.Dense(512 * (self.image_h // 32) * (self.image_w // 32), 4096), nn.ReLU(),
            nn.Dropout(p=1 - dropout_ratio), nn.Dense(4096, 4096), nn.ReLU(), nn.Dropout(p=1 - dropout_ratio),
            nn.Dense(4096, num_classes)])
        if args.initialize_mode == "KaimingNormal":
            self.custom_init_weight()

    def construct(self, x: Tensor) -> Tensor:
        x = self.layers(x)
        if self.include_top:
            x = self.classifier(self.flatten(x))
        return x

    def custom_init_weight(self) -> None:
        """ModelZoo's KaimingNormal setting: He-normal (fan_out) convolutions, N(0, 0.01) Dense, zero biases."""
        for _, cell in self.cells_and_names():
            if isinstance(cell, nn.Conv2d):
                cell.weight.set_data(initializer(HeNormal(math.sqrt(5), mode='fan_out', nonlinearity='relu'),
                                                 cell.weight.shape, cell.weight.dtype))
            elif isinstance(cell, nn.Dense):
                cell.weight.set_data(initializer(Normal(0.01), cell.weight.shape, cell.weight.dtype))
            else:
                continue
            if cell.bias is not None:
                cell.bias.set_data(initializer('zeros', cell.bias.shape, cell.bias.dtype))


def _vgg(depth: str, num_classes: int, args: Any, phase: str, **kwargs: Any) -> Vgg:
    if not hasattr(args, "batch_norm"):
        raise ValueError(f"vgg{depth}: 'args' must carry batch_norm (and {', '.join(_ARGS)}).")
    return Vgg(cfg[depth], num_classes=num_classes, args=args, batch_norm=args.batch_norm, phase=phase, **kwargs)


def vgg11(num_classes: int = 1000, args: Any = None, phase: str = "train", **kwargs: Any) -> Vgg:
    return _vgg('11', num_classes, args, phase, **kwargs)


def vgg13(num_classes: int = 1000, args: Any = None, phase: str = "train", **kwargs: Any) -> Vgg:
    return _vgg('13', num_classes, args, phase, **kwargs)


def vgg16(num_classes: int = 1000, args: Any = None, phase: str = "train", **kwargs: Any) -> Vgg:
    """VGG16 (``args.batch_norm`` chooses the BatchNorm variant)."""
    return _vgg('16', num_classes, args, phase, **kwargs)


def vgg19(num_classes: int = 1000, args: Any = None, phase: str = "train", **kwargs: Any) -> Vgg:
    return _vgg('19', num_classes, args, phase, **kwargs)
