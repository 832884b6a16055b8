"""CIFAR-10 / CIFAR-100 binary version (``cifar-10-batches-bin`` / ``cifar-100-binary``) readers."""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence

import numpy as np

from ._sources import DatasetFormatError, MappableSource, check_dir, check_usage

__all__ = ["parse_cifar", "Cifar10Dataset", "Cifar100Dataset"]

_PIXELS = 3 * 32 * 32


def parse_cifar(data: bytes, name: str, n_labels: int, label_limits: Sequence[int]
                ) -> tuple[np.ndarray, list[np.ndarray]]:
    """Records of ``n_labels`` label bytes + 3072 pixel bytes (R, G, B planes of 32x32) -> (images HWC uint8,
    [labels uint32, ...]). Raises DatasetFormatError naming ``name`` for a partial record or a bad label."""
    rec = n_labels + _PIXELS
    if not data:
        raise DatasetFormatError(f"{name}: empty CIFAR file (0 bytes); re-download the CIFAR binary version")
    if len(data) % rec:
        raise DatasetFormatError(f"{name}: truncated CIFAR file: {len(data)} bytes is not a multiple of the "
                                 f"{rec}-byte record ({len(data) // rec} whole records + {len(data) % rec} bytes)")
    arr = np.frombuffer(data, dtype=np.uint8).reshape(-1, rec)
    labels = []
    for k, limit in enumerate(label_limits):
        lab = arr[:, k]
        if lab.size and lab.max() >= limit:
            bad = int(np.argmax(lab >= limit))
            raise DatasetFormatError(f"{name}: record {bad} has label {int(lab[bad])}, outside [0, {limit}); "
                                     f"is this a CIFAR-{'10' if len(label_limits) == 1 else '100'} file?")
        labels.append(lab.astype(np.uint32))
    images = np.ascontiguousarray(arr[:, n_labels:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1))
    return images, labels


def _read_file(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise DatasetFormatError(f"{path}: cannot read the file: {e}") from e


class _CifarBase(MappableSource):
    _name: str
    _patterns: dict[str, Callable[[str], bool]]   # usage -> test of a file name to read
    _n_labels = 1
    _limits: tuple[int, ...] = (10,)
    _describe: Callable[[], str]
    _label_cols = ["label"]

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None, cache=None):
        self.dataset_dir = check_dir(dataset_dir)
        self.usage = check_usage(usage)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.column_names = ["image"] + self._label_cols
        self._data = None

    def _files(self):
        wanted = ["train", "test"] if self.usage == "all" else [self.usage]
        names = sorted(os.listdir(self.dataset_dir))
        files = [os.path.join(self.dataset_dir, n) for w in wanted for n in names
                 if self._patterns[w](n) and os.path.isfile(os.path.join(self.dataset_dir, n))]
        if not files:
            raise DatasetFormatError(f"{self._name}: no {self._describe()} in {self.dataset_dir}")
        return files

    def _load(self):
        if self._data is None:
            parts = [parse_cifar(_read_file(p), p, self._n_labels, self._limits) for p in self._files()]
            images = np.concatenate([p[0] for p in parts]) if len(parts) > 1 else parts[0][0]
            labels = [np.concatenate([p[1][k] for p in parts]) for k in range(self._n_labels)]
            self._data = (images, labels)
        return self._data

    def _length(self):
        return len(self._load()[0])

    def _read(self, ids):
        images, labels = self._load()
        return [images[ids]] + [lab[ids] for lab in labels]


class Cifar10Dataset(_CifarBase):
    """CIFAR-10 binary files: ``data_batch_*.bin`` (train) and ``test_batch.bin`` (test).

    Columns: image (32, 32, 3) uint8, label () uint32. Args: dataset_dir, usage ('train' | 'test' | 'all'),
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache (unused)."""
    _name = "Cifar10Dataset"
    _patterns = {"train": lambda n: n.startswith("data_batch") and n.endswith(".bin"),
                 "test": lambda n: n.startswith("test_batch") and n.endswith(".bin")}

    def _describe(self):
        return {"train": "data_batch_*.bin", "test": "test_batch.bin",
                "all": "data_batch_*.bin or test_batch.bin"}[self.usage] + " files"

    def num_classes(self) -> int:
        return 10


class Cifar100Dataset(_CifarBase):
    """CIFAR-100 binary files: ``train.bin`` and ``test.bin`` (records: coarse label, fine label, pixels).

    Columns: image (32, 32, 3) uint8, coarse_label () uint32, fine_label () uint32. Same arguments as
    ``Cifar10Dataset``."""
    _name = "Cifar100Dataset"
    _n_labels = 2
    _limits = (20, 100)
    _label_cols = ["coarse_label", "fine_label"]
    _patterns = {"train": lambda n: n == "train.bin", "test": lambda n: n == "test.bin"}

    def _describe(self):
        return {"train": "train.bin", "test": "test.bin", "all": "train.bin or test.bin"}[self.usage] + " file"

    def num_classes(self) -> int:
        return 100
