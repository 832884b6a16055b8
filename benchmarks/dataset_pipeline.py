"""Throughput of data pipelines (``python -m benchmarks.dataset_pipeline [--pipeline cifar|mnist]``).

``cifar`` (default): the CIFAR-10 augmentation pipeline -- Cifar10Dataset(train, shuffled) -> RandomCrop(32,
padding=4) -> RandomHorizontalFlip -> Normalize -> HWC2CHW -> batch(128, drop_remainder) -- on synthetic CIFAR-10
binary files, in images/s for mindspore_hl, real MindSpore's dataset engine (the same script run by the
interpreter given with ``--mindspore-python``, when it exists) and PyTorch's DataLoader with the same steps as
tensor ops at its best worker count (when torch is installed). Goal: >= 2x MindSpore and >= 1x PyTorch.

``mnist``: the LeNet5 MNIST pipeline: MnistDataset(train, shuffled) -> Resize((32, 32), LINEAR) ->
Rescale(1/0.3081/255, -0.1307/0.3081) -> HWC2CHW -> TypeCast(int32) on labels -> batch(32, drop_remainder=True),
iterated with ``output_numpy=True`` (what Model.train consumes). Floor: the same steps written by hand as
vectorised NumPy on each batch of 32 in one thread (gather a shuffled batch, fixed-point bilinear tables,
scale, transpose, cast). Prints one JSON line and a short table; ratio = pipeline images/s / floor images/s
(target >= 0.8).
"""
import argparse
import json
import os
import time

import numpy as np

from benchmarks import _cifar_pipeline

HERE = os.path.dirname(os.path.abspath(__file__))
MNIST_DIR = os.path.normpath(os.path.join(HERE, "..", "model_zoo", "data", "mnist"))   # bundled in the repository
MEAN, STD = 0.1307, 0.3081


def _fixed_tables(n_in, n_out):
    """OpenCV INTER_LINEAR taps for one axis: (i0, i1, w0, w1), weights in 11-bit fixed point."""
    f = ((np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5).astype(np.float32)
    s = np.floor(f).astype(np.int64)
    f = f - s
    edge = (s < 0) | (s >= n_in - 1)
    f[edge] = 0
    s = np.clip(s, 0, n_in - 1)
    w1 = np.rint(f * 2048).astype(np.int32)
    w0 = np.rint((1 - f) * 2048).astype(np.int32)
    return s, np.minimum(s + 1, n_in - 1), w0, w1


def floor_batch(x, lab, tables):
    """The LeNet5 steps on one batch: uint8 (B, 28, 28, 1) images -> float32 (B, 1, 32, 32), labels -> int32."""
    ys0, ys1, wy0, wy1, xs0, xs1, wx0, wx1 = tables
    x = x[:, :, :, 0]
    h = x[:, :, xs0].astype(np.int32) * wx0 + x[:, :, xs1].astype(np.int32) * wx1   # (B, 28, 32) exact
    v = h[:, ys0, :] * wy0[None, :, None] + h[:, ys1, :] * wy1[None, :, None]        # (B, 32, 32)
    resized = ((v + (1 << 21)) >> 22).astype(np.uint8)
    img = resized.astype(np.float32) * np.float32(1 / STD / 255) + np.float32(-MEAN / STD)
    return img[:, None, :, :], lab.astype(np.int32)                                # HWC2CHW for C = 1


def floor_epoch(images, labels, batch, rng):
    """One epoch of the hand-written NumPy pipeline over a shuffled order; returns the number of images."""
    tables = _fixed_tables(28, 32) + _fixed_tables(28, 32)
    order = rng.permutation(len(labels))
    n = 0
    for s in range(0, len(order) - batch + 1, batch):
        idx = order[s:s + batch]
        img, _ = floor_batch(images[idx], labels[idx], tables)
        n += len(img)
    return n


def pipeline(mnist_dir, shuffle=None):
    import mindspore_hl.dataset as ds
    from mindspore_hl.common import dtype as mstype
    from mindspore_hl.dataset import transforms, vision
    d: ds.Dataset = ds.MnistDataset(mnist_dir, usage="train", shuffle=shuffle)
    d = d.map([vision.Resize((32, 32), vision.Inter.LINEAR), vision.Rescale(1 / STD / 255, -MEAN / STD),
               vision.HWC2CHW()], "image")
    d = d.map(transforms.TypeCast(mstype.int32), "label")
    return d.batch(32, drop_remainder=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pipeline", choices=("cifar", "mnist"), default="cifar")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--mnist-dir", default=MNIST_DIR)
    parser.add_argument("--images", type=int, default=10000,
                        help="cifar: synthetic training images (MindSpore reads whole files of 10000)")
    parser.add_argument("--mindspore-python", default=os.path.join(HERE, "..", "..", "ms-oracle", "bin", "python"),
                        help="cifar: an interpreter with real MindSpore (its column is skipped when absent)")
    parser.add_argument("--torch-workers", default="0,1,2,4", help="cifar: DataLoader worker counts to try")
    args = parser.parse_args(argv)
    if args.pipeline == "cifar":
        return _cifar_pipeline.run(args)

    import mindspore_hl.dataset as ds
    from mindspore_hl.dataset._idx import load_idx_pair
    images, labels = load_idx_pair("bench", args.mnist_dir, "train")
    # same steps: the first unshuffled batch of the pipeline equals the floor's (within one grey level)
    first = next(pipeline(args.mnist_dir, shuffle=False).create_tuple_iterator(output_numpy=True))
    ref_img, ref_lab = floor_batch(images[:32], labels[:32], _fixed_tables(28, 32) + _fixed_tables(28, 32))
    max_diff = float(np.abs(first[0] - ref_img).max() * STD * 255)
    assert max_diff <= 1.0 + 1e-4 and (first[1] == ref_lab).all(), max_diff
    ds.config.set_seed(0)
    d = pipeline(args.mnist_dir)
    it = d.create_tuple_iterator(num_epochs=args.epochs + 1, output_numpy=True)
    for _ in it:   # warm-up epoch: file parsing, table caches, thread start
        pass
    floor_epoch(images, labels, 32, np.random.default_rng(0))

    pipe_times, floor_times, n_pipe, n_floor = [], [], 0, 0
    for e in range(args.epochs):
        t = time.perf_counter()
        for img, _lab in it:
            n_pipe += len(img)
        pipe_times.append(time.perf_counter() - t)
        t = time.perf_counter()
        n_floor += floor_epoch(images, labels, 32, np.random.default_rng(e + 1))
        floor_times.append(time.perf_counter() - t)
    pipe_ips = n_pipe / sum(pipe_times)
    floor_ips = n_floor / sum(floor_times)
    result = {"benchmark": "dataset_pipeline", "pipeline": "lenet5_mnist_train", "images": n_pipe,
              "epochs": args.epochs, "pipeline_images_per_s": round(pipe_ips, 1),
              "floor_images_per_s": round(floor_ips, 1), "max_diff_grey_levels": max_diff,
              "ratio": round(pipe_ips / floor_ips, 3), "target": 0.8}
    print(json.dumps(result))
    print(f"{'':<28}{'images/s':>12}{'s/epoch':>10}")
    print(f"{'mindspore_hl.dataset':<28}{pipe_ips:>12.0f}{sum(pipe_times) / args.epochs:>10.3f}")
    print(f"{'numpy floor (1 thread)':<28}{floor_ips:>12.0f}{sum(floor_times) / args.epochs:>10.3f}")
    print(f"{'ratio':<28}{pipe_ips / floor_ips:>12.3f}")
    return result


if __name__ == "__main__":
    main()
