"""Vocabularies and sequence transforms of ``mindspore.dataset.text``: Vocab, Lookup, Wordpiece / Bert tokenizers,
Ngram, ToNumber, Truncate, TruncateSequencePair, SlidingWindow, AddToken."""
from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ..transforms._base import TensorOperation, to_numpy_dtype
from ._tokenizers import BasicTokenizer, NormalizeForm

__all__ = ["Vocab", "Lookup", "WordpieceTokenizer", "BertTokenizer", "Ngram", "ToNumber", "Truncate",
           "TruncateSequencePair", "SlidingWindow", "AddToken"]


class Vocab:
    """Word -> id mapping. Build with ``from_list``, ``from_dict``, ``from_file`` or ``from_dataset``."""

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    @classmethod
    def from_list(cls, word_list: Iterable[str], special_tokens: Sequence[str] | None = None,
                  special_first: bool = True) -> Vocab:
        """Ids in list order; ``special_tokens`` go first (ids 0..) or last."""
        words = list(word_list)
        specials = list(special_tokens or [])
        if len(set(words + specials)) != len(words) + len(specials):
            raise ValueError("Vocab.from_list: word_list and special_tokens contain duplicates")
        ordered = specials + words if special_first else words + specials
        vocab = cls()
        vocab._ids = {w: i for i, w in enumerate(ordered)}
        return vocab

    @classmethod
    def from_dict(cls, word_dict: dict[str, int]) -> Vocab:
        if not isinstance(word_dict, dict) or not all(isinstance(v, int) and v >= 0 for v in word_dict.values()):
            raise TypeError("Vocab.from_dict: word_dict must map words to non-negative int ids")
        vocab = cls()
        vocab._ids = dict(word_dict)
        return vocab

    @classmethod
    def from_file(cls, file_path: str, delimiter: str = "", vocab_size: int | None = None,
                  special_tokens: Sequence[str] | None = None, special_first: bool = True) -> Vocab:
        """One word per line (the part before ``delimiter`` when given); at most ``vocab_size`` words."""
        words = []
        with open(file_path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n").rstrip("\r")
                word = line.split(delimiter)[0] if delimiter else line
                if word and word not in words:
                    words.append(word)
                if vocab_size is not None and len(words) >= vocab_size:
                    break
        return cls.from_list(words, special_tokens, special_first)

    @classmethod
    def from_dataset(cls, dataset: Any, columns: Sequence[str] | None = None,
                     freq_range: tuple[int | None, int | None] | None = None, top_k: int | None = None,
                     special_tokens: Sequence[str] | None = None, special_first: bool = True) -> Vocab:
        """Words of ``columns`` counted over one epoch, ordered by frequency (then first appearance)."""
        counts: dict[str, int] = {}
        names = dataset.get_col_names()
        cols = [names.index(c) for c in (columns or names)]
        for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
            for k in cols:
                for w in np.asarray(row[k]).reshape(-1).tolist():
                    w = w.decode("utf-8") if isinstance(w, bytes) else str(w)
                    counts[w] = counts.get(w, 0) + 1
        lo, hi = freq_range if freq_range is not None else (None, None)
        items = [(w, c) for w, c in counts.items() if (lo is None or c >= lo) and (hi is None or c <= hi)]
        items.sort(key=lambda wc: -wc[1])
        if top_k is not None:
            items = items[:top_k]
        return cls.from_list([w for w, _ in items], special_tokens, special_first)

    def vocab(self) -> dict[str, int]:
        """The word -> id dict."""
        return dict(self._ids)

    def tokens_to_ids(self, tokens: str | Iterable[str]) -> int | list[int]:
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        return [self._ids.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids: Any) -> str | list[str]:
        inverse = {i: w for w, i in self._ids.items()}
        if isinstance(ids, numbers.Integral):
            return inverse.get(int(ids), "")
        return [inverse.get(int(i), "") for i in ids]


def _strings(x):
    return [v.decode("utf-8") if isinstance(v, bytes) else v for v in np.asarray(x).reshape(-1).tolist()]


class Lookup(TensorOperation):
    """Words -> ids with ``vocab``; unknown words get ``unknown_token``'s id (an error when it is None)."""

    def __init__(self, vocab: Vocab, unknown_token: str | None = None, data_type: Any = np.int32) -> None:
        if not isinstance(vocab, Vocab):
            raise TypeError(f"Lookup: vocab must be a Vocab, but got {vocab!r}")
        if unknown_token is not None and unknown_token not in vocab._ids:
            raise ValueError(f"Lookup: unknown_token {unknown_token!r} is not in the vocab")
        self.vocab, self.unknown_token = vocab, unknown_token
        self.data_type = to_numpy_dtype(data_type, "Lookup")

    def _apply(self, rng, x):
        ids = []
        for w in _strings(x):
            if w in self.vocab._ids:
                ids.append(self.vocab._ids[w])
            elif self.unknown_token is not None:
                ids.append(self.vocab._ids[self.unknown_token])
            else:
                raise RuntimeError(f"Lookup: {w!r} is not in the vocab and no unknown_token was given")
        return np.array(ids, dtype=self.data_type).reshape(np.asarray(x).shape)


class WordpieceTokenizer(TensorOperation):
    """Greedy longest-match-first sub-words of each token, continuations prefixed with ``suffix_indicator``;
    a token with no split (or longer than ``max_bytes_per_token``) becomes ``unknown_token`` (or itself when
    that is empty)."""

    def __init__(self, vocab: Vocab, suffix_indicator: str = "##", max_bytes_per_token: int = 100,
                 unknown_token: str = "[UNK]", with_offsets: bool = False) -> None:
        if not isinstance(vocab, Vocab):
            raise TypeError(f"WordpieceTokenizer: vocab must be a Vocab, but got {vocab!r}")
        self.vocab, self.suffix_indicator = vocab, suffix_indicator
        self.max_bytes_per_token, self.unknown_token = max_bytes_per_token, unknown_token
        self.with_offsets = bool(with_offsets)

    def _pieces(self, word):
        if len(word.encode("utf-8")) > self.max_bytes_per_token:
            return None
        out, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                sub = word[start:end] if start == 0 else self.suffix_indicator + word[start:end]
                if sub in self.vocab._ids:
                    out.append((sub, start, end))
                    break
                end -= 1
            if end == start:
                return None
            start = end
        return out

    def _apply(self, rng, x):
        tokens, starts, limits = [], [], []
        for word in _strings(x):
            pieces = self._pieces(word)
            if pieces is None:
                tokens.append(self.unknown_token or word)
                starts.append(0)
                limits.append(len(word.encode("utf-8")))
                continue
            for sub, a, b in pieces:
                tokens.append(sub)
                starts.append(len(word[:a].encode("utf-8")))
                limits.append(len(word[:b].encode("utf-8")))
        out = np.array(tokens) if tokens else np.array([""])
        if self.with_offsets:
            return out, np.array(starts, np.uint32), np.array(limits, np.uint32)
        return out


class BertTokenizer(TensorOperation):
    """BasicTokenizer then WordpieceTokenizer (BERT's tokenizer)."""

    def __init__(self, vocab: Vocab, suffix_indicator: str = "##", max_bytes_per_token: int = 100,
                 unknown_token: str = "[UNK]", lower_case: bool = False, keep_whitespace: bool = False,
                 normalization_form: NormalizeForm = NormalizeForm.NONE, preserve_unused_token: bool = True,
                 with_offsets: bool = False) -> None:
        self.basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form, preserve_unused_token)
        self.wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token, unknown_token,
                                            with_offsets)
        self.with_offsets = bool(with_offsets)

    def _apply(self, rng, x):
        return self.wordpiece._apply(rng, self.basic._apply(rng, x))


