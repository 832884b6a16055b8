"""Text tokenizers and string transforms (``mindspore.dataset.text``) on NumPy string arrays.

Tokenizers take a scalar string and return a 1-D array of tokens; with ``with_offsets=True`` they also return
the UTF-8 byte offsets where each token starts and ends (uint32), as MindSpore does.
"""
from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Callable
from typing import Any, Literal

import numpy as np

from ..transforms._base import TensorOperation

__all__ = ["WhitespaceTokenizer", "UnicodeCharTokenizer", "UnicodeScriptTokenizer", "RegexTokenizer",
           "RegexReplace", "CaseFold", "NormalizeUTF8", "NormalizeForm", "BasicTokenizer", "PythonTokenizer",
           "to_str", "to_bytes", "text_of"]


def text_of(op: str, x: Any) -> str:
    """A scalar string input as str."""
    arr = np.asarray(x)
    if arr.ndim != 0 or arr.dtype.kind not in "US":
        raise RuntimeError(f"{op}: the input should be a scalar string, but got {arr.dtype} of shape "
                           f"{tuple(arr.shape)}")
    v = arr.item()
    return v.decode("utf-8") if isinstance(v, bytes) else v


def _tokens_out(text, spans, with_offsets):
    """Tokens (array of str) and, with offsets, their UTF-8 byte start/limit."""
    tokens = np.array([text[a:b] for a, b in spans]) if spans else np.array([""])
    if not with_offsets:
        return tokens
    starts = [len(text[:a].encode("utf-8")) for a, _ in spans] or [0]
    limits = [len(text[:b].encode("utf-8")) for _, b in spans] or [0]
    return tokens, np.array(starts, np.uint32), np.array(limits, np.uint32)


class _Tokenizer(TensorOperation):
    def __init__(self, with_offsets: bool = False) -> None:
        if not isinstance(with_offsets, bool):
            raise TypeError(f"{type(self).__name__}: with_offsets must be a bool, but got {with_offsets!r}")
        self.with_offsets = with_offsets

    def _apply(self, rng, x):
        text = text_of(type(self).__name__, x)
        return _tokens_out(text, self._spans(text), self.with_offsets)

    def _spans(self, text: str) -> list[tuple[int, int]]:
        """The (start, end) character positions of the tokens of ``text``."""
        raise NotImplementedError


class WhitespaceTokenizer(_Tokenizer):
    """Split on ICU whitespace (spaces, tabs, newlines...)."""

    def _spans(self, text):
        return [m.span() for m in re.finditer(r"\S+", text)]


class UnicodeCharTokenizer(_Tokenizer):
    """One token per Unicode character."""

    def _spans(self, text):
        return [(i, i + 1) for i in range(len(text))]


def _script(ch):
    """A coarse Unicode script class: letters by script name, digits, punctuation/symbols, whitespace."""
    cat = unicodedata.category(ch)
    if ch.isspace():
        return "space"
    if cat.startswith("N"):
        return "digit"
    if cat.startswith("L") or cat.startswith("M"):
        name = unicodedata.name(ch, "")
        return name.split(" ")[0] if name else "letter"
    return "punct:" + ch


class UnicodeScriptTokenizer(_Tokenizer):
    """Split where the Unicode script changes (Latin, Han, digits...); each punctuation mark is its own token.
    Args: keep_whitespace (bool): keep runs of whitespace as tokens, with_offsets (bool)."""

    def __init__(self, keep_whitespace: bool = False, with_offsets: bool = False) -> None:
        super().__init__(with_offsets)
        if not isinstance(keep_whitespace, bool):
            raise TypeError(f"UnicodeScriptTokenizer: keep_whitespace must be a bool, got {keep_whitespace!r}")
        self.keep_whitespace = keep_whitespace

    def _spans(self, text):
        spans, start, prev = [], 0, None
        for i, ch in enumerate(text):
            s = _script(ch)
            if prev is not None and (s != prev or s.startswith("punct:")):
                spans.append((start, i, prev))
                start = i
            prev = s
        if prev is not None:
            spans.append((start, len(text), prev))
        return [(a, b) for a, b, s in spans if self.keep_whitespace or s != "space"]


class RegexTokenizer(_Tokenizer):
    """Split at matches of ``delim_pattern``; matches of ``keep_delim_pattern`` are kept as tokens."""

    def __init__(self, delim_pattern: str, keep_delim_pattern: str = "", with_offsets: bool = False) -> None:
        super().__init__(with_offsets)
        self.delim = re.compile(delim_pattern)
        self.keep = re.compile(keep_delim_pattern) if keep_delim_pattern else None

    def _spans(self, text):
        spans, pos = [], 0
        for m in self.delim.finditer(text):
            if m.start() > pos:
                spans.append((pos, m.start()))
            if self.keep is not None and self.keep.fullmatch(m.group()) and m.end() > m.start():
                spans.append(m.span())
            pos = m.end()
        if pos < len(text):
            spans.append((pos, len(text)))
        return spans


class _StringMap(TensorOperation):
    batchable = True

    def _apply_batch(self, rng, x):
        if x.dtype.kind not in "US":
            raise RuntimeError(f"{type(self).__name__}: the input should be strings, but got {x.dtype}")
        flat = [v.decode("utf-8") if isinstance(v, bytes) else v for v in x.reshape(-1).tolist()]
        return np.array([self._map(v) for v in flat]).reshape(x.shape)

    def _map(self, s: str) -> str:
        """The transformed string."""
        raise NotImplementedError


