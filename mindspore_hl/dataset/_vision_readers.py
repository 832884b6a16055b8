"""Small image corpora in their published layouts: USPS, Semeion, EMNIST, QMNIST, STL-10, Caltech-256, SUN397.

Column names, dtypes and row order follow real MindSpore 2.10 reading the same files (recorded by
tools/oracle/record_dataset_readers.py)."""
from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import numpy as np

from . import config
from ._idx import find_idx, read_idx_file
from ._readers_base import RowSource, check_choice, list_dir, read_image, read_text
from ._samplers import Sampler
from ._sources import DatasetFormatError, MappableSource, check_dir
from ._text_sources import interleave

__all__ = ["USPSDataset", "SemeionDataset", "EMnistDataset", "QMnistDataset", "STL10Dataset",
           "Caltech256Dataset", "SUN397Dataset"]


class _ArraySource(MappableSource):
    """Rows held as whole arrays (``self._columns``, one per column), read by fancy indexing."""

    _columns: list[np.ndarray]

    def _length(self):
        return len(self._columns[0])

    def _read(self, ids):
        return [c[ids] for c in self._columns]


class USPSDataset(_ArraySource):
    """USPS digits: libsvm text files ``usps`` (train) and ``usps.t`` (test), ``label 1:v ... 256:v`` with
    pixels in [-1, 1] and labels 1-10. Columns: image (16, 16, 1) uint8 (``(v + 1) / 2 * 255`` truncated),
    label uint32 (label - 1). With usage 'all' the two files interleave row by row, as MindSpore's readers do.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> for name in ("usps", "usps.t"):
    ...     _ = open(os.path.join(d, name), "w").write("3 " + " ".join(f"{i}:1" for i in range(1, 257)) + " \\n")
    >>> row = next(USPSDataset(d, usage="test").create_tuple_iterator(output_numpy=True))
    >>> row[0].shape, int(row[0].max()), int(row[1])
    ((16, 16, 1), 255, 2)
    """

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = True, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("USPSDataset", "usage", "all" if usage is None else usage, ("train", "test", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        if shuffle is not None and not isinstance(shuffle, bool):
            shuffle = True   # Shuffle.GLOBAL / FILES / INFILE: rows are shuffled globally here
        super().__init__(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        files = {"train": ["usps"], "test": ["usps.t"], "all": ["usps", "usps.t"]}[usage]
        per_file = [self._parse(os.path.join(self.dataset_dir, f)) for f in files]
        rows = interleave(per_file, self.num_parallel_workers or config.get_num_parallel_workers())
        self.column_names = ["image", "label"]
        self._columns = [np.stack([r[0] for r in rows]) if rows else np.zeros((0, 16, 16, 1), np.uint8),
                         np.asarray([r[1] for r in rows], np.uint32)]

    @staticmethod
    def _parse(path):
        if not os.path.isfile(path):
            raise DatasetFormatError(f"USPSDataset: {path} does not exist")
        rows = []
        for n, line in enumerate(read_text("USPSDataset", path).splitlines(), start=1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 257:
                raise DatasetFormatError(f"USPSDataset: {path} line {n} has {len(parts) - 1} pixels, expected 256")
            try:
                label = int(parts[0]) - 1
                pixels = np.asarray([float(p.split(":", 1)[1]) for p in parts[1:]], np.float64)
            except (ValueError, IndexError):
                raise DatasetFormatError(f"USPSDataset: {path} line {n} is not 'label 1:v ... 256:v'") from None
            if not 0 <= label <= 9:
                raise DatasetFormatError(f"USPSDataset: {path} line {n}: label {label + 1} is outside 1-10")
            image = np.clip((pixels + 1.0) / 2.0 * 255.0, 0, 255).astype(np.uint8)
            rows.append((image.reshape(16, 16, 1), label))
        return rows


class SemeionDataset(_ArraySource):
    """Semeion handwritten digits: ``semeion.data``, 256 binary pixels then a one-hot label per line.
    Columns: image (16, 16) uint8 of 0 / 1, label uint32."""

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        path = os.path.join(self.dataset_dir, "semeion.data")
        if not os.path.isfile(path):
            raise DatasetFormatError(f"SemeionDataset: {path} does not exist")
        images, labels = [], []
        for n, line in enumerate(read_text("SemeionDataset", path).splitlines(), start=1):
            parts = line.split()
            if not parts:
                continue
            try:
                values = np.asarray([float(p) for p in parts], np.float64)
            except ValueError:
                raise DatasetFormatError(f"SemeionDataset: {path} line {n} holds a non-number") from None
            if len(values) != 266 or values[256:].sum() != 1:
                raise DatasetFormatError(f"SemeionDataset: {path} line {n}: expected 256 pixels and a one-hot "
                                         f"label of 10, got {len(values)} values")
            images.append(values[:256].astype(np.uint8).reshape(16, 16))
            labels.append(int(np.argmax(values[256:])))
        self.column_names = ["image", "label"]
        self._columns = [np.stack(images) if images else np.zeros((0, 16, 16), np.uint8),
                         np.asarray(labels, np.uint32)]


def _idx_pairs(op, dataset_dir, stems, label_magic):
    images, labels = [], []
    for img_stem, lbl_stem in stems:
        paths = [find_idx(dataset_dir, s) for s in (img_stem, lbl_stem)]
        for stem, path in zip((img_stem, lbl_stem), paths):
            if path is None:
                raise DatasetFormatError(f"{op}: {os.path.join(dataset_dir, stem)} (or {stem}.gz) not found")
        img, lbl = read_idx_file(paths[0], 0x803), read_idx_file(paths[1], label_magic)  # type: ignore[arg-type]
        if len(img) != len(lbl):
            raise DatasetFormatError(f"{op}: {paths[0]} holds {len(img)} images but {paths[1]} holds {len(lbl)} "
                                     f"labels")
        images.append(img[..., None])
        labels.append(lbl.astype(np.uint32))
    return np.concatenate(images), np.concatenate(labels)


class EMnistDataset(_ArraySource):
    """EMNIST (``emnist-<name>-<train|test>-images-idx3-ubyte`` and ``-labels-idx1-ubyte``, raw or gzipped).
    Columns: image (28, 28, 1) uint8 as stored, label uint32. usage 'all' reads test then train (as MindSpore)."""

    _NAMES = ("byclass", "bymerge", "balanced", "letters", "digits", "mnist")

    def __init__(self, dataset_dir: str, name: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        check_choice("EMnistDataset", "name", name, self._NAMES)
        usage = check_choice("EMnistDataset", "usage", "all" if usage is None else usage, ("train", "test", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        parts = ["test", "train"] if usage == "all" else [usage]
        stems = [(f"emnist-{name}-{u}-images-idx3-ubyte", f"emnist-{name}-{u}-labels-idx1-ubyte") for u in parts]
        self.column_names = ["image", "label"]
        self._columns = list(_idx_pairs("EMnistDataset", self.dataset_dir, stems, 0x801))


class QMnistDataset(_ArraySource):
    """QMNIST (``qmnist-<train|test>-images-idx3-ubyte`` with ``-labels-idx2-int``; ``xnist-*`` for 'nist').
    Columns: image (28, 28, 1) uint8, label uint32: the class (``compat=True``) or all 8 label fields."""

    _FILES = {"train": ["qmnist-train"], "test": ["qmnist-test"], "test10k": ["qmnist-test"],
              "test50k": ["qmnist-test"], "nist": ["xnist"], "all": ["qmnist-train", "qmnist-test", "xnist"]}

    def __init__(self, dataset_dir: str, usage: str | None = None, compat: bool = True, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("QMnistDataset", "usage", "all" if usage is None else usage, tuple(self._FILES))
        if not isinstance(compat, bool):
            raise TypeError(f"QMnistDataset: compat must be a bool, but got {compat!r}")
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        stems = [(f"{p}-images-idx3-ubyte", f"{p}-labels-idx2-int") for p in self._FILES[usage]]
        images, labels = _idx_pairs("QMnistDataset", self.dataset_dir, stems, 0xC02)
        if labels.ndim != 2 or labels.shape[1] != 8:
            raise DatasetFormatError(f"QMnistDataset: label files must hold 8 fields per image, got shape "
                                     f"{labels.shape}")
        if usage == "test10k":
            images, labels = images[:10000], labels[:10000]
        elif usage == "test50k":
            images, labels = images[10000:], labels[10000:]
        self.column_names = ["image", "label"]
        self._columns = [images, np.ascontiguousarray(labels[:, 0]) if compat else labels]


class STL10Dataset(_ArraySource):
    """STL-10 binaries: ``<split>_X.bin`` (uint8 images, each 3 x 96 x 96 in column-major order) and
    ``<split>_y.bin`` (labels 1-10). Columns: image (96, 96, 3) uint8, label int32 (label - 1; -1 unlabeled)."""

    _SPLITS = {"train": ["train"], "test": ["test"], "unlabeled": ["unlabeled"],
               "train+unlabeled": ["train", "unlabeled"], "all": ["train", "test", "unlabeled"]}

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("STL10Dataset", "usage", "all" if usage is None else usage, tuple(self._SPLITS))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        images, labels = [], []
        for split in self._SPLITS[usage]:
            x_path = os.path.join(self.dataset_dir, f"{split}_X.bin")
            raw = np.fromfile(x_path, np.uint8) if os.path.isfile(x_path) else None
            if raw is None:
                raise DatasetFormatError(f"STL10Dataset: {x_path} does not exist")
            if raw.size % (3 * 96 * 96):
                raise DatasetFormatError(f"STL10Dataset: {x_path} holds {raw.size} bytes, not a multiple of one "
                                         f"96 x 96 x 3 image ({3 * 96 * 96} bytes)")
            n = raw.size // (3 * 96 * 96)
            images.append(raw.reshape(n, 3, 96, 96).transpose(0, 3, 2, 1))
            if split == "unlabeled":
                labels.append(np.full(n, -1, np.int32))
                continue
            y_path = os.path.join(self.dataset_dir, f"{split}_y.bin")
            if not os.path.isfile(y_path):
                raise DatasetFormatError(f"STL10Dataset: {y_path} does not exist")
            y = np.fromfile(y_path, np.uint8)
            if len(y) != n:
                raise DatasetFormatError(f"STL10Dataset: {x_path} holds {n} images but {y_path} {len(y)} labels")
            labels.append(y.astype(np.int32) - 1)
        self.column_names = ["image", "label"]
        self._columns = [np.ascontiguousarray(np.concatenate(images)), np.concatenate(labels)]


class Caltech256Dataset(RowSource):
    """Caltech-256: class folders ``<nnn>.<name>/`` of images. Columns: image (bytes, or (H, W, 3) uint8 with
    ``decode``), label int32: the index of the folder among the sorted class folders."""

    _EXTS = (".jpg", ".jpeg", ".png", ".bmp", ".gif")

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, decode: bool = False, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        classes = [c for c in list_dir("Caltech256Dataset", self.dataset_dir)
                   if os.path.isdir(os.path.join(self.dataset_dir, c))]
        self._items = [(os.path.join(self.dataset_dir, c, f), k) for k, c in enumerate(classes)
                       for f in list_dir("Caltech256Dataset", os.path.join(self.dataset_dir, c))
                       if f.lower().endswith(self._EXTS)]
        self.column_names = ["image", "label"]

    def _row(self, item):
        return [read_image("Caltech256Dataset", item[0], self.decode), np.int32(item[1])]


class SUN397Dataset(RowSource):
    """SUN397: ``ClassName.txt`` lists the categories (``/a/abbey``); images lie in those folders. Rows come in
    sorted category order; label uint32 is the category's line in ``ClassName.txt``.
    Columns: image (bytes, or (H, W, 3) uint8 with ``decode``), label uint32."""

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, decode: bool = False, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        names_file = os.path.join(self.dataset_dir, "ClassName.txt")
        if not os.path.isfile(names_file):
            raise DatasetFormatError(f"SUN397Dataset: {names_file} does not exist")
        classes = [c.strip() for c in read_text("SUN397Dataset", names_file).splitlines() if c.strip()]
        self._items = []
        for cls in sorted(classes):
            folder = os.path.join(self.dataset_dir, cls.strip("/"))
            if not os.path.isdir(folder):
                raise DatasetFormatError(f"SUN397Dataset: {folder} (category {cls} of {names_file}) is missing")
            self._items += [(os.path.join(folder, f), classes.index(cls)) for f in list_dir("SUN397Dataset", folder)
                            if f.startswith("sun_") and os.path.isfile(os.path.join(folder, f))]
        self.column_names = ["image", "label"]

    def _row(self, item):
        return [read_image("SUN397Dataset", item[0], self.decode), np.uint32(item[1])]
