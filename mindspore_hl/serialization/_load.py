"""``load_checkpoint`` and ``load_param_into_net`` (MindSpore 2.10 signatures and semantics)."""
from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _ckpt_format, _safetensors
from ._save import ST_RESERVED_METADATA, check_format, wait_async_save

__all__ = ["load_checkpoint", "load_param_into_net", "ParameterMismatchError"]

if TYPE_CHECKING:
    from ..common.parameter import Parameter
    from ..nn.cell import Cell

_log = logging.getLogger(__name__)
_FLOATS = ("Float16", "Float32", "Float64", "BFloat16")
_INTS = ("Int8", "Int16", "Int32", "Int64")


class ParameterMismatchError(ValueError, RuntimeError):
    """A checkpoint value does not fit the net's Parameter (shape, or dtype under strict_load).

    A ValueError as mindspore_hl reports bad input, and a RuntimeError as MindSpore raises for this case.
    """


def _check_prefix(prefix: str | Sequence[str] | None, arg: str) -> tuple[str, ...] | None:
    if prefix is None:
        return None
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not isinstance(prefix, (list, tuple)) or not all(isinstance(p, str) for p in prefix):
        raise TypeError(f"For 'load_checkpoint', '{arg}' must be a str or a list/tuple of str, but got {prefix!r:.80}.")
    if not prefix:
        raise ValueError(f"For 'load_checkpoint', '{arg}' must not be an empty {type(prefix).__name__}.")
    return tuple(prefix)


def _selected(name: str, specify_prefix: tuple[str, ...] | None, filter_prefix: tuple[str, ...] | None,
              choice_func: Callable[[str], bool] | None) -> bool:
    """MindSpore's rule: the deprecated prefix arguments, when given, override choice_func."""
    if specify_prefix is None and filter_prefix is None:
        return choice_func is None or bool(choice_func(name))
    if specify_prefix and not name.startswith(specify_prefix):
        return False
    return not (filter_prefix and name.startswith(filter_prefix))


def _load_path(ckpt_file_name: str | os.PathLike[str], format: str) -> str:
    if not isinstance(ckpt_file_name, (str, os.PathLike)):
        raise TypeError(f"For 'load_checkpoint', 'ckpt_file_name' must be a str, but got "
                        f"{type(ckpt_file_name).__name__}.")
    path = os.fspath(ckpt_file_name)
    if not path.endswith("." + format):
        raise ValueError(f"For 'load_checkpoint', with format={format!r} the checkpoint file should end with "
                         f"'.{format}', but got {path!r}.")
    path = os.path.realpath(path)
    if not os.path.exists(path):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file {path} does not exist; check "
                         f"'ckpt_file_name'.")
    kind = _ckpt_format.file_kind(path)
    if kind is not None:  # checked before opening: reading a FIFO would block forever
        raise ValueError(f"For 'load_checkpoint', {path} is {kind}, not a checkpoint file; check "
                         f"'ckpt_file_name'.")
    return path


def _read_safetensors(path: str, crc_check: bool) -> list[tuple[str, Any]]:
    tensors, metadata, crc = _safetensors.read(path, with_crc=crc_check)
    if crc_check:
        if "crc_num" not in metadata:
            raise _safetensors.SafetensorsError(f"{path}: crc_check=True but the file has no crc_num metadata: it "
                                                f"was saved without crc_check, or altered. Load it with "
                                                f"crc_check=False only if it was saved without one.")
        if str(crc) != metadata["crc_num"]:
            raise _safetensors.SafetensorsError(f"{path}: crc check failed: the metadata says "
                                                f"{metadata['crc_num']} but the data's crc32 is {crc}.")
    strs: list[tuple[str, Any]] = []
    if metadata.get("format") == "ms":  # str entries saved by save_checkpoint live in the metadata
        strs = [(k, v) for k, v in metadata.items() if k not in ST_RESERVED_METADATA]
    return tensors + strs


