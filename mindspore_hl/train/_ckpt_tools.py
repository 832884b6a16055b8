"""Checkpoint utilities of ``mindspore.train`` on top of the one ``.ckpt`` / ``.safetensors`` implementation
(``mindspore_hl.serialization``): format conversion, background loading, segmented and sliced checkpoints,
and the MindIR ``load_mindir`` / ``save_mindir`` pair."""
from __future__ import annotations

import glob
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from ..common.parameter import Parameter
from ..common.tensor import Tensor
from ..serialization import _save, load_checkpoint, save_checkpoint
from ..serialization._atomic import atomic_open
from ..serialization._mindir_proto import ModelProto

__all__ = ["ckpt_to_safetensors", "safetensors_to_ckpt", "load_checkpoint_async", "async_ckpt_thread_status",
           "load_segmented_checkpoints", "merge_sliced_parameter", "load_mindir", "save_mindir"]


def _load_renamed(path: str, name_map: dict[str, str] | None, format: str) -> dict[str, Any]:
    params = load_checkpoint(path, format=format)
    if not name_map:
        return params
    return {name_map.get(name, name): value for name, value in params.items()}


def _save_values(params: dict[str, Any], dst: str, format: str) -> None:
    # save_checkpoint takes Tensors and str; the renamed Parameters keep their values under the new names.
    save_checkpoint({name: v for name, v in params.items()}, dst, format=format)


def _convert(file_path: str, save_path: str | None, name_map: dict[str, str] | None, file_name_regex: str | None,
             dst_format: str) -> None:
    src_format = "ckpt" if dst_format == "safetensors" else "safetensors"
    api = "ckpt_to_safetensors" if dst_format == "safetensors" else "safetensors_to_ckpt"
    src_suffix, dst_suffix = "." + src_format, "." + dst_format
    file_path = os.fspath(file_path)
    if not os.path.isdir(file_path) and not os.path.isfile(file_path):
        raise ValueError(f"For {api}, the input path must be a valid path or file, but got {file_path}")
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For {api}, the save_path must be a directory, but got '{save_path}'")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(f"For {api}, the type of 'name_map' must be a dict, but got '{type(name_map)}'")
    tasks: list[tuple[str, str]] = []  # (source file, destination file)
    if os.path.isdir(file_path):
        # MindSpore's layout: one sub-directory per rank, rank0, rank1, ...
        rank_dirs = sorted(d for d in os.listdir(file_path)
                           if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d)))
        if not rank_dirs:
            raise ValueError(f"For '{api}', no directories starting with 'rank' found in {file_path}.")
        for rank_dir in rank_dirs:
            src_dir = os.path.join(file_path, rank_dir)
            dst_dir = os.path.join(save_path, rank_dir) if save_path is not None else src_dir
            os.makedirs(dst_dir, exist_ok=True)
            for name in sorted(os.listdir(src_dir)):
                if name.endswith(src_suffix) and (file_name_regex is None or re.search(file_name_regex, name)):
                    tasks.append((os.path.join(src_dir, name), os.path.join(dst_dir, name.replace(src_suffix,
                                                                                                 dst_suffix))))
    else:
        if not file_path.endswith(src_suffix):
            raise ValueError(f"For {api}, the input file must be a {src_suffix} file, but got {file_path}")
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"For {api}, the input file does not match the regular expression.")
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        base = os.path.basename(file_path).replace(src_suffix, dst_suffix)
        tasks.append((file_path, os.path.join(save_path or os.path.dirname(file_path), base)))
    for src, dst in tasks:
        _save_values(_load_renamed(src, name_map, src_format), dst, dst_format)


def ckpt_to_safetensors(file_path: str, save_path: str | None = None, name_map: dict[str, str] | None = None,
                        file_name_regex: str | None = None, processes_num: int = 1) -> None:
    """Convert a ``.ckpt`` file (or every ``.ckpt`` in the ``rank*`` sub-directories of a directory) to
    ``.safetensors`` beside it or under ``save_path``; ``name_map`` renames parameters.

    >>> ms.save_checkpoint(nn.Dense(2, 1), "net.ckpt")
    >>> ckpt_to_safetensors("net.ckpt")
    >>> sorted(ms.load_checkpoint("net.safetensors", format="safetensors"))
    ['bias', 'weight']
    """
    _convert(file_path, save_path, name_map, file_name_regex, "safetensors")


def safetensors_to_ckpt(file_path: str, save_path: str | None = None, name_map: dict[str, str] | None = None,
                        file_name_regex: str | None = None, processes_num: int = 1) -> None:
    """Convert ``.safetensors`` files to ``.ckpt``: the reverse of :func:`ckpt_to_safetensors`."""
    _convert(file_path, save_path, name_map, file_name_regex, "ckpt")


class ParamDictFuture:
    """The pending result of :func:`load_checkpoint_async`; :meth:`result` waits for the parameter dict."""

    def __init__(self, executor: ThreadPoolExecutor, future: Future[dict[str, Any]]) -> None:
        self.executor, self.param_dict_future = executor, future

    def result(self) -> dict[str, Any]:
        """The loaded ``{name: Parameter}`` (re-raises the loading error, if any)."""
        try:
            return self.param_dict_future.result()
        finally:
            self.executor.shutdown()


def load_checkpoint_async(ckpt_file_name: str, net: Any = None, strict_load: bool = False,
                          filter_prefix: str | Sequence[str] | None = None, dec_key: bytes | None = None,
                          dec_mode: str = "AES-GCM", specify_prefix: str | Sequence[str] | None = None,
                          choice_func: Callable[[str], bool] | None = None) -> ParamDictFuture:
    """Start :func:`load_checkpoint` in a background thread; ``.result()`` of the returned future gives the dict.

    The format follows the file name (``.safetensors`` or ``.ckpt``).
    """
    format = "safetensors" if os.fspath(ckpt_file_name).endswith(".safetensors") else "ckpt"
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="load_checkpoint_async")
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode,
                             specify_prefix, choice_func, format=format)
    return ParamDictFuture(executor, future)


