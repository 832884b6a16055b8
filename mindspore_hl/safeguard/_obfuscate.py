"""Weight obfuscation of checkpoint files: ``obfuscate_ckpt`` and ``load_obf_params_into_net`` (MindSpore 2.10).

``obfuscate_ckpt`` draws random factors with NumPy's global generator (``np.random``, as MindSpore does, so
``np.random.seed`` makes a run repeatable), transforms the selected checkpoint entries (multiply by a factor,
permute rows, or matrix-multiply by a permutation matrix) and writes ``<stem>_obf.ckpt`` files. It returns the
factors to keep (``obf_metadata``: by default the inverted ratio ``1 / r`` as float16).

``load_obf_params_into_net`` checks its arguments and returns the network unchanged: MindSpore 2.10 no longer
rewrites the network to undo the factors (its earlier rewrite-based implementation was removed), so a network
loaded with obfuscated weights computes with the scaled weights.
"""
from __future__ import annotations

import logging
import os
from pathlib import Path
from string import Template
from typing import Any

import numpy as np

from ..nn.cell import Cell
from ..serialization import load_checkpoint, save_checkpoint
from ._obf_config import SUPPORTED_METADATA_OPS, check_obf_config, check_valid_target, transform_target_modules

__all__ = ["obfuscate_ckpt", "load_obf_params_into_net"]

_log = logging.getLogger(__name__)
_DEPRECATED = ("'target_modules and obf_ratios' will be deprecated and removed in a future version, use "
               "'obf_config' instead.")


def _check_dir(name: str, dir_path: Any) -> None:
    if not isinstance(dir_path, str):
        raise TypeError(f"{name} must be string, but got {type(dir_path)}.")
    if not os.path.exists(dir_path):
        raise ValueError(f"{dir_path} is not exist, please check the input {name}.")
    if not Path(dir_path).is_dir():
        raise TypeError(f"{name} must be a directory path, but got {dir_path}.")


def _draw(shape: list[int], kind: str | None, scale: Any) -> np.ndarray | None:
    """One obfuscation tensor: 'random' -> integers in [1, scale) as float16; 'rearrange' -> a permutation
    (shape [n]) or an identity matrix with permuted columns (shape [n, m]), int32."""
    if kind == "rearrange":
        if len(shape) == 1:
            return np.random.permutation(shape[0]).astype(np.int32)
        if len(shape) == 2:
            identity = np.identity(shape[0]).astype(np.int32)
            return identity[:, np.random.permutation(shape[1]).astype(np.int32)]
    if kind == "random":
        return np.random.randint(1, scale, size=shape).astype(np.float16)
    return None


def _invert(value: np.ndarray | None) -> np.ndarray:
    """MindSpore's Inv: 1 / x in x's dtype; for integers truncated, with 1 / 0 -> the dtype's minimum."""
    if value is None:
        raise TypeError("For obf_metadata_config 'metadata_op': 'invert' needs a tensor, but the metadata of this "
                        "config is None (its 'type' is neither 'random' nor 'rearrange' of rank 1 or 2).")
    if value.dtype.kind in "iu":
        safe = np.where(value == 0, 1, value)
        return np.where(value == 0, np.iinfo(value.dtype).min, np.trunc(1.0 / safe)).astype(value.dtype)
    with np.errstate(divide="ignore"):  # 1 / 0 -> inf, as MindSpore's Inv
        return np.reciprocal(value)


def _apply_metadata_op(op_name: Any, value: np.ndarray | None) -> np.ndarray:
    if op_name not in SUPPORTED_METADATA_OPS:
        raise KeyError(f"'op name' must be in {list(SUPPORTED_METADATA_OPS)}, but got {op_name}.")
    if op_name == "invert":
        return _invert(value)
    # MindSpore calls the two-input Mul / MatMul primitive with the metadata alone.
    raise TypeError(f"obf_config 'metadata_op' {op_name!r} takes two inputs, but only the metadata is given; use "
                    f"'invert'.")


