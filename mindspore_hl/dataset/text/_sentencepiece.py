"""SentencePiece subword models (``SentencePieceVocab``, ``SentencePieceTokenizer``) through the ``sentencepiece``
package (the optional ``sentencepiece`` extra), which MindSpore also builds on: models it saved load here and
tokenize the same."""
from __future__ import annotations

import enum
import io
import numbers
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from ..transforms._base import TensorOperation
from ._tokenizers import text_of

if TYPE_CHECKING:
    from .._dataset import Dataset

try:   # optional dependency: everything else in mindspore_hl.dataset.text works without it
    import sentencepiece as _spm
except ImportError:   # pragma: no cover - exercised only where the extra is not installed
    _spm = None  # type: ignore[assignment]  # checked by _library before any use

__all__ = ["SentencePieceModel", "SPieceTokenizerLoadType", "SPieceTokenizerOutType", "SentencePieceVocab",
           "SentencePieceTokenizer"]


class SentencePieceModel(enum.IntEnum):
    """Subword algorithm: UNIGRAM, BPE, CHAR or WORD."""
    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerLoadType(enum.IntEnum):
    """Where a tokenizer's model comes from: a FILE path or a MODEL (SentencePieceVocab)."""
    FILE = 0
    MODEL = 1


class SPieceTokenizerOutType(enum.IntEnum):
    """What ``SentencePieceTokenizer`` returns: STRING pieces or INT ids."""
    STRING = 0
    INT = 1


def _library(op):
    if _spm is None:
        raise ImportError(f"{op} needs the 'sentencepiece' package: pip install 'mindspore_hl[sentencepiece]'")
    return _spm


def _check_train_args(op, vocab_size, character_coverage, model_type, params):
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, numbers.Integral) or vocab_size <= 0:
        raise ValueError(f"{op}: vocab_size must be a positive int, but got {vocab_size!r}")
    if isinstance(character_coverage, bool) or not isinstance(character_coverage, numbers.Real) or \
            not 0.98 <= character_coverage <= 1.0:  # type: ignore[operator]  # Real: typeshed lacks <=
        raise ValueError(f"{op}: character_coverage must be a float in [0.98, 1.0], but got {character_coverage!r}")
    if not isinstance(model_type, SentencePieceModel):
        raise TypeError(f"{op}: model_type must be a SentencePieceModel, but got {model_type!r}")
    if not isinstance(params, dict):
        raise TypeError(f"{op}: params must be a dict, but got {type(params).__name__}")