class RegexReplace(_StringMap):
    """Replace matches of ``pattern`` with ``replace`` (all of them, or only the first when replace_all=False)."""

    def __init__(self, pattern: str, replace: str, replace_all: bool = True) -> None:
        self.pattern, self.replace, self.replace_all = re.compile(pattern), replace, bool(replace_all)

    def _map(self, s):
        return self.pattern.sub(self.replace, s, count=0 if self.replace_all else 1)


class CaseFold(_StringMap):
    """Unicode case folding (lower case that also maps e.g. ß to ss)."""

    def _map(self, s):
        return s.casefold()


class NormalizeForm(enum.IntEnum):
    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


_UNICODE_FORMS: dict[NormalizeForm, Literal["NFC", "NFKC", "NFD", "NFKD"]] = {
    NormalizeForm.NFC: "NFC", NormalizeForm.NFKC: "NFKC", NormalizeForm.NFD: "NFD", NormalizeForm.NFKD: "NFKD"}


class NormalizeUTF8(_StringMap):
    """Unicode normalisation (NFC, NFKC, NFD, NFKD; NONE leaves strings alone)."""

    def __init__(self, normalize_form: NormalizeForm = NormalizeForm.NFKC) -> None:
        if not isinstance(normalize_form, NormalizeForm):
            raise TypeError(f"NormalizeUTF8: normalize_form must be a NormalizeForm, got {normalize_form!r}")
        self.normalize_form = normalize_form

    def _map(self, s):
        if self.normalize_form == NormalizeForm.NONE:
            return s
        return unicodedata.normalize(_UNICODE_FORMS[self.normalize_form], s)


def _is_punct(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(ch):
    cp = ord(ch)
    return any(a <= cp <= b for a, b in ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
                                         (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF),
                                         (0x2F800, 0x2FA1F)))


class BasicTokenizer(_Tokenizer):
    """BERT's basic tokenizer: split on whitespace and punctuation, each CJK character alone; ``lower_case``
    also case-folds and strips accents (NFD, marks removed).

    Args: lower_case (bool), keep_whitespace (bool), normalization_form (NormalizeForm, used when not lower
        casing), preserve_unused_token (bool): keep [UNK] / [CLS] / [SEP] / [PAD] / [MASK] whole, with_offsets."""

    _UNUSED = re.compile(r"\[(UNK|CLS|SEP|PAD|MASK|unused\d+)\]")

    def __init__(self, lower_case: bool = False, keep_whitespace: bool = False,
                 normalization_form: NormalizeForm = NormalizeForm.NONE, preserve_unused_token: bool = True,
                 with_offsets: bool = False) -> None:
        super().__init__(with_offsets)
        self.lower_case, self.keep_whitespace = bool(lower_case), bool(keep_whitespace)
        self.normalization_form, self.preserve_unused_token = normalization_form, bool(preserve_unused_token)

    def _clean(self, text):
        if self.lower_case:
            text = unicodedata.normalize("NFD", text.casefold())
            return "".join(c for c in text if unicodedata.category(c) != "Mn")
        if self.normalization_form != NormalizeForm.NONE:
            return unicodedata.normalize(_UNICODE_FORMS[self.normalization_form], text)
        return text

    def _spans(self, text):
        spans, start = [], None
        protected = [m.span() for m in self._UNUSED.finditer(text)] if self.preserve_unused_token else []
        i = 0
        while i < len(text):
            hit = next((p for p in protected if p[0] == i), None)
            if hit:
                if start is not None:
                    spans.append((start, i))
                    start = None
                spans.append(hit)
                i = hit[1]
                continue
            ch = text[i]
            if ch.isspace():
                if start is not None:
                    spans.append((start, i))
                    start = None
                if self.keep_whitespace:
                    spans.append((i, i + 1))
            elif _is_punct(ch) or _is_cjk(ch):
                if start is not None:
                    spans.append((start, i))
                    start = None
                spans.append((i, i + 1))
            elif start is None:
                start = i
            i += 1
        if start is not None:
            spans.append((start, len(text)))
        return spans

    def _apply(self, rng, x):
        raw = text_of("BasicTokenizer", x)
        spans = self._spans(raw)
        tokens = np.array([self._clean(raw[a:b]) for a, b in spans]) if spans else np.array([""])
        if not self.with_offsets:
            return tokens
        _, starts, limits = _tokens_out(raw, spans, True)
        return tokens, starts, limits


class PythonTokenizer(TensorOperation):
    """Tokens from a user function ``tokenizer(str) -> list of str``."""

    def __init__(self, tokenizer: Callable[[str], list[str]]) -> None:
        if not callable(tokenizer):
            raise TypeError(f"PythonTokenizer: tokenizer must be callable, but got {tokenizer!r}")
        self.tokenizer = tokenizer

    def _apply(self, rng, x):
        return np.array(self.tokenizer(text_of("PythonTokenizer", x)))


def to_str(array: Any, encoding: str = "utf8") -> np.ndarray:
    """Bytes array -> str array."""
    arr = np.asarray(array)
    if arr.dtype.kind != "S":
        raise TypeError(f"to_str: expected a bytes array, but got {arr.dtype}")
    return np.char.decode(arr, encoding)


def to_bytes(array: Any, encoding: str = "utf8") -> np.ndarray:
    """str array -> bytes array."""
    arr = np.asarray(array)
    if arr.dtype.kind != "U":
        raise TypeError(f"to_bytes: expected a str array, but got {arr.dtype}")
    return np.char.encode(arr, encoding)
