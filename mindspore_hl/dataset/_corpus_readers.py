"""Speech and text corpora in their published layouts: YesNo, Speech Commands, LJSpeech, IMDB, Multi30k.

Column names, dtypes and row order follow real MindSpore 2.10 reading the same files (recorded by
tools/oracle/record_dataset_readers.py). Waveforms are float32 (channels, frames), 16-bit samples divided by 32767."""
from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from . import config
from ._readers_base import RowSource, check_choice, list_dir, read_text, read_wav
from ._samplers import Sampler
from ._sources import DatasetFormatError, check_dir
from ._text_sources import _LineSource, interleave

__all__ = ["YesNoDataset", "SpeechCommandsDataset", "LJSpeechDataset", "IMDBDataset", "Multi30kDataset"]


class YesNoDataset(RowSource):
    """YesNo: 8 kHz WAV files named by their eight 0 / 1 words (``0_1_0_0_1_0_1_1.wav``), in name order.
    Columns: waveform float32 (1, frames), sample_rate int32, label int32 (8,)."""

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self._items = []
        for name in list_dir("YesNoDataset", self.dataset_dir):
            stem, ext = os.path.splitext(name)
            if ext.lower() != ".wav":
                continue
            words = stem.split("_")
            if not all(w in ("0", "1") for w in words):
                raise DatasetFormatError(f"YesNoDataset: {os.path.join(self.dataset_dir, name)}: the file name "
                                         f"must be 0 / 1 words joined by '_'")
            self._items.append((os.path.join(self.dataset_dir, name), np.asarray(words, np.int32)))
        self.column_names = ["waveform", "sample_rate", "label"]

    def _row(self, item):
        wave_, rate = read_wav("YesNoDataset", item[0])
        return [wave_, np.int32(rate), item[1]]


