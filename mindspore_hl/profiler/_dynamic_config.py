"""The JSON file that steers :class:`~mindspore_hl.profiler.DynamicProfilerMonitor`: keys, defaults, checks.

As in MindSpore 2.10: a missing key takes its default; a value of the wrong type is logged and reset to the
default; ``start_step`` / ``stop_step`` of -1 mean "do not profile". The file written when none exists holds
every key with its default (``analyse`` is False there, as MindSpore writes it).

>>> cfg = DynamicConfig({"start_step": 2, "stop_step": "3", "activities": 1})
>>> cfg.start_step, cfg.stop_step, [a.value for a in cfg.profiler_kwargs()["activities"]]
(2, -1, ['CPU'])
"""
from __future__ import annotations

import logging
from typing import Any

from ._enums import AicoreMetrics, ExportType, HostSystem, ProfilerActivity, ProfilerLevel

__all__ = ["DynamicConfig", "DEFAULTS"]

logger = logging.getLogger(__name__)

#: Every key of the config file with its default, in the order MindSpore writes them.
DEFAULTS: dict[str, Any] = {
    "start_step": -1, "stop_step": -1, "aic_metrics": "AiCoreNone", "profiler_level": "Level0",
    "analyse_mode": -1, "activities": ["CPU", "NPU"], "export_type": ["text"], "profile_memory": False,
    "mstx": False, "parallel_strategy": False, "with_stack": False, "data_simplification": True,
    "l2_cache": False, "analyse": False, "record_shapes": False, "prof_path": "./", "mstx_domain_include": [],
    "mstx_domain_exclude": [], "host_sys": [], "sys_io": False, "sys_interconnection": False,
}

# Keys whose value must have one type (a bool is not an int here, as in MindSpore).
_TYPED = {"start_step": int, "stop_step": int, "analyse_mode": int, "profile_memory": bool, "mstx": bool,
          "l2_cache": bool, "analyse": bool, "parallel_strategy": bool, "with_stack": bool,
          "data_simplification": bool, "record_shapes": bool, "mstx_domain_include": list,
          "mstx_domain_exclude": list, "host_sys": list, "sys_io": bool, "sys_interconnection": bool}
# Keys that take a str (or a legacy int code), and those that take a list (or a legacy int code).
_STR_OR_INT = ("aic_metrics", "profiler_level")
_LIST_OR_INT = ("activities", "export_type")

_INT_LEVELS = {-1: ProfilerLevel.LevelNone, 0: ProfilerLevel.Level0, 1: ProfilerLevel.Level1,
               2: ProfilerLevel.Level2}
_INT_ACTIVITIES = {0: [ProfilerActivity.CPU, ProfilerActivity.NPU], 1: [ProfilerActivity.CPU],
                   2: [ProfilerActivity.NPU]}
_INT_AIC = dict(enumerate([AicoreMetrics.PipeUtilization, AicoreMetrics.ArithmeticUtilization,
                           AicoreMetrics.Memory, AicoreMetrics.MemoryL0, AicoreMetrics.MemoryUB,
                           AicoreMetrics.ResourceConflictRatio, AicoreMetrics.L2Cache,
                           AicoreMetrics.MemoryAccess]))
_INT_EXPORT = {1: [ExportType.Db], 2: [ExportType.Text, ExportType.Db]}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _has_type(v: Any, kind: type) -> bool:
    return _is_int(v) if kind is int else isinstance(v, kind)


def _enum_list(values: list, enum: Any, default: Any, key: str) -> Any:
    out = []
    for v in values:
        try:
            out.append(enum(v))
        except ValueError:
            logger.warning("Dynamic profiler config: %r is not a valid %s entry; using %s.", v, key, default)
            return default
    return out


