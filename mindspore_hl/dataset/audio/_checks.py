"""Argument checks of ``mindspore.dataset.audio`` with MindSpore's own messages (its ``validator_helpers``), for
the transforms whose tests compare the error text."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["type_check", "check_value", "check_int32", "real_waveform", "waveform", "INT32_MAX", "FLOAT_MAX"]

INT32_MAX = 2147483647
FLOAT_MAX = 16777216    # MindSpore's FLOAT_MAX_INTEGER: the largest float32 that still counts in units


def type_check(arg: Any, types: tuple, name: str) -> None:
    """TypeError unless ``arg`` is one of ``types`` (a bool is not an int unless bool is listed)."""
    shown = '""' if repr(arg) == repr("") else arg
    if int in types and bool not in types and isinstance(arg, bool):
        raise TypeError(f"Argument {name} with value {shown} is not of type {types}, but got {type(arg)}.")
    if not isinstance(arg, types):
        raise TypeError(f"Argument {name} with value {shown} is not of type {list(types)}, but got {type(arg)}.")


def check_value(value: float, low: float, high: float, name: str, left_open: bool = False) -> None:
    """ValueError unless ``low <= value <= high`` (``low < value`` when ``left_open``)."""
    if value < low or value > high or (left_open and value == low):
        raise ValueError(f"Input {name} is not within the required interval of {'(' if left_open else '['}{low}, "
                         f"{high}].")


def check_int32(value: Any, name: str, low: int = -INT32_MAX - 1) -> None:
    """TypeError unless ``value`` is an int, ValueError unless ``low <= value <= INT32_MAX``."""
    type_check(value, (int,), name)
    check_value(value, low, INT32_MAX, name)


def real_waveform(op: str, x: Any) -> np.ndarray:
    """A real waveform (..., time) as float64; RuntimeError naming ``op`` for anything else."""
    x = np.asarray(x)
    if x.ndim < 1 or x.dtype.kind not in "fiu":
        raise RuntimeError(f"{op}: the input should be a real waveform of shape (..., time), but got {x.dtype} "
                           f"of shape {x.shape}")
    return x.astype(np.float64)


def waveform(op: str, x: np.ndarray) -> tuple[np.ndarray, type]:
    """The waveform as float64 and the dtype to return (float64 stays float64, anything else gives float32)."""
    x = np.asarray(x)
    return real_waveform(op, x), (np.float64 if x.dtype == np.float64 else np.float32)
