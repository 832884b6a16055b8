"""The enumerations of ``mindspore.profiler`` (names and values as in MindSpore 2.10).

Most of them select Ascend hardware counters; on XLA they are accepted and recorded in the profile's
metadata so that a MindSpore script runs unchanged, and :class:`ProfilerActivity` chooses what is traced.

>>> ProfilerLevel.Level0.value, ExportType.Text.value
('Level0', 'text')
"""
from enum import Enum

__all__ = ["ProfilerLevel", "ProfilerActivity", "ExportType", "AicoreMetrics", "HostSystem"]


class ProfilerLevel(Enum):
    """How much is collected: ``Level0`` op times, ``Level1`` adds host API spans, ``Level2`` adds runtime detail."""
    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


class ProfilerActivity(Enum):
    """Where events are collected: the accelerator (``NPU``/``GPU``: XLA's device events) and/or the host."""
    NPU = "NPU"
    GPU = "GPU"
    CPU = "CPU"


class ExportType(Enum):
    """Output formats: ``Text`` (JSON and CSV files) or ``Db`` (one SQLite file)."""
    Db = "db"
    Text = "text"


class AicoreMetrics(Enum):
    """Ascend AI Core counters (no XLA equivalent: recorded only)."""
    PipeUtilization = "PipeUtilization"
    ArithmeticUtilization = "ArithmeticUtilization"
    Memory = "Memory"
    MemoryL0 = "MemoryL0"
    MemoryUB = "MemoryUB"
    ResourceConflictRatio = "ResourceConflictRatio"
    L2Cache = "L2Cache"
    MemoryAccess = "MemoryAccess"
    AiCoreNone = "None"


class HostSystem(Enum):
    """Host system resources to sample (recorded only)."""
    CPU = "cpu"
    MEM = "mem"
    DISK = "disk"
    NETWORK = "network"
    OSRT = "osrt"
