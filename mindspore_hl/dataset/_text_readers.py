"""Text corpora in their published layouts: CoNLL-2000, UDPOS, SQuAD, SST-2, CLUE, IWSLT 2016 / 2017.

Like MindSpore's line readers, the files of a usage are read by ``num_parallel_workers`` readers and, without
shuffling, their rows interleave (see ``_text_sources.interleave``). Column names, dtypes and row order follow
real MindSpore 2.10 reading the same files (tools/oracle/record_dataset_readers.py)."""
from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import config
from ._block import column_from_rows
from ._readers_base import check_choice, read_text
from ._sources import DatasetFormatError, MappableSource, check_dir
from ._text_sources import expand_files, interleave

__all__ = ["CoNLL2000Dataset", "UDPOSDataset", "SQuADDataset", "SST2Dataset", "CLUEDataset", "IWSLT2016Dataset",
           "IWSLT2017Dataset"]


class _FileRows(MappableSource):
    """Rows parsed up front from a usage's files (``_parse(path) -> [row tuple]``), interleaved across files."""

    _usages: dict = {}

    def _parse(self, path):
        raise NotImplementedError

    def __init__(self, dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id):
        op = type(self).__name__
        usage = check_choice(op, "usage", "all" if usage is None else usage, tuple(self._usages) + ("all",))
        self.dataset_dir = check_dir(dataset_dir)
        if shuffle is not None and not isinstance(shuffle, bool):
            shuffle = True   # Shuffle.GLOBAL / FILES / INFILE: rows are shuffled globally here
        super().__init__(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        names = self._files(usage)
        paths = [os.path.join(self.dataset_dir, n) for n in names]
        for p in paths:
            if not os.path.isfile(p):
                raise DatasetFormatError(f"{op}: {p} does not exist (usage={usage!r})")
        workers = self.num_parallel_workers or config.get_num_parallel_workers()
        self._rows = interleave([self._parse(p) for p in paths], workers)

    def _files(self, usage):
        return sorted(self._usages.values()) if usage == "all" else [self._usages[usage]]

    def _length(self):
        return len(self._rows)

    def _read(self, ids):
        picked = [self._rows[int(i)] for i in ids]
        return [column_from_rows([np.asarray(r[k]) for r in picked]) for k in range(len(self.column_names))]


def _sentences(op, path, width, sep):
    """Blank-line separated sentences of ``width`` fields per token -> [(field arrays of str)]."""
    out: list[tuple[np.ndarray, ...]] = []
    current: list[list[str]] = []
    for n, line in enumerate(read_text(op, path).splitlines(), start=1):
        if not line.strip():
            if current:
                out.append(tuple(np.asarray(col) for col in zip(*current)))
                current = []
            continue
        fields = line.split(sep) if sep else line.split()
        if len(fields) != width:
            raise DatasetFormatError(f"{op}: {path} line {n} has {len(fields)} fields, expected {width}")
        current.append(fields)
    if current:   # a last sentence with no blank line after it (MindSpore 2.10 drops it; it is data)
        out.append(tuple(np.asarray(col) for col in zip(*current)))
    return out


class CoNLL2000Dataset(_FileRows):
    """CoNLL-2000 chunking (``train.txt`` / ``test.txt``): one row per sentence.
    Columns: word, pos_tag, chunk_tag (1-D str arrays, one entry per token)."""

    _usages = {"train": "train.txt", "test": "test.txt"}

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 shuffle: bool | None = True, num_shards: int | None = None, shard_id: int | None = None,
                 num_parallel_workers: int | None = None, cache: Any = None):
        self.column_names = ["word", "pos_tag", "chunk_tag"]
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _parse(self, path):
        return _sentences("CoNLL2000Dataset", path, 3, None)


