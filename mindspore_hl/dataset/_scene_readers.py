"""More image corpora in their published layouts: SVHN, WIDER FACE, KITTI, Places365, ModelArts manifests,
DIV2K, PhotoTour.

Column names, dtypes and row order follow real MindSpore 2.10 reading the same files (recorded by
tools/oracle/record_dataset_readers.py), where they differ from the documentation too (WIDER FACE's boxes and
attributes are int32, a manifest's label is int32)."""
from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

import numpy as np
from PIL import Image

from ._readers_base import RowSource, check_choice, list_dir, read_image, read_text
from ._samplers import Sampler
from ._sources import DatasetFormatError, MappableSource, check_dir

__all__ = ["SVHNDataset", "WIDERFaceDataset", "KITTIDataset", "Places365Dataset", "ManifestDataset",
           "DIV2KDataset", "PhotoTourDataset", "LSUNDataset"]


class SVHNDataset(MappableSource):
    """SVHN: ``train_32x32.mat`` / ``test_32x32.mat`` / ``extra_32x32.mat`` (MATLAB files read with SciPy);
    usage 'all' reads train, test, extra. Columns: image (32, 32, 3) uint8, label uint32 (10 -> 0)."""

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = 1, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None):
        usage = check_choice("SVHNDataset", "usage", "all" if usage is None else usage,
                             ("train", "test", "extra", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        from scipy.io import loadmat  # SciPy's MATLAB reader is loaded only by this reader
        images, labels = [], []
        for split in (("train", "test", "extra") if usage == "all" else (usage,)):
            path = os.path.join(self.dataset_dir, f"{split}_32x32.mat")
            try:
                mat = loadmat(path)
                x, y = np.asarray(mat["X"]), np.asarray(mat["y"]).reshape(-1)
            except (OSError, ValueError, KeyError, TypeError) as e:
                raise DatasetFormatError(f"SVHNDataset: cannot read {path} as an SVHN .mat file "
                                         f"({type(e).__name__}: {e})") from None
            if x.ndim != 4 or x.shape[:3] != (32, 32, 3) or x.shape[3] != len(y):
                raise DatasetFormatError(f"SVHNDataset: {path}: X must be (32, 32, 3, N) with N labels in y, got "
                                         f"X {x.shape} and {len(y)} labels")
            images.append(np.ascontiguousarray(x.transpose(3, 0, 1, 2), dtype=np.uint8))
            labels.append(np.where(y == 10, 0, y).astype(np.uint32))
        self._columns: list[np.ndarray] = [np.concatenate(images), np.concatenate(labels)]
        self.column_names = ["image", "label"]

    def _length(self):
        return len(self._columns[1])

    def _read(self, ids):
        return [c[ids] for c in self._columns]


class WIDERFaceDataset(RowSource):
    """WIDER FACE: ``WIDER_<split>/images/<event>/<file>`` with ``wider_face_split/wider_face_<split>_bbx_gt.txt``
    (file, face count, then ``x y w h blur expression illumination occlusion pose invalid`` per face); usage
    'all' reads train then valid; 'test' reads ``wider_face_test_filelist.txt`` and has only the image column.
    Columns: image, bbox int32 (faces, 4), blur, expression, illumination, occlusion, pose, invalid int32 (faces,)."""

    _SPLIT = {"train": "train", "valid": "val"}

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, decode: bool = False,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("WIDERFaceDataset", "usage", "all" if usage is None else usage,
                             ("train", "valid", "test", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        split_dir = os.path.join(self.dataset_dir, "wider_face_split")
        self._items = []
        if usage == "test":
            listing = os.path.join(split_dir, "wider_face_test_filelist.txt")
            if not os.path.isfile(listing):
                raise DatasetFormatError(f"WIDERFaceDataset: {listing} does not exist")
            self._items = [(os.path.join(self.dataset_dir, "WIDER_test", "images", n), None)
                           for n in read_text("WIDERFaceDataset", listing).split()]
            self.column_names = ["image"]
            return
        for split in (("train", "val") if usage == "all" else (self._SPLIT[usage],)):
            gt = os.path.join(split_dir, f"wider_face_{split}_bbx_gt.txt")
            if not os.path.isfile(gt):
                raise DatasetFormatError(f"WIDERFaceDataset: {gt} does not exist (usage={usage!r})")
            self._items += self._parse(gt, os.path.join(self.dataset_dir, f"WIDER_{split}", "images"))
        self.column_names = ["image", "bbox", "blur", "expression", "illumination", "occlusion", "pose", "invalid"]

    @staticmethod
    def _parse(gt, image_dir):
        lines = read_text("WIDERFaceDataset", gt).splitlines()
        items, i = [], 0
        while i < len(lines):
            name = lines[i].strip()
            if not name:
                i += 1
                continue
            try:
                count = int(lines[i + 1])
                # an image with no face still has one all-zero line
                faces = [[int(v) for v in lines[i + 2 + k].split()[:10]] for k in range(max(count, 1))]
            except (IndexError, ValueError):
                raise DatasetFormatError(f"WIDERFaceDataset: {gt} line {i + 2}: expected a face count and "
                                         f"{'faces' if lines[i + 1:i + 2] else 'more lines'} after {name}") from None
            if any(len(f) != 10 for f in faces):
                raise DatasetFormatError(f"WIDERFaceDataset: {gt}: a face of {name} has fewer than 10 numbers")
            items.append((os.path.join(image_dir, name), np.asarray(faces[:max(count, 1)], np.int32)))
            i += 2 + max(count, 1)
        return items

    def _row(self, item):
        image = read_image("WIDERFaceDataset", item[0], self.decode)
        if item[1] is None:
            return [image]
        f = item[1]
        return [image, f[:, :4]] + [np.ascontiguousarray(f[:, k]) for k in range(4, 10)]


class KITTIDataset(RowSource):
    """KITTI object detection: ``data_object_image_2/<training|testing>/image_2/<id>.png`` and
    ``data_object_label_2/training/label_2/<id>.txt``. label uint32 indexes the sorted object types found in all
    label files. Columns (train): image, label uint32 (n, 1), truncated float32 (n, 1), occluded uint32 (n, 1),
    alpha float32 (n, 1), bbox float32 (n, 4), dimensions float32 (n, 3), location float32 (n, 3),
    rotation_y float32 (n, 1); (test): image."""

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, decode: bool = False,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("KITTIDataset", "usage", "train" if usage is None else usage, ("train", "test"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        part = "training" if usage == "train" else "testing"
        image_dir = os.path.join(self.dataset_dir, "data_object_image_2", part, "image_2")
        if not os.path.isdir(image_dir):
            raise DatasetFormatError(f"KITTIDataset: {image_dir} does not exist")
        names = [n for n in list_dir("KITTIDataset", image_dir) if n.lower().endswith((".png", ".jpg"))]
        if usage == "test":
            self._items = [(os.path.join(image_dir, n), None) for n in names]
            self.column_names = ["image"]
            return
        label_dir = os.path.join(self.dataset_dir, "data_object_label_2", "training", "label_2")
        objects = [self._parse(os.path.join(label_dir, os.path.splitext(n)[0] + ".txt")) for n in names]
        types = sorted({o[0] for objs in objects for o in objs})
        self._items = []
        for n, objs in zip(names, objects):
            values = np.asarray([o[1:] for o in objs], np.float64).reshape(len(objs), 14)
            labels = np.asarray([types.index(o[0]) for o in objs], np.uint32).reshape(-1, 1)
            self._items.append((os.path.join(image_dir, n), labels, values))
        self.column_names = ["image", "label", "truncated", "occluded", "alpha", "bbox", "dimensions", "location",
                             "rotation_y"]

    @staticmethod
    def _parse(path):
        if not os.path.isfile(path):
            raise DatasetFormatError(f"KITTIDataset: {path} does not exist")
        out = []
        for n, line in enumerate(read_text("KITTIDataset", path).splitlines(), start=1):
            parts = line.split()
            if not parts:
                continue
            try:
                out.append([parts[0]] + [float(v) for v in parts[1:15]])
            except ValueError:
                raise DatasetFormatError(f"KITTIDataset: {path} line {n} holds a non-number") from None
            if len(parts) < 15:
                raise DatasetFormatError(f"KITTIDataset: {path} line {n} has {len(parts)} fields, expected 15")
        return out

    def _row(self, item):
        image = read_image("KITTIDataset", item[0], self.decode)
        if item[1] is None:
            return [image]
        v = item[2]
        f32 = lambda a: np.ascontiguousarray(a, np.float32)  # noqa: E731
        occluded = v[:, 1:2].astype(np.int64).astype(np.uint32)   # -1 (unknown) wraps, as in MindSpore
        return [image, item[1], f32(v[:, 0:1]), occluded, f32(v[:, 2:3]), f32(v[:, 3:7]), f32(v[:, 7:10]),
                f32(v[:, 10:13]), f32(v[:, 13:14])]


class Places365Dataset(RowSource):
    """Places365: ``categories_places365.txt``, ``places365_train_standard.txt`` / ``_train_challenge.txt`` /
    ``places365_val.txt`` (``path label``) and the images under ``data_<256|large>_<standard|challenge>`` or
    ``val_<256|large>``. Columns: image (bytes, or (H, W, 3) uint8 with ``decode``), label uint32."""

    _LISTS = {"train-standard": ("places365_train_standard.txt", "data_{}_standard"),
              "train-challenge": ("places365_train_challenge.txt", "data_{}_challenge"),
              "val": ("places365_val.txt", "val_{}")}

    def __init__(self, dataset_dir: str, usage: str | None = None, small: bool = True, decode: bool = False,
                 num_samples: int | None = None, num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("Places365Dataset", "usage", "train-standard" if usage is None else usage,
                             tuple(self._LISTS))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        listing, folder = self._LISTS[usage]
        listing = os.path.join(self.dataset_dir, listing)
        image_dir = os.path.join(self.dataset_dir, folder.format("256" if small else "large"))
        if not os.path.isfile(listing):
            raise DatasetFormatError(f"Places365Dataset: {listing} does not exist (usage={usage!r})")
        self._items = []
        for n, line in enumerate(read_text("Places365Dataset", listing).splitlines(), start=1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 2 or not parts[1].isdigit():
                raise DatasetFormatError(f"Places365Dataset: {listing} line {n} is not '<image path> <label>'")
            self._items.append((os.path.join(image_dir, parts[0].lstrip("/")), int(parts[1])))
        self.column_names = ["image", "label"]

    def _row(self, item):
        return [read_image("Places365Dataset", item[0], self.decode), np.uint32(item[1])]


class ManifestDataset(RowSource):
    """A ModelArts manifest: one JSON object per line with ``source`` (the image path), ``usage`` (compared
    without case) and ``annotation`` (``name`` = class). Classes index by ``class_indexing`` or, by default, the
    sorted class names. Columns: image (bytes, or (H, W, 3) uint8 with ``decode``), label int32 (scalar, or 1-D
    for several annotations)."""

    def __init__(self, dataset_file: str, usage: str = "train", num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, class_indexing: dict[str, int] | None = None,
                 decode: bool = False, num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        check_choice("ManifestDataset", "usage", usage, ("train", "eval", "inference"))
        if not isinstance(dataset_file, (str, os.PathLike)) or not os.path.isfile(dataset_file):
            raise ValueError(f"ManifestDataset: dataset_file {dataset_file!r} does not exist")
        if class_indexing is not None and not isinstance(class_indexing, dict):
            raise TypeError(f"ManifestDataset: class_indexing must be a dict of str -> int, got {class_indexing!r}")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.dataset_file, self.decode = os.fspath(dataset_file), bool(decode)
        entries = []
        for n, line in enumerate(read_text("ManifestDataset", self.dataset_file).splitlines(), start=1):
            if not line.strip():
                continue
            try:
                doc = json.loads(line)
                names = [a["name"] for a in doc.get("annotation", [])]
                if str(doc.get("usage", "")).lower() == usage:
                    entries.append((doc["source"], names))
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                raise DatasetFormatError(f"ManifestDataset: {self.dataset_file} line {n} is not a manifest entry "
                                         f"({type(e).__name__}: {e})") from None
        if class_indexing is None:
            class_indexing = {c: k for k, c in enumerate(sorted({c for _, names in entries for c in names}))}
        self._class_indexing = dict(class_indexing)
        self._items = []
        for source, names in entries:
            missing = [c for c in names if c not in self._class_indexing]
            if missing:
                raise DatasetFormatError(f"ManifestDataset: {self.dataset_file}: class {missing[0]!r} of {source} "
                                         f"is not in class_indexing {self._class_indexing}")
            ids = np.asarray([self._class_indexing[c] for c in names], np.int32)
            self._items.append((source, ids[0] if len(ids) == 1 else ids))
        self.column_names = ["image", "label"]

    def get_class_indexing(self) -> dict[str, int]:
        return dict(self._class_indexing)

    def _row(self, item):
        return [read_image("ManifestDataset", item[0], self.decode), item[1]]


class DIV2KDataset(RowSource):
    """DIV2K super-resolution pairs: ``DIV2K_<usage>_HR/<id>.png`` with ``DIV2K_<usage>_LR_<downgrade>/X<scale>/
    <id>x<scale>.png`` (bicubic / unknown), or ``DIV2K_<usage>_LR_<mild|difficult|wild>/<id>x4<m|d|w>.png`` and
    ``DIV2K_<usage>_LR_x8/<id>x8.png``. Columns: hr_image, lr_image (bytes, or (H, W, 3) uint8 with ``decode``)."""

    def __init__(self, dataset_dir: str, usage: str = "train", downgrade: str = "bicubic", scale: int = 2,
                 num_samples: int | None = None, num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 decode: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        check_choice("DIV2KDataset", "usage", usage, ("train", "valid", "all"))
        check_choice("DIV2KDataset", "downgrade", downgrade, ("bicubic", "unknown", "mild", "difficult", "wild"))
        check_choice("DIV2KDataset", "scale", scale, (2, 3, 4, 8))
        if (scale == 8 and downgrade != "bicubic") or (downgrade in ("mild", "difficult", "wild") and scale != 4):
            raise ValueError(f"DIV2KDataset: scale {scale} is not published with downgrade {downgrade!r}")
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        self._items = []
        for split in (("train", "valid") if usage == "all" else (usage,)):
            hr_dir = os.path.join(self.dataset_dir, f"DIV2K_{split}_HR")
            if scale == 8:
                lr_dir, suffix = os.path.join(self.dataset_dir, f"DIV2K_{split}_LR_x8"), "x8"
            elif downgrade in ("bicubic", "unknown"):
                lr_dir, suffix = os.path.join(self.dataset_dir, f"DIV2K_{split}_LR_{downgrade}", f"X{scale}"), \
                    f"x{scale}"
            else:
                lr_dir, suffix = os.path.join(self.dataset_dir, f"DIV2K_{split}_LR_{downgrade}"), f"x4{downgrade[0]}"
            for d in (hr_dir, lr_dir):
                if not os.path.isdir(d):
                    raise DatasetFormatError(f"DIV2KDataset: {d} does not exist")
            for name in list_dir("DIV2KDataset", hr_dir):
                stem, ext = os.path.splitext(name)
                self._items.append((os.path.join(hr_dir, name), os.path.join(lr_dir, stem + suffix + ext)))
        self.column_names = ["hr_image", "lr_image"]

    def _row(self, item):
        return [read_image("DIV2KDataset", p, self.decode) for p in item]


class PhotoTourDataset(MappableSource):
    """PhotoTour patches: ``<name>/patches*.bmp`` (1024 x 1024 grey, 16 x 16 patches of 64 x 64, left to right
    then top to bottom), ``info.txt`` (a 3D point id per patch) and ``m50_100000_100000_0.txt`` (test pairs).
    Columns: train: image (64, 64, 1) uint8; test: image1, image2, matches uint32 (same 3D point)."""

    _NAMES = ("notredame", "yosemite", "liberty", "notredame_harris", "yosemite_harris", "liberty_harris")

    def __init__(self, dataset_dir: str, name: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        check_choice("PhotoTourDataset", "name", name, self._NAMES)
        usage = check_choice("PhotoTourDataset", "usage", "train" if usage is None else usage, ("train", "test"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        base = os.path.join(self.dataset_dir, name)
        info = os.path.join(base, "info.txt")
        if not os.path.isfile(info):
            raise DatasetFormatError(f"PhotoTourDataset: {info} does not exist")
        points = np.asarray([int(line.split()[0]) for line in read_text("PhotoTourDataset", info).splitlines()
                             if line.strip()], np.int64)
        bitmaps = [f for f in list_dir("PhotoTourDataset", base) if f.startswith("patches") and f.endswith(".bmp")]
        patches = []
        for f in bitmaps:
            with Image.open(os.path.join(base, f)) as im:
                grid = np.asarray(im.convert("L"), np.uint8)
            if grid.shape != (1024, 1024):
                raise DatasetFormatError(f"PhotoTourDataset: {os.path.join(base, f)} is {grid.shape}, not 1024 x 1024")
            patches.append(grid.reshape(16, 64, 16, 64).transpose(0, 2, 1, 3).reshape(256, 64, 64, 1))
        patches = np.concatenate(patches)[:len(points)] if patches else np.zeros((0, 64, 64, 1), np.uint8)  # type: ignore[assignment]
        if len(patches) < len(points):
            raise DatasetFormatError(f"PhotoTourDataset: {info} lists {len(points)} patches, the bitmaps hold "
                                     f"{len(patches)}")
        if usage == "train":
            self._columns = [np.ascontiguousarray(patches)]
            self.column_names = ["image"]
            return
        pairs_file = os.path.join(base, "m50_100000_100000_0.txt")
        if not os.path.isfile(pairs_file):
            raise DatasetFormatError(f"PhotoTourDataset: {pairs_file} does not exist")
        pairs = np.asarray([[int(v) for v in line.split()[:5]] for line in
                            read_text("PhotoTourDataset", pairs_file).splitlines() if line.strip()], np.int64)
        pairs = pairs.reshape(-1, 5)
        if len(pairs) and pairs[:, [0, 3]].max() >= len(patches):
            raise DatasetFormatError(f"PhotoTourDataset: {pairs_file} names patch {int(pairs[:, [0, 3]].max())} of "
                                     f"{len(patches)}")
        self._columns = [patches[pairs[:, 0]], patches[pairs[:, 3]], (pairs[:, 1] == pairs[:, 4]).astype(np.uint32)]
        self.column_names = ["image1", "image2", "matches"]

    def _length(self):
        return len(self._columns[0])

    def _read(self, ids):
        return [c[ids] for c in self._columns]


class LSUNDataset(RowSource):
    """LSUN scenes: ``<category>_train`` / ``<category>_val`` image folders and ``test``. usage 'all' reads
    train and val; the label (uint32) is the position of the image's folder among the folders read, in sorted
    order (as real MindSpore 2.10 numbers them); test images have label 0. Columns: image (bytes, or (H, W, 3)
    uint8 with ``decode``), label."""

    def __init__(self, dataset_dir: str, usage: str | None = None, classes: list[str] | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 decode: bool = False, sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("LSUNDataset", "usage", "all" if usage is None else usage,
                             ("train", "test", "valid", "all"))
        if classes is not None and (not isinstance(classes, list) or not all(isinstance(c, str) for c in classes)):
            raise TypeError(f"LSUNDataset: classes must be a list of str, but got {classes!r}")
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        entries = list_dir("LSUNDataset", self.dataset_dir)
        if usage == "test":
            folders = ["test"]
        else:
            suffixes = {"train": ("_train",), "valid": ("_val",), "all": ("_train", "_val")}[usage]
            found = sorted({e.rsplit("_", 1)[0] for e in entries if e.endswith(("_train", "_val"))})
            wanted = found if classes is None else classes
            folders = sorted(f"{c}{s}" for c in wanted for s in suffixes)
        self._items = []
        for label, sub in enumerate(folders):
            folder = os.path.join(self.dataset_dir, sub)
            if not os.path.isdir(folder):
                raise DatasetFormatError(f"LSUNDataset: {folder} does not exist (usage={usage!r})")
            self._items += [(os.path.join(folder, f), 0 if usage == "test" else label)
                            for f in list_dir("LSUNDataset", folder) if os.path.isfile(os.path.join(folder, f))]
        self.column_names = ["image", "label"]

    def _row(self, item):
        return [read_image("LSUNDataset", item[0], self.decode), np.uint32(item[1])]
