"""Text corpora in their published layouts: CoNLL-2000, UDPOS, SQuAD, SST-2.

Like MindSpore's line readers, the files of a usage are read by ``num_parallel_workers`` readers and, without
shuffling, their rows interleave (see ``_text_sources.interleave``). Column names, dtypes and row order follow
real MindSpore 2.10 reading the same files (tools/oracle/record_dataset_readers.py)."""
import json
import os

import numpy as np

from . import config
from ._block import column_from_rows
from ._readers_base import check_choice, read_text
from ._sources import DatasetFormatError, MappableSource, check_dir
from ._text_sources import interleave

__all__ = ["CoNLL2000Dataset", "UDPOSDataset", "SQuADDataset", "SST2Dataset"]


class _FileRows(MappableSource):
    """Rows parsed up front from a usage's files (``_parse(path) -> [row tuple]``), interleaved across files."""

    _usages: dict = {}

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
    out, current = [], []
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

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=True, num_shards=None, shard_id=None,
                 num_parallel_workers=None, cache=None):
        self.column_names = ["word", "pos_tag", "chunk_tag"]
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _parse(self, path):
        return _sentences("CoNLL2000Dataset", path, 3, None)


class UDPOSDataset(_FileRows):
    """UDPOS (``en-ud-tag.v2.{train,dev,test}.txt``; usage 'valid' reads ``dev``): one row per sentence.
    Columns: word, universal, stanford (1-D str arrays)."""

    _usages = {"train": "en-ud-tag.v2.train.txt", "valid": "en-ud-tag.v2.dev.txt", "test": "en-ud-tag.v2.test.txt"}

    def __init__(self, dataset_dir, usage=None, num_samples=None, shuffle=True, num_shards=None, shard_id=None,
                 num_parallel_workers=None, cache=None):
        self.column_names = ["word", "universal", "stanford"]
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)

    def _parse(self, path):
        return _sentences("UDPOSDataset", path, 3, "\t")


class SQuADDataset(_FileRows):
    """SQuAD 1.1 / 2.0 (``train-v1.1.json`` / ``dev-v1.1.json`` or the ``-v2.0`` files): one row per question.
    Columns: context str, question str, text (1-D str: the answers), answer_start (1-D uint32)."""

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=True,
                 num_shards=None, shard_id=None, cache=None):
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

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=True,
                 num_shards=None, shard_id=None, cache=None):
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
