"""``ImageFolderDataset``: one sub-folder per class, image files inside."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ._block import column_from_rows, file_bytes, object_column
from ._samplers import Sampler
from ._sources import DatasetFormatError, MappableSource, check_dir
from .vision._ops import decode_bytes

__all__ = ["ImageFolderDataset"]


class ImageFolderDataset(MappableSource):
    """Images under ``dataset_dir/<class name>/``; classes are numbered in sorted folder order.

    Columns: image (1-D uint8 encoded bytes, or (H, W, 3) uint8 with ``decode=True``), label () int32.
    Args: dataset_dir (str), num_samples, num_parallel_workers, shuffle (default True), sampler,
        extensions (list of str, e.g. ['.jpg', '.png']; None: every file), class_indexing (dict folder -> label;
        only those folders are read), decode (bool), num_shards, shard_id, cache / decrypt (unused)."""

    _parallel_read = True

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 extensions: Sequence[str] | None = None, class_indexing: dict[str, int] | None = None,
                 decode: bool = False, num_shards: int | None = None, shard_id: int | None = None, cache: Any = None,
                 decrypt: Callable[[str], bytes] | None = None):
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        if extensions is not None and (not isinstance(extensions, (list, tuple)) or
                                       not all(isinstance(e, str) for e in extensions)):
            raise TypeError(f"ImageFolderDataset: extensions must be a list of str, but got {extensions!r}")
        if class_indexing is not None and (not isinstance(class_indexing, dict) or not all(
                isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and v >= 0
                for k, v in class_indexing.items())):
            raise TypeError(f"ImageFolderDataset: class_indexing must be a dict of str -> non-negative int, "
                            f"but got {class_indexing!r}")
        if not isinstance(decode, bool):
            raise TypeError(f"ImageFolderDataset: decode must be a bool, but got {decode!r}")
        self.extensions = None if extensions is None else {e.lower() for e in extensions}
        self.decode = decode
        folders = sorted(d for d in os.listdir(self.dataset_dir)
                         if os.path.isdir(os.path.join(self.dataset_dir, d)))
        if class_indexing is None:
            self._class_indexing = {d: i for i, d in enumerate(folders)}
        else:
            self._class_indexing = dict(class_indexing)
        self._files, self._labels = self._scan(folders)
        self.column_names = ["image", "label"]

    def _scan(self, folders):
        files, labels = [], []
        for d in folders:
            if d not in self._class_indexing:
                continue
            base = os.path.join(self.dataset_dir, d)
            for name in sorted(os.listdir(base)):
                path = os.path.join(base, name)
                if not os.path.isfile(path):
                    continue
                if self.extensions is not None and os.path.splitext(name)[1].lower() not in self.extensions:
                    continue
                files.append(path)
                labels.append(self._class_indexing[d])
        return files, np.asarray(labels, dtype=np.int32)

    def _length(self):
        if not self._files:
            ext = "" if self.extensions is None else f" with extensions {sorted(self.extensions)}"
            raise DatasetFormatError(f"ImageFolderDataset: no image files{ext} found in the class folders of "
                                     f"{self.dataset_dir}")
        return len(self._files)

    def _read_one(self, i):
        path = self._files[i]
        try:
            with open(path, "rb") as f:
                data = file_bytes(f.read(), path)
        except OSError as e:
            raise DatasetFormatError(f"ImageFolderDataset: cannot read {path}: {e}") from e
        if self.decode:
            return decode_bytes(data, "ImageFolderDataset", f" for file {path}")
        return data

    def _read(self, ids):
        images = [self._read_one(int(i)) for i in ids]
        return [column_from_rows(images) if self.decode else object_column(images), self._labels[ids]]

    def _label_values(self, column):
        return self._labels if column == "label" else None

    def get_class_indexing(self) -> dict[str, int]:
        """The folder name -> label mapping."""
        return dict(self._class_indexing)

    def num_classes(self) -> int:
        return len(set(self._class_indexing.values()))
