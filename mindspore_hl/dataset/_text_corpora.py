"""Text corpora in their published layouts: CSV classification sets (AG News, Amazon / Yelp reviews, DBpedia,
Sogou News, Yahoo Answers) and line corpora (Penn Treebank, WikiText, EnWik9). Columns are strings."""
from __future__ import annotations

import os
from typing import Any

from ._sources import check_dir
from ._text_sources import CSVDataset, TextFileDataset

__all__ = ["AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset", "SogouNewsDataset", "YahooAnswersDataset",
           "YelpReviewDataset", "PennTreebankDataset", "WikiTextDataset", "EnWik9Dataset"]


def _files(op, dataset_dir, usage, pattern, usages):
    folder = check_dir(dataset_dir)
    usage = "all" if usage is None else usage
    if usage not in usages + ("all",):
        raise ValueError(f"{op}: usage must be one of {list(usages) + ['all']}, but got {usage!r}")
    files = [os.path.join(folder, pattern.format(u)) for u in (usages if usage == "all" else (usage,))]
    missing = [f for f in files if not os.path.isfile(f)]
    if missing:
        raise ValueError(f"{op}: {missing[0]} does not exist (usage={usage!r})")
    return files


class _CsvCorpus(CSVDataset):
    _columns: tuple[str, ...] = ()

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, cache=None):
        files = _files(type(self).__name__, dataset_dir, usage, "{}.csv", ("train", "test"))
        super().__init__(files, ",", None, list(self._columns), num_samples, num_parallel_workers, shuffle,
                         num_shards, shard_id)


class AGNewsDataset(_CsvCorpus):
    """AG News (``train.csv`` / ``test.csv``). Columns: index, title, description."""
    _columns = ("index", "title", "description")


class AmazonReviewDataset(_CsvCorpus):
    """Amazon reviews (polarity or full). Columns: label, title, content."""
    _columns = ("label", "title", "content")


class DBpediaDataset(_CsvCorpus):
    """DBpedia ontology classification. Columns: class, title, content."""
    _columns = ("class", "title", "content")


class SogouNewsDataset(_CsvCorpus):
    """Sogou News. Columns: index, title, content."""
    _columns = ("index", "title", "content")


class YahooAnswersDataset(_CsvCorpus):
    """Yahoo! Answers. Columns: class, title, content, answer."""
    _columns = ("class", "title", "content", "answer")


class YelpReviewDataset(_CsvCorpus):
    """Yelp reviews (polarity or full). Columns: label, text."""
    _columns = ("label", "text")


class _LineCorpus(TextFileDataset):
    _pattern = ""
    _usages: tuple[str, ...] = ()

    def __init__(self, dataset_dir, usage=None, num_samples=None, num_parallel_workers=None, shuffle=None,
                 num_shards=None, shard_id=None, cache=None):
        files = _files(type(self).__name__, dataset_dir, usage, self._pattern, self._usages)
        super().__init__(files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)


class PennTreebankDataset(_LineCorpus):
    """Penn Treebank (``ptb.train.txt`` / ``ptb.valid.txt`` / ``ptb.test.txt``): one row per line. Column: text."""
    _pattern, _usages = "ptb.{}.txt", ("train", "test", "valid")


class WikiTextDataset(_LineCorpus):
    """WikiText (``wiki.train.tokens`` / ``wiki.valid.tokens`` / ``wiki.test.tokens``). Column: text."""
    _pattern, _usages = "wiki.{}.tokens", ("train", "test", "valid")


class EnWik9Dataset(TextFileDataset):
    """EnWik9 (the ``enwik9`` file): one row per line. Column: text."""

    def __init__(self, dataset_dir: str, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = True, num_shards: int | None = None, shard_id: int | None = None,
                 cache: Any = None):
        path = os.path.join(check_dir(dataset_dir), "enwik9")
        if not os.path.isfile(path):
            raise ValueError(f"EnWik9Dataset: {path} does not exist")
        super().__init__(path, num_samples, num_parallel_workers, shuffle, num_shards, shard_id)