def _pad_spec(op, pad):
    if not isinstance(pad, tuple) or len(pad) != 2 or not isinstance(pad[0], str) or \
            not isinstance(pad[1], int) or pad[1] < 0:
        raise TypeError(f"{op}: pads must be (str, non-negative int), but got {pad!r}")
    return pad


class Ngram(TensorOperation):
    """n-grams of a 1-D string array joined with ``separator``, for each n in ``n``; ``left_pad`` /
    ``right_pad`` = (token, width) add up to n - 1 pad tokens on each side. No n-gram fits: [''].
    """

    def __init__(self, n: int | Sequence[int], left_pad: tuple[str, int] = ("", 0),
                 right_pad: tuple[str, int] = ("", 0), separator: str = " ") -> None:
        ns = [n] if isinstance(n, int) else list(n)
        if not ns or not all(isinstance(k, int) and k > 0 for k in ns):
            raise ValueError(f"Ngram: n must be a positive int or a list of them, but got {n!r}")
        self.n, self.left_pad, self.right_pad = ns, _pad_spec("Ngram", left_pad), _pad_spec("Ngram", right_pad)
        self.separator = separator

    def _apply(self, rng, x):
        words = _strings(x)
        out: list[str] = []
        for k in self.n:
            seq = [self.left_pad[0]] * min(self.left_pad[1], k - 1) + words + \
                [self.right_pad[0]] * min(self.right_pad[1], k - 1)
            out.extend(self.separator.join(seq[i:i + k]) for i in range(len(seq) - k + 1))
        return np.array(out) if out else np.array([""])


