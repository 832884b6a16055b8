"""Evaluate a LeNet5 checkpoint on the MNIST test set (ModelZoo's eval.py arguments).

    python -m model_zoo.lenet.eval --ckpt_path runs/lenet5/ckpt/checkpoint_lenet-3_1875.ckpt
"""
from __future__ import annotations

import argparse
from typing import Any

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.train import Accuracy, Model
from model_zoo import MNIST_DIR
from model_zoo.lenet.src import LeNet5, create_dataset


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description="Evaluate LeNet5 on MNIST (mindspore_hl ModelZoo)")
    p.add_argument("--data_path", "--data-dir", dest="data_path", default=str(MNIST_DIR))
    p.add_argument("--ckpt_path", required=True, help="checkpoint written by train.py (or by real MindSpore)")
    p.add_argument("--device_target", default="CPU")
    p.add_argument("--batch_size", type=int, default=32)
    args = p.parse_args(argv)
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_device(args.device_target)
    net = LeNet5(10)
    not_loaded, _ = ms.load_param_into_net(net, ms.load_checkpoint(args.ckpt_path))
    if not_loaded:
        raise SystemExit(f"{args.ckpt_path} does not hold these LeNet5 parameters: {not_loaded}")
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  metrics={"Accuracy": Accuracy()})
    acc = model.eval(create_dataset(args.data_path, args.batch_size, usage="test", shuffle=False))
    print(f"============== Accuracy: {acc} ==============")
    return acc


if __name__ == "__main__":
    main()
