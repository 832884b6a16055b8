"""What ``SummaryCollector`` keeps for the loss landscape (``collect_landscape``), as MindSpore 2.10 keeps it.

At each step (``unit='step'``) or epoch (``unit='epoch'``) listed in ``intervals``, the parameters of the backbone
network go to ``{summary_dir}/ckpt_dir/{Backbone class}_{n}_{unit}.ckpt`` (a file that exists is kept); when
training ends, ``ckpt_dir/train_metadata.json`` records the interval groups, the checkpoint of each step/epoch,
the steps per epoch and the landscape settings (written once: an existing file is kept). ``SummaryLandscape``
reads both.
"""
from __future__ import annotations

import json
import logging
import os
import stat
from typing import Any

from ..serialization import save_checkpoint

__all__ = ["DEFAULT_LANDSCAPE", "check_collect_landscape", "LandscapeSaver", "check_intervals",
           "check_landscape_size", "check_unit", "check_create_landscape"]

_log = logging.getLogger(__name__)
DEFAULT_LANDSCAPE: dict[str, Any] = {"landscape_size": 40, "unit": "step", "num_samples": 2048,
                                     "create_landscape": {"train": True, "result": True},
                                     "intervals": [[1, 2, 3, 4, 5, 6, 7, 8, 9],
                                                   [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]]}


def _check_type(name: str, value: Any, kinds: type | tuple[type, ...]) -> None:
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
        expected = " or ".join(k.__name__ for k in kinds)
        raise TypeError(f"The parameter '{name}' must be {expected}, but got {type(value).__name__}.")


def check_landscape_size(owner: str, size: Any, where: str = "collect_specified_data") -> None:
    _check_type("landscape_size", size, int)
    if size < 3 or size > 256:
        raise ValueError(f'For "{owner}", the "landscape_size" in {where} should be between 3 and 256, but got '
                         f'the: {size}')


def check_unit(owner: str, unit: Any, where: str = "collect_specified_data") -> None:
    _check_type("unit", unit, str)
    if unit not in ("step", "epoch"):
        raise ValueError(f'For "{owner}", unit in {where} should be step or epoch, but got the: {unit}.')


def check_create_landscape(owner: str, create: Any, both: bool = False) -> None:
    _check_type("create_landscape", create, dict)
    for key, value in create.items():
        if key not in ("train", "result"):
            raise ValueError(f'For "{owner}", the key to create landscape should be in ["train", "result"], but '
                             f'got the: {key}.')
        if both and len(create) < 2:  # SummaryLandscape needs both keys
            raise ValueError(f'For "{owner}", the key of "create_landscape" should be train and result, but only '
                             f'got the: {key}')
        _check_type(key, value, bool)


def check_intervals(owner: str, intervals: Any) -> None:
    _check_type("intervals", intervals, list)
    for interval in intervals:
        _check_type("each interval in intervals", interval, list)
        if len(interval) < 3:
            raise ValueError(f'For "{owner}", the length of each list in "intervals" should not be less than three, '
                             f'but got the: {interval}')
        for j in interval:
            if not isinstance(j, int):
                raise TypeError(f'For "{owner}", the value of each list in "intervals" should be int, but got the: '
                                f'{type(j)}')


def check_collect_landscape(owner: str, landscape: Any) -> None:
    """Validate ``collect_specified_data['collect_landscape']`` (missing keys take MindSpore's defaults)."""
    _check_type("collect_landscape", landscape, (dict, type(None)))
    if not landscape:
        return
    unexpected = set(landscape) - set(DEFAULT_LANDSCAPE)
    if unexpected:
        raise ValueError(f'For "{owner}", the keys {unexpected} of `collect_landscape` are unsupported, expect the '
                         f'follow keys: {list(DEFAULT_LANDSCAPE)}')
    check_landscape_size(owner, landscape.get("landscape_size", 40))
    check_unit(owner, landscape.get("unit", "step"))
    _check_type("num_samples", landscape.get("num_samples", 2048), int)
    check_create_landscape(owner, landscape.get("create_landscape", {"train": True, "result": True}))
    check_intervals(owner, landscape.get("intervals"))


def backbone_of(train_network: Any) -> Any:
    """The user's network inside a train network: the first ``_backbone`` found, then down ``network`` cells."""
    backbone = None
    for _, cell in train_network.cells_and_names():
        if hasattr(cell, "_backbone"):
            backbone = cell._backbone
            break
    backbone = train_network if backbone is None else backbone
    while "network" in backbone.name_cells():
        has_optimizer = "optimizer" in backbone.name_cells()
        backbone = backbone.network
        if has_optimizer:
            break
    return backbone


def _write_read_only(path: str, write: Any) -> None:
    write(path)
    os.chmod(path, stat.S_IRUSR)


class LandscapeSaver:
    """Saves the interval checkpoints and ``train_metadata.json`` of one collector (see the module docstring)."""

    def __init__(self, summary_dir: str, landscape: dict[str, Any]) -> None:
        self.landscape = landscape
        self.unit: str = landscape.get("unit", "step")
        self.ckpt_dir = os.path.join(summary_dir, "ckpt_dir")
        os.makedirs(self.ckpt_dir, exist_ok=True)
        self.epoch_group = {i: list(interval) for i, interval in enumerate(landscape.get("intervals") or [])}
        self.model_params_file_map: dict[str, str] = {}

    def wanted(self, number: int) -> bool:
        return any(number in interval for interval in self.epoch_group.values())

    def save_params(self, cb_params: Any) -> None:
        """Save the backbone's parameters at the current step (epoch) when it is in an interval."""
        number = cb_params.cur_epoch_num if self.unit == "epoch" else cb_params.cur_step_num
        if cb_params.mode != "train" or not self.wanted(number):
            return
        backbone = backbone_of(cb_params.train_network)
        path = os.path.join(self.ckpt_dir, f"{type(backbone).__name__}_{number}_{self.unit}.ckpt")
        self.model_params_file_map[str(number)] = os.path.abspath(path)
        if os.path.isfile(path):
            return
        params = [{"name": p.name, "data": p} for p in backbone.get_parameters()]
        try:
            _write_read_only(path, lambda target: save_checkpoint(params, target))
        except OSError as e:
            _log.error("SummaryCollector: saving the landscape checkpoint %s failed: %s", path, e)

    def save_metadata(self, step_per_epoch: int) -> None:
        """Write ``train_metadata.json`` (kept when it exists, as MindSpore does)."""
        data = {"epoch_group": self.epoch_group, "model_params_file_map": self.model_params_file_map,
                "step_per_epoch": step_per_epoch, "unit": self.unit,
                "num_samples": self.landscape.get("num_samples", 2048),
                "landscape_size": self.landscape.get("landscape_size", 40),
                "create_landscape": self.landscape.get("create_landscape", {"train": True, "result": True})}
        path = os.path.join(self.ckpt_dir, "train_metadata.json")
        if os.path.isfile(path):
            return

        def write(target: str) -> None:
            with open(target, "w", encoding="utf-8") as f:
                json.dump(data, f)
        try:
            _write_read_only(path, write)
        except OSError as e:
            _log.error("SummaryCollector: writing %s failed: %s", path, e)
