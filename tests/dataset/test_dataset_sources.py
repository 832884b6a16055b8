"""Sources: MNIST / Fashion-MNIST (real files), CIFAR (generated files), ImageFolder, Generator, NumpySlices."""
import gzip
import os

import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import DatasetFormatError
from tests.dataset._data import FASHION_DIR, MNIST_DIR


def _rows(d, **kw):
    return list(d.create_tuple_iterator(output_numpy=True, **kw))


def test_mnist_test_split_counts_and_columns():
    d = ds.MnistDataset(MNIST_DIR, usage="test", shuffle=False)
    assert d.get_col_names() == ["image", "label"]
    assert d.get_dataset_size() == 10000
    assert d.output_shapes() == [[28, 28, 1], []]
    assert d.output_types() == [np.dtype("uint8"), np.dtype("uint32")]
    labels = np.array([r[0] for r in _rows(d.project("label"))]).ravel()
    # class counts published in the dataset README
    assert np.bincount(labels).tolist() == [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009]


def test_mnist_first_image_matches_raw_file():
    with gzip.open(os.path.join(MNIST_DIR, "t10k-images-idx3-ubyte.gz")) as f:
        raw = f.read()
    first = np.frombuffer(raw[16:16 + 784], np.uint8).reshape(28, 28, 1)
    image, label = _rows(ds.MnistDataset(MNIST_DIR, usage="test", shuffle=False, num_samples=1))[0]
    np.testing.assert_array_equal(image, first)
    assert label == 7   # the first MNIST test digit


def test_mnist_usage_all_and_raw_files(tmp_path):
    for name in ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
        with gzip.open(os.path.join(MNIST_DIR, name + ".gz")) as f, open(tmp_path / name, "wb") as g:
            g.write(f.read())
    raw = ds.MnistDataset(str(tmp_path), usage="test", shuffle=False, num_samples=50)
    gz = ds.MnistDataset(MNIST_DIR, usage="test", shuffle=False, num_samples=50)
    for a, b in zip(_rows(raw), _rows(gz)):
        np.testing.assert_array_equal(a[0], b[0])
    assert ds.MnistDataset(MNIST_DIR).get_dataset_size() == 70000
    with pytest.raises(DatasetFormatError, match="train-images-idx3-ubyte"):
        ds.MnistDataset(str(tmp_path), usage="train").get_dataset_size()


def test_fashion_mnist():
    d = ds.FashionMnistDataset(FASHION_DIR, usage="test", shuffle=False)
    labels = np.concatenate([b[1] for b in _rows(d.batch(1000))])
    assert np.bincount(labels).tolist() == [1000] * 10


def test_bad_folder_message():
    with pytest.raises(ValueError) as e:
        ds.MnistDataset("/x")
    assert str(e.value) == "The folder /x does not exist or is not a directory or permission denied!"
    with pytest.raises(ValueError, match="usage"):
        ds.MnistDataset(MNIST_DIR, usage="valid")


@pytest.mark.timeout(30)
def test_truncated_and_wrong_magic_idx(tmp_path):
    with gzip.open(os.path.join(MNIST_DIR, "t10k-labels-idx1-ubyte.gz")) as f:
        labels = f.read()
    with gzip.open(os.path.join(MNIST_DIR, "t10k-images-idx3-ubyte.gz")) as f:
        images = f.read()
    (tmp_path / "t10k-labels-idx1-ubyte").write_bytes(labels)
    (tmp_path / "t10k-images-idx3-ubyte").write_bytes(images[:-100])
    d = ds.MnistDataset(str(tmp_path), usage="test")
    with pytest.raises(DatasetFormatError, match=r"t10k-images-idx3-ubyte: truncated IDX file"):
        for _ in d:
            pass
    (tmp_path / "t10k-images-idx3-ubyte").write_bytes(b"\x00\x00\x09\x99" + images[4:])
    with pytest.raises(DatasetFormatError, match=r"t10k-images-idx3-ubyte: wrong magic number 0x00000999 "
                                                 r"\(expected 0x00000803"):
        ds.MnistDataset(str(tmp_path), usage="test").get_dataset_size()
    (tmp_path / "t10k-images-idx3-ubyte").write_bytes(images)
    (tmp_path / "t10k-labels-idx1-ubyte").write_bytes(labels[:8] + labels[9:] + b"")  # header N, data N-1
    with pytest.raises(DatasetFormatError, match="truncated"):
        ds.MnistDataset(str(tmp_path), usage="test").get_dataset_size()