class ToNumber(TensorOperation):
    """Parse strings as numbers of ``data_type``."""

    def __init__(self, data_type: Any) -> None:
        self.data_type = to_numpy_dtype(data_type, "ToNumber")
        if self.data_type.kind not in "iuf":
            raise TypeError(f"ToNumber: data_type must be numeric, but got {data_type!r}")

    def _apply(self, rng, x):
        vals = []
        for s in _strings(x):
            try:
                v = float(s) if self.data_type.kind == "f" else int(s)
            except ValueError:
                raise RuntimeError(f"ToNumber: {s!r} is not a number") from None
            if self.data_type.kind in "iu":
                info = np.iinfo(self.data_type)
                if not info.min <= v <= info.max:
                    raise RuntimeError(f"ToNumber: {s!r} is out of range for {self.data_type}")
            vals.append(v)
        return np.array(vals, dtype=self.data_type).reshape(np.asarray(x).shape)


def _check_len(op, name, v):
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise ValueError(f"{op}: {name} must be a non-negative int, but got {v!r}")
    return v


class Truncate(TensorOperation):
    """The first ``max_seq_len`` elements of a 1-D (or the last axis of a 2-D) array."""

    def __init__(self, max_seq_len: int) -> None:
        self.max_seq_len = _check_len("Truncate", "max_seq_len", max_seq_len)

    def _apply(self, rng, x):
        if x.ndim not in (1, 2):
            raise RuntimeError(f"Truncate: the input must be 1-D or 2-D, but got shape {tuple(x.shape)}")
        return x[..., :self.max_seq_len]


class TruncateSequencePair(TensorOperation):
    """Cut the longer of two 1-D arrays, one element at a time, until their total length is ``max_length``."""

    def __init__(self, max_length: int) -> None:
        self.max_length = _check_len("TruncateSequencePair", "max_length", max_length)

    def _apply(self, rng, a, b):
        la, lb = len(a), len(b)
        while la + lb > self.max_length:
            if la > lb:
                la -= 1
            else:
                lb -= 1
        return a[:la], b[:lb]


class SlidingWindow(TensorOperation):
    """Windows of ``width`` consecutive elements along ``axis`` (each window a row)."""

    def __init__(self, width: int, axis: int = 0) -> None:
        if isinstance(width, bool) or not isinstance(width, int) or width < 1:
            raise ValueError(f"SlidingWindow: width must be a positive int, but got {width!r}")
        self.width, self.axis = width, axis

    def _apply(self, rng, x):
        if x.ndim != 1:
            raise RuntimeError(f"SlidingWindow: only 1-D inputs are supported, but got shape {tuple(x.shape)}")
        if len(x) < self.width:
            return np.empty((0, self.width), x.dtype)
        return np.lib.stride_tricks.sliding_window_view(x, self.width).copy()


class AddToken(TensorOperation):
    """Add ``token`` at the start (``begin=True``) or end of a 1-D string array."""

    def __init__(self, token: str, begin: bool = True) -> None:
        if not isinstance(token, str):
            raise TypeError(f"AddToken: token must be a str, but got {token!r}")
        self.token, self.begin = token, bool(begin)

    def _apply(self, rng, x):
        words = _strings(x)
        return np.array([self.token] + words if self.begin else words + [self.token])
