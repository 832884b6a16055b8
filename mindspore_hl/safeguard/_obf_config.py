"""Validation of weight-obfuscation inputs (``target_modules`` / ``obf_config``), as MindSpore 2.10 checks them.

``target_modules = ['A/B/C', 'D|E', 'obfuscate_layers:N']`` is the older short form; it is turned into an
``obf_config`` dict with three lists: ``obf_metadata_config`` (the random factors to draw), ``weight_obf_config``
(which checkpoint entries to transform, with which ops) and ``network_obf_config`` (checked, then unused).
"""
from __future__ import annotations

import logging
import re
from typing import Any

from ..nn.cell import Cell
from ..nn.layer._container import CellList

SUPPORTED_METADATA_OPS = ("mul", "matmul", "invert")
SUPPORTED_CONFIG_TYPES = ("obf_metadata_config", "weight_obf_config", "network_obf_config")
SUPPORTED_METADATA_TYPES = ("random", "rearrange")
# MindSpore's default number of repeated layers for 'obfuscate_layers:all'.
ALL_LAYERS = 12

_log = logging.getLogger(__name__)
_PATH_PATTERN = r"([a-zA-Z]*[0-9]*\/*_*)*"
_TARGETS_PATTERN = r"([a-zA-Z]*[0-9]*\|*_*)*"


def check_valid_target(network: Cell, target_modules: Any) -> list[str]:
    """``target_modules`` is a list ``[path, 'a|b', ('obfuscate_layers:all' | 'obfuscate_layers:<int>')]`` whose
    path leads to a sub-Cell of ``network`` holding at least one of the targets. Returns ``target_modules``."""
    if not isinstance(target_modules, list):
        raise TypeError(f"target_modules type should be list, but got {type(target_modules)}.")
    if len(target_modules) < 2:
        raise ValueError(f"target_modules should contain at least two string values, in the form of "
                         f"['A/B/C', 'D1|D2'], but got {target_modules}.")
    path, targets = target_modules[0], target_modules[1]
    if not isinstance(path, str) or not isinstance(targets, str):
        raise TypeError(f"The values of target_modules should be string, but got {type(path)} and {type(targets)}.")
    if not targets:
        raise ValueError(f"{targets!r} should be a non-empty string value, in the form of 'D1|D2'.")
    if not re.fullmatch(_PATH_PATTERN, path) or not re.fullmatch(_TARGETS_PATTERN, targets):
        raise ValueError(f"please check the input 'target_modules' {target_modules}, it should be in the form of "
                         f"['A/B/C', 'D1|D2']. target_modules[0] can only contain uppercase and lowercase letters, "
                         f"numbers, '_' and '/', target_modules[1] can only contain uppercase and lowercase letters, "
                         f"numbers, '_' and '|'.")
    net = _walk_path(network, path)
    target_list = targets.split("|")
    for target in target_list:
        if not hasattr(net, target):
            _log.warning("%s does not exist in the path %r", target, path)
    if not any(hasattr(net, target) for target in target_list):
        raise ValueError(f"all targets {target_list} do not exist in the path {path!r}.")
    if len(target_modules) >= 3:
        layers = target_modules[2].split(":")
        if (len(layers) != 2 or layers[0] != "obfuscate_layers"
                or (layers[1] != "all" and not layers[1].isdigit())):
            raise ValueError(f"The third value of target_modules should be in the format of 'obfuscate_layers:all' "
                             f"or 'obfuscate_layers:int', but got {target_modules[2]!r}.")
    return target_modules


def _walk_path(network: Cell, path: str) -> Any:
    """Follow ``path`` ('a/b/c') from ``network``; a CellList on the way continues in each of its cells (the last
    one first), as MindSpore's depth-first walk does. Returns the Cell the path ends at."""
    names = path.split("/")
    net: Any = network
    stack = [net]
    i = 0
    while stack and i < len(names):
        net = stack.pop()
        if hasattr(net, names[i]):
            net = getattr(net, names[i])
            i += 1
            if isinstance(net, CellList):
                stack.extend(net)
            elif isinstance(net, Cell):
                stack.append(net)
            else:
                raise TypeError(f"Target_modules[0] should be a subgraph and its type should be nn.Cell "
                                f"(nn.CellList), but {names[i - 1]!r} in path {path!r} is of type {type(net)}.")
    if path != "" and i != len(names):
        raise ValueError(f"the path {path} does not exist.")
    return net