class DynamicConfig:
    """One reading of the config file: the values after MindSpore's type checks (see the module docstring)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.values = {k: data.get(k, d) for k, d in DEFAULTS.items()}
        for key, kind in _TYPED.items():
            if not _has_type(self.values[key], kind):
                logger.warning("Dynamic profiler config: '%s' should be %s, but got %s; using the default %r.",
                               key, kind.__name__, type(self.values[key]).__name__, DEFAULTS[key])
                self.values[key] = DEFAULTS[key]
        for key in _STR_OR_INT:
            if not (isinstance(self.values[key], str) or _is_int(self.values[key])):
                logger.warning("Dynamic profiler config: '%s' should be a str or an int, but got %s; using %r.",
                               key, type(self.values[key]).__name__, DEFAULTS[key])
                self.values[key] = DEFAULTS[key]
        for key in _LIST_OR_INT:
            if not (isinstance(self.values[key], list) or _is_int(self.values[key])):
                logger.warning("Dynamic profiler config: '%s' should be a list or an int, but got %s; using %r.",
                               key, type(self.values[key]).__name__, DEFAULTS[key])
                self.values[key] = DEFAULTS[key]
        if not isinstance(self.values["prof_path"], str):
            logger.warning("Dynamic profiler config: 'prof_path' should be str, but got %s.",
                           type(self.values["prof_path"]).__name__)
            self.values["prof_path"] = "./"
        self.is_valid = bool(data.get("is_valid", False))

    @property
    def start_step(self) -> int:
        return self.values["start_step"]

    @property
    def stop_step(self) -> int:
        return self.values["stop_step"]

    @property
    def prof_path(self) -> str:
        return self.values["prof_path"]

    @property
    def analyse(self) -> bool:
        return self.values["analyse"]

    @property
    def analyse_mode(self) -> str | None:
        """``"sync"`` (0), ``"async"`` (1) or None (-1, or anything else, with a warning)."""
        mode = self.values["analyse_mode"]
        if mode not in (-1, 0, 1):
            logger.warning("Dynamic profiler config: 'analyse_mode' must be -1, 0 or 1, but got %r.", mode)
        return {0: "sync", 1: "async"}.get(mode)

    def to_dict(self) -> dict[str, Any]:
        """The checked values (as MindSpore's config context gives them, ``is_valid`` included)."""
        return dict(self.values, is_valid=self.is_valid)

    def profiler_kwargs(self) -> dict[str, Any]:
        """The options as :class:`~mindspore_hl.profiler.Profiler` keywords (enums, legacy int codes mapped)."""
        v = self.values
        level = v["profiler_level"]
        if _is_int(level):
            level = _INT_LEVELS.get(level, ProfilerLevel.Level0)
        else:
            try:
                level = ProfilerLevel(level)
            except ValueError:
                logger.warning("Dynamic profiler config: %r is not a valid profiler_level; using Level0.", level)
                level = ProfilerLevel.Level0
        acts = v["activities"]
        acts = _INT_ACTIVITIES.get(acts, _INT_ACTIVITIES[0]) if _is_int(acts) else \
            _enum_list(acts, ProfilerActivity, _INT_ACTIVITIES[0], "activities")
        aic = v["aic_metrics"]
        if _is_int(aic):
            aic = _INT_AIC.get(aic, AicoreMetrics.AiCoreNone)
        elif aic == "AiCoreNone":
            aic = AicoreMetrics.AiCoreNone
        else:
            try:
                aic = AicoreMetrics(aic)
            except ValueError:
                logger.warning("Dynamic profiler config: %r is not a valid aic_metrics; using AiCoreNone.", aic)
                aic = AicoreMetrics.AiCoreNone
        export = v["export_type"]
        export = _INT_EXPORT.get(export, [ExportType.Text]) if _is_int(export) else \
            _enum_list(export, ExportType, [ExportType.Text], "export_type")
        host = _enum_list(v["host_sys"], HostSystem, None, "host_sys") if v["host_sys"] else None
        return {"activities": acts, "with_stack": v["with_stack"], "profile_memory": v["profile_memory"],
                "parallel_strategy": v["parallel_strategy"], "record_shapes": v["record_shapes"],
                "profiler_level": level, "aic_metrics": aic, "l2_cache": v["l2_cache"], "mstx": v["mstx"],
                "data_simplification": v["data_simplification"], "export_type": export,
                "mstx_domain_include": v["mstx_domain_include"], "mstx_domain_exclude": v["mstx_domain_exclude"],
                "sys_io": v["sys_io"], "sys_interconnection": v["sys_interconnection"], "host_sys": host}