def _draw_metadata(configs: list[dict[str, Any]], scale: Any) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The factors by name (``${layer}`` substituted per layer), and the ones to return (after ``metadata_op``)."""
    factors: dict[str, Any] = {}
    saved: dict[str, np.ndarray] = {}
    for config in configs:
        # check_obf_config has made 'name' a non-empty str and 'shape' a non-empty list of ints.
        name: str = config["name"]
        shape: list[int] = config["shape"]
        layers = config.get("layers")
        if layers:
            names = [Template(name).safe_substitute({"layer": str(layer)}) for layer in layers]
        else:
            current = factors.get(name)
            # A name listed twice keeps its first draw (unless that is a single zero), as in MindSpore.
            names = [] if current is not None and bool(current) else [name]
        for obf_name in names:
            value = _draw(shape, config.get("type"), scale)
            factors[obf_name] = value
            if config.get("save_metadata", False):
                op_name = config.get("metadata_op")
                kept = value if op_name is None else _apply_metadata_op(op_name, value)
                if kept is not None:
                    saved[obf_name] = kept
    return factors, saved


def _op_input(op: dict[str, Any], key: str, layer: int) -> str | None:
    name = op.get(key)
    if name is None:
        _log.error("can not find input: %s for op: %s.", key, op.get("name"))
        return None
    return Template(name).safe_substitute({"layer": str(layer)})


def _obfuscate_value(value: np.ndarray, factors: dict[str, Any], obf_ops: list[dict[str, Any]],
                     layer: int) -> np.ndarray | None:
    """Apply ``obf_ops`` in order; None (after logging why) when an input is missing or an op is unknown."""
    dtype = value.dtype
    out = value
    for op in obf_ops:
        op_name = op.get("name")
        if not isinstance(op_name, str):
            raise TypeError(f"{op_name} should be str type, but got {type(op_name)}")
        if op_name == "mul":
            y_name = _op_input(op, "input_y", layer)
            factor = None if y_name is None else factors.get(y_name)
            if factor is None:
                _log.error("input_x or input_y is None")
                return None
            out = out * np.asarray(factor).astype(dtype)
        elif op_name == "permuate":  # MindSpore's spelling
            x_name = _op_input(op, "input_x", layer)
            index = None if x_name is None else factors.get(x_name)
            if index is None:
                _log.error("input_x or param is None")
                return None
            out = out[index]
        elif op_name == "matmul":
            x_name, y_name = _op_input(op, "input_x", layer), _op_input(op, "input_y", layer)
            if x_name is None or y_name is None:
                _log.error("the input_x or input_y of op: %s is None.", op_name)
                return None
            x = factors.get(x_name) if x_name.startswith("obf_metadata") else out
            y = factors.get(y_name) if y_name.startswith("obf_metadata") else out
            if x is None or y is None:
                _log.error("the input_x or input_y of op: %s is None.", op_name)
                return None
            x = np.transpose(x, (1, 0)) if op.get("transpose_a", False) else x
            y = np.transpose(y, (1, 0)) if op.get("transpose_b", False) else y
            out = np.matmul(np.asarray(x).astype(dtype), np.asarray(y).astype(dtype))
        else:
            _log.error("unsupported op, op must be matmul or permuate or mul, but got %s.", op_name)
            return None
    return out


def _host(name: str, value: Any, path: str) -> np.ndarray:
    if isinstance(value, (str, bytes)):
        raise TypeError(f"obfuscate_ckpt: entry {name!r} of {path} is a string, not a tensor; it cannot be a "
                        f"'weight_obf_config' target.")
    return np.asarray(value.asnumpy())


def _obfuscate_file(path: str, factors: dict[str, Any], obf_config: dict[str, Any], out_dir: str) -> bool:
    """Write ``<out_dir>/<stem>_obf.ckpt``; False (nothing written, the reason logged) when it cannot."""
    try:
        params = load_checkpoint(path)
    except (ValueError, TypeError, OSError):
        _log.error("Load checkpoint failed for file %s.", path)
        return False
    values: dict[str, Any] = dict(params)
    for name in values:
        param_path = "/".join(name.split("."))
        for config in obf_config.get("weight_obf_config", []):
            if not isinstance(config, dict):
                raise TypeError(f"{config} should be dict type, but got {type(config)}")
            target, layers, obf_ops = config.get("target"), config.get("layers", []), config.get("weight_obf_ops")
            if not target or not obf_ops:
                raise KeyError(f"target or obf_ops is None (weight_obf_config entry {config}).")
            matches = [0] if not layers and target == param_path else []
            matches += [layer for layer in layers
                        if Template(target).safe_substitute({"layer": str(layer)}) == param_path]
            for layer in matches:
                new = _obfuscate_value(_host(name, values[name], path), factors, obf_ops, layer)
                if new is None:
                    _log.error("obfuscate weight %s failed.", name)
                    return False
                values[name] = new
    stem = os.path.basename(path).split(".")[0]
    save_checkpoint([{"name": name, "data": value} for name, value in values.items()],
                    os.path.join(os.path.realpath(out_dir), stem + "_obf.ckpt"))
    return True


def _config(network: Cell, target_modules: Any, obf_config: Any, type_message: str) -> dict[str, Any]:
    """``obf_config``, or the one the deprecated ``target_modules`` describe, checked to be a non-empty dict
    (``type_message``: the two functions' own wordings of the type error in MindSpore)."""
    if obf_config is None:
        valid_targets = check_valid_target(network, target_modules)
        _log.warning(_DEPRECATED)
        obf_config = transform_target_modules(valid_targets)
    if not isinstance(obf_config, dict):
        raise TypeError(f"{type_message}, but got {type(obf_config)}.")
    if not obf_config:
        raise ValueError("'obf_config' is empty or not valid, please check the input.")
    return obf_config


def obfuscate_ckpt(network: Cell, ckpt_files: str, target_modules: list[str] | None = None,
                   obf_config: dict[str, Any] | None = None, saved_path: str = "./",
                   obfuscate_scale: float | int = 100) -> dict[str, np.ndarray]:
    """Obfuscate every ``.ckpt`` file in the directory ``ckpt_files`` (and in its direct sub-directories).

    Args:
        network: the original network; ``target_modules`` is checked against it.
        ckpt_files: directory of the plain checkpoints. Files directly in it are written to ``saved_path`` as
            ``<stem>_obf.ckpt`` (stem: the name up to its first '.'); a sub-directory's files go to
            ``saved_path/<sub-directory>`` (created with mode 0o700).
        target_modules: ``['A/B/C', 'D|E']`` (the path to a sub-Cell, and targets in it: their ``weight`` and
            ``bias`` are multiplied by one random ratio r), optionally with ``'obfuscate_layers:all'`` /
            ``'obfuscate_layers:<n>'``. Deprecated in MindSpore in favour of ``obf_config``.
        obf_config: ``{'obf_metadata_config': [...], 'weight_obf_config': [...], 'network_obf_config': [...]}``.
        saved_path: directory for the obfuscated files.
        obfuscate_scale: random ratios are integers in [1, obfuscate_scale).

    Returns:
        dict name -> NumPy array: the saved metadata, e.g. ``{'obf_metadata': 1 / r}`` (float16).

    Example:
        >>> import os
        >>> class Block(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = nn.Dense(3, 2)
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.body = Block()
        >>> os.makedirs('plain', exist_ok=True)
        >>> net = Net()
        >>> ms.save_checkpoint(net, 'plain/net.ckpt')
        >>> np.random.seed(5)
        >>> ratios = ms.obfuscate_ckpt(net, 'plain', target_modules=['body', 'fc'], saved_path='.')
        >>> ratios
        {'obf_metadata': array([0.01266], dtype=float16)}
        >>> obf = ms.load_checkpoint('net_obf.ckpt')
        >>> np.allclose(obf['body.fc.weight'].asnumpy(), net.body.fc.weight.asnumpy() * 79)
        True

    Raises:
        TypeError: ``network`` is not a Cell; ``ckpt_files`` / ``saved_path`` is not a str or not a directory;
            a malformed ``target_modules`` / ``obf_config``.
        ValueError: a directory does not exist; ``target_modules`` names no sub-Cell or target; an empty
            ``obf_config``; ``obfuscate_scale`` is not a number > 1.
    """
    if not isinstance(network, Cell):
        raise TypeError(f"network must be nn.Cell, but got {type(network)}.")
    _check_dir("ckpt_files", ckpt_files)
    _check_dir("saved_path", saved_path)
    obf_config = _config(network, target_modules, obf_config, "obf_config type should be dict")
    check_obf_config(obf_config, "obf_metadata_config")
    check_obf_config(obf_config, "weight_obf_config")
    # The ratios are drawn before obfuscate_scale is checked (as in MindSpore: NumPy may reject it first).
    factors, saved = _draw_metadata(obf_config.get("obf_metadata_config", []), obfuscate_scale)
    if not isinstance(obfuscate_scale, (float, int)) or obfuscate_scale <= 1:
        raise ValueError(f"obfuscate_scale must be float or int, and larger than 1, but got {obfuscate_scale}.")
    source = os.path.realpath(ckpt_files)
    for entry in os.listdir(ckpt_files):
        sub_path = os.path.join(source, entry)
        if Path(sub_path).is_dir():
            out_dir = os.path.join(os.path.realpath(saved_path), entry)
            os.makedirs(out_dir, mode=0o700, exist_ok=True)
            for name in os.listdir(sub_path):
                if name.endswith(".ckpt"):
                    _obfuscate_file(os.path.join(sub_path, name), factors, obf_config, out_dir)
        elif entry.endswith(".ckpt"):
            _obfuscate_file(sub_path, factors, obf_config, saved_path)
    return saved


def load_obf_params_into_net(network: Cell, target_modules: list[str] | None = None, obf_ratios: Any = None,
                             obf_config: dict[str, Any] | None = None, data_parallel_num: int = 1,
                             **kwargs: Any) -> Cell:
    """Check an obfuscation setup against ``network`` and return ``network`` itself, unchanged.

    MindSpore 2.10 validates ``target_modules`` / ``obf_config['network_obf_config']`` and ``data_parallel_num``
    here and does not modify the network: ``obf_ratios`` and ``kwargs`` (``ignored_func_decorators``,
    ``ignored_class_decorators``) are accepted and unused, and a network holding obfuscated weights computes
    with them as they are.

    Example:
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = nn.Dense(3, 2)
        >>> net = Net()
        >>> ms.load_obf_params_into_net(net, ['', 'fc']) is net
        True

    Raises:
        TypeError: ``network`` is not a Cell; a malformed ``target_modules`` / ``obf_config``.
        ValueError: ``target_modules`` names no sub-Cell or target; an empty ``obf_config``;
            ``data_parallel_num`` is not a positive int.
    """
    if not isinstance(network, Cell):
        raise TypeError(f"network must be nn.Cell, but got {type(network)}.")
    obf_config = _config(network, target_modules, obf_config, "obf_config should be dict type")
    check_obf_config(obf_config, "network_obf_config")
    if not isinstance(data_parallel_num, int) or data_parallel_num <= 0:
        raise ValueError(f"data_parallel_num must be positive number, but got {data_parallel_num}.")
    return network
