"""``VOCDataset``: PASCAL VOC detection (XML boxes) and segmentation (PNG masks)."""
from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from ._block import column_from_rows, file_bytes, object_column
from ._samplers import Sampler
from ._sources import DatasetFormatError, MappableSource, check_dir
from .vision._ops import decode_bytes

__all__ = ["VOCDataset"]


def _parse_xml(path):
    """[(name, [xmin, ymin, w, h], difficult, truncated)] of one annotation file."""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        raise DatasetFormatError(f"VOCDataset: cannot parse {path}: {e}") from e
    objects = []
    for obj in root.iter("object"):
        name = (obj.findtext("name") or "").strip()
        box = obj.find("bndbox")
        if not name or box is None:
            raise DatasetFormatError(f"VOCDataset: {path}: an <object> lacks <name> or <bndbox>")
        try:
            # a missing tag gives None: float() raises TypeError, reported below
            xmin, ymin, xmax, ymax = (float(box.findtext(t)) for t in ("xmin", "ymin", "xmax", "ymax"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise DatasetFormatError(f"VOCDataset: {path}: <bndbox> of {name!r} needs numeric xmin, ymin, xmax, "
                                     f"ymax") from None
        if min(xmin, ymin, xmax, ymax) <= 0 or xmax <= xmin or ymax <= ymin:
            raise DatasetFormatError(f"VOCDataset: invalid bndbox in {path}: the coordinates should be greater "
                                     f"than 0 with max > min, but got {{{xmin:g}, {ymin:g}, {xmax:g}, {ymax:g}}}")
        objects.append((name, [xmin, ymin, xmax - xmin, ymax - ymin], int(obj.findtext("difficult") or 0),
                        int(obj.findtext("truncated") or 0)))
    return objects


class VOCDataset(MappableSource):
    """PASCAL VOC under ``dataset_dir`` (``ImageSets/<Main|Segmentation>/<usage>.txt`` lists the ids).

    Detection columns: image (encoded bytes or decoded), bbox float32 (N, 4) [xmin, ymin, w, h], label,
    difficult, truncate uint32 (N, 1); labels from ``class_indexing`` (default: the sorted class names, 0..).
    Segmentation columns: image, target (the PNG mask, encoded or decoded). ``extra_metadata`` adds
    ``_meta-filename``.
    Args: dataset_dir, task ('Segmentation' | 'Detection'), usage (str, default 'train'), class_indexing (dict,
        Detection only), num_samples, num_parallel_workers, shuffle, decode, sampler, num_shards, shard_id,
        cache / decrypt (unused), extra_metadata."""

    _parallel_read = True

    def __init__(self, dataset_dir: str, task: str = "Segmentation", usage: str = "train",
                 class_indexing: dict[str, int] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, decode: bool = False,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None, extra_metadata: bool = False,
                 decrypt: Callable[[str], bytes] | None = None):
        if task not in ("Segmentation", "Detection"):
            raise ValueError(f"VOCDataset: task must be 'Segmentation' or 'Detection', but got {task!r}")
        if class_indexing is not None and task != "Detection":
            raise ValueError("VOCDataset: class_indexing is only valid for task='Detection'")
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.task, self.decode, self.extra_metadata = task, bool(decode), bool(extra_metadata)
        listing = os.path.join(self.dataset_dir, "ImageSets", "Main" if task == "Detection" else "Segmentation",
                               f"{usage}.txt")
        if not os.path.isfile(listing):
            raise ValueError(f"VOCDataset: the image list {listing} does not exist (usage={usage!r})")
        with open(listing, encoding="utf-8") as f:
            self._ids = [line.strip() for line in f if line.strip()]
        if task == "Detection":
            self._objects = [_parse_xml(os.path.join(self.dataset_dir, "Annotations", f"{i}.xml")) for i in self._ids]
            names = sorted({o[0] for objs in self._objects for o in objs})
            self._class_indexing = dict(class_indexing) if class_indexing is not None else \
                {n: k for k, n in enumerate(names)}
            missing = sorted({o[0] for objs in self._objects for o in objs} - set(self._class_indexing))
            if missing:
                raise ValueError(f"VOCDataset: classes {missing} of the annotations are not in class_indexing")
            self.column_names = ["image", "bbox", "label", "difficult", "truncate"]
        else:
            self._class_indexing = {}
            self.column_names = ["image", "target"]
        if self.extra_metadata:
            self.column_names.append("_meta-filename")

    def _length(self):
        return len(self._ids)

    def _file(self, folder, name):
        path = os.path.join(self.dataset_dir, folder, name)
        try:
            with open(path, "rb") as f:
                data = file_bytes(f.read(), path)
        except OSError as e:
            raise DatasetFormatError(f"VOCDataset: cannot read {path}: {e}") from e
        if not self.decode:
            return data
        return decode_bytes(data, "VOCDataset", f" for file {path}")

    def _read(self, ids):
        picked = [int(i) for i in ids]
        images = [self._file("JPEGImages", f"{self._ids[i]}.jpg") for i in picked]
        cols = [column_from_rows(images) if self.decode else object_column(images)]
        if self.task == "Detection":
            objs = [self._objects[i] for i in picked]
            cols.append(column_from_rows([np.asarray([o[1] for o in ob], np.float32).reshape(-1, 4) for ob in objs]))
            cols.append(column_from_rows([np.asarray([[self._class_indexing[o[0]]] for o in ob], np.uint32)
                                          for ob in objs]))
            cols.append(column_from_rows([np.asarray([[o[2]] for o in ob], np.uint32) for ob in objs]))
            cols.append(column_from_rows([np.asarray([[o[3]] for o in ob], np.uint32) for ob in objs]))
        else:
            masks = [self._file("SegmentationClass", f"{self._ids[i]}.png") for i in picked]
            cols.append(column_from_rows(masks) if self.decode else object_column(masks))
        if self.extra_metadata:
            cols.append(np.array([self._ids[i] for i in picked]))
        return cols

    def get_class_indexing(self) -> dict[str, int]:
        """Class name -> label (Detection)."""
        if self.task != "Detection":
            raise RuntimeError("VOCDataset: get_class_indexing is only available for task='Detection'")
        return dict(self._class_indexing)

    def num_classes(self) -> int | None:
        return len(self._class_indexing) if self.task == "Detection" else None