class SpeechCommandsDataset(RowSource):
    """Speech Commands: ``<word>/<speaker>_nohash_<n>.wav``; ``validation_list.txt`` and ``testing_list.txt``
    name the 'valid' and 'test' files, 'train' is the rest (``_background_noise_`` is left out).
    Columns: waveform float32 (1, frames), sample_rate int32, label str, speaker_id str, utterance_number int32."""

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("SpeechCommandsDataset", "usage", "all" if usage is None else usage,
                             ("train", "valid", "test", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        lists = {}
        for key, fname in (("valid", "validation_list.txt"), ("test", "testing_list.txt")):
            path = os.path.join(self.dataset_dir, fname)
            text = read_text("SpeechCommandsDataset", path) if os.path.isfile(path) else ""
            if usage == key and not os.path.isfile(path):
                raise DatasetFormatError(f"SpeechCommandsDataset: usage={usage!r} needs {path}")
            lists[key] = {line.strip().replace("\\", "/") for line in text.splitlines() if line.strip()}
        files = []
        for word in list_dir("SpeechCommandsDataset", self.dataset_dir):
            folder = os.path.join(self.dataset_dir, word)
            if word.startswith("_") or not os.path.isdir(folder):
                continue
            files += [f"{word}/{f}" for f in list_dir("SpeechCommandsDataset", folder) if f.endswith(".wav")]
        if usage in ("valid", "test"):
            files = [f for f in files if f in lists[usage]]
        elif usage == "train":
            files = [f for f in files if f not in lists["valid"] and f not in lists["test"]]
        self._items = []
        for rel in files:
            word, name = rel.split("/")
            speaker, _, number = os.path.splitext(name)[0].partition("_nohash_")
            if not number.isdigit():
                raise DatasetFormatError(f"SpeechCommandsDataset: {os.path.join(self.dataset_dir, rel)}: expected "
                                         f"a '<speaker>_nohash_<n>.wav' file name")
            self._items.append((os.path.join(self.dataset_dir, word, name), word, speaker, int(number)))
        self.column_names = ["waveform", "sample_rate", "label", "speaker_id", "utterance_number"]

    def _row(self, item):
        wave_, rate = read_wav("SpeechCommandsDataset", item[0])
        return [wave_, np.int32(rate), np.str_(item[1]), np.str_(item[2]), np.int32(item[3])]


class LJSpeechDataset(RowSource):
    """LJSpeech: ``metadata.csv`` (``id|transcription|normalized transcription``) and ``wavs/<id>.wav``.
    Columns: waveform float32 (1, frames), sample_rate int32, transcription str, normalized_transcription str."""

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        meta = os.path.join(self.dataset_dir, "metadata.csv")
        if not os.path.isfile(meta):
            raise DatasetFormatError(f"LJSpeechDataset: {meta} does not exist")
        reader = csv.reader(io.StringIO(read_text("LJSpeechDataset", meta)), delimiter="|", quoting=csv.QUOTE_NONE)
        self._items = []
        for n, fields in enumerate(reader, start=1):
            if not fields:
                continue
            if len(fields) != 3:
                raise DatasetFormatError(f"LJSpeechDataset: {meta} line {n} has {len(fields)} fields, expected 3 "
                                         f"(id|transcription|normalized transcription)")
            self._items.append((os.path.join(self.dataset_dir, "wavs", fields[0] + ".wav"), fields[1], fields[2]))
        self.column_names = ["waveform", "sample_rate", "transcription", "normalized_transcription"]

    def _row(self, item):
        wave_, rate = read_wav("LJSpeechDataset", item[0])
        return [wave_, np.int32(rate), np.str_(item[1]), np.str_(item[2])]


class IMDBDataset(RowSource):
    """IMDb reviews: ``<train|test>/<pos|neg>/<id>_<rating>.txt``. Rows: train before test, pos before neg,
    files in name order. Columns: text str, label int32 (1 pos, 0 neg)."""

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = check_choice("IMDBDataset", "usage", "all" if usage is None else usage, ("train", "test", "all"))
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self._items = []
        for split in (("train", "test") if usage == "all" else (usage,)):
            for sentiment, label in (("pos", 1), ("neg", 0)):
                folder = os.path.join(self.dataset_dir, split, sentiment)
                if not os.path.isdir(folder):
                    raise DatasetFormatError(f"IMDBDataset: {folder} does not exist (usage={usage!r})")
                self._items += [(os.path.join(folder, f), label) for f in list_dir("IMDBDataset", folder)
                                if f.endswith(".txt")]
        self.column_names = ["text", "label"]

    def _row(self, item):
        return [np.str_(read_text("IMDBDataset", item[0])), np.int32(item[1])]


class Multi30kDataset(_LineSource):
    """Multi30k: ``training/train.<lang>``, ``validation/val.<lang>``, ``mmt16_task1_test/test.<lang>`` with one
    sentence per line. Columns: text (the first language of ``language_pair``), translation (the second).
    With usage 'all' the splits interleave row by row, as MindSpore's line readers do."""

    _SPLITS = {"train": ("training", "train"), "valid": ("validation", "val"), "test": ("mmt16_task1_test", "test")}

    def __init__(self, dataset_dir: str, usage: str | None = None, language_pair: Sequence[str] | None = None,
                 num_samples: int | None = None, num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        usage = check_choice("Multi30kDataset", "usage", "all" if usage is None else usage,
                             ("train", "valid", "test", "all"))
        pair = ["en", "de"] if language_pair is None else list(language_pair)
        if pair not in (["en", "de"], ["de", "en"]):
            raise ValueError(f"Multi30kDataset: language_pair must be ['en', 'de'] or ['de', 'en'], but got "
                             f"{language_pair!r}")
        self.dataset_dir = check_dir(dataset_dir)
        self.language_pair = pair
        self.column_names = ["text", "translation"]
        splits = list(self._SPLITS) if usage == "all" else [usage]
        stems = sorted(os.path.join(self.dataset_dir, *self._SPLITS[s]) for s in splits)
        for stem in stems:
            for lang in pair:
                if not os.path.isfile(f"{stem}.{lang}"):
                    raise DatasetFormatError(f"Multi30kDataset: {stem}.{lang} does not exist (usage={usage!r})")
        self._stems = stems
        super().__init__([f"{s}.{pair[0]}" for s in stems], num_samples, num_parallel_workers, shuffle, num_shards,
                         shard_id)
        workers = self.num_parallel_workers or config.get_num_parallel_workers()
        self._rows = interleave([self._pairs(s) for s in stems], workers)

    def _parse(self, path):
        return []   # rows are built from both languages' files in __init__

    def _pairs(self, stem):
        src, dst = (read_text("Multi30kDataset", f"{stem}.{lang}").splitlines() for lang in self.language_pair)
        if len(src) != len(dst):
            raise DatasetFormatError(f"Multi30kDataset: {stem}.{self.language_pair[0]} has {len(src)} lines but "
                                     f"{stem}.{self.language_pair[1]} has {len(dst)}")
        return [(a, b) for a, b in zip(src, dst)]
