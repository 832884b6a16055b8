"""``mindspore.profiler.EnvProfiler``: profile a whole run from the ``MS_PROFILER_OPTIONS`` environment variable.

As in MindSpore 2.10, importing the package reads ``MS_PROFILER_OPTIONS`` (a JSON object of
:class:`~mindspore_hl.profiler.Profiler` options plus ``"start"``). With ``"start": true`` a profiler starts at
import and is stopped at the end of the program, its session analysed into ``output_path`` (default
``"./data"``), so a script is profiled without touching its code::

    MS_PROFILER_OPTIONS='{"start": true, "output_path": "./prof"}' python train.py

``schedule`` and ``on_trace_ready`` cannot be given this way; an invalid enum value falls back to its default
with a warning; JSON that does not parse (or ``{}``) is logged as an error and nothing is profiled.
"""
from __future__ import annotations

import atexit
import json
import logging
import os
from typing import Any

from ._enums import AicoreMetrics, ExportType, HostSystem, ProfilerActivity, ProfilerLevel
from ._profiler import _PROFILER_KWARGS, Profiler, tensorboard_trace_handler

__all__ = ["EnvProfiler"]

logger = logging.getLogger(__name__)

ENV = "MS_PROFILER_OPTIONS"
_DEFAULT_ACTIVITIES = [ProfilerActivity.CPU, ProfilerActivity.NPU]


def _enum(enum: Any, value: Any, default: Any) -> Any:
    try:
        return enum(value)
    except ValueError:
        logger.warning("%s: %r is not a valid %s; using %s.", ENV, value, enum.__name__, default)
        return default


def _enum_list(enum: Any, values: list, default: list) -> list:
    out = [_enum(enum, v, None) for v in values]
    # one invalid entry makes the whole list the default, as in MindSpore
    return list(default) if None in out else list(dict.fromkeys(out))


class EnvProfiler:
    """The profiler that ``MS_PROFILER_OPTIONS`` started (``EnvProfiler.profiler``; None when none was asked for).

    >>> EnvProfiler._options_to_params({"start": True, "activities": ["CPU", "CPU"], "profiler_level": "L9"})
    {'start': True, 'activities': [<ProfilerActivity.CPU: 'CPU'>], 'profiler_level': <ProfilerLevel.Level0: 'Level0'>}
    """

    NOT_SUPPORTED_PARAMS = ["schedule", "on_trace_ready"]
    profiler: Profiler | None = None

    @classmethod
    def init_profiler(cls) -> None:
        """Start a profiler as ``MS_PROFILER_OPTIONS`` asks (see the module docstring); done once at import."""
        if not os.getenv(ENV):
            return
        try:
            options = json.loads(os.environ[ENV])
        except json.JSONDecodeError as e:
            logger.error("Failed to load %s: it is not valid JSON (%s).", ENV, e)
            return
        if not isinstance(options, dict) or not options:
            logger.error("Failed to load %s: expected a non-empty JSON object, got %r.", ENV, options)
            return
        params = cls._options_to_params(options)
        if not params["start"]:
            return
        output_path = params.pop("output_path", "./data")
        del params["start"]
        cls.profiler = Profiler(output_path=output_path, on_trace_ready=tensorboard_trace_handler(output_path),
                                **params)
        if cls.profiler._running is None:   # MindSpore starts it even when the options say start_profile false
            cls.profiler.start()
        atexit.register(cls._stop_at_exit)
        logger.info("%s: profiler started, writing to %s.", ENV, output_path)

    @classmethod
    def _options_to_params(cls, options: dict[str, Any]) -> dict[str, Any]:
        """The Profiler keywords from the options: unknown keys dropped, enums converted."""
        params: dict[str, Any] = {"start": options.get("start", False)}
        for key, value in options.items():
            if key not in _PROFILER_KWARGS or key in cls.NOT_SUPPORTED_PARAMS:
                continue
            if key == "activities" and isinstance(value, list):
                value = _enum_list(ProfilerActivity, value, _DEFAULT_ACTIVITIES)
            elif key == "host_sys" and isinstance(value, list):
                value = _enum_list(HostSystem, value, [])
            elif key == "aic_metrics":
                value = _enum(AicoreMetrics, value, AicoreMetrics.AiCoreNone)
            elif key == "profiler_level":
                value = _enum(ProfilerLevel, value, ProfilerLevel.Level0)
            elif key == "export_type":
                if not isinstance(value, list) or any(v not in ("text", "db") for v in value):
                    logger.warning("%s: export_type %r is invalid; using ['text'].", ENV, value)
                    value = [ExportType.Text]
                else:
                    value = list(dict.fromkeys(ExportType(v) for v in value))
            params[key] = value
        return params

    @classmethod
    def _stop_at_exit(cls) -> None:
        cls().analyse()

    def analyse(self) -> None:
        """Stop the profiler started from the environment; its session is analysed into ``output_path``."""
        prof = type(self).profiler
        if prof is None:
            logger.info("EnvProfiler: no profiler was started from %s; nothing to analyse.", ENV)
            return
        if prof._running is not None:
            prof.stop()
        type(self).profiler = None


EnvProfiler.init_profiler()
