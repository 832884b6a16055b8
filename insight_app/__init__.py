"""insight_app: the mindspore_hl training dashboard (Dash + Plotly).

Reads TensorBoard event files (tensorboardX / TensorBoard) and MindSpore summary and lineage files found
under a log root, tails them while training runs, and serves scalars, histograms, images, the network
(Cell tree and graph) and a run comparison. Start it with ``mindspore-hl-insight --logdir DIR``.
"""

from ._app import create_app
from ._framing import FrameScan, frame, masked_crc32c, scan_frames
from ._reader import FileTail, RunData, file_format
from ._smooth import decimate, ema_smooth, minmax_indices
from ._store import LogStore, PathOutsideLogdir

__all__ = [
    "create_app", "LogStore", "PathOutsideLogdir", "RunData", "FileTail", "file_format",
    "scan_frames", "FrameScan", "frame", "masked_crc32c", "ema_smooth", "minmax_indices", "decimate",
]
