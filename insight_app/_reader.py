"""Incremental reading of event files: one ``FileTail`` per file, one ``RunData`` per run directory."""

from __future__ import annotations

import json
import os
import re
import struct
import time
from typing import Any

import numpy as np
from tensorboardX.proto import event_pb2

from . import _msproto
from ._decode import decode_events, decode_lineage
from ._framing import (
    FOOTER_BYTES,
    HEADER_BYTES,
    MAX_RECORD_BYTES,
    masked_crc32c,
    scan_frames,
)
from ._series import Histogram, ImageRef, PRCurve, ScalarSeries, Text

READ_CHUNK = 64 << 20
MAX_PROBLEMS = 200
_MS_SUMMARY = re.compile(r"\.summary\.\d+")


def file_format(name: str) -> str | None:
    """Which reader a file name calls for: "tb", "ms", "lineage", or None for other files."""
    if name.endswith("_lineage"):  # first: a lineage file may carry "tfevents" in its name too
        return "lineage"
    if "tfevents" in name:
        return "tb"
    if name.endswith("_MS") or (_MS_SUMMARY.search(name) and not name.endswith((".tmp", ".lock"))):
        return "ms"
    return None


def sniff_format(buf: bytes, start: int, length: int, default: str = "ms") -> str:
    """"tb" or "ms" from a summary file's first record (its ``file_version``), whatever the file's name.

    mindspore_hl writes TensorBoard events (``brain.Event:2``) under MindSpore's ``*_MS`` names; real
    MindSpore writes its own events (``MindSpore.Event:1``).
    """
    event = event_pb2.Event()
    try:
        event.ParseFromString(bytes(buf[start:start + length]))
    except Exception:  # not an event at all (a damaged first record): keep the name's format
        return default
    if event.file_version.startswith("brain.Event:"):
        return "tb"
    if event.file_version.startswith("MindSpore.Event:"):
        return "ms"
    return default