def transform_target_modules(target_modules: list[str]) -> dict[str, list[dict[str, Any]]]:
    """The ``obf_config`` MindSpore derives from a valid ``target_modules``.

    One random factor ``obf_metadata`` (shape [1], saved inverted) multiplies each target's ``weight`` and
    ``bias``, found at ``'<path>/<target>/weight'``. With a third element, the factor is drawn once per layer
    (all saved under the one name ``obf_metadata``, so the last draw is returned) and the targets are written
    ``'.../blocks/${layer}/...'`` with no ``layers`` list, so no checkpoint entry matches them: MindSpore 2.10
    writes such checkpoints unchanged.
    """
    path, target_list = target_modules[0], target_modules[1].split("|")
    metadata: dict[str, Any] = {"name": "obf_metadata", "shape": [1], "type": "random", "save_metadata": True,
                                "metadata_op": "invert"}
    factor = "obf_metadata"
    layers: list[int] = []
    if len(target_modules) >= 3:
        count = target_modules[2].split(":")[1]
        layers = list(range(ALL_LAYERS if count == "all" else int(count)))
        path = path.replace("blocks", "blocks/${layer}")
        factor = "obf_metadata_${layer}"
        metadata["layers"] = layers
    weight_ops = [{"name": "mul", "input_x": "weight", "input_y": factor}]
    weight_configs: list[dict[str, Any]] = []
    network_configs: list[dict[str, Any]] = []
    for name in target_list:
        entries: list[dict[str, Any]] = [{"target": "/".join([path, name, kind]), "weight_obf_ops": weight_ops}
                                         for kind in ("weight", "bias")]
        network: dict[str, Any] = {"module": "/" + path, "target": name, "insert_new_input": [{"name": "obf_metadata"}],
                                   "insert_ops": [{"name": "mul", "input_x": "weight", "input_y": factor}]}
        for entry in entries:
            if len(target_modules) >= 3:
                entry["name"] = "obf_metadata_${layer}"
        if not layers:
            for entry in (*entries, network):
                entry["layers"] = layers
        weight_configs.extend(entries)
        network_configs.append(network)
    return {"obf_metadata_config": [metadata], "weight_obf_config": weight_configs,
            "network_obf_config": network_configs}


def _check_ops(ops_info: Any, where: str) -> None:
    if not isinstance(ops_info, list):
        raise TypeError(f"obf_config[][]['{where}'] type should be list, but got {type(ops_info)}.")
    for op in ops_info:
        for key in ("name", "input_x", "input_y"):
            if not isinstance(op.get(key), str):
                raise TypeError(f"obf_config[][]['{where}'][]['{key}'] type should be str, but got "
                                f"{type(op.get(key))}.")
        for key in ("transpose_a", "transpose_b"):
            if not isinstance(op.get(key, False), bool):
                raise TypeError(f"obf_config[][]['{where}'][]['{key}'] type should be bool, but got "
                                f"{type(op.get(key))}.")


def _check_str(config: dict[str, Any], key: str) -> None:
    value = config.get(key)
    if not value or not isinstance(value, str):
        raise TypeError(f"obf_config[][]['{key}'] type should be a non-empty str, but got {value!r}.")


def _check_metadata(config: dict[str, Any]) -> None:
    _check_str(config, "name")
    shape = config.get("shape")
    if not shape or not isinstance(shape, list):
        raise TypeError(f"obf_config[][]['shape'] type should be a non-empty list, but got {shape!r}.")
    for item in shape:
        if not isinstance(item, int):
            raise TypeError(f"obf_config[][]['shape'][] type should be int, but got {type(item)}.")
    if not isinstance(config.get("save_metadata", True), bool):
        raise TypeError(f"obf_config[][]['save_metadata'] type should be bool, but got "
                        f"{type(config.get('save_metadata'))}.")
    kind = config.get("type")
    if kind is not None and (not isinstance(kind, str) or kind not in SUPPORTED_METADATA_TYPES):
        raise TypeError(f"obf_config[][]['type'] should be str and in {list(SUPPORTED_METADATA_TYPES)}, but got "
                        f"{kind!r}.")


def check_obf_config(obf_config: dict[str, Any], config_type: str) -> None:
    """Every key of ``obf_config`` is a known list name, and ``obf_config[config_type]`` is a list of valid dicts
    (TypeError naming the entry otherwise)."""
    for key in obf_config:
        if not isinstance(key, str) or key not in SUPPORTED_CONFIG_TYPES:
            raise TypeError(f"the keys of obf_config must be str in {list(SUPPORTED_CONFIG_TYPES)}, but got {key!r}.")
    configs = obf_config.get(config_type)
    if not isinstance(configs, list):
        raise TypeError(f"obf_config['{config_type}'] type should be list, but got {type(configs)}.")
    for config in configs:
        if not isinstance(config, dict):
            raise TypeError(f"obf_config['{config_type}'][] type should be dict, but got {type(config)}.")
        if config_type == "obf_metadata_config":
            _check_metadata(config)
        elif config_type == "weight_obf_config":
            _check_str(config, "target")
            _check_ops(config.get("weight_obf_ops", []), "weight_obf_ops")
        else:
            _check_str(config, "target")
            _check_str(config, "module")
            new_inputs = config.get("insert_new_input", [])
            if not isinstance(new_inputs, list):
                raise TypeError(f"obf_config[][]['insert_new_input'] type should be list, but got "
                                f"{type(new_inputs)}.")
            for new_input in new_inputs:
                if not isinstance(new_input.get("name"), str):
                    raise TypeError(f"obf_config[][]['insert_new_input'][]['name'] type should be str, but got "
                                    f"{type(new_input.get('name'))}.")
            _check_ops(config.get("insert_ops", []), "insert_ops")
        layers = config.get("layers")
        if layers is not None:
            if not isinstance(layers, list):
                raise TypeError(f"obf_config[][]['layers'] type should be list, but got {type(layers)}.")
            for layer in layers:
                if not isinstance(layer, int):
                    raise TypeError(f"obf_config[][]['layers'][] type should be int, but got {type(layer)}.")
