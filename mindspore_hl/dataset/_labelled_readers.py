"""Labelled image corpora in their published layouts: Oxford Flowers-102, Caltech-101, Cityscapes, LFW, SBD.

Column names, dtypes and row order follow real MindSpore 2.10 reading the same files (recorded by
tools/oracle/record_dataset_readers.py). MATLAB files are read with SciPy."""
from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

import numpy as np
from scipy.io import loadmat

from ._readers_base import RowSource, check_choice, list_dir, read_image, read_text
from ._samplers import Sampler
from ._sources import DatasetFormatError, check_dir

__all__ = ["Flowers102Dataset", "Caltech101Dataset", "CityscapesDataset", "LFWDataset", "SBDataset"]


def _mat(op, path, key):
    try:
        return np.asarray(loadmat(path)[key])
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise DatasetFormatError(f"{op}: cannot read {key!r} from {path} ({type(e).__name__}: {e})") from None


class Flowers102Dataset(RowSource):
    """Oxford Flowers-102: ``imagelabels.mat`` (labels 1-102), ``setid.mat`` (``trnid`` / ``valid`` / ``tstid``),
    ``jpg/image_<n>.jpg`` and ``segmim/segmim_<n>.jpg``; usage 'all' reads train, test, valid. Columns: image,
    (segmentation with task 'Segmentation'), label uint32 (0-101). Images are bytes, or (H, W, 3) with decode."""

    _SETS = {"train": ("trnid",), "valid": ("valid",), "test": ("tstid",), "all": ("trnid", "tstid", "valid")}

    def __init__(self, dataset_dir: str, task: str = "Classification", usage: str = "all",
                 num_samples: int | None = None, num_parallel_workers: int | None = 1, shuffle: bool | None = None,
                 decode: bool = False, sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None):
        check_choice("Flowers102Dataset", "task", task, ("Classification", "Segmentation"))
        check_choice("Flowers102Dataset", "usage", usage, tuple(self._SETS))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode, self.task = bool(decode), task
        labels = _mat("Flowers102Dataset", os.path.join(self.dataset_dir, "imagelabels.mat"), "labels").reshape(-1)
        setid = os.path.join(self.dataset_dir, "setid.mat")
        ids = [int(i) for key in self._SETS[usage] for i in _mat("Flowers102Dataset", setid, key).reshape(-1)]
        bad = [i for i in ids if not 1 <= i <= len(labels)]
        if bad:
            raise DatasetFormatError(f"Flowers102Dataset: {setid} names image {bad[0]}, but imagelabels.mat has "
                                     f"{len(labels)} labels")
        self._items = [(i, np.uint32(int(labels[i - 1]) - 1)) for i in ids]
        self.column_names = ["image", "label"] if task == "Classification" else ["image", "segmentation", "label"]

    def _row(self, item):
        i, label = item
        image = read_image("Flowers102Dataset", os.path.join(self.dataset_dir, "jpg", f"image_{i:05d}.jpg"),
                           self.decode)
        if self.task == "Classification":
            return [image, label]
        seg = read_image("Flowers102Dataset", os.path.join(self.dataset_dir, "segmim", f"segmim_{i:05d}.jpg"),
                         self.decode)
        return [image, seg, label]


#: image folders whose annotation folder has another name
_CALTECH_ANNOTATIONS = {"Faces": "Faces_2", "Faces_easy": "Faces_3", "Motorbikes": "Motorbikes_16",
                        "airplanes": "Airplanes_Side_2"}


