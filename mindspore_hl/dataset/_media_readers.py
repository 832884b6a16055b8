"""Speech and image corpora in their published layouts: CMU Arctic, LibriTTS, Food-101, Omniglot,
Rendered SST-2, Flickr8k / 30k, SBU.

Column names, dtypes and row order follow real MindSpore 2.10 reading the same files (recorded by
tools/oracle/record_dataset_readers.py)."""
from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any

import numpy as np

from ._readers_base import RowSource, check_choice, list_dir, read_image, read_text, read_wav
from ._samplers import Sampler
from ._sources import DatasetFormatError, check_dir

__all__ = ["CMUArcticDataset", "LibriTTSDataset", "Food101Dataset", "OmniglotDataset", "RenderedSST2Dataset",
           "FlickrDataset", "SBUDataset"]

_ARCTIC = ("aew", "ahw", "aup", "awb", "axb", "bdl", "clb", "eey", "fem", "gka", "jmk", "ksp", "ljm", "lnh", "rms",
           "rxr", "slp", "slt")
_ARCTIC_LINE = re.compile(r'^\(\s*(\S+)\s+"(.*)"\s*\)\s*$')


class CMUArcticDataset(RowSource):
    """CMU Arctic: ``cmu_us_<name>_arctic/etc/txt.done.data`` (``( arctic_a0001 "text" )``) and
    ``wav/arctic_a0001.wav``. Columns: waveform float32 (1, frames), sample_rate uint32, transcript str,
    utterance_id str (without the ``arctic_`` prefix)."""

    def __init__(self, dataset_dir: str, name: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        name = check_choice("CMUArcticDataset", "name", "aew" if name is None else name, _ARCTIC)
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        base = os.path.join(self.dataset_dir, f"cmu_us_{name}_arctic")
        index = os.path.join(base, "etc", "txt.done.data")
        if not os.path.isfile(index):
            raise DatasetFormatError(f"CMUArcticDataset: {index} does not exist (name={name!r})")
        self._items = []
        for n, line in enumerate(read_text("CMUArcticDataset", index).splitlines(), start=1):
            if not line.strip():
                continue
            m = _ARCTIC_LINE.match(line.strip())
            if m is None:
                raise DatasetFormatError(f"CMUArcticDataset: {index} line {n} is not '( id \"text\" )'")
            key = m.group(1)
            self._items.append((os.path.join(base, "wav", key + ".wav"), m.group(2), key.split("_", 1)[-1]))
        self.column_names = ["waveform", "sample_rate", "transcript", "utterance_id"]

    def _row(self, item):
        wave_, rate = read_wav("CMUArcticDataset", item[0])
        return [wave_, np.uint32(rate), np.str_(item[1]), np.str_(item[2])]


_LIBRI = ("dev-clean", "dev-other", "test-clean", "test-other", "train-clean-100", "train-clean-360",
          "train-other-500")


class LibriTTSDataset(RowSource):
    """LibriTTS: ``<usage>/<speaker>/<chapter>/<speaker>_<chapter>.trans.tsv`` (``id<TAB>original<TAB>normalized``)
    beside ``<id>.wav``; usage 'all' reads every part present, in the order dev, test, train.
    Columns: waveform float32 (1, frames), sample_rate uint32, original_text str, normalized_text str,
    speaker_id uint32, chapter_id uint32, utterance_id str."""

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("LibriTTSDataset", "usage", "all" if usage is None else usage, _LIBRI + ("all",))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        parts = [p for p in _LIBRI if os.path.isdir(os.path.join(self.dataset_dir, p))] if usage == "all" \
            else [usage]
        self._items = []
        for part in parts:
            root = os.path.join(self.dataset_dir, part)
            if not os.path.isdir(root):
                raise DatasetFormatError(f"LibriTTSDataset: {root} does not exist (usage={usage!r})")
            for speaker in list_dir("LibriTTSDataset", root):
                for chapter in list_dir("LibriTTSDataset", os.path.join(root, speaker)):
                    folder = os.path.join(root, speaker, chapter)
                    tsv = os.path.join(folder, f"{speaker}_{chapter}.trans.tsv")
                    if os.path.isfile(tsv):
                        self._items += self._chapter(tsv, folder)
        self.column_names = ["waveform", "sample_rate", "original_text", "normalized_text", "speaker_id",
                             "chapter_id", "utterance_id"]

    @staticmethod
    def _chapter(tsv, folder):
        items = []
        for n, line in enumerate(read_text("LibriTTSDataset", tsv).splitlines(), start=1):
            if not line:
                continue
            fields = line.split("\t")
            ids = fields[0].split("_")
            if len(fields) != 3 or len(ids) != 4 or not (ids[0].isdigit() and ids[1].isdigit()):
                raise DatasetFormatError(f"LibriTTSDataset: {tsv} line {n} is not "
                                         f"'<speaker>_<chapter>_<n>_<m><TAB>original<TAB>normalized'")
            items.append((os.path.join(folder, fields[0] + ".wav"), fields[1], fields[2], int(ids[0]), int(ids[1]),
                          fields[0]))
        return items

    def _row(self, item):
        wave_, rate = read_wav("LibriTTSDataset", item[0])
        return [wave_, np.uint32(rate), np.str_(item[1]), np.str_(item[2]), np.uint32(item[3]), np.uint32(item[4]),
                np.str_(item[5])]


class Food101Dataset(RowSource):
    """Food-101: ``images/<class>/<id>.jpg`` listed by ``meta/train.txt`` / ``meta/test.txt`` (``class/id``);
    usage 'all' reads train then test. Columns: image (bytes, or (H, W, 3) uint8 with ``decode``), label str."""

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, decode: bool = False,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("Food101Dataset", "usage", "all" if usage is None else usage, ("train", "test", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        self._items = []
        for split in (("train", "test") if usage == "all" else (usage,)):
            listing = os.path.join(self.dataset_dir, "meta", f"{split}.txt")
            if not os.path.isfile(listing):
                raise DatasetFormatError(f"Food101Dataset: {listing} does not exist (usage={usage!r})")
            for line in read_text("Food101Dataset", listing).split():
                self._items.append((os.path.join(self.dataset_dir, "images", line + ".jpg"), line.split("/")[0]))
        self.column_names = ["image", "label"]

    def _row(self, item):
        return [read_image("Food101Dataset", item[0], self.decode), np.str_(item[1])]


class OmniglotDataset(RowSource):
    """Omniglot: ``images_background`` (``background=True``, the default) or ``images_evaluation`` holding
    ``<alphabet>/<character>/*.png``. Columns: image (bytes, or (H, W, 3) uint8 with ``decode``), label int32:
    the index of the character folder in sorted (alphabet, character) order."""

    def __init__(self, dataset_dir: str, background: bool | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, decode: bool = False,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        root = os.path.join(self.dataset_dir, "images_background" if background in (None, True)
                            else "images_evaluation")
        if not os.path.isdir(root):
            raise DatasetFormatError(f"OmniglotDataset: {root} does not exist")
        self._items, label = [], 0
        for alphabet in list_dir("OmniglotDataset", root):
            if not os.path.isdir(os.path.join(root, alphabet)):
                continue
            for char in list_dir("OmniglotDataset", os.path.join(root, alphabet)):
                folder = os.path.join(root, alphabet, char)
                if not os.path.isdir(folder):
                    continue
                self._items += [(os.path.join(folder, f), label) for f in list_dir("OmniglotDataset", folder)
                                if os.path.isfile(os.path.join(folder, f))]
                label += 1
        self.column_names = ["image", "label"]

    def _row(self, item):
        return [read_image("OmniglotDataset", item[0], self.decode), np.int32(item[1])]


class RenderedSST2Dataset(RowSource):
    """Rendered SST-2: ``<train|valid|test>/<negative|positive>/*.png`` (usage 'val' reads ``valid``; 'all'
    reads test, train, valid). Columns: image (bytes, or (H, W, 3) uint8 with ``decode``), label uint32
    (0 negative, 1 positive)."""

    _FOLDERS = {"train": "train", "val": "valid", "test": "test"}

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, decode: bool = False,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("RenderedSST2Dataset", "usage", "all" if usage is None else usage,
                             ("train", "val", "test", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        folders = sorted(self._FOLDERS.values()) if usage == "all" else [self._FOLDERS[usage]]
        self._items = []
        for split in folders:
            for label, cls in enumerate(("negative", "positive")):
                folder = os.path.join(self.dataset_dir, split, cls)
                if not os.path.isdir(folder):
                    raise DatasetFormatError(f"RenderedSST2Dataset: {folder} does not exist (usage={usage!r})")
                self._items += [(os.path.join(folder, f), label) for f in list_dir("RenderedSST2Dataset", folder)
                                if f.lower().endswith((".png", ".jpg", ".jpeg"))]
        self.column_names = ["image", "label"]

    def _row(self, item):
        return [read_image("RenderedSST2Dataset", item[0], self.decode), np.uint32(item[1])]


class FlickrDataset(RowSource):
    """Flickr8k / Flickr30k: images in ``dataset_dir`` and captions in ``annotation_file``
    (``<file>#<n><TAB>caption``), images in the order they first appear. Columns: image (bytes, or (H, W, 3)
    uint8 with ``decode``), annotation (1-D str: the image's captions)."""

    def __init__(self, dataset_dir: str, annotation_file: str, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None, decode: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        self.dataset_dir = check_dir(dataset_dir)
        if not isinstance(annotation_file, (str, os.PathLike)) or not os.path.isfile(annotation_file):
            raise ValueError(f"FlickrDataset: annotation_file {annotation_file!r} does not exist")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        captions: dict[str, list[str]] = {}
        for n, line in enumerate(read_text("FlickrDataset", os.fspath(annotation_file)).splitlines(), start=1):
            if not line.strip():
                continue
            key, sep, caption = line.partition("\t")
            if not sep or "#" not in key:
                raise DatasetFormatError(f"FlickrDataset: {annotation_file} line {n} is not '<image>#<n><TAB>caption'")
            captions.setdefault(key.rsplit("#", 1)[0], []).append(caption)
        self._items = [(os.path.join(self.dataset_dir, name), np.asarray(caps)) for name, caps in captions.items()]
        self.column_names = ["image", "annotation"]

    def _row(self, item):
        return [read_image("FlickrDataset", item[0], self.decode), item[1]]


class SBUDataset(RowSource):
    """SBU captioned photos: ``SBU_captioned_photo_dataset_urls.txt`` and ``..._captions.txt`` pair line by line;
    the photo of ``http://static.flickr.com/<a>/<b>.jpg`` is ``sbu_images/m_<a>_<b>.jpg``; photos never
    downloaded are left out. Columns: image (bytes, or (H, W, 3) uint8 with ``decode``), caption str (trailing
    white space removed)."""

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, decode: bool = False, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.decode = bool(decode)
        urls_file = os.path.join(self.dataset_dir, "SBU_captioned_photo_dataset_urls.txt")
        caps_file = os.path.join(self.dataset_dir, "SBU_captioned_photo_dataset_captions.txt")
        for f in (urls_file, caps_file):
            if not os.path.isfile(f):
                raise DatasetFormatError(f"SBUDataset: {f} does not exist")
        urls = [u.strip() for u in read_text("SBUDataset", urls_file).splitlines() if u.strip()]
        caps = [c for c in read_text("SBUDataset", caps_file).splitlines()]
        if len(caps) < len(urls):
            raise DatasetFormatError(f"SBUDataset: {urls_file} lists {len(urls)} photos but {caps_file} has "
                                     f"{len(caps)} captions")
        image_dir = os.path.join(self.dataset_dir, "sbu_images")
        self._items = []
        for url, caption in zip(urls, caps):
            path = os.path.join(image_dir, "m_" + "_".join(url.split("/")[-2:]))
            if os.path.isfile(path):
                self._items.append((path, caption.rstrip()))
        self.column_names = ["image", "caption"]

    def _row(self, item):
        return [read_image("SBUDataset", item[0], self.decode), np.str_(item[1])]