def test_cifar10_values(cifar10_dir):
    path, data = cifar10_dir
    d = ds.Cifar10Dataset(path, usage="train", shuffle=False)
    assert d.get_dataset_size() == 12 and d.get_col_names() == ["image", "label"]
    rows = _rows(d)
    imgs = np.concatenate([data["data_batch_1.bin"][0], data["data_batch_2.bin"][0]])
    labs = np.concatenate([data["data_batch_1.bin"][1], data["data_batch_2.bin"][1]])
    np.testing.assert_array_equal(np.stack([r[0] for r in rows]), imgs)
    np.testing.assert_array_equal([int(r[1]) for r in rows], labs)
    assert rows[0][1].dtype == np.uint32 and rows[0][0].shape == (32, 32, 3)
    assert ds.Cifar10Dataset(path, usage="test").get_dataset_size() == 4
    assert ds.Cifar10Dataset(path).get_dataset_size() == 16


@pytest.mark.timeout(30)
def test_cifar_errors(cifar10_dir, tmp_path_factory):
    path, _ = cifar10_dir
    with open(os.path.join(path, "data_batch_2.bin"), "ab") as f:
        f.write(b"\x01\x02")
    with pytest.raises(DatasetFormatError, match=r"data_batch_2.bin: truncated CIFAR file: .* 3073-byte record"):
        for _ in ds.Cifar10Dataset(path, usage="train"):
            pass
    empty = tmp_path_factory.mktemp("empty")
    with pytest.raises(DatasetFormatError, match="no data_batch"):
        ds.Cifar10Dataset(str(empty), usage="train").get_dataset_size()


def test_cifar100(tmp_path, cifar_writers):
    write_cifar100 = cifar_writers[1]
    rng = np.random.default_rng(5)
    imgs = rng.integers(0, 256, size=(3, 32, 32, 3), dtype=np.uint8)
    write_cifar100(tmp_path / "train.bin", [1, 19, 0], [5, 99, 42], imgs)
    rows = _rows(ds.Cifar100Dataset(str(tmp_path), usage="train", shuffle=False))
    assert [int(r[1]) for r in rows] == [1, 19, 0] and [int(r[2]) for r in rows] == [5, 99, 42]
    np.testing.assert_array_equal(rows[2][0], imgs[2])
    write_cifar100(tmp_path / "test.bin", [25], [1], imgs[:1])
    with pytest.raises(DatasetFormatError, match="label 25, outside"):
        ds.Cifar100Dataset(str(tmp_path), usage="test").get_dataset_size()


@pytest.fixture
def image_folder(tmp_path):
    from PIL import Image
    rng = np.random.default_rng(0)
    truth = {}
    for cls, n in (("cat", 3), ("dog", 2), ("zebra", 1)):
        os.makedirs(tmp_path / cls)
        for i in range(n):
            img = rng.integers(0, 256, size=(6 + i, 5, 3), dtype=np.uint8)
            p = tmp_path / cls / f"{i}.png"
            Image.fromarray(img).save(p)
            truth[str(p)] = img
    (tmp_path / "dog" / "notes.txt").write_text("not an image")
    return tmp_path, truth


def test_image_folder(image_folder):
    root, truth = image_folder
    d = ds.ImageFolderDataset(str(root), shuffle=False, extensions=[".png"])
    assert d.get_dataset_size() == 6 and d.num_classes() == 3
    rows = _rows(d)
    assert [int(r[1]) for r in rows] == [0, 0, 0, 1, 1, 2] and rows[0][1].dtype == np.int32
    assert rows[0][0].ndim == 1 and rows[0][0].dtype == np.uint8     # undecoded bytes
    dec = _rows(ds.ImageFolderDataset(str(root), shuffle=False, extensions=[".png"], decode=True,
                                      num_parallel_workers=2))
    files = sorted(truth)
    for (img, _), f in zip(dec, files):
        np.testing.assert_array_equal(img, truth[f])
    sub = ds.ImageFolderDataset(str(root), shuffle=False, class_indexing={"dog": 7, "zebra": 3},
                                extensions=[".png"])
    assert [int(r[1]) for r in _rows(sub)] == [7, 7, 3]
    mapped = ds.ImageFolderDataset(str(root), shuffle=False, extensions=[".png"]).map(ds.vision.Decode(), "image")
    np.testing.assert_array_equal(_rows(mapped)[3][0], truth[files[3]])


@pytest.mark.timeout(30)
def test_image_folder_bad_file_names_it(image_folder):
    root, _ = image_folder
    with pytest.raises(RuntimeError, match="notes.txt"):
        for _ in ds.ImageFolderDataset(str(root), decode=True, num_parallel_workers=2):
            pass


