"""Shared pieces of the small-corpus readers: a source over a list of row recipes, WAV and image file reads."""
from __future__ import annotations

import os
import wave
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._block import FileBytes, column_from_rows, file_bytes, object_column
from ._sources import DatasetFormatError, MappableSource
from .vision._ops import decode_bytes

__all__ = ["RowSource", "read_wav", "read_image", "read_text", "check_choice", "list_dir"]


def check_choice(op: str, name: str, value: Any, choices: Sequence[Any]) -> Any:
    """``value`` when it is one of ``choices``; otherwise a ValueError naming the op, the argument and the choices."""
    if value not in choices:
        raise ValueError(f"{op}: {name} must be one of {list(choices)}, but got {value!r}")
    return value


def read_wav(op: str, path: str) -> tuple[np.ndarray, int]:
    """(waveform float32 (channels, frames), sample rate) of a PCM WAV file. Integer samples are divided by the
    largest positive value (32767 for 16 bits), as MindSpore's readers do."""
    try:
        with wave.open(path, "rb") as w:
            channels, width, rate = w.getnchannels(), w.getsampwidth(), w.getframerate()
            raw = w.readframes(w.getnframes())
    except (OSError, EOFError, wave.Error) as e:
        raise DatasetFormatError(f"{op}: {path} is not a readable PCM WAV file: {e}") from e
    if width == 1:   # 8-bit WAV is unsigned
        samples = (np.frombuffer(raw, np.uint8).astype(np.float32) - 128.0) / 128.0
    elif width in (2, 4):
        kind = "<i2" if width == 2 else "<i4"
        samples = np.frombuffer(raw, kind).astype(np.float64) / float(2 ** (8 * width - 1) - 1)
    else:
        raise DatasetFormatError(f"{op}: {path}: {8 * width}-bit samples are not supported (8, 16 or 32 bits)")
    return np.ascontiguousarray(samples.reshape(-1, channels).T, dtype=np.float32), rate


def read_image(op: str, path: str, decode: bool) -> np.ndarray:
    """The bytes of an image file (1-D uint8 naming the file) or, with ``decode``, its (H, W, 3) uint8 pixels."""
    try:
        with open(path, "rb") as f:
            data = file_bytes(f.read(), path)
    except OSError as e:
        raise DatasetFormatError(f"{op}: cannot read {path}: {e}") from e
    return decode_bytes(data, op, f" for file {path}") if decode else data


def read_text(op: str, path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise DatasetFormatError(f"{op}: cannot read {path} as UTF-8 text: {e}") from e


class RowSource(MappableSource):
    """A source over ``self._items`` (one recipe per row, built by the subclass); ``_row(item)`` gives the
    row's values in ``column_names`` order. Reading runs on worker threads (files are opened per row)."""

    _parallel_read = True
    _items: list[Any]

    def _length(self):
        return len(self._items)

    def _row(self, item):
        raise NotImplementedError

    def _read(self, ids):
        rows = [self._row(self._items[int(i)]) for i in ids]
        cols = []
        for k in range(len(self.column_names)):
            values = [np.asanyarray(r[k]) for r in rows]
            # undecoded files stay one object per row even when two files happen to have the same length
            cols.append(object_column(values) if any(isinstance(v, FileBytes) for v in values)
                        else column_from_rows(values))
        return cols


def list_dir(op: str, folder: str) -> list[str]:
    """Sorted entries of ``folder`` (an error naming it when it cannot be listed)."""
    try:
        return sorted(os.listdir(folder))
    except OSError as e:
        raise DatasetFormatError(f"{op}: cannot list {folder}: {e}") from e