class FileTail:
    """Reads the complete records of one file, remembering where it stopped.

    A record that is only partly written is left for the next :meth:`poll`; records with bad CRCs are
    skipped and reported to the run's problem list.
    """

    # Seconds an incomplete record may sit unchanged at the end of the file before it is listed as a problem.
    stall_s = 30.0

    def __init__(self, path: str, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        self.offset = 0
        self.pending = 0
        self.records = 0
        # (offset, size, since) of an incomplete tail that has not grown
        self._stall: tuple[int, int, float] | None = None
        self._stall_reported = False

    def poll(self, run: RunData) -> int:
        """Read what was appended since the last poll into ``run``.

        Returns:
            The number of new records; -1 when the file shrank (it was replaced or truncated).
        """
        try:
            size = os.stat(self.path).st_size
        except OSError:
            return 0
        if size < self.offset:
            return -1
        new = 0
        chunk = READ_CHUNK
        while size > self.offset:
            try:
                with open(self.path, "rb") as f:
                    f.seek(self.offset)
                    buf = f.read(min(size - self.offset, chunk))
            except OSError as exc:  # unreadable now (permissions, removed): report, try again next poll
                run.problem(self.path, self.offset, f"cannot read: {exc}")
                break
            scan = scan_frames(buf)
            for off, nbytes, why in scan.skipped:
                run.problem(self.path, self.offset + off, f"{why}; skipped {nbytes} bytes")
            if scan.starts.size and self.offset == 0 and self.fmt != "lineage":
                self.fmt = sniff_format(buf, int(scan.starts[0]), int(scan.lengths[0]), self.fmt)
            if scan.starts.size:
                try:
                    if self.fmt == "lineage":
                        decode_lineage(run, buf, scan.starts, scan.lengths, self.path, self.offset)
                    else:
                        a = np.frombuffer(buf, np.uint8)
                        decode_events(run, buf, a, scan.starts, scan.lengths, self.fmt, self.path, self.offset)
                except Exception as exc:  # noqa: BLE001 -- a decoder bug must not stop the other files
                    run.problem(self.path, self.offset, f"records skipped: {type(exc).__name__}: {exc}")
            new += int(scan.starts.size)
            self.offset += scan.consumed
            self.pending = scan.pending
            if scan.consumed == 0:
                if len(buf) < size - self.offset and chunk < MAX_RECORD_BYTES:
                    chunk *= 4  # one record larger than the read chunk
                    continue
                break
            chunk = READ_CHUNK
        self.records += new
        self._check_stall(run, size)
        return new

    def _check_stall(self, run: RunData, size: int) -> None:
        """List an incomplete record that stays unchanged at the end of the file (the writer died, or
        its header is damaged with nothing after it)."""
        if self.pending == 0 or self.offset + self.pending != size:
            self._stall, self._stall_reported = None, False
            return
        now = time.monotonic()
        if self._stall is None or self._stall[:2] != (self.offset, size):
            self._stall = (self.offset, size, now)
            self._stall_reported = False
        if not self._stall_reported and now - self._stall[2] >= self.stall_s:
            self._stall_reported = True
            declared = ""
            if self.pending >= 8:
                with open(self.path, "rb") as f:
                    f.seek(self.offset)
                    declared = f" declaring {struct.unpack('<Q', f.read(8))[0]} bytes"
            run.problem(self.path, self.offset, f"incomplete record{declared}: the last {self.pending} bytes "
                        f"have not changed for {self.stall_s:g} s; waiting for the writer")


def read_image_bytes(ref: ImageRef, limit: int) -> bytes:
    """Read back the encoded image an ``ImageRef`` points at, checking the record's CRC.

    Raises:
        ValueError: the record changed on disk, or the image is larger than ``limit`` bytes.
    """
    with open(ref.path, "rb") as f:
        f.seek(ref.offset - HEADER_BYTES)
        raw = f.read(ref.length + HEADER_BYTES + FOOTER_BYTES)
    data = raw[HEADER_BYTES:HEADER_BYTES + ref.length]
    if (len(raw) != ref.length + HEADER_BYTES + FOOTER_BYTES or struct.unpack("<Q", raw[:8])[0] != ref.length
            or masked_crc32c(data) != struct.unpack("<I", raw[-4:])[0]):
        raise ValueError(f"{ref.path}: the image record at offset {ref.offset} no longer matches")
    cls = event_pb2.Event if ref.fmt == "tb" else _msproto.Event
    img = cls.FromString(data).summary.value[ref.value_index].image
    png = img.encoded_image_string if ref.fmt == "tb" else img.encoded_image
    if len(png) > limit:
        raise ValueError(f"image is {len(png)} bytes, over the {limit}-byte limit")
    return png


MAX_TREE_DEPTH = 64


def _depth(obj, limit: int = MAX_TREE_DEPTH + 1) -> int:
    """Nesting depth of a JSON value, counted iteratively and stopping past ``limit``."""
    deepest, stack = 0, [(obj, 1)]
    while stack and deepest <= limit:
        o, d = stack.pop()
        deepest = max(deepest, d)
        if isinstance(o, dict):
            stack += [(v, d + 1) for v in o.values()]
        elif isinstance(o, list):
            stack += [(v, d + 1) for v in o]
    return deepest


class RunData:
    """Everything read from one run directory."""

    def __init__(self, run_id: str, name: str, path: str) -> None:
        self.id = run_id
        self.name = name
        self.path = path
        self.files: dict[str, FileTail] = {}
        self.epoch = -1  # bumped by every reset, so caches keyed by (run, epoch, tag, length) stay right
        self.reset()

    def reset(self) -> None:
        """Forget all data (used when a file shrank) so every file is read again."""
        self.epoch += 1
        self.scalars: dict[str, ScalarSeries] = {}
        self.pr_curves: dict[str, list] = {}
        # tensorboardX add_custom_scalars: list of (category, [(title, [regex])])
        self.custom_layout: list | None = None
        self.histograms: dict[str, list[Histogram]] = {}
        self.images: dict[str, list] = {}
        self.texts: dict[str, list] = {}
        self.plugin_of: dict[str, str] = {}
        self.other_tags: set[str] = set()
        self.hparams: dict = {}
        self.hparam_metrics: set[str] = set()
        self.lineage: dict = {}
        self.lineage_metrics: dict = {}
        self.graph: tuple[str, Any, int] | None = None  # (fmt, payload, step)
        self.cell_tree: dict | None = None
        self.version = ""
        self.first_wall = np.inf
        self.problems: list[tuple[str, int, str]] = []
        self.problem_count = 0
        for path, tail in list(self.files.items()):
            self.files[path] = FileTail(path, tail.fmt)

    # ---- sinks used by the decoders ----
    def saw_wall_time(self, wall: float) -> None:
        if 0 < wall < self.first_wall:
            self.first_wall = wall

    def add_scalars(self, tag: str, step: np.ndarray, wall: np.ndarray, value: np.ndarray) -> None:
        if len(wall):
            w = wall[wall > 0]
            if w.size:
                self.first_wall = min(self.first_wall, float(w.min()))
        self.scalars.setdefault(tag, ScalarSeries()).extend(step, wall, value)

    def add_histogram(self, tag: str, h: Histogram) -> None:
        self.histograms.setdefault(tag, []).append(h)

    def add_histogram_arrays(self, tag: str, step: int, wall: float, left: np.ndarray, right: np.ndarray,
                             counts: np.ndarray) -> None:
        total = float(np.sum(counts))
        vmin = float(left[0]) if len(left) else 0.0
        vmax = float(right[-1]) if len(right) else 0.0
        self.add_histogram(tag, Histogram(step, wall, left, right, counts, vmin, vmax, total))

    def add_image(self, tag: str, ref: ImageRef) -> None:
        self.images.setdefault(tag, []).append(ref)

    def add_pr_curve(self, tag: str, curve: PRCurve) -> None:
        self.pr_curves.setdefault(tag, []).append(curve)

    def add_text(self, tag: str, text: Text) -> None:
        self.texts.setdefault(tag, []).append(text)

    def set_graph(self, payload: Any, fmt: str, step: int) -> None:
        self.graph = (fmt, payload, step)

    def set_cell_tree(self, text: str, path: str) -> None:
        try:
            tree = json.loads(text)
            if not isinstance(tree, dict) or "name" not in tree:
                raise ValueError('expected a JSON object with "name", "type", "params", "children"')
            if _depth(tree) > MAX_TREE_DEPTH:
                raise ValueError(f"nested deeper than {MAX_TREE_DEPTH} levels")
            self.cell_tree = tree
        except (ValueError, RecursionError) as exc:
            self.problem(path, 0, f"network/cell_tree text is not a Cell tree: {exc}")

    def problem(self, path: str, offset: int, message: str) -> None:
        self.problem_count += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append((os.path.basename(path), offset, message))

    # ---- reading ----
    def poll(self) -> int:
        """Read new records from every file (in name order); returns how many arrived."""
        new = 0
        for path in sorted(self.files):
            got = self.files[path].poll(self)
            if got < 0:
                self.reset()
                self.problem(path, 0, "file shrank (replaced or truncated); the run was read again")
                return self.poll() + 1
            new += got
        return new
