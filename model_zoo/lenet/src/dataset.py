"""The ModelZoo LeNet5 MNIST pipeline: Resize 32x32 (LINEAR), Rescale, Normalize, HWC2CHW, TypeCast, batch."""
from __future__ import annotations

import os

import mindspore_hl as ms
import mindspore_hl.dataset as ds
import mindspore_hl.dataset.transforms as transforms
import mindspore_hl.dataset.vision as vision
from mindspore_hl.dataset.vision import Inter


def create_dataset(data_path: str | os.PathLike[str], batch_size: int = 32, repeat_size: int = 1,
                   num_parallel_workers: int = 1, usage: str | None = None, shuffle: bool = True,
                   num_samples: int | None = None, num_shards: int | None = None,
                   shard_id: int | None = None) -> ds.Dataset:
    """The MNIST pipeline of ModelZoo's LeNet5 (``src/dataset.py``).

    Args:
        data_path: folder with the MNIST IDX files (gzipped or not).
        batch_size: batch size (the last partial batch is dropped).
        usage: 'train', 'test' or None (all files found).
    Returns:
        A dataset yielding ``(image float32 (N, 1, 32, 32), label int32 (N,))``.
    """
    mnist_ds: ds.Dataset   # each pipeline step returns another Dataset node
    mnist_ds = ds.MnistDataset(str(data_path), usage=usage, shuffle=shuffle, num_samples=num_samples,
                               num_shards=num_shards, shard_id=shard_id)
    resize_height, resize_width = 32, 32
    rescale = 1.0 / 255.0
    rescale_nml = 1 / 0.3081
    shift_nml = -1 * 0.1307 / 0.3081

    resize_op = vision.Resize((resize_height, resize_width), interpolation=Inter.LINEAR)
    rescale_nml_op = vision.Rescale(rescale_nml * rescale, shift_nml)
    hwc2chw_op = vision.HWC2CHW()
    type_cast_op = transforms.TypeCast(ms.int32)

    mnist_ds = mnist_ds.map(operations=type_cast_op, input_columns="label", num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(operations=[resize_op, rescale_nml_op, hwc2chw_op], input_columns="image",
                            num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.batch(batch_size, drop_remainder=True)
    if repeat_size > 1:
        mnist_ds = mnist_ds.repeat(repeat_size)
    return mnist_ds
