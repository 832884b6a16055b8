"""``SummaryRecord``: write summaries as TensorBoard event files named the way MindSpore names them.

Files (in ``log_dir``): ``{prefix}.out.tfevents.summary.{unix time}.{device id}.{hostname}{suffix}`` holds the
``Event`` records (TFRecord framing, written with tensorboardX's ``EventsWriter`` / ``RecordWriter``; the
first record is ``file_version`` 'brain.Event:2', so TensorBoard reads the files too), and the same name
ending in ``_lineage`` holds MindSpore ``LineageEvent`` records (created on the first lineage value).

Values given to ``add_value`` (and those of the summary ops in ``construct``) are buffered and written by
``record(step)``. The file is flushed by ``flush()``, by ``record`` when ``FLUSH_SECONDS`` have passed since
the last flush, and by ``close()``.
"""
from __future__ import annotations

import io
import logging
import math
import os
import socket
import struct
import threading
import time
from collections.abc import Callable
from typing import Any

import google_crc32c
import numpy as np
from tensorboardX import summary as tbx
from tensorboardX.event_file_writer import EventsWriter
from tensorboardX.proto.event_pb2 import Event
from tensorboardX.proto.graph_pb2 import GraphDef
from tensorboardX.proto.summary_pb2 import Summary
from tensorboardX.proto.tensor_pb2 import TensorProto
from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto
from tensorboardX.record_writer import RecordWriter

from ..common.tensor import Tensor
from . import _ops
from ._landscape_proto import LossLandscape, landscape_summary
from ._lineage import LineageEvent

__all__ = ["SummaryRecord", "FLUSH_SECONDS"]

_log = logging.getLogger(__name__)
FLUSH_SECONDS = 5.0
_HISTOGRAM_BINS = 30  # linear buckets between the minimum and the maximum
_PLUGINS = ("scalar", "image", "histogram", "tensor", "graph", "text", "landscape")
_LINEAGE_PLUGINS = ("train_lineage", "eval_lineage", "dataset_graph", "custom_lineage_data")
_TF_DTYPES = {"float16": 19, "float32": 1, "float64": 2, "int32": 3, "int64": 9, "uint8": 4, "bool": 10,
              "int8": 6, "int16": 5, "uint16": 17, "uint32": 22, "uint64": 23}


def _masked_crc(data: bytes) -> int:
    crc = google_crc32c.value(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


class _RecordWriter(RecordWriter):
    """tensorboardX's TFRecord writer with the CRC from google-crc32c (tensorboardX falls back to a pure-Python
    CRC unless the separate ``crc32c`` package is installed; that costs ~15 ms per image record)."""

    def write(self, data: bytes) -> None:
        header = struct.pack("<Q", len(data))
        self._writer.write(header + struct.pack("<I", _masked_crc(header)) + data +
                           struct.pack("<I", _masked_crc(data)))


class _MSEventsWriter(EventsWriter):
    """tensorboardX's EventsWriter with MindSpore's file name (the rest -- framing, version record -- as is)."""

    def __init__(self, path: str) -> None:
        self._file_name = path
        self._num_outstanding_events = 0
        self._py_recordio_writer = _RecordWriter(path)
        self._event = Event(wall_time=time.time(), file_version="brain.Event:2")
        self._lock = threading.Lock()
        self.write_event(self._event)


def _device_id() -> int:
    from .. import context
    return context.get_context("device_id") or 0


def _array(value: Any, what: str) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, (np.ndarray, np.generic, int, float, bool)) or hasattr(value, "__array__"):
        return np.asarray(value)
    raise TypeError(f"SummaryRecord.add_value: the value of {what} must be a Tensor or an array, but got "
                    f"{type(value).__name__}.")


