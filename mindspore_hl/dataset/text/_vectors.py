"""Pre-trained word vectors (``Vectors``, ``GloVe``, ``FastText``) and ``ToVectors``."""
from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from ..transforms._base import TensorOperation

__all__ = ["Vectors", "GloVe", "FastText", "ToVectors"]


class Vectors:
    """Word vectors read from a text file of ``word v1 v2 ...`` lines (a leading ``count dim`` header line, as
    in .vec files, is skipped). Build with ``from_file``."""

    def __init__(self):
        self.vectors, self.dim = {}, 0

    @classmethod
    def _check_file(cls, file_path):
        if not isinstance(file_path, str) or not os.path.isfile(file_path):
            raise ValueError(f"{cls.__name__}.from_file: {file_path!r} does not exist or is not a file")

    @classmethod
    def from_file(cls, file_path: str, max_vectors: int | None = None) -> Vectors:
        """Read at most ``max_vectors`` vectors from ``file_path``."""
        cls._check_file(file_path)
        if max_vectors is not None and (isinstance(max_vectors, bool) or not isinstance(max_vectors, int) or
                                        max_vectors < 0):
            raise ValueError(f"{cls.__name__}.from_file: max_vectors must be a non-negative int, got {max_vectors!r}")
        out = cls()
        with open(file_path, encoding="utf-8") as f:
            for n, line in enumerate(f):
                parts = line.rstrip().split(" ")
                if n == 0 and len(parts) == 2 and all(p.isdigit() for p in parts):
                    continue   # "count dim" header
                if len(parts) < 2:
                    continue
                word, values = parts[0], parts[1:]
                if out.dim == 0:
                    out.dim = len(values)
                elif len(values) != out.dim:
                    raise ValueError(f"{cls.__name__}.from_file: {file_path} line {n + 1} has {len(values)} values, "
                                     f"but the first vector has {out.dim}")
                if max_vectors is not None and len(out.vectors) >= max_vectors:
                    break
                try:
                    out.vectors.setdefault(word, np.asarray([float(v) for v in values], np.float32))
                except ValueError:
                    raise ValueError(f"{cls.__name__}.from_file: {file_path} line {n + 1} has a non-number "
                                     f"value") from None
        return out


class GloVe(Vectors):
    """GloVe vectors; the file is named like ``glove.6B.50d.txt``."""

    @classmethod
    def _check_file(cls, file_path):
        super()._check_file(file_path)
        name = os.path.basename(file_path)
        if not (name.startswith("glove.") and name.endswith(".txt")):
            raise ValueError(f"GloVe.from_file: the file name must look like glove.6B.50d.txt, but got {name}")


class FastText(Vectors):
    """fastText vectors; the file ends in ``.vec``."""

    @classmethod
    def _check_file(cls, file_path):
        super()._check_file(file_path)
        if not file_path.endswith(".vec"):
            raise ValueError(f"FastText.from_file: the file must end in .vec, but got {os.path.basename(file_path)}")


class ToVectors(TensorOperation):
    """Tokens -> their vectors (float32); unknown tokens get ``unk_init`` (default zeros), trying the lower-case
    token first when ``lower_case_backup``."""

    def __init__(self, vectors: Vectors, unk_init: Sequence[float] | None = None, lower_case_backup: bool = False):
        if not isinstance(vectors, Vectors):
            raise TypeError(f"ToVectors: vectors must be Vectors, GloVe or FastText, but got {vectors!r}")
        self.vectors, self.lower_case_backup = vectors, bool(lower_case_backup)
        self.unk = np.zeros(vectors.dim, np.float32) if unk_init is None else np.asarray(unk_init, np.float32)
        if self.unk.shape != (vectors.dim,):
            raise ValueError(f"ToVectors: unk_init must have {vectors.dim} values, but got {len(self.unk)}")

    def _vector(self, token):
        v = self.vectors.vectors.get(token)
        if v is None and self.lower_case_backup:
            v = self.vectors.vectors.get(token.lower())
        return self.unk if v is None else v

    def _apply(self, rng, x):
        arr = np.asarray(x)
        tokens = [t.decode("utf-8") if isinstance(t, bytes) else t for t in arr.reshape(-1).tolist()]
        out = np.stack([self._vector(t) for t in tokens]) if tokens else np.zeros((0, self.vectors.dim), np.float32)
        return out[0] if arr.ndim == 0 else out.reshape(arr.shape + (self.vectors.dim,))