class UDPOSDataset(_FileRows):
    """UDPOS (``en-ud-tag.v2.{train,dev,test}.txt``; usage 'valid' reads ``dev``): one row per sentence.
    Columns: word, universal, stanford (1-D str arrays)."""

    _usages = {"train": "en-ud-tag.v2.train.txt", "valid": "en-ud-tag.v2.dev.txt", "test": "en-ud-tag.v2.test.txt"}

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 shuffle: bool | None = True, num_shards: int | None = None, shard_id: int | None = None,
                 num_parallel_workers: int | None = None, cache: Any = None):
        self.column_names = ["word", "universal", "stanford"]
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _parse(self, path):
        return _sentences("UDPOSDataset", path, 3, "\t")


class SQuADDataset(_FileRows):
    """SQuAD 1.1 / 2.0 (``train-v1.1.json`` / ``dev-v1.1.json`` or the ``-v2.0`` files): one row per question.
    Columns: context str, question str, text (1-D str: the answers), answer_start (1-D uint32)."""

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = True, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        self.column_names = ["context", "question", "text", "answer_start"]
        folder = check_dir(dataset_dir)
        version = "2.0" if os.path.isfile(os.path.join(folder, "train-v2.0.json")) or \
            os.path.isfile(os.path.join(folder, "dev-v2.0.json")) else "1.1"
        self._usages = {"train": f"train-v{version}.json", "dev": f"dev-v{version}.json"}
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _files(self, usage):
        return list(self._usages.values()) if usage == "all" else [self._usages[usage]]   # train, then dev

    def _parse(self, path):
        try:
            doc = json.loads(read_text("SQuADDataset", path))
            rows = []
            for article in doc["data"]:
                for para in article["paragraphs"]:
                    for qa in para["qas"]:
                        answers = qa.get("answers") or []
                        texts = [a["text"] for a in answers] or [""]
                        starts = [a["answer_start"] for a in answers] or [-1]
                        rows.append((para["context"], qa["question"], np.asarray(texts),
                                     np.asarray(starts, np.int64).astype(np.uint32)))
        except (ValueError, KeyError, TypeError) as e:
            raise DatasetFormatError(f"SQuADDataset: {path} is not a SQuAD JSON file ({type(e).__name__}: {e})") \
                from None
        return rows


class SST2Dataset(_FileRows):
    """SST-2 (``train.tsv`` / ``dev.tsv``: ``sentence<TAB>label``; ``test.tsv``: ``index<TAB>sentence``), each
    with a header line. Columns: sentence str, label str (train / dev only)."""

    _usages = {"train": "train.tsv", "dev": "dev.tsv", "test": "test.tsv"}

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = True, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        usage = "train" if usage is None else usage
        check_choice("SST2Dataset", "usage", usage, tuple(self._usages))
        self.column_names = ["sentence"] if usage == "test" else ["sentence", "label"]
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _parse(self, path):
        test = path.endswith("test.tsv")
        rows = []
        for n, line in enumerate(read_text("SST2Dataset", path).splitlines()[1:], start=2):
            if not line:
                continue
            fields = line.split("\t")
            if len(fields) != 2:
                raise DatasetFormatError(f"SST2Dataset: {path} line {n} has {len(fields)} tab-separated fields, "
                                         f"expected 2")
            rows.append((fields[1],) if test else (fields[0], fields[1]))
        return rows


#: CLUE task -> (fields of every usage, fields only train / eval have); WSC's span fields sit under "target"
_CLUE = {"AFQMC": (("sentence1", "sentence2"), ("label",)), "CMNLI": (("sentence1", "sentence2"), ("label",)),
         "TNEWS": (("sentence", "keywords"), ("label", "label_des")),
         "IFLYTEK": (("sentence",), ("label", "label_des")),
         "WSC": (("span1_index", "span2_index", "span1_text", "span2_text", "idx", "text"), ("label",)),
         "CSL": (("id", "abst", "keyword"), ("label",))}
_CLUE_INTS = {"id", "idx", "span1_index", "span2_index"}