class Caltech101Dataset(RowSource):
    """Caltech-101: ``101_ObjectCategories/<class>/image_<nnnn>.jpg`` (``BACKGROUND_Google`` left out) and
    ``Annotations/<class>/annotation_<nnnn>.mat`` (``obj_contour``). Columns by ``target_type``: 'category'
    [image, category int64], 'annotation' [image, annotation float64 (2, points)], 'all' [image, category,
    annotation]. Images are bytes, or (H, W, 3) uint8 with ``decode``."""

    def __init__(self, dataset_dir: str, target_type: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = 1, shuffle: bool | None = None, decode: bool = False,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None):
        self.target_type = check_choice("Caltech101Dataset", "target_type",
                                        "category" if target_type is None else target_type,
                                        ("category", "annotation", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        image_root = os.path.join(self.dataset_dir, "101_ObjectCategories")
        classes = [c for c in list_dir("Caltech101Dataset", image_root) if c != "BACKGROUND_Google"]
        self._items = []
        for k, cls in enumerate(classes):
            folder = os.path.join(image_root, cls)
            if os.path.isdir(folder):
                # images are numbered 1..count in each class folder
                self._items += [(cls, n, k) for n in range(1, len(list_dir("Caltech101Dataset", folder)) + 1)]
        self.column_names = {"category": ["image", "category"], "annotation": ["image", "annotation"],
                             "all": ["image", "category", "annotation"]}[self.target_type]

    def _row(self, item):
        cls, n, k = item
        image = read_image("Caltech101Dataset", os.path.join(self.dataset_dir, "101_ObjectCategories", cls,
                                                             f"image_{n:04d}.jpg"), self.decode)
        if self.target_type == "category":
            return [image, np.int64(k)]
        ann = _mat("Caltech101Dataset", os.path.join(self.dataset_dir, "Annotations",
                                                     _CALTECH_ANNOTATIONS.get(cls, cls), f"annotation_{n:04d}.mat"),
                   "obj_contour").astype(np.float64)
        return [image, ann] if self.target_type == "annotation" else [image, np.int64(k), ann]


class CityscapesDataset(RowSource):
    """Cityscapes: ``leftImg8bit/<split>/<city>/<stem>_leftImg8bit.png`` with ``gt<Fine|Coarse>/<split>/<city>/
    <stem>_gt<Fine|Coarse>_<instanceIds|labelIds|color>.png`` or ``_polygons.json``. Columns: image, task
    (an image like ``image``; for 'polygon' the JSON as a compact string with sorted keys)."""

    _SUFFIX = {"instance": "instanceIds.png", "semantic": "labelIds.png", "color": "color.png",
               "polygon": "polygons.json"}

    def __init__(self, dataset_dir: str, usage: str = "train", quality_mode: str = "fine", task: str = "instance",
                 num_samples: int | None = None, num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 decode: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        check_choice("CityscapesDataset", "quality_mode", quality_mode, ("fine", "coarse"))
        splits = ("train", "test", "val") if quality_mode == "fine" else ("train", "train_extra", "val")
        check_choice("CityscapesDataset", "usage", usage, splits + ("all",))
        check_choice("CityscapesDataset", "task", task, tuple(self._SUFFIX))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode, self.task = bool(decode), task
        gt = "gtFine" if quality_mode == "fine" else "gtCoarse"
        self._items = []
        for split in (splits if usage == "all" else (usage,)):
            image_root = os.path.join(self.dataset_dir, "leftImg8bit", split)
            if not os.path.isdir(image_root):
                raise DatasetFormatError(f"CityscapesDataset: {image_root} does not exist (usage={usage!r})")
            for city in list_dir("CityscapesDataset", image_root):
                for name in list_dir("CityscapesDataset", os.path.join(image_root, city)):
                    if not name.endswith("_leftImg8bit.png"):
                        continue
                    stem = name[:-len("_leftImg8bit.png")]
                    target = os.path.join(self.dataset_dir, gt, split, city, f"{stem}_{gt}_{self._SUFFIX[task]}")
                    self._items.append((os.path.join(image_root, city, name), target))
        self.column_names = ["image", "task"]

    def _row(self, item):
        image = read_image("CityscapesDataset", item[0], self.decode)
        if self.task != "polygon":
            return [image, read_image("CityscapesDataset", item[1], self.decode)]
        try:
            doc = json.loads(read_text("CityscapesDataset", item[1]))
        except ValueError as e:
            raise DatasetFormatError(f"CityscapesDataset: {item[1]} is not JSON ({e})") from None
        return [image, np.str_(json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False))]


class LFWDataset(RowSource):
    """Labeled Faces in the Wild, task 'people': ``<lfw | lfw_funneled | lfw-deepfunneled>/<name>/
    <name>_<nnnn>.jpg`` listed by ``peopleDevTrain.txt`` / ``peopleDevTest.txt`` (usage 'all' reads both) or
    ``people.txt`` ('10fold'); label uint32 is the person's line in ``lfw-names.txt``. Columns: image (bytes,
    or (H, W, 3) uint8 with ``decode``), label. Task 'pairs' is not provided (it raises ValueError)."""

    _IMAGE_SETS = {"original": "lfw", "funneled": "lfw_funneled", "deepfunneled": "lfw-deepfunneled"}
    _LISTS = {"train": ["peopleDevTrain.txt"], "test": ["peopleDevTest.txt"], "10fold": ["people.txt"],
              "all": ["peopleDevTrain.txt", "peopleDevTest.txt"]}

    def __init__(self, dataset_dir: str, task: str | None = None, usage: str | None = None,
                 image_set: str | None = None, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, decode: bool = False, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        task = check_choice("LFWDataset", "task", "people" if task is None else task, ("people", "pairs"))
        if task == "pairs":
            raise ValueError("LFWDataset: task='pairs' is not provided by mindspore_hl; use task='people'")
        usage = check_choice("LFWDataset", "usage", "all" if usage is None else usage, tuple(self._LISTS))
        image_set = check_choice("LFWDataset", "image_set", "funneled" if image_set is None else image_set,
                                 tuple(self._IMAGE_SETS))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        names_file = os.path.join(self.dataset_dir, "lfw-names.txt")
        if not os.path.isfile(names_file):
            raise DatasetFormatError(f"LFWDataset: {names_file} does not exist")
        index = {line.split()[0]: k for k, line in enumerate(
            line for line in read_text("LFWDataset", names_file).splitlines() if line.strip())}
        image_root = os.path.join(self.dataset_dir, self._IMAGE_SETS[image_set])
        self._items = []
        for listing in self._LISTS[usage]:
            path = os.path.join(self.dataset_dir, listing)
            if not os.path.isfile(path):
                raise DatasetFormatError(f"LFWDataset: {path} does not exist (usage={usage!r})")
            for n, line in enumerate(read_text("LFWDataset", path).splitlines(), start=1):
                parts = line.split()
                if len(parts) != 2:   # a count line (number of folds / people in a fold)
                    continue
                name, count = parts[0], int(parts[1])
                if name not in index:
                    raise DatasetFormatError(f"LFWDataset: {path} line {n}: {name} is not in {names_file}")
                self._items += [(os.path.join(image_root, name, f"{name}_{i:04d}.jpg"), index[name])
                                for i in range(1, count + 1)]
        self.column_names = ["image", "label"]

    def _row(self, item):
        return [read_image("LFWDataset", item[0], self.decode), np.uint32(item[1])]


class SBDataset(RowSource):
    """Semantic Boundaries Dataset: ``img/<name>.jpg`` with ``cls/<name>.mat`` (MATLAB struct ``GTcls``), the
    names listed by ``train.txt`` / ``val.txt`` / ``train_noval.txt`` (usage 'all' reads train then val).
    Columns: image (bytes, or (H, W, 3) uint8 with ``decode``), task: for 'Boundaries' the 20 class boundary masks
    stacked (20, H, W) in the file's dtype, for 'Segmentation' the (H, W) class map."""

    def __init__(self, dataset_dir: str, task: str = "Boundaries", usage: str = "all", num_samples: int | None = None,
                 num_parallel_workers: int | None = 1, shuffle: bool | None = None, decode: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None):
        self.task = check_choice("SBDataset", "task", task, ("Boundaries", "Segmentation"))
        check_choice("SBDataset", "usage", usage, ("train", "val", "train_noval", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        names = []
        for split in (("train", "val") if usage == "all" else (usage,)):
            listing = os.path.join(self.dataset_dir, split + ".txt")
            if not os.path.isfile(listing):
                raise DatasetFormatError(f"SBDataset: {listing} does not exist (usage={usage!r})")
            names += [n.strip() for n in read_text("SBDataset", listing).splitlines() if n.strip()]
        self._items = [(os.path.join(self.dataset_dir, "img", n + ".jpg"), os.path.join(self.dataset_dir, "cls",
                                                                                        n + ".mat")) for n in names]
        self.column_names = ["image", "task"]

    def _row(self, item):
        image = read_image("SBDataset", item[0], self.decode)
        gt = _mat("SBDataset", item[1], "GTcls")
        try:
            value = gt[0][self.task][0]
            if self.task == "Boundaries":
                value = np.stack([value[k][0].toarray() for k in range(20)])
        except (IndexError, KeyError, ValueError, AttributeError) as e:
            raise DatasetFormatError(f"SBDataset: {item[1]}: GTcls.{self.task} is not in SBD's layout "
                                     f"({type(e).__name__}: {e})") from None
        return [image, np.ascontiguousarray(value)]
