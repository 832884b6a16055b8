"""Summaries (``mindspore.summary``): ``SummaryRecord`` files for the dashboard / TensorBoard, and the summary ops
used inside ``construct`` (``ScalarSummary``, ``ImageSummary``, ``HistogramSummary``, ``TensorSummary``)."""
from ._graph import cell_tree, jaxpr_to_graph_def
from ..ops import HistogramSummary, ImageSummary, ScalarSummary, TensorSummary
from ._record import SummaryRecord

__all__ = ["SummaryRecord", "ScalarSummary", "ImageSummary", "HistogramSummary", "TensorSummary", "cell_tree",
           "jaxpr_to_graph_def"]
