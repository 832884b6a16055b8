"""Dump (``MINDSPORE_DUMP_CONFIG``): each compiled step's op inputs and outputs written as MindSpore does.

The engine asks :func:`key` for its compiled-step cache keys, runs the outermost step's trace inside
:func:`trace_step`, and calls :func:`sync` after each call; ``_config`` reads and checks the file.
``mindspore_hl.set_dump`` marks Cells and Primitives for ``dump_mode`` 2.
"""
from ._config import ENV, DumpConfig, DumpConfigError, parse
from ._runtime import current, dtype_name, key, sync, trace_step

__all__ = ["ENV", "DumpConfig", "DumpConfigError", "parse", "current", "key", "trace_step", "sync", "dtype_name"]
