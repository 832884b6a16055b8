"""``save_checkpoint`` (MindSpore 2.10 signature) with synchronous and background (async) writing."""
from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _ckpt_format, _safetensors

__all__ = ["save_checkpoint", "wait_async_save", "check_format", "ST_RESERVED_METADATA"]

if TYPE_CHECKING:
    from ..nn.cell import Cell

_log = logging.getLogger(__name__)
_FORMATS = ("ckpt", "safetensors")
# safetensors metadata keys that are not str checkpoint entries (str entries live in __metadata__).
ST_RESERVED_METADATA = ("format", "crc_num", "remove_redundancy")

_pending: list[threading.Thread] = []  # background save threads not yet joined
_errors: list[BaseException] = []      # exceptions raised by background saves, re-raised by the next wait_async_save()
_pending_lock = threading.Lock()


def check_format(format: str, api: str) -> None:
    """Raise a ValueError naming ``api`` unless ``format`` is 'ckpt' or 'safetensors'."""
    if format not in _FORMATS:
        raise ValueError(f"For '{api}', 'format' must be 'ckpt' or 'safetensors', but got {format!r}.")


def _check_bool(value: object, arg: str, api: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', '{arg}' must be a bool, but got {type(value).__name__} {value!r:.40}.")
    return value


def _save_path(ckpt_file_name: str | os.PathLike[str], format: str) -> str:
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'save_checkpoint', 'ckpt_file_name' must be a str, but got "
                        f"{type(ckpt_file_name).__name__}.")
    path = os.path.abspath(os.fspath(ckpt_file_name))
    if os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', 'ckpt_file_name' {path} is a directory; it must be a "
                                f"file name.")
    if not path.endswith("." + format):  # MindSpore appends the format's suffix
        path += "." + format
    return path


def _host_value(name: str, value: Any, copy: bool) -> np.ndarray | str:
    """A saved value as host NumPy (or str). ``copy`` snapshots it so later training cannot change it."""
    if isinstance(value, str):
        return value
    if hasattr(value, "asnumpy"):  # Tensor / Parameter
        arr = value.asnumpy()
    elif isinstance(value, (np.ndarray, np.generic)) or type(value).__module__.startswith("jax"):
        arr = np.asarray(value)
    else:
        raise TypeError(f"For 'save_checkpoint', the data of {name!r} must be a Tensor, Parameter, NumPy array or "
                        f"str, but got {type(value).__name__}.")
    return np.array(arr, copy=True) if copy else np.asarray(arr)


def _append_value(name: str, value: Any) -> np.ndarray | str:
    """append_dict value -> NumPy scalar / str, with MindSpore's dtypes (int -> Int64, float -> Float32)."""
    if isinstance(value, bool):
        return np.asarray(value, np.bool_)
    if isinstance(value, int):
        if not -2 ** 63 <= value < 2 ** 63:
            raise ValueError(f"For 'save_checkpoint', append_dict[{name!r}] = {value} does not fit in Int64.")
        return np.asarray(value, np.int64)
    if isinstance(value, float):
        return np.asarray(value, np.float32)
    if isinstance(value, str) or hasattr(value, "asnumpy"):
        return _host_value(name, value, copy=True)
    raise TypeError(f"For 'save_checkpoint', append_dict values must be int, float, bool, str, Tensor or Parameter, "
                    f"but append_dict[{name!r}] is {type(value).__name__}.")


def _collect(save_obj: Any, choice_func: Callable[[str], bool] | None, copy: bool) -> list[tuple[str, Any]]:
    """save_obj (Cell, list of {'name', 'data'} dicts, or dict name -> value) -> list of (name, NumPy | str)."""
    if hasattr(save_obj, "parameters_and_names") and not isinstance(save_obj, (dict, list)):
        pairs: Iterable[tuple[Any, Any]] = ((param.name, param) for _, param in save_obj.parameters_and_names())
    elif isinstance(save_obj, dict):
        pairs = save_obj.items()
    elif isinstance(save_obj, list):
        listed: list[tuple[Any, Any]] = []
        for i, item in enumerate(save_obj):
            if not isinstance(item, dict) or "name" not in item or "data" not in item:
                raise TypeError(f"For 'save_checkpoint', each element of a list 'save_obj' must be a dict with "
                                f"'name' and 'data', but element {i} is {item!r:.80}.")
            listed.append((item["name"], item["data"]))
        pairs = listed
    else:
        raise TypeError(f"For 'save_checkpoint', 'save_obj' must be a Cell, list or dict, but got "
                        f"{type(save_obj).__name__}.")
    out: list[tuple[str, Any]] = []
    for name, value in pairs:
        if not isinstance(name, str):
            raise TypeError(f"For 'save_checkpoint', parameter names must be str, but got {type(name).__name__} "
                            f"{name!r:.60}.")
        if choice_func is not None and not choice_func(name):
            continue
        out.append((name, _host_value(name, value, copy)))
    return out


