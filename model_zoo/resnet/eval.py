"""Evaluate a ModelZoo ResNet checkpoint (top-1 / top-5).

    python -m model_zoo.resnet.eval --net_name resnet50 --dataset cifar10 --data_path ... --checkpoint_file_path x.ckpt
"""
import argparse

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.train import Model
from model_zoo.resnet.src.dataset import create_dataset_cifar10, create_dataset_imagenet
from model_zoo.resnet.train import NETS


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="Evaluate a ModelZoo ResNet with mindspore_hl")
    p.add_argument("--net_name", default="resnet50", choices=sorted(NETS))
    p.add_argument("--dataset", default="cifar10", choices=["cifar10", "imagenet2012"])
    p.add_argument("--data_path", required=True)
    p.add_argument("--checkpoint_file_path", required=True)
    p.add_argument("--device_target", default="CPU")
    p.add_argument("--batch_size", type=int, default=32)
    args = p.parse_args(argv)
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_device(args.device_target)
    if args.dataset == "cifar10":
        data, class_num = create_dataset_cifar10(args.data_path, False, args.batch_size), 10
    else:
        data, class_num = create_dataset_imagenet(args.data_path, False, args.batch_size), 1001
    net = NETS[args.net_name](class_num)
    not_loaded, _ = ms.load_param_into_net(net, ms.load_checkpoint(args.checkpoint_file_path))
    if not_loaded:
        raise SystemExit(f"{args.checkpoint_file_path} does not hold these parameters: {not_loaded[:10]}")
    model = Model(net, loss_fn=nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  metrics={"top_1_accuracy", "top_5_accuracy"})
    print("result:", model.eval(data), "ckpt=", args.checkpoint_file_path)


if __name__ == "__main__":
    main()
