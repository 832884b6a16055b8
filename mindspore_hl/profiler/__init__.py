"""``mindspore.profiler``: where a step's time goes, on ``jax.profiler`` (XLA traces).

>>> from mindspore_hl.profiler import ProfilerLevel, schedule
>>> schedule(wait=1, active=1)(1).name
'RECORD_AND_SAVE'
"""
from ._dynamic import DynamicProfilerMonitor
from ._enums import AicoreMetrics, ExportType, HostSystem, ProfilerActivity, ProfilerLevel
from ._env import EnvProfiler
from ._mstx import mstx
from ._profiler import Profiler, profile, tensorboard_trace_handler
from ._report import load_summary
from ._schedule import ProfilerAction, schedule

__all__ = ["Profiler", "profile", "schedule", "tensorboard_trace_handler", "ProfilerLevel", "ProfilerActivity",
           "ExportType", "AicoreMetrics", "HostSystem", "ProfilerAction", "load_summary",
           "DynamicProfilerMonitor", "EnvProfiler", "mstx"]