def async_ckpt_thread_status() -> bool:
    """True while a ``save_checkpoint(..., async_save=True)`` is still writing."""
    with _save._pending_lock:
        return any(t.is_alive() for t in _save._pending)


def load_segmented_checkpoints(ckpt_file_dir: str, net: Any = None, strict_load: bool = False,
                               filter_prefix: str | Sequence[str] | None = None, dec_key: bytes | None = None,
                               dec_mode: str = "AES-GCM", specify_prefix: str | Sequence[str] | None = None,
                               choice_func: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Load every ``*.ckpt`` in ``ckpt_file_dir`` (a checkpoint saved in segments) into one dict (and ``net``)."""
    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"The ckpt_file_dir: {ckpt_file_dir} doesn't exist. Or it's not a directory")
    files = sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt")))
    if not files:
        raise ValueError(f"For 'load_segmented_checkpoints', no .ckpt file in {ckpt_file_dir}.")
    parameter_dict: dict[str, Any] = {}
    for path in files:
        parameter_dict.update(load_checkpoint(path, net, strict_load, filter_prefix, dec_key, dec_mode,
                                              specify_prefix, choice_func))
    return parameter_dict


def merge_sliced_parameter(sliced_parameters: list[Parameter], strategy: dict[str, Any] | None = None) -> Parameter:
    """One Parameter from its slices, concatenated along axis 0 (slices of one name, same shape beyond axis 0).

    Merging by a parallel layout (``strategy``) needs strategy files, which this single-host build does not
    write: a non-empty ``strategy`` raises NotImplementedError.

    >>> a, b = Parameter(Tensor([[1.0]]), "w"), Parameter(Tensor([[2.0]]), "w")
    >>> merge_sliced_parameter([a, b]).asnumpy().tolist()
    [[1.0], [2.0]]
    """
    if not isinstance(sliced_parameters, list) or not sliced_parameters:
        raise TypeError(f"For 'merge_sliced_parameter', 'sliced_parameters' must be a non-empty list of Parameter, "
                        f"but got {sliced_parameters!r:.60}.")
    if strategy is not None and not isinstance(strategy, dict):
        raise TypeError(f"For 'merge_sliced_parameter', 'strategy' must be a dict or None, but got "
                        f"{type(strategy).__name__}.")
    first = sliced_parameters[0]
    for index, p in enumerate(sliced_parameters):
        if not isinstance(p, Parameter):
            raise TypeError(f"For 'merge_sliced_parameter', the element in 'sliced_parameters' should be "
                            f"'Parameter', but got {type(p)} at index {index}.")
        if p.name != first.name or p.ndim != first.ndim or tuple(p.shape[1:]) != tuple(first.shape[1:]):
            raise ValueError(f"For 'merge_sliced_parameter', please make sure that the elements in "
                             f"'slice_parameters' have the same name, dimension length and shape except 0 axis. The "
                             f"name, dimension length, shape except 0 axis should be {first.name}, {first.ndim}, "
                             f"{tuple(first.shape[1:])}, but got name: {p.name}, dimension length: {p.ndim}, shape "
                             f"except 0 axis: {tuple(p.shape[1:])} at index {index}.")
    if strategy:
        raise NotImplementedError("For 'merge_sliced_parameter', merging by a parallel 'strategy' is not supported "
                                  "(no strategy files on a single host); pass strategy=None to concatenate on axis 0.")
    merged = np.concatenate([p.asnumpy() for p in sliced_parameters])
    return Parameter(Tensor(merged, first.dtype), first.name, first.requires_grad)


def load_mindir(file_name: str) -> Any:
    """The MindIR ``ModelProto`` of a ``.mindir`` file (edit it and write it back with :func:`save_mindir`)."""
    if not isinstance(file_name, str):
        raise TypeError(f"For 'load_mindir', 'file_name' must be a str, but got {type(file_name).__name__}.")
    if not file_name.endswith(".mindir"):
        raise ValueError(f"For 'load_mindir', the file name must end with '.mindir', but got {file_name!r}.")
    if not os.path.isfile(file_name):
        raise ValueError(f"For 'load_mindir', the file {file_name} does not exist.")
    model = ModelProto()
    with open(file_name, "rb") as f:
        try:
            model.ParseFromString(f.read())
        except Exception as e:  # protobuf's DecodeError, or RuntimeError from its C++ parser
            raise ValueError(f"For 'load_mindir', {file_name} is not a MindIR file: {e}") from None
    return model


def save_mindir(model: Any, file_name: str) -> None:
    """Write a MindIR ``ModelProto`` (from :func:`load_mindir`) to ``file_name`` (``.mindir`` appended if missing)."""
    if not isinstance(model, ModelProto):
        raise TypeError(f"For 'save_mindir', 'model' must be a MindIR ModelProto (from load_mindir), but got "
                        f"{type(model).__name__}.")
    if not isinstance(file_name, str):
        raise TypeError(f"For 'save_mindir', 'file_name' must be a str, but got {type(file_name).__name__}.")
    if not file_name.endswith(".mindir"):
        file_name += ".mindir"
    directory = os.path.dirname(os.path.abspath(file_name))
    os.makedirs(directory, exist_ok=True)
    proto: Any = model  # (the ModelProto class is built at run time from the schema)
    with atomic_open(file_name) as f:  # a kill mid-write leaves the previous file, never half of one
        f.write(proto.SerializeToString())

