"""``CelebADataset``: face images with 40 binary attributes (``list_attr_celeba.txt``)."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ._block import column_from_rows, file_bytes, object_column
from ._samplers import Sampler
from ._sources import DatasetFormatError, MappableSource, check_dir
from .vision._ops import decode_bytes

__all__ = ["CelebADataset"]

_USAGE = {"train": "0", "valid": "1", "test": "2"}


class CelebADataset(MappableSource):
    """CelebA: images in ``dataset_dir`` listed by ``list_attr_celeba.txt`` (a count line, the attribute names,
    then ``file a1 a2 ...`` with 1 / -1); ``list_eval_partition.txt`` (``file 0|1|2``) selects ``usage``.

    Columns: image (encoded bytes, or (H, W, 3) uint8 with ``decode``), attr uint32 (n_attributes,) with -1 -> 0.
    Args: dataset_dir, num_parallel_workers, shuffle, usage ('train' | 'valid' | 'test' | 'all'), sampler,
        decode, extensions (list of str), num_samples, num_shards, shard_id, cache / decrypt (unused)."""

    _parallel_read = True

    def __init__(self, dataset_dir: str, num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 usage: str = "all", sampler: Sampler | Iterable[int] | None = None, decode: bool = False,
                 extensions: Sequence[str] | None = None, num_samples: int | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None, decrypt: Callable[[str], bytes] | None = None):
        if usage not in ("train", "valid", "test", "all"):
            raise ValueError(f"CelebADataset: usage must be 'train', 'valid', 'test' or 'all', but got {usage!r}")
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        attr_file = os.path.join(self.dataset_dir, "list_attr_celeba.txt")
        try:
            with open(attr_file, encoding="utf-8") as f:
                lines = [line.split() for line in f if line.strip()]
        except OSError as e:
            raise DatasetFormatError(f"CelebADataset: cannot read {attr_file}: {e}") from e
        if len(lines) < 2:
            raise DatasetFormatError(f"CelebADataset: {attr_file} needs a count line and an attribute-name line")
        self.attr_names = lines[1]
        rows = []
        for n, parts in enumerate(lines[2:], start=3):
            if len(parts) != len(self.attr_names) + 1:
                raise DatasetFormatError(f"CelebADataset: {attr_file} line {n} has {len(parts) - 1} attributes, "
                                         f"expected {len(self.attr_names)}")
            try:
                attrs = np.asarray([1 if int(v) == 1 else 0 for v in parts[1:]], np.uint32)
            except ValueError:
                raise DatasetFormatError(f"CelebADataset: {attr_file} line {n}: attributes must be 1 or -1") from None
            rows.append((parts[0], attrs))
        if usage != "all":
            part_file = os.path.join(self.dataset_dir, "list_eval_partition.txt")
            if not os.path.isfile(part_file):
                raise DatasetFormatError(f"CelebADataset: usage={usage!r} needs {part_file}")
            with open(part_file, encoding="utf-8") as f:
                split = dict(line.split()[:2] for line in f if line.strip())
            rows = [r for r in rows if split.get(r[0]) == _USAGE[usage]]
        if extensions is not None:
            exts = {e.lower() for e in extensions}
            rows = [r for r in rows if os.path.splitext(r[0])[1].lower() in exts]
        self._rows = rows
        self.column_names = ["image", "attr"]

    def _length(self):
        return len(self._rows)

    def _image(self, name):
        path = os.path.join(self.dataset_dir, name)
        try:
            with open(path, "rb") as f:
                data = file_bytes(f.read(), path)
        except OSError as e:
            raise DatasetFormatError(f"CelebADataset: cannot read {path}: {e}") from e
        return decode_bytes(data, "CelebADataset", f" for file {path}") if self.decode else data

    def _read(self, ids):
        picked = [self._rows[int(i)] for i in ids]
        images = [self._image(r[0]) for r in picked]
        return [column_from_rows(images) if self.decode else object_column(images),
                np.stack([r[1] for r in picked])]
