"""Shared fixtures for the dataset tests: seed isolation, small files in the binary formats."""
import os

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _isolated_seed():
    """Every test starts with no dataset seed and no top-level seed, and leaves none behind."""
    from mindspore_hl.common import seed as top
    from mindspore_hl.dataset import config
    saved = dict(config._state), top.get_seed()
    config._state["seed"] = None
    config._state["top_seed_at_set"] = None
    top._rng.seed = None
    yield
    config._state.clear()
    config._state.update(saved[0])
    top._rng.seed = saved[1]


def write_cifar10(path, labels, images):
    """Write CIFAR-10 binary records: label byte then R, G, B planes of the (N, 32, 32, 3) images."""
    with open(path, "wb") as f:
        for lab, img in zip(labels, images):
            f.write(bytes([int(lab)]))
            f.write(np.ascontiguousarray(img.transpose(2, 0, 1)).tobytes())


def write_cifar100(path, coarse, fine, images):
    with open(path, "wb") as f:
        for c, fl, img in zip(coarse, fine, images):
            f.write(bytes([int(c), int(fl)]))
            f.write(np.ascontiguousarray(img.transpose(2, 0, 1)).tobytes())


@pytest.fixture
def cifar_writers():
    """(write_cifar10, write_cifar100) for tests that build their own files."""
    return write_cifar10, write_cifar100


@pytest.fixture
def cifar10_dir(tmp_path):
    """A CIFAR-10 folder with two small train batches and a test batch; returns (dir, data by file)."""
    rng = np.random.default_rng(123)
    data = {}
    for name, n in (("data_batch_1.bin", 7), ("data_batch_2.bin", 5), ("test_batch.bin", 4)):
        imgs = rng.integers(0, 256, size=(n, 32, 32, 3), dtype=np.uint8)
        labs = rng.integers(0, 10, size=n)
        write_cifar10(os.path.join(tmp_path, name), labs, imgs)
        data[name] = (imgs, labs)
    return str(tmp_path), data