def image_canvas(batch: Any) -> np.ndarray:
    """(N, C, H, W) -> one HWC uint8 RGB image with the N images in a grid (8 per row), as MindSpore tiles them."""
    batch = np.asarray(batch, np.float64)
    if batch.ndim != 4 or batch.shape[1] not in (1, 3, 4):
        raise ValueError(f"An image summary needs an (N, C, H, W) batch with C in 1, 3 or 4, but got shape "
                         f"{batch.shape}.")
    n, c, h, w = batch.shape
    lo, hi = np.nanmin(batch), np.nanmax(batch)
    if lo < 0 or hi > 255 or hi <= 1.0:  # not already 0..255 pixels: stretch to the full range
        batch = (batch - lo) / (hi - lo) * 255.0 if hi > lo else np.zeros_like(batch)
    batch = np.nan_to_num(batch).clip(0, 255).astype(np.uint8).transpose(0, 2, 3, 1)
    if c == 1:
        batch = np.repeat(batch, 3, axis=3)
    cols = min(n, 8)
    rows = math.ceil(n / cols)
    canvas = np.zeros((rows * h, cols * w, batch.shape[3]), np.uint8)
    for i in range(n):
        r, col = divmod(i, cols)
        canvas[r * h:(r + 1) * h, col * w:(col + 1) * w] = batch[i]
    return canvas


def image_summary(tag: str, canvas: np.ndarray) -> Summary:
    """A ``Summary`` with one PNG image (fast zlib level: the collector writes one per collected step)."""
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(canvas).save(buf, format="PNG", compress_level=1)
    h, w, c = canvas.shape
    return Summary(value=[Summary.Value(tag=tag, image=Summary.Image(height=h, width=w, colorspace=c,
                                                                     encoded_image_string=buf.getvalue()))])


def histogram_summary(tag: str, value: Any) -> Summary:
    """A ``Summary`` histogram of the finite values in ``_HISTOGRAM_BINS`` linear buckets (min to max)."""
    values = np.asarray(value, np.float64).ravel()
    values = values[np.isfinite(values)]
    if not values.size:
        return tbx.histogram_raw(tag, 0.0, 0.0, 0, 0.0, 0.0, [0.0], [0])
    counts, edges = np.histogram(values, bins=_HISTOGRAM_BINS)
    return tbx.histogram_raw(tag, float(values.min()), float(values.max()), int(values.size), float(values.sum()),
                             float(np.sum(values * values)), edges[1:].tolist(), counts.tolist())


def tensor_summary(tag: str, array: Any) -> Summary:
    """A ``Summary`` holding the whole array as a TensorProto (plugin 'tensor')."""
    array = np.ascontiguousarray(array)
    proto = TensorProto(dtype=_TF_DTYPES.get(str(array.dtype), 1),
                        tensor_shape=TensorShapeProto(dim=[TensorShapeProto.Dim(size=d) for d in array.shape]))
    if str(array.dtype) not in _TF_DTYPES:
        array = array.astype(np.float32)
    proto.tensor_content = array.tobytes()
    value = Summary.Value(tag=tag, tensor=proto)
    value.metadata.plugin_data.plugin_name = "tensor"
    return Summary(value=[value])


def text_summary(tag: str, text: str) -> Summary:
    """A text-plugin ``Summary`` with exactly ``tag`` (tensorboardX would append '/text_summary')."""
    s = tbx.text(tag, text)
    s.value[0].tag = tag
    return s


