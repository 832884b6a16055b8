"""Incremental reading of event files: one ``FileTail`` per file, one ``RunData`` per run directory."""

from __future__ import annotations

import json
import os
import re
import struct

import numpy as np
from tensorboardX.proto import event_pb2

from . import _msproto
from ._decode import decode_events, decode_lineage
from ._framing import FOOTER_BYTES, HEADER_BYTES, MAX_RECORD_BYTES, masked_crc32c, scan_frames
from ._series import Histogram, ScalarSeries

READ_CHUNK = 64 << 20
MAX_PROBLEMS = 200
_MS_SUMMARY = re.compile(r"\.summary\.\d+")


def file_format(name: str) -> str | None:
    """Which reader a file name calls for: "tb", "ms", "lineage", or None for other files."""
    if "tfevents" in name:
        return "tb"
    if name.endswith("_lineage"):
        return "lineage"
    if name.endswith("_MS") or (_MS_SUMMARY.search(name) and not name.endswith((".tmp", ".lock"))):
        return "ms"
    return None


def sniff_format(buf: bytes, start: int, length: int) -> str:
    """"tb" or "ms" from a summary file's first record (its ``file_version``), whatever the file's name.

    mindspore_hl writes TensorBoard events (``brain.Event:2``) under MindSpore's ``*_MS`` names; real
    MindSpore writes its own events (``MindSpore.Event:1``).
    """
    event = event_pb2.Event()
    try:
        event.ParseFromString(bytes(buf[start:start + length]))
    except Exception:  # not an event at all (a damaged first record): keep the name's format
        return "ms"
    return "tb" if event.file_version.startswith("brain.Event:") else "ms"


class FileTail:
    """Reads the complete records of one file, remembering where it stopped.

    A record that is only partly written is left for the next :meth:`poll`; records with bad CRCs are
    skipped and reported to the run's problem list.
    """

    def __init__(self, path: str, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        self.offset = 0
        self.pending = 0
        self.records = 0

    def poll(self, run: "RunData") -> int:
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
            if scan.starts.size and self.offset == 0 and self.fmt == "ms":
                self.fmt = sniff_format(buf, int(scan.starts[0]), int(scan.lengths[0]))
            if scan.starts.size:
                if self.fmt == "lineage":
                    decode_lineage(run, buf, scan.starts, scan.lengths, self.path, self.offset)
                else:
                    a = np.frombuffer(buf, np.uint8)
                    decode_events(run, buf, a, scan.starts, scan.lengths, self.fmt, self.path, self.offset)
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
        return new


def read_image_bytes(ref, limit: int) -> bytes:
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


class RunData:
    """Everything read from one run directory."""

    def __init__(self, run_id: str, name: str, path: str) -> None:
        self.id = run_id
        self.name = name
        self.path = path
        self.files: dict[str, FileTail] = {}
        self.reset()

    def reset(self) -> None:
        """Forget all data (used when a file shrank) so every file is read again."""
        self.scalars: dict[str, ScalarSeries] = {}
        self.histograms: dict[str, list[Histogram]] = {}
        self.images: dict[str, list] = {}
        self.texts: dict[str, list] = {}
        self.plugin_of: dict[str, str] = {}
        self.other_tags: set[str] = set()
        self.hparams: dict = {}
        self.hparam_metrics: set[str] = set()
        self.lineage: dict = {}
        self.lineage_metrics: dict = {}
        self.graph = None           # (fmt, payload, step)
        self.cell_tree = None
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

    def add_scalars(self, tag: str, step, wall, value) -> None:
        if len(wall):
            w = wall[wall > 0]
            if w.size:
                self.first_wall = min(self.first_wall, float(w.min()))
        self.scalars.setdefault(tag, ScalarSeries()).extend(step, wall, value)

    def add_histogram(self, tag: str, h: Histogram) -> None:
        self.histograms.setdefault(tag, []).append(h)

    def add_histogram_arrays(self, tag, step, wall, left, right, counts) -> None:
        total = float(np.sum(counts))
        vmin = float(left[0]) if len(left) else 0.0
        vmax = float(right[-1]) if len(right) else 0.0
        self.add_histogram(tag, Histogram(step, wall, left, right, counts, vmin, vmax, total))

    def add_image(self, tag: str, ref) -> None:
        self.images.setdefault(tag, []).append(ref)

    def add_text(self, tag: str, text) -> None:
        self.texts.setdefault(tag, []).append(text)

    def set_graph(self, payload, fmt: str, step: int) -> None:
        self.graph = (fmt, payload, step)

    def set_cell_tree(self, text: str, path: str) -> None:
        try:
            tree = json.loads(text)
            if not isinstance(tree, dict) or "name" not in tree:
                raise ValueError('expected a JSON object with "name", "type", "params", "children"')
            self.cell_tree = tree
        except ValueError as exc:
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
