"""``CocoDataset`` (detection task): images listed in a COCO annotation file, with their boxes."""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ._block import column_from_rows, file_bytes, object_column
from ._samplers import Sampler
from ._sources import DatasetFormatError, MappableSource, check_dir
from .vision._ops import decode_bytes

__all__ = ["CocoDataset"]


class CocoDataset(MappableSource):
    """COCO detection data: ``annotation_file`` (instances JSON) and the images under ``dataset_dir``.

    Rows follow the file's ``images`` list; images without annotations are left out (as in MindSpore).
    Columns: image (encoded bytes, or (H, W, 3) uint8 with ``decode``), bbox float32 (N, 4) [x, y, w, h],
    category_id uint32 (N, 1), iscrowd uint32 (N, 1); ``extra_metadata`` adds ``_meta-filename``.
    Only ``task='Detection'`` is available in mindspore_hl.
    Args: dataset_dir, annotation_file, task, num_samples, num_parallel_workers, shuffle, decode, sampler,
        num_shards, shard_id, cache / decrypt (unused), extra_metadata (bool)."""

    _parallel_read = True

    def __init__(self, dataset_dir: str, annotation_file: str, task: str = "Detection",
                 num_samples: int | None = None, num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 decode: bool = False, sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None, extra_metadata: bool = False,
                 decrypt: Callable[[str], bytes] | None = None):
        if task != "Detection":
            raise ValueError(f"CocoDataset: task {task!r} is not supported by mindspore_hl; use 'Detection'")
        self.dataset_dir = check_dir(dataset_dir)
        if not isinstance(annotation_file, str) or not os.path.isfile(annotation_file):
            raise ValueError(f"CocoDataset: the annotation file {annotation_file!r} does not exist")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode, self.extra_metadata = bool(decode), bool(extra_metadata)
        try:
            with open(annotation_file, encoding="utf-8") as f:
                doc = json.load(f)
            images, anns, cats = doc["images"], doc["annotations"], doc["categories"]
        except (ValueError, KeyError, TypeError) as e:
            raise DatasetFormatError(f"CocoDataset: {annotation_file} is not a COCO instances file "
                                     f"({type(e).__name__}: {e})") from e
        by_image: dict[Any, list[Any]] = {}
        for a in anns:
            try:
                by_image.setdefault(a["image_id"], []).append(
                    (a["bbox"], a["category_id"], a.get("iscrowd", 0)))
            except (KeyError, TypeError) as e:
                raise DatasetFormatError(f"CocoDataset: {annotation_file}: annotation {a.get('id')!r} lacks "
                                         f"{e}") from e
        self._rows = []
        for img in images:
            boxes = by_image.get(img["id"])
            if not boxes:
                continue
            self._rows.append((img["file_name"],
                               np.asarray([b for b, _, _ in boxes], np.float32).reshape(-1, 4),
                               np.asarray([[c] for _, c, _ in boxes], np.uint32),
                               np.asarray([[z] for _, _, z in boxes], np.uint32)))
        self._class_indexing = {c["name"]: [c["id"]] for c in cats}
        self.column_names = ["image", "bbox", "category_id", "iscrowd"] + \
            (["_meta-filename"] if self.extra_metadata else [])

    def _length(self):
        return len(self._rows)

    def _image(self, name):
        path = os.path.join(self.dataset_dir, name)
        try:
            with open(path, "rb") as f:
                data = file_bytes(f.read(), path)
        except OSError as e:
            raise DatasetFormatError(f"CocoDataset: cannot read {path}: {e}") from e
        return decode_bytes(data, "CocoDataset", f" for file {path}") if self.decode else data

    def _read(self, ids):
        rows = [self._rows[int(i)] for i in ids]
        images = [self._image(r[0]) for r in rows]
        cols = [column_from_rows(images) if self.decode else object_column(images)]
        for k in (1, 2, 3):
            cols.append(column_from_rows([r[k] for r in rows]))
        if self.extra_metadata:
            cols.append(np.array([r[0] for r in rows]))
        return cols

    def get_class_indexing(self) -> dict[str, list[int]]:
        """Category name -> [category id]."""
        return {k: list(v) for k, v in self._class_indexing.items()}

    def num_classes(self) -> int:
        return len(self._class_indexing)