class RandomAccess:
    def __init__(self, n):
        self._data = np.arange(n, dtype=np.float32).reshape(n, 1) * 2
        self._label = np.arange(n, dtype=np.int64)

    def __getitem__(self, i):
        return self._data[i], self._label[i]

    def __len__(self):
        return len(self._data)


class Iterable:
    def __init__(self, start, end):
        self.start, self.end = start, end

    def __iter__(self):
        return iter([(np.array(i),) for i in range(self.start, self.end)])

    def __len__(self):
        return self.end - self.start


def my_generator(start, end):
    for i in range(start, end):
        yield np.array(i)


def test_generator_dataset_kinds():
    d = ds.GeneratorDataset(source=RandomAccess(10), column_names=["data", "label"])
    labels = sorted(int(r[1]) for r in _rows(d))
    assert labels == list(range(10))
    ordered = [int(r[1]) for r in _rows(ds.GeneratorDataset(RandomAccess(10), ["data", "label"], shuffle=False))]
    assert ordered == list(range(10))
    ds.config.set_seed(1)
    shuffled = [int(r[1]) for r in _rows(d)]
    assert shuffled != list(range(10))    # random-access sources shuffle by default
    lst = ds.GeneratorDataset(source=[np.array(0), np.array(1)], column_names=["data"], shuffle=False)
    assert [int(r[0]) for r in _rows(lst)] == [0, 1]
    it = ds.GeneratorDataset(source=Iterable(1, 5), column_names=["data"])
    assert [int(r[0]) for r in _rows(it)] == [1, 2, 3, 4] and it.get_dataset_size() == 4
    gen = ds.GeneratorDataset(source=lambda: my_generator(3, 6), column_names=["data"])
    assert [int(r[0]) for r in _rows(gen)] == [3, 4, 5]
    assert gen.get_dataset_size() == 3     # counted by iterating
    # two epochs of a callable source: it is called again
    two = gen.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in two] == [3, 4, 5] and [int(r[0]) for r in two] == [3, 4, 5]
    par = ds.GeneratorDataset(RandomAccess(300), ["data", "label"], shuffle=False, num_parallel_workers=3)
    assert [int(r[1]) for r in _rows(par)] == list(range(300))
    for row in ds.GeneratorDataset(RandomAccess(2), ["data", "label"]):
        assert type(row).__name__ == "list" and type(row[0]).__name__ == "Tensor"


@pytest.mark.timeout(30)
def test_generator_errors_name_the_row():
    class Bad(RandomAccess):
        def __getitem__(self, i):
            if i == 5:
                raise ValueError("boom")
            return super().__getitem__(i)

    d = ds.GeneratorDataset(Bad(40), ["data", "label"], shuffle=False, num_parallel_workers=2)
    with pytest.raises(RuntimeError, match=r"source\[5\] raised ValueError: boom") as e:
        for _ in d:
            pass
    assert isinstance(e.value.__cause__, ValueError)

    def failing():
        yield np.array(1)
        raise KeyError("gone")

    with pytest.raises(RuntimeError, match="after 1 rows.* KeyError"):
        for _ in ds.GeneratorDataset(failing, ["x"]):
            pass
    with pytest.raises(RuntimeError, match=r"returned 2 column\(s\), but column_names \['x'\] expects 1"):
        for _ in ds.GeneratorDataset(RandomAccess(3), ["x"]):
            pass
    with pytest.raises(ValueError, match="random-accessible"):
        ds.GeneratorDataset(Iterable(0, 3), ["x"], shuffle=True)


def test_numpy_slices():
    d = ds.NumpySlicesDataset(data=([[1, 2], [3, 4]], [0, 1]), column_names=["data", "label"], shuffle=False)
    batch = _rows(d.batch(2))
    np.testing.assert_array_equal(batch[0][0], [[1, 2], [3, 4]])
    np.testing.assert_array_equal(batch[0][1], [0, 1])
    x, y = np.arange(6).reshape(3, 2), np.array([5, 6, 7])
    dd = ds.NumpySlicesDataset({"data": x, "label": y}, shuffle=False)
    assert dd.get_col_names() == ["data", "label"]
    assert [int(r[1]) for r in _rows(dd)] == [5, 6, 7]
    assert ds.NumpySlicesDataset([1, 2, 3]).get_col_names() == ["column_0"]
    assert ds.NumpySlicesDataset((x, y)).get_col_names() == ["column_0", "column_1"]
    assert sorted(int(r[0]) for r in _rows(ds.NumpySlicesDataset(np.arange(5)))) == list(range(5))
    with pytest.raises(ValueError, match="same number of rows"):
        ds.NumpySlicesDataset((x, np.arange(4)))
