"""Summaries (``mindspore.summary``): ``SummaryRecord`` files for the dashboard / TensorBoard, and the summary ops
used inside ``construct`` (``ScalarSummary``, ``ImageSummary``, ``HistogramSummary``, ``TensorSummary``).

The writers load on first use: tensorboardX imports PyTorch whenever it is installed, which would make
``import mindspore_hl`` take ~0.8 s longer and load PyTorch into every training process.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names
from ..ops import HistogramSummary, ImageSummary, ScalarSummary, TensorSummary

if TYPE_CHECKING:  # loaded lazily at run time (see above)
    from ._graph import cell_tree, jaxpr_to_graph_def
    from ._record import SummaryRecord

__all__ = ["SummaryRecord", "ScalarSummary", "ImageSummary", "HistogramSummary", "TensorSummary", "cell_tree",
           "jaxpr_to_graph_def"]

__getattr__ = lazy_names(__name__, {"SummaryRecord": f"{__name__}._record", "cell_tree": f"{__name__}._graph",
                                    "jaxpr_to_graph_def": f"{__name__}._graph"})


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
