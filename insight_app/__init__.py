"""insight_app: the mindspore_hl training dashboard (Dash + Plotly).

Reads TensorBoard event files (tensorboardX / TensorBoard) and MindSpore summary and lineage files found
under a log root, tails them while training runs, and serves scalars, custom scalars, histograms,
distributions, images, PR curves, the network (Cell tree and graph), a run comparison and text. A damaged
file becomes a listed problem; the rest is still shown. Start it with ``mindspore-hl-insight --logdir DIR``
(waitress on 127.0.0.1; the Host header must name an allowed host).
"""

from ._app import create_app
from ._framing import FrameScan, frame, masked_crc32c, scan_frames
from ._reader import FileTail, RunData, file_format
from ._smooth import decimate, ema_smooth, minmax_indices
from ._store import LogStore, PathOutsideLogdir

__all__ = [
    "FileTail",
    "FrameScan",
    "LogStore",
    "PathOutsideLogdir",
    "RunData",
    "create_app",
    "decimate",
    "ema_smooth",
    "file_format",
    "frame",
    "masked_crc32c",
    "minmax_indices",
    "scan_frames",
]
