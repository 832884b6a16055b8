"""Reader and pipeline errors: every bad file is named, declared sizes are checked before inflating, and
``split`` sizes follow MindSpore (tests/fixtures/oracle/dataset.npz, from tools/oracle/record_dataset.py)."""
import gzip
import os
import struct
import tracemalloc

import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import DatasetFormatError, vision
from tests.oracle import load_cases

_SPLITS = {k: c for k, c in load_cases("dataset.npz").items() if c.name == "split"}


def _gen10():
    for i in range(10):
        yield (np.array(i, np.int64),)


@pytest.mark.parametrize("case", [pytest.param(c, id=k) for k, c in _SPLITS.items()])
def test_split_of_a_generator_function_matches_mindspore(case):
    data = ds.GeneratorDataset(_gen10, ["a"])
    if case.error:
        with pytest.raises((RuntimeError, ValueError)):
            data.split(case.meta["sizes"], randomize=False)
        return
    parts = data.split(case.meta["sizes"], randomize=False)
    assert [p.get_dataset_size() for p in parts] == [len(o) for o in case.outputs]
    for part, want in zip(parts, case.outputs):
        got = [int(r[0]) for r in part.create_tuple_iterator(output_numpy=True)]
        assert got == want.tolist()


def _write_mnist(folder, labels, n_images=None, gz=False):
    n = len(labels)
    images = struct.pack(">IIII", 0x803, n if n_images is None else n_images, 28, 28) + bytes(n * 784)
    lab = struct.pack(">II", 0x801, n) + bytes(labels)
    opener = gzip.open if gz else open
    suffix = ".gz" if gz else ""
    with opener(os.path.join(folder, "train-images-idx3-ubyte" + suffix), "wb") as f:
        f.write(images)
    with opener(os.path.join(folder, "train-labels-idx1-ubyte" + suffix), "wb") as f:
        f.write(lab)


def test_mnist_label_out_of_range_names_the_file(tmp_path):
    # Real MindSpore returns label 200 sign-extended (4294967240); a label >= 10 here is a corrupt file.
    _write_mnist(str(tmp_path), [1, 2, 200, 3])
    with pytest.raises(DatasetFormatError, match=r"train-labels-idx1-ubyte.*label 2 is 200"):
        ds.MnistDataset(str(tmp_path), usage="train").get_dataset_size()
    _write_mnist(str(tmp_path), [1, 2, 9, 3])
    rows = list(ds.MnistDataset(str(tmp_path), usage="train", shuffle=False).create_tuple_iterator(
        output_numpy=True))
    assert [int(r[1]) for r in rows] == [1, 2, 9, 3]


def test_empty_cifar_batch_names_the_file(tmp_path):
    open(os.path.join(tmp_path, "data_batch_1.bin"), "wb").close()
    with pytest.raises(DatasetFormatError, match=r"data_batch_1\.bin: empty CIFAR file"):
        ds.Cifar10Dataset(str(tmp_path), usage="train").get_dataset_size()


def test_map_decode_of_a_corrupt_image_names_the_file(tmp_path):
    from PIL import Image
    for cls in ("a", "b"):
        os.makedirs(tmp_path / cls)
        Image.fromarray(np.zeros((4, 4, 3), np.uint8)).save(tmp_path / cls / "ok.png")
    (tmp_path / "b" / "zz_broken.png").write_bytes(b"\x89PNG\r\n\x1a\n not really a png")
    data = ds.ImageFolderDataset(str(tmp_path), shuffle=False).map(vision.Decode(), "image")
    with pytest.raises(RuntimeError, match=r"zz_broken\.png"):
        for _ in data.create_tuple_iterator(output_numpy=True):
            pass


def test_gzip_idx_declared_size_checked_before_inflating(tmp_path):
    # The header declares 2 images (1568 bytes of pixels) but the stream inflates to 64 MiB.
    payload = struct.pack(">IIII", 0x803, 2, 28, 28) + bytes(64 << 20)
    path = tmp_path / "train-images-idx3-ubyte.gz"
    path.write_bytes(gzip.compress(payload, compresslevel=1))
    from mindspore_hl.dataset._idx import read_idx_file
    tracemalloc.start()
    try:
        with pytest.raises(DatasetFormatError, match=r"train-images-idx3-ubyte\.gz: .*unexpected bytes"):
            read_idx_file(str(path), 0x803)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"inflating used {peak} bytes; it should stop after the declared size"


def test_gzip_idx_concatenated_members_and_truncation(tmp_path):
    data = struct.pack(">II", 0x801, 6) + bytes([0, 1, 2, 3, 4, 5])
    path = tmp_path / "labels.gz"
    path.write_bytes(gzip.compress(data[:7]) + gzip.compress(data[7:]))
    from mindspore_hl.dataset._idx import read_idx_file
    assert read_idx_file(str(path), 0x801).tolist() == [0, 1, 2, 3, 4, 5]
    path.write_bytes(gzip.compress(data)[:-12])
    with pytest.raises(DatasetFormatError, match=r"labels\.gz"):
        read_idx_file(str(path), 0x801)
