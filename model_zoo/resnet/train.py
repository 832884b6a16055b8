"""Train a ModelZoo ResNet (ModelZoo's train.py recipe: Momentum, weight decay without BN/bias, warmup + decay).

    python -m model_zoo.resnet.train --net_name resnet50 --dataset cifar10 --data_path cifar-10-batches-bin
    python -m model_zoo.resnet.train --net_name resnet50 --dataset imagenet2012 --data_path /data/imagenet/train
"""
from __future__ import annotations

import argparse
import os
from typing import Any

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.common.parameter import Parameter
from mindspore_hl.train import CheckpointConfig, LossMonitor, Model, ModelCheckpoint, TimeMonitor
from model_zoo.resnet.src import resnet18, resnet34, resnet50, resnet101, resnet152
from model_zoo.resnet.src.dataset import create_dataset_cifar10, create_dataset_imagenet

NETS = {"resnet18": resnet18, "resnet34": resnet34, "resnet50": resnet50, "resnet101": resnet101,
        "resnet152": resnet152}


def init_group_params(net: nn.Cell, weight_decay: float) -> list[dict[str, Any]]:
    """ModelZoo's parameter groups: no weight decay on BatchNorm gamma/beta and biases."""
    decay: list[Parameter] = []
    no_decay: list[Parameter] = []
    for p in net.trainable_params():
        (no_decay if ("beta" in p.name or "gamma" in p.name or "bias" in p.name) else decay).append(p)
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay},
            {"order_params": net.trainable_params()}]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Train a ModelZoo ResNet with mindspore_hl")
    p.add_argument("--net_name", default="resnet50", choices=sorted(NETS))
    p.add_argument("--dataset", default="cifar10", choices=["cifar10", "imagenet2012"])
    p.add_argument("--data_path", required=True)
    p.add_argument("--device_target", default="CPU")
    p.add_argument("--epoch_size", type=int, default=90)
    p.add_argument("--batch_size", type=int, default=32)
    p.add_argument("--lr_max", type=float, default=0.1)
    p.add_argument("--warmup_epochs", type=int, default=2)
    p.add_argument("--weight_decay", type=float, default=1e-4)
    p.add_argument("--loss_scale", type=float, default=1024.0)
    p.add_argument("--amp_level", default="O0")
    p.add_argument("--output_path", default="runs/resnet")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    ms.set_seed(1)
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_device(args.device_target)
    if args.dataset == "cifar10":
        data = create_dataset_cifar10(args.data_path, True, args.batch_size)
        class_num = 10
    else:
        data = create_dataset_imagenet(args.data_path, True, args.batch_size)
        class_num = 1001
    steps = data.get_dataset_size()
    net = NETS[args.net_name](class_num)
    total = steps * args.epoch_size
    warmup = steps * args.warmup_epochs
    lr = [args.lr_max * (i + 1) / warmup if i < warmup else args.lr_max * (1 - (i - warmup) / max(1, total - warmup))
          for i in range(total)]
    opt = nn.Momentum(  # type: ignore[attr-defined]  # (nn's names are not static)
        init_group_params(net, args.weight_decay), lr, 0.9, loss_scale=args.loss_scale)
    loss = nn.CrossEntropyLoss(label_smoothing=0.1)
    model = Model(net, loss_fn=loss, optimizer=opt, metrics={"acc"}, amp_level=args.amp_level,
                  loss_scale_manager=ms.FixedLossScaleManager(args.loss_scale, drop_overflow_update=False))
    ckpt = ModelCheckpoint(prefix=args.net_name, directory=os.path.join(args.output_path, "ckpt"),
                           config=CheckpointConfig(save_checkpoint_steps=steps, keep_checkpoint_max=5))
    model.train(args.epoch_size, data, callbacks=[TimeMonitor(steps), LossMonitor(), ckpt])


if __name__ == "__main__":
    main()
