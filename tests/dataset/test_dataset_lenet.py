"""The ModelZoo LeNet5 MNIST pipeline and the quick-start tutorial pipeline against plain NumPy."""
import gzip
import os

import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.common import dtype as mstype
from mindspore_hl.dataset import transforms, vision
from mindspore_hl.dataset.vision import Inter
from tests.dataset._data import MNIST_DIR

MEAN, STD = 0.1307, 0.3081


def raw_mnist(prefix):
    """The IDX files read directly (independent of the library's reader)."""
    with gzip.open(os.path.join(MNIST_DIR, f"{prefix}-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 28, 28)
    with gzip.open(os.path.join(MNIST_DIR, f"{prefix}-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    return images, labels


def interp_matrix(n_in, n_out):
    """Row o holds the weights of half-pixel-centre linear interpolation (edge clamped) for output o."""
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        f = min(max((o + 0.5) * n_in / n_out - 0.5, 0.0), n_in - 1)
        i = int(np.floor(f))
        m[o, i] += 1 - (f - i)
        m[o, min(i + 1, n_in - 1)] += f - i
    return m


def lenet_pipeline(num_samples=None):
    d = ds.MnistDataset(MNIST_DIR, usage="train", shuffle=False, num_samples=num_samples)
    d = d.map([vision.Resize((32, 32), Inter.LINEAR), vision.Rescale(1 / STD / 255, -MEAN / STD),
               vision.HWC2CHW()], "image")
    d = d.map(transforms.TypeCast(mstype.int32), "label")
    return d.batch(32, drop_remainder=True)


def check_lenet(n):
    images, labels = raw_mnist("train")
    images, labels = images[:n], labels[:n]
    d = lenet_pipeline(n if n < 60000 else None)
    assert d.get_dataset_size() == n // 32
    ry, rx = interp_matrix(28, 32), interp_matrix(28, 32)
    seen = 0
    for b, (img, lab) in enumerate(d.create_tuple_iterator(output_numpy=True)):
        assert img.shape == (32, 1, 32, 32) and img.dtype == np.float32
        assert lab.shape == (32,) and lab.dtype == np.int32
        x = images[b * 32:(b + 1) * 32].astype(np.float64)
        ref = ry @ x @ rx.T                                      # float bilinear, no rounding
        ref = (ref / 255 - MEAN) / STD
        # the pipeline resizes uint8 -> uint8 (as cv::resize does): within one grey level of the exact value
        assert np.abs(img[:, 0].astype(np.float64) - ref).max() * STD <= 1 / 255 + 1e-6
        np.testing.assert_array_equal(lab, labels[b * 32:(b + 1) * 32])
        seen += 32
    assert seen == (n // 32) * 32


def test_lenet_pipeline_first_images():
    check_lenet(3000)


@pytest.mark.slow
def test_lenet_pipeline_all_60000():
    check_lenet(60000)


def test_quick_start_tutorial_pipeline():
    """§1a: Rescale(1/255) -> Normalize((0.1307,), (0.3081,)) -> HWC2CHW; TypeCast(int32); batch(64)."""
    from mindspore_hl.common.tensor import Tensor
    images, labels = raw_mnist("t10k")
    test_ds = ds.MnistDataset(MNIST_DIR, usage="test")
    assert test_ds.get_col_names() == ["image", "label"]

    def datapipe(dataset, batch_size):
        image_transforms = [vision.Rescale(1.0 / 255.0, 0), vision.Normalize(mean=(0.1307,), std=(0.3081,)),
                            vision.HWC2CHW()]
        label_transform = transforms.TypeCast(mstype.int32)
        dataset = dataset.map(image_transforms, "image")
        dataset = dataset.map(label_transform, "label")
        return dataset.batch(batch_size)

    test_ds = datapipe(test_ds, 64)
    assert test_ds.get_dataset_size() == 157
    total, seen_labels = 0, []
    for image, label in test_ds.create_tuple_iterator():
        assert isinstance(image, Tensor) and image.dtype == mstype.float32 and label.dtype == mstype.int32
        assert tuple(image.shape)[1:] == (1, 28, 28)
        total += image.shape[0]
        seen_labels.append(label.asnumpy())
    assert total == 10000
    # shuffled by default: same multiset of labels, different order
    seen_labels = np.concatenate(seen_labels)
    assert np.bincount(seen_labels).tolist() == np.bincount(labels).tolist()
    d = next(iter(datapipe(ds.MnistDataset(MNIST_DIR, usage="test", shuffle=False), 64).create_dict_iterator()))
    ref = ((images[:64].astype(np.float32) / 255 - 0.1307) / 0.3081)[:, None]
    np.testing.assert_allclose(d["image"].asnumpy(), ref, atol=1e-5)
    np.testing.assert_array_equal(d["label"].asnumpy(), labels[:64])