def _write(path: str, entries: list[tuple[str, Any]], crc_check: bool, format: str) -> None:
    if format == "ckpt":
        _ckpt_format.write(path, entries, crc_check=crc_check)
        return
    metadata: dict[str, str] = {"format": "ms"}
    tensors: list[tuple[str, Any]] = []
    for name, value in entries:
        if isinstance(value, str):
            if name in ST_RESERVED_METADATA:
                raise ValueError(f"For 'save_checkpoint', the str entry {name!r} clashes with the safetensors "
                                 f"metadata key of the same name.")
            metadata[name] = value
        else:
            tensors.append((name, value))
    _safetensors.write(path, tensors, metadata, crc_key="crc_num" if crc_check else None)


def _background_write(path: str, entries: list[tuple[str, Any]], crc_check: bool, format: str) -> None:
    try:
        _write(path, entries, crc_check, format)
    except BaseException as e:  # noqa: BLE001 - handed to the caller's next wait_async_save()
        _log.error("Asynchronous save_checkpoint to %s failed: %s", path, e)
        with _pending_lock:
            _errors.append(e)


def wait_async_save(raise_errors: bool = True) -> None:
    """Block until every ``save_checkpoint(..., async_save=True)`` has finished writing.

    Args:
        raise_errors: re-raise the first error a background save hit (then forget them all).
    """
    with _pending_lock:
        threads = list(_pending)
    for t in threads:
        t.join()
    with _pending_lock:
        for t in threads:
            if t in _pending:
                _pending.remove(t)
        errors = list(_errors) if raise_errors else []
        if raise_errors:
            _errors.clear()
    if errors:
        raise RuntimeError(f"An asynchronous save_checkpoint failed: {errors[0]}") from errors[0]


def save_checkpoint(save_obj: Cell | list[dict[str, Any]] | dict[str, Any], ckpt_file_name: str | os.PathLike[str],
                    integrated_save: bool = True, async_save: bool = False, append_dict: dict[str, Any] | None = None,
                    enc_key: bytes | None = None, enc_mode: str = "AES-GCM",
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = False,
                    format: str = "ckpt") -> None:
    """Save a Cell's parameters (or a list / dict of named tensors) to a ``.ckpt`` or ``.safetensors`` file.

    Args:
        save_obj: a Cell; a list of ``{'name': str, 'data': Tensor | Parameter | str}``; or a dict name -> value.
        ckpt_file_name: the file; ``.ckpt`` / ``.safetensors`` is appended when missing. Replaced atomically.
        integrated_save: parallel-only option of MindSpore (single-process here: nothing to integrate).
        async_save: snapshot the values to host memory, then write in a background thread. The next save
            (or ``wait_async_save()``, or interpreter exit) waits for it.
        append_dict: extra entries; int -> Int64 scalar, float -> Float32 scalar, bool -> Bool, str, Tensor.
        enc_key, enc_mode: encryption is not supported; a non-None ``enc_key`` raises NotImplementedError.
        choice_func: ``choice_func(name) -> bool``; only parameters for which it returns True are saved.
        crc_check: append MindSpore's crc32 trailer (ckpt) or ``crc_num`` metadata (safetensors).
        format: ``'ckpt'`` or ``'safetensors'``.

    Example:
        >>> net = nn.Dense(4, 2)
        >>> save_checkpoint(net, 'dense.ckpt', append_dict={'epoch_num': 3})
        >>> sorted(ms.load_checkpoint('dense.ckpt'))
        ['bias', 'epoch_num', 'weight']
    """
    api = "save_checkpoint"
    check_format(format, api)
    _check_bool(integrated_save, "integrated_save", api)
    _check_bool(async_save, "async_save", api)
    _check_bool(crc_check, "crc_check", api)
    if enc_key is not None:
        raise NotImplementedError("For 'save_checkpoint', checkpoint encryption ('enc_key', "
                                  f"enc_mode={enc_mode!r}) is not supported by mindspore_hl; save without 'enc_key'.")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For 'save_checkpoint', 'choice_func' must be callable, but got {type(choice_func).__name__}.")
    if append_dict is not None and not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', 'append_dict' must be a dict, but got {type(append_dict).__name__}.")
    path = _save_path(ckpt_file_name, format)
    wait_async_save()  # one writer at a time, and surface an earlier background failure
    entries = _collect(save_obj, choice_func, copy=async_save)
    for key, value in (append_dict or {}).items():
        if not isinstance(key, str):
            raise TypeError(f"For 'save_checkpoint', append_dict keys must be str, but got {key!r:.60}.")
        entries.append((key, _append_value(key, value)))
    seen: set[str] = set()
    for name, _ in entries:
        if name in seen:
            raise ValueError(f"For 'save_checkpoint', two entries are named {name!r}; checkpoint names must be unique.")
        seen.add(name)
    if not async_save:
        _write(path, entries, crc_check, format)
        return
    # Non-daemon: the interpreter joins it at exit, so a pending save is never cut off.
    thread = threading.Thread(target=_background_write, args=(path, entries, crc_check, format),
                              name=f"async_save_checkpoint:{os.path.basename(path)}")
    with _pending_lock:
        _pending.append(thread)
    thread.start()
