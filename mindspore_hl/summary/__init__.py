"""Summaries (``mindspore.summary``): ``SummaryRecord`` files for the dashboard / TensorBoard, and the summary ops
used inside ``construct`` (``ScalarSummary``, ``ImageSummary``, ``HistogramSummary``, ``TensorSummary``).

The writers load on first use: tensorboardX imports PyTorch whenever it is installed, which would make
``import mindspore_hl`` take ~0.8 s longer and load PyTorch into every training process.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..ops import HistogramSummary, ImageSummary, ScalarSummary, TensorSummary

if TYPE_CHECKING:  # loaded lazily at run time (see above)
    from ._graph import cell_tree, jaxpr_to_graph_def
    from ._record import SummaryRecord

__all__ = ["SummaryRecord", "ScalarSummary", "ImageSummary", "HistogramSummary", "TensorSummary", "cell_tree",
           "jaxpr_to_graph_def"]

_LAZY = {"SummaryRecord": "._record", "cell_tree": "._graph", "jaxpr_to_graph_def": "._graph"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