def load_checkpoint(ckpt_file_name: str | os.PathLike[str], net: Cell | None = None, strict_load: bool = False,
                    filter_prefix: str | Sequence[str] | None = None, dec_key: bytes | None = None,
                    dec_mode: str = "AES-GCM", specify_prefix: str | Sequence[str] | None = None,
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = False,
                    remove_redundancy: bool = False, format: str = "ckpt") -> dict[str, Any]:
    """Load a ``.ckpt`` / ``.safetensors`` file into a dict name -> Parameter (str entries stay str).

    Args:
        ckpt_file_name: the file (must end with ``.ckpt`` or ``.safetensors``, matching ``format``).
        net: if given, the values are also loaded into it with :func:`load_param_into_net`.
        strict_load: passed to :func:`load_param_into_net`.
        filter_prefix: (deprecated in MindSpore) names starting with it are skipped.
        dec_key, dec_mode: decryption is not supported; a non-None ``dec_key`` raises NotImplementedError.
        specify_prefix: (deprecated in MindSpore) only names starting with it are loaded.
        choice_func: ``choice_func(name) -> bool`` selects entries; ignored when a prefix argument is given.
        crc_check: verify the crc32 trailer / metadata. A missing one is an error (MindSpore only warns): a
            ``.ckpt`` file cut at a record boundary would otherwise load as a silent prefix of the saved values.
        remove_redundancy: parallel-only option; a single-process checkpoint has no redundancy to restore.
        format: ``'ckpt'`` or ``'safetensors'``.

    Returns:
        dict in file order (safetensors: name order) of ``Parameter`` (``str`` for str entries).

    Example:
        >>> ms.save_checkpoint(nn.Dense(4, 2), 'dense.ckpt')
        >>> params = load_checkpoint('dense.ckpt')
        >>> params['weight']
        Parameter (name=weight, shape=(2, 4), dtype=Float32, requires_grad=True)
        >>> load_param_into_net(nn.Dense(4, 2), params)  # (net params not loaded, checkpoint entries not used)
        ([], [])

    Raises:
        ValueError: missing file, wrong suffix, corrupt file (CheckpointError / SafetensorsError name the file
            and the broken record), or nothing left after filtering.
    """
    from mindspore_hl.common.dtype import from_numpy
    from mindspore_hl.common.parameter import Parameter  # noqa: F811 - the runtime import of the hinted name
    from mindspore_hl.common.tensor import Tensor

    api = "load_checkpoint"
    check_format(format, api)
    for arg, value in (("strict_load", strict_load), ("crc_check", crc_check),
                       ("remove_redundancy", remove_redundancy)):
        if not isinstance(value, bool):
            raise TypeError(f"For '{api}', '{arg}' must be a bool, but got {type(value).__name__}.")
    if dec_key is not None:
        raise NotImplementedError(f"For '{api}', encrypted checkpoints ('dec_key', dec_mode={dec_mode!r}) are not "
                                  f"supported by mindspore_hl.")
    specify_prefix = _check_prefix(specify_prefix, "specify_prefix")
    filter_prefix = _check_prefix(filter_prefix, "filter_prefix")
    if choice_func is not None and not callable(choice_func):
        raise TypeError(f"For '{api}', 'choice_func' must be callable, but got {type(choice_func).__name__}.")
    wait_async_save(raise_errors=False)  # a file saved asynchronously a moment ago must exist and be complete
    path = _load_path(ckpt_file_name, format)
    if format == "ckpt":
        items = _ckpt_format.read(path, crc_check=crc_check)
    else:
        items = _read_safetensors(path, crc_check)

    parameter_dict: dict[str, Any] = {}
    for name, value in items:
        if not _selected(name, specify_prefix, filter_prefix, choice_func):
            continue
        if isinstance(value, (str, bytes)):
            parameter_dict[name] = value
        else:
            parameter_dict[name] = Parameter(Tensor(value, dtype=from_numpy(value.dtype)), name=name)
    if not parameter_dict:
        raise ValueError(f"For '{api}', no parameter was loaded from {path}: the file is empty or every entry was "
                         f"excluded by 'filter_prefix', 'specify_prefix' or 'choice_func'.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return parameter_dict


def _update_param(param: Parameter, new_param: Any, strict_load: bool) -> None:
    """Copy ``new_param`` into ``param``: reshape trailing 1-dims away, cast within float / int families."""
    from mindspore_hl.common.dtype import from_numpy
    from mindspore_hl.common.tensor import Tensor

    if not hasattr(new_param, "asnumpy"):
        raise ParameterMismatchError(f"For 'load_param_into_net', {param.name!r} in 'parameter_dict' is a "
                                     f"{type(new_param).__name__}, but the net's {param.name!r} is a Parameter of "
                                     f"shape {tuple(param.shape)}.")
    arr = np.asarray(new_param.asnumpy())
    shape = tuple(param.shape)
    if arr.shape != shape:
        n = len(shape)
        # MindSpore accepts e.g. (12, 2048, 1, 1) for a (12, 2048) parameter (GE 4-D layouts).
        if not (arr.ndim > n and arr.shape[:n] == shape and all(d == 1 for d in arr.shape[n:])):
            raise ParameterMismatchError(
                f"For 'load_param_into_net', {param.name!r} in the argument 'net' should have the same shape as "
                f"{param.name!r} in the argument 'parameter_dict', but got shape {shape} in 'net' and shape "
                f"{arr.shape} in 'parameter_dict'.")
        arr = arr.reshape(shape)
    want, got = str(param.dtype), str(from_numpy(arr.dtype))
    if want != got:
        if strict_load or not ({want, got} <= set(_FLOATS) or {want, got} <= set(_INTS)):
            raise ParameterMismatchError(
                f"For 'load_param_into_net', {param.name!r} in the argument 'net' should have the same dtype as "
                f"{param.name!r} in the argument 'parameter_dict', but got {want} in 'net' and {got} in "
                f"'parameter_dict'" + (" (strict_load=True forbids casting)." if strict_load else "."))
        _log.warning("load_param_into_net: %s is %s in the checkpoint and %s in the net; casting to %s.",
                     param.name, got, want, want)
        arr = arr.astype(param.dtype.to_numpy())
    param.set_data(Tensor(arr, dtype=param.dtype))


def _load_prefixed(net: Cell, parameter_dict: dict[str, Any], param_not_load: list[str], used: set[str],
                   strict_load: bool) -> None:
    """MindSpore's fallback for unloaded params: find a checkpoint name ending with one, take the prefix
    (e.g. ``'network.'``) and load every still-unloaded param whose prefixed name is in the checkpoint."""
    while param_not_load:
        prefix = None
        for net_name in param_not_load:
            for ckpt_name in parameter_dict:
                if ckpt_name != net_name and ckpt_name.endswith(net_name):
                    prefix = ckpt_name[:-len(net_name)]
                    break
            if prefix is not None:
                break
        if prefix is None:
            return
        _log.warning("load_param_into_net: the checkpoint names carry the prefix %r; loading them by suffix.", prefix)
        for _, param in net.parameters_and_names():
            ckpt_name = prefix + param.name
            if param.name in param_not_load and ckpt_name in parameter_dict:
                _update_param(param, parameter_dict[ckpt_name], strict_load)
                param_not_load.remove(param.name)
                used.add(ckpt_name)


def load_param_into_net(net: Cell, parameter_dict: dict[str, Any], strict_load: bool = False,
                        remove_redundancy: bool = False) -> tuple[list[str], list[str]]:
    """Copy checkpoint values into the net's Parameters, matched by ``Parameter.name``.

    Args:
        net: a Cell.
        parameter_dict: dict name -> Parameter (str / bytes entries such as ``'note'`` are never net params).
        strict_load: when False, float<->float and int<->int dtype differences are cast to the net's dtype, and
            net params missing from the checkpoint are looked up with a common name prefix
            (``network.fc.weight`` for ``fc.weight``). When True, neither happens.
        remove_redundancy: parallel-only option; nothing to do in a single process.

    Returns:
        ``(param_not_load, ckpt_not_load)``: net param names not found in the checkpoint, and checkpoint names
        no net param used.

    Raises:
        ParameterMismatchError (ValueError and RuntimeError): a shape mismatch, or a dtype mismatch that cannot be
            cast; it names the parameter and both shapes / dtypes.
    """
    api = "load_param_into_net"
    if not hasattr(net, "parameters_and_names"):
        raise TypeError(f"For '{api}', 'net' must be a Cell, but got {type(net).__name__}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For '{api}', 'parameter_dict' must be a dict, but got {type(parameter_dict).__name__}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not (hasattr(value, "asnumpy") or isinstance(value, (str, bytes))):
            raise TypeError(f"For '{api}', 'parameter_dict' must map str to Parameter, but the entry "
                            f"{key!r:.60} holds {type(value).__name__}.")
    for arg, value in (("strict_load", strict_load), ("remove_redundancy", remove_redundancy)):
        if not isinstance(value, bool):
            raise TypeError(f"For '{api}', '{arg}' must be a bool, but got {type(value).__name__}.")
    param_not_load: list[str] = []
    used: set[str] = set()
    for _, param in net.parameters_and_names():
        if param.name in parameter_dict:
            _update_param(param, parameter_dict[param.name], strict_load)
            used.add(param.name)
        else:
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        _load_prefixed(net, parameter_dict, param_not_load, used, strict_load)
    if param_not_load:
        _log.warning("%s: %d parameters of the net were not loaded: %s", api, len(param_not_load), param_not_load)
    ckpt_not_load = [name for name in parameter_dict if name not in used]
    return param_not_load, ckpt_not_load