class CLUEDataset(MappableSource):
    """CLUE classification tasks (AFQMC, TNEWS, IFLYTEK, CMNLI, WSC, CSL) from JSON-lines files. The test usage
    has an ``id`` column instead of the labels. Columns come in sorted name order (as real MindSpore 2.10 emits
    them): ``id`` / ``idx`` / ``span*_index`` uint32, lists as 1-D str arrays, everything else str.

    Args: dataset_files (str or list of str, glob patterns allowed), task (default 'AFQMC'), usage ('train' |
        'test' | 'eval'), num_samples, num_parallel_workers, shuffle (default True), num_shards, shard_id."""

    def __init__(self, dataset_files: str | Sequence[str], task: str = "AFQMC", usage: str = "train",
                 num_samples: int | None = None, num_parallel_workers: int | None = None, shuffle: bool | None = True,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        check_choice("CLUEDataset", "task", task, tuple(_CLUE))
        check_choice("CLUEDataset", "usage", usage, ("train", "test", "eval"))
        self.dataset_files = expand_files("CLUEDataset", dataset_files)
        if shuffle is not None and not isinstance(shuffle, bool):
            shuffle = True   # Shuffle.GLOBAL / FILES: rows are shuffled globally here
        super().__init__(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        common, labelled = _CLUE[task]
        fields = list(common) + (["id"] if usage == "test" and "id" not in common else [])
        fields += list(labelled) if usage != "test" else []
        self.column_names = sorted(fields)
        workers = self.num_parallel_workers or config.get_num_parallel_workers()
        self._rows = interleave([self._parse(p, task) for p in self.dataset_files], workers)

    def _parse(self, path, task):
        rows = []
        for n, line in enumerate(read_text("CLUEDataset", path).splitlines(), start=1):
            if not line.strip():
                continue
            try:
                doc = json.loads(line)
                if task == "WSC":
                    doc = dict(doc, **doc.get("target", {}))
                rows.append(tuple(self._value(c, doc[c]) for c in self.column_names))
            except (ValueError, KeyError, TypeError) as e:
                raise DatasetFormatError(f"CLUEDataset: {path} line {n} is not a {task} record with fields "
                                         f"{self.column_names} ({type(e).__name__}: {e})") from None
        return rows

    @staticmethod
    def _value(column, value):
        if column in _CLUE_INTS:
            return np.uint32(int(value))
        if isinstance(value, list):
            return np.asarray([str(v) for v in value])
        return np.str_(value)

    def _length(self):
        return len(self._rows)

    def _read(self, ids):
        picked = [self._rows[int(i)] for i in ids]
        return [column_from_rows([np.asarray(r[k]) for r in picked]) for k in range(len(self.column_names))]


_SEG = re.compile(r"<seg[^>]*>(.*)</seg>")


def _iwslt_sentences(op, path):
    """Sentences of an IWSLT file: ``<seg>`` contents of an ``.xml`` file, or the lines of a ``train.tags`` file
    that are not tag lines; white space around each is removed."""
    text = read_text(op, path)
    if path.endswith(".xml"):
        return [m.group(1).strip() for m in _SEG.finditer(text)]
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("<")]


class _IWSLT(MappableSource):
    """Sentence pairs of a language pair's train / valid / test files, interleaved like MindSpore's line readers
    (train, valid, test in that order)."""

    _prefix, _default_sets = "", ("", "")

    def _setup(self, usage, language_pair, pairs, folder, valid_set, test_set, num_samples, num_parallel_workers,
               shuffle, num_shards, shard_id):
        op = type(self).__name__
        usage = check_choice(op, "usage", "all" if usage is None else usage, ("train", "valid", "test", "all"))
        src, tgt = ("de", "en") if language_pair is None else tuple(language_pair)
        check_choice(op, "language_pair", (src, tgt), pairs)
        if shuffle is not None and not isinstance(shuffle, bool):
            shuffle = True   # Shuffle.GLOBAL / FILES / INFILE: rows are shuffled globally here
        super().__init__(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        folder = folder.format(src=src, tgt=tgt)
        stems = {"train": f"train.tags.{src}-{tgt}.{{}}",
                 "valid": f"{self._prefix}.TED.{valid_set}.{src}-{tgt}.{{}}.xml",
                 "test": f"{self._prefix}.TED.{test_set}.{src}-{tgt}.{{}}.xml"}
        per_file = []
        for part in (("train", "valid", "test") if usage == "all" else (usage,)):
            paths = [os.path.join(folder, stems[part].format(lang)) for lang in (src, tgt)]
            for p in paths:
                if not os.path.isfile(p):
                    raise DatasetFormatError(f"{op}: {p} does not exist (usage={usage!r})")
            a, b = (_iwslt_sentences(op, p) for p in paths)
            if len(a) != len(b):
                raise DatasetFormatError(f"{op}: {paths[0]} has {len(a)} sentences but {paths[1]} has {len(b)}")
            per_file.append(list(zip(a, b)))
        self.column_names = ["text", "translation"]
        self._rows = interleave(per_file, self.num_parallel_workers or config.get_num_parallel_workers())

    def _length(self):
        return len(self._rows)

    def _read(self, ids):
        picked = [self._rows[int(i)] for i in ids]
        return [column_from_rows([np.asarray(r[k]) for r in picked]) for k in range(2)]


_SETS16 = ("dev2010", "tst2010", "tst2011", "tst2012", "tst2013", "tst2014")


class IWSLT2016Dataset(_IWSLT):
    """IWSLT 2016 TED translations: ``texts/<src>/<tgt>/<src>-<tgt>/`` holding ``train.tags.<src>-<tgt>.<lang>``
    and ``IWSLT16.TED.<set>.<src>-<tgt>.<lang>.xml``. Columns: text (source) and translation (target), str."""

    _prefix = "IWSLT16"
    _PAIRS = (("en", "fr"), ("en", "de"), ("en", "cs"), ("en", "ar"), ("fr", "en"), ("de", "en"), ("cs", "en"),
              ("ar", "en"))

    def __init__(self, dataset_dir: str, usage: str | None = None, language_pair: Sequence[str] | None = None,
                 valid_set: str | None = None, test_set: str | None = None, num_samples: int | None = None,
                 shuffle: bool | None = True, num_shards: int | None = None, shard_id: int | None = None,
                 num_parallel_workers: int | None = None, cache: Any = None):
        valid_set = check_choice("IWSLT2016Dataset", "valid_set", valid_set or "tst2013", _SETS16)
        test_set = check_choice("IWSLT2016Dataset", "test_set", test_set or "tst2014", _SETS16)
        self.dataset_dir = check_dir(dataset_dir)
        folder = os.path.join(self.dataset_dir, "texts", "{src}", "{tgt}", "{src}-{tgt}")
        self._setup(usage, language_pair, self._PAIRS, folder, valid_set, test_set, num_samples,
                    num_parallel_workers, shuffle, num_shards, shard_id)


class IWSLT2017Dataset(_IWSLT):
    """IWSLT 2017 TED translations: ``texts/DeEnItNlRo/DeEnItNlRo/DeEnItNlRo-DeEnItNlRo/`` holding
    ``train.tags.<src>-<tgt>.<lang>`` and ``IWSLT17.TED.<dev2010|tst2010>.<src>-<tgt>.<lang>.xml`` (valid / test).
    Columns: text (source) and translation (target), str."""

    _prefix = "IWSLT17"
    _LANGS = ("en", "nl", "de", "it", "ro")

    def __init__(self, dataset_dir: str, usage: str | None = None, language_pair: Sequence[str] | None = None,
                 num_samples: int | None = None, shuffle: bool | None = True, num_shards: int | None = None,
                 shard_id: int | None = None, num_parallel_workers: int | None = None, cache: Any = None):
        self.dataset_dir = check_dir(dataset_dir)
        pairs = tuple((a, b) for a in self._LANGS for b in self._LANGS if a != b)
        folder = os.path.join(self.dataset_dir, "texts", "DeEnItNlRo", "DeEnItNlRo", "DeEnItNlRo-DeEnItNlRo")
        self._setup(usage, language_pair, pairs, folder, "dev2010", "tst2010", num_samples, num_parallel_workers,
                    shuffle, num_shards, shard_id)