class SummaryRecord:
    """Write summary data (scalars, images, histograms, tensors, graphs, lineage) for one run.

    Args:
        log_dir (str): directory of the files (created if missing).
        file_prefix (str): file name prefix (default 'events').
        file_suffix (str): suffix of the event file (default '_MS').
        num_process (int): accepted for compatibility.
        network (Cell): accepted for compatibility.
        max_file_size (int): stop writing (with a warning) once the event file would exceed this many bytes.
        raise_exception (bool): raise on write errors instead of logging them.
        export_options (dict): accepted for compatibility; tensors are not exported to separate files.

    Example:
        >>> with SummaryRecord('./summary') as record:
        ...     record.add_value('scalar', 'loss', Tensor(0.5))
        ...     record.record(1)
        True
    """

    def __init__(self, log_dir: str | os.PathLike[str], file_prefix: str = "events", file_suffix: str = "_MS",
                 num_process: int = 32, network: Any = None, max_file_size: int | None = None,
                 raise_exception: bool = False, export_options: dict[str, Any] | None = None) -> None:
        for name, value in (("log_dir", log_dir), ("file_prefix", file_prefix), ("file_suffix", file_suffix)):
            if not isinstance(value, (str, os.PathLike)):
                raise TypeError(f"For 'SummaryRecord', '{name}' must be a str, but got {type(value).__name__}.")
        if max_file_size is not None and (not isinstance(max_file_size, int) or max_file_size <= 0):
            raise ValueError(f"For 'SummaryRecord', 'max_file_size' must be a positive int, but got {max_file_size!r}.")
        self.log_dir = os.path.abspath(os.fspath(log_dir))
        os.makedirs(self.log_dir, exist_ok=True)
        stamp = int(time.time())
        # MindSpore's name (``events.out.events.summary.<time>...``) with "tfevents" in it, the one word
        # TensorBoard's loader looks for, so TensorBoard opens these files too; MindInsight's pattern still matches.
        base = lambda ts: f"{file_prefix}.out.tfevents.summary.{ts}.{_device_id()}.{socket.gethostname()}"  # noqa: E731
        while os.path.exists(os.path.join(self.log_dir, base(stamp) + file_suffix)):
            stamp += 1  # two records in one second: never append to another run's file
        self.event_file_name = os.path.join(self.log_dir, base(stamp) + file_suffix)
        self.lineage_file_name = os.path.join(self.log_dir, base(stamp) + "_lineage")
        self._writer = _MSEventsWriter(self.event_file_name)
        self._lineage: _RecordWriter | None = None
        self._max_file_size, self._raise = max_file_size, bool(raise_exception)
        self._written, self._full = len(self._writer._event.SerializeToString()) + 16, False
        self._pending: list[tuple[str, str, Any]] = []  # (plugin, tag, value) waiting for record()
        self._mode = "train"
        self._last_flush = time.time()
        self._closed = False
        _ops.listen()
        _ops.clear_pending()

    def __enter__(self) -> SummaryRecord:
        return self

    def __exit__(self, *err: object) -> None:
        self.close()

    def set_mode(self, mode: str) -> None:
        """'train' or 'eval': summary-op values are taken into ``record`` only in 'train' mode."""
        """'train' records the values of summary ops in ``construct``; 'eval' does not."""
        if mode not in ("train", "eval"):
            raise ValueError(f"For 'SummaryRecord.set_mode', mode must be 'train' or 'eval', but got {mode!r}.")
        self._mode = mode

    def add_value(self, plugin: str, name: str, value: Any) -> None:
        """Buffer ``value`` under tag ``name`` for the next ``record``.

        Args:
            plugin (str): 'scalar', 'image' ((N, C, H, W) batch), 'histogram', 'tensor', 'graph' (a GraphDef),
                'text' (a str; an addition), 'landscape' (a LossLandscape), or a lineage plugin ('train_lineage',
                'eval_lineage', 'custom_lineage_data': a LineageEvent).
            name (str): the tag.
            value: a Tensor / array / number (or the object the plugin takes).
        """
        if not isinstance(name, str) or not name:
            raise ValueError(f"For 'add_value', the name must be a non-empty str, but got {name!r}.")
        if plugin in _LINEAGE_PLUGINS:
            self._write_lineage(value)
            return
        if plugin not in _PLUGINS:
            raise ValueError(f"For 'add_value', the plugin must be one of {list(_PLUGINS + _LINEAGE_PLUGINS)}, but "
                             f"got {plugin!r}.")
        if plugin == "graph":
            if not isinstance(value, GraphDef):
                raise TypeError(f"For 'add_value', a 'graph' value must be a GraphDef, but got {type(value).__name__}.")
        elif plugin == "landscape":
            if not isinstance(value, LossLandscape):
                raise TypeError(f"For 'add_value', a 'landscape' value must be a LossLandscape, but got "
                                f"{type(value).__name__}.")
        elif plugin == "text":
            if not isinstance(value, str):
                raise TypeError(f"For 'add_value', a 'text' value must be a str, but got {type(value).__name__}.")
        else:
            value = _array(value, f"'{name}'")
            if plugin == "scalar" and value.size != 1:
                raise ValueError(f"For 'add_value', the scalar '{name}' must have one element, but got shape "
                                 f"{value.shape}.")
            if plugin == "image":
                image_canvas(value)  # validate now, not at record time
        self._pending.append((plugin, name, value))

    def _summaries(self, plugin: str, tag: str, value: Any) -> Summary:
        if plugin == "scalar":
            return tbx.scalar(tag, float(np.asarray(value).reshape(())))
        if plugin == "image":
            return image_summary(tag, image_canvas(value))
        if plugin == "histogram":
            return histogram_summary(tag, value)
        if plugin == "tensor":
            return tensor_summary(tag, value)
        if plugin == "landscape":
            return landscape_summary(tag, value)
        return text_summary(tag, value)

    def record(self, step: int, train_network: Any = None,
               plugin_filter: Callable[[str], bool] | None = None) -> bool:
        """Write the buffered values (and, in 'train' mode, the summary ops' values) at ``step``.

        Args:
            step (int): the step number.
            train_network: accepted for compatibility.
            plugin_filter (callable): ``plugin_filter(plugin) -> bool`` chooses which plugins are written.
        Returns:
            bool: True.
        """
        if isinstance(step, bool) or not isinstance(step, (int, np.integer)):
            raise TypeError(f"For 'record', 'step' must be an int, but got {type(step).__name__}.")
        self._check_open()
        items, self._pending = self._pending, []
        if self._mode == "train":
            items += [(plugin, tag, value) for tag, (plugin, value) in _ops.take_pending().items()]
        summary = Summary()
        for plugin, tag, value in items:
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            if plugin == "graph":
                self._write(Event(wall_time=time.time(), step=int(step), graph_def=value.SerializeToString()))
                continue
            summary.value.extend(self._summaries(plugin, tag, value).value)
        if summary.value:
            self._write(Event(wall_time=time.time(), step=int(step), summary=summary))
        if time.time() - self._last_flush > FLUSH_SECONDS:
            self.flush()
        return True

    def write_summary(self, summary: Summary, step: int) -> None:
        """Write a ready-made ``Summary`` proto (e.g. tensorboardX's hparams) at ``step`` right away."""
        """Write a ready ``Summary`` proto (e.g. tensorboardX's hparams summaries) at ``step``."""
        self._check_open()
        self._write(Event(wall_time=time.time(), step=int(step), summary=summary))

    def _write(self, event: Event) -> None:
        data = event.SerializeToString()
        if self._max_file_size is not None and self._written + len(data) + 16 > self._max_file_size:
            if not self._full:
                _log.warning("SummaryRecord: %s reached max_file_size=%d bytes; further data is dropped.",
                             self.event_file_name, self._max_file_size)
            self._full = True
            return
        try:
            self._writer._write_serialized_event(data)
            self._written += len(data) + 16
        except OSError as e:
            if self._raise:
                raise
            _log.error("SummaryRecord: writing %s failed: %s", self.event_file_name, e)

    def _write_lineage(self, event: Any) -> None:
        if not isinstance(event, LineageEvent):
            raise TypeError(f"For 'add_value', lineage values must be LineageEvent records, but got "
                            f"{type(event).__name__}.")
        self._check_open()
        if self._lineage is None:
            self._lineage = _RecordWriter(self.lineage_file_name)
        self._lineage.write(event.SerializeToString())
        self._lineage.flush()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"SummaryRecord for {self.log_dir} is closed.")

    def flush(self) -> None:
        """Write the buffered event data to disk."""
        """Write everything buffered by the file system to disk (the dashboard sees it)."""
        if not self._closed:
            self._writer.flush()
            self._last_flush = time.time()

    def close(self) -> None:
        """Flush and close the files; later writes raise RuntimeError."""
        """Flush and close the files; later writes raise."""
        if not self._closed:
            self._writer.close()
            if self._lineage is not None:
                self._lineage.close()
            self._closed = True
