"""ModelZoo ResNet input pipelines: ImageNet-style ImageFolder (train/eval) and CIFAR-10 binaries."""
from __future__ import annotations

import os

import mindspore_hl as ms
import mindspore_hl.dataset as ds
import mindspore_hl.dataset.transforms as transforms
import mindspore_hl.dataset.vision as vision

_MEAN = [0.485 * 255, 0.456 * 255, 0.406 * 255]
_STD = [0.229 * 255, 0.224 * 255, 0.225 * 255]


def create_dataset_imagenet(dataset_path: str | os.PathLike[str], do_train: bool, batch_size: int = 32,
                            image_size: int = 224, num_parallel_workers: int = 4, num_shards: int | None = None,
                            shard_id: int | None = None) -> ds.Dataset:
    """ImageFolderDataset -> RandomCropDecodeResize/flip (train) or Decode/Resize(256)/CenterCrop (eval)."""
    data: ds.Dataset   # each pipeline step returns another Dataset node
    data = ds.ImageFolderDataset(str(dataset_path), num_parallel_workers=num_parallel_workers, shuffle=do_train,
                                 num_shards=num_shards, shard_id=shard_id)
    if do_train:
        trans = [vision.RandomCropDecodeResize(image_size, scale=(0.08, 1.0), ratio=(0.75, 1.333)),
                 vision.RandomHorizontalFlip(prob=0.5)]
    else:
        trans = [vision.Decode(), vision.Resize(int(image_size * 256 / 224)), vision.CenterCrop(image_size)]
    trans += [vision.Normalize(mean=_MEAN, std=_STD), vision.HWC2CHW()]
    data = data.map(operations=trans, input_columns="image", num_parallel_workers=num_parallel_workers)
    data = data.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(batch_size, drop_remainder=True)


def create_dataset_cifar10(dataset_path: str | os.PathLike[str], do_train: bool, batch_size: int = 32,
                           num_parallel_workers: int = 4, num_shards: int | None = None,
                           shard_id: int | None = None) -> ds.Dataset:
    """Cifar10Dataset -> RandomCrop(32, padding 4)/flip (train) -> Rescale/Normalize -> HWC2CHW."""
    data: ds.Dataset   # each pipeline step returns another Dataset node
    data = ds.Cifar10Dataset(str(dataset_path), usage="train" if do_train else "test", shuffle=do_train,
                             num_shards=num_shards, shard_id=shard_id)
    trans = [vision.RandomCrop((32, 32), (4, 4, 4, 4)), vision.RandomHorizontalFlip(prob=0.5)] if do_train else []
    trans += [vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010]),
              vision.HWC2CHW()]
    data = data.map(operations=trans, input_columns="image", num_parallel_workers=num_parallel_workers)
    data = data.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    return data.batch(batch_size, drop_remainder=True)