class SentencePieceVocab:
    """A trained SentencePiece model (its serialized proto). Build it with ``from_file`` / ``from_dataset``.

    Training uses the sentencepiece package's trainer with MindSpore's options (``vocab_size``,
    ``character_coverage``, ``model_type`` plus ``params``); BPE/CHAR/WORD models equal MindSpore's, UNIGRAM
    ones may differ in a few pieces because MindSpore bundles an older sentencepiece release."""

    def __init__(self):
        self._proto = None

    @classmethod
    def _train(cls, op, vocab_size, character_coverage, model_type, params, **source):
        _check_train_args(op, vocab_size, character_coverage, model_type, params)
        spm = _library(op)
        out = io.BytesIO()
        options = {"vocab_size": int(vocab_size), "character_coverage": float(character_coverage),
                   "model_type": model_type.name.lower(), "minloglevel": 2, **{str(k): v for k, v in params.items()}}
        try:
            spm.SentencePieceTrainer.train(model_writer=out, **source, **options)
        except RuntimeError as e:
            raise RuntimeError(f"{op}: SentencePiece training failed: {e}") from e
        vocab = cls()
        vocab._proto = out.getvalue()
        return vocab

    @classmethod
    def from_file(cls, file_path: list[str], vocab_size: int, character_coverage: float, model_type: SentencePieceModel,
                  params: dict[str, Any]) -> SentencePieceVocab:
        """Train on text files (one sentence per line). Args: file_path (list of str), vocab_size (int),
        character_coverage (float, 0.98 to 1.0), model_type (SentencePieceModel), params (dict of extra
        sentencepiece trainer options)."""
        if not isinstance(file_path, list) or not file_path:
            raise TypeError(f"SentencePieceVocab.from_file: file_path must be a non-empty list of paths, "
                            f"but got {file_path!r}")
        for p in file_path:
            if not os.path.isfile(p):
                raise ValueError(f"SentencePieceVocab.from_file: the file {p} does not exist or is not a file")
        return cls._train("SentencePieceVocab.from_file", vocab_size, character_coverage, model_type, params,
                          input=",".join(os.fspath(p) for p in file_path))

    @classmethod
    def from_dataset(cls, dataset: Dataset, col_names: list[str], vocab_size: int, character_coverage: float,
                     model_type: SentencePieceModel, params: dict[str, Any]) -> SentencePieceVocab:
        """Train on the strings of ``col_names`` (list of str) of one epoch of ``dataset``, one sentence per
        value."""
        names = dataset.get_col_names()
        if not isinstance(col_names, list) or not col_names or any(c not in names for c in col_names):
            raise ValueError(f"SentencePieceVocab.from_dataset: col_names must be a list of the dataset's columns "
                             f"{names}, but got {col_names!r}")
        idx = [names.index(c) for c in col_names]

        def sentences():
            for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
                for i in idx:
                    for v in np.asarray(row[i]).reshape(-1):
                        yield v.decode("utf-8") if isinstance(v, bytes) else str(v)

        return cls._train("SentencePieceVocab.from_dataset", vocab_size, character_coverage, model_type, params,
                          sentence_iterator=sentences())

    @classmethod
    def save_model(cls, vocab: SentencePieceVocab, path: str, filename: str) -> None:
        """Write ``vocab``'s model to ``path/filename`` (a ``.model`` file sentencepiece and MindSpore load)."""
        if not isinstance(vocab, SentencePieceVocab) or vocab._proto is None:
            raise TypeError(f"SentencePieceVocab.save_model: vocab must be a built SentencePieceVocab, got {vocab!r}")
        if not os.path.isdir(path):
            raise ValueError(f"SentencePieceVocab.save_model: the folder {path} does not exist")
        with open(os.path.join(path, filename), "wb") as f:
            f.write(vocab._proto)


class SentencePieceTokenizer(TensorOperation):
    """Split a scalar string into SentencePiece pieces (``out_type`` STRING) or their ids (INT, int32).

    Args: mode (str path of a ``.model`` file | SentencePieceVocab), out_type (SPieceTokenizerOutType)."""

    def __init__(self, mode: str | SentencePieceVocab, out_type: SPieceTokenizerOutType):
        if not isinstance(out_type, SPieceTokenizerOutType):
            raise TypeError(f"SentencePieceTokenizer: out_type must be a SPieceTokenizerOutType, got {out_type!r}")
        spm = _library("SentencePieceTokenizer")
        if isinstance(mode, SentencePieceVocab):
            if mode._proto is None:
                raise ValueError("SentencePieceTokenizer: the SentencePieceVocab is not built")
            self._processor = spm.SentencePieceProcessor(model_proto=mode._proto)
        elif isinstance(mode, (str, os.PathLike)):
            if not os.path.isfile(mode):
                raise ValueError(f"SentencePieceTokenizer: the model file {os.fspath(mode)} does not exist")
            self._processor = spm.SentencePieceProcessor(model_file=os.fspath(mode))
        else:
            raise TypeError(f"SentencePieceTokenizer: mode must be a model path or a SentencePieceVocab, "
                            f"but got {type(mode).__name__}")
        self.mode, self.out_type = mode, out_type

    def _apply(self, rng, x):
        text = text_of("SentencePieceTokenizer", x)
        if self.out_type == SPieceTokenizerOutType.INT:
            return np.asarray(self._processor.encode(text, out_type=int), dtype=np.int32)
        pieces = self._processor.encode(text, out_type=str)
        return np.array(pieces) if pieces else np.array([], dtype=np.str_)
