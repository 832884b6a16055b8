"""TFRecord framing: find, CRC-check and resynchronise records in a byte buffer, in bulk.

A record is ``uint64 length | uint32 masked_crc32c(length) | data | uint32 masked_crc32c(data)``.
TensorBoard event files and MindSpore summary / lineage files all use this framing.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import google_crc32c
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

HEADER_BYTES = 12
FOOTER_BYTES = 4
# A length above this is taken as a corrupt header, never as a record still being written (the largest
# records are graphs and images: a few MB; TensorFlow caps a GraphDef at 2 GiB but nothing writes that).
MAX_RECORD_BYTES = 1 << 28
_MASK_DELTA = 0xA282EAD8
_U32 = 0xFFFFFFFF
_VERIFY_CHUNK = 4096
_RESYNC_WINDOW = 1 << 16
_unpack_u64 = struct.Struct("<Q").unpack_from
_unpack_u32 = struct.Struct("<I").unpack_from


def crc32c(data: bytes | np.ndarray) -> int:
    """CRC-32C (Castagnoli) of ``data`` (bytes or a contiguous uint8 array)."""
    return google_crc32c.value(data)


def masked_crc32c(data: bytes | np.ndarray) -> int:
    """TFRecord's masked CRC-32C of ``data``."""
    c = google_crc32c.value(data)
    return (((c >> 15) | (c << 17)) + _MASK_DELTA) & _U32


def frame(payload: bytes) -> bytes:
    """Wrap ``payload`` in one TFRecord frame (what tensorboardX's RecordWriter writes)."""
    header = struct.pack("<Q", len(payload))
    return (header + struct.pack("<I", masked_crc32c(header)) + payload
            + struct.pack("<I", masked_crc32c(payload)))


@dataclass
class FrameScan:
    """Result of :func:`scan_frames`.

    Attributes:
        starts: int64 offsets (into the buffer) of each good record's data.
        lengths: int64 data length of each good record.
        consumed: bytes of the buffer that are fully handled; the next read resumes here.
        skipped: ``(offset, nbytes, reason)`` for each record or byte range skipped as corrupt.
        pending: bytes after ``consumed`` that look like a record still being written.
    """

    starts: np.ndarray
    lengths: np.ndarray
    consumed: int
    skipped: list = field(default_factory=list)
    pending: int = 0


def _unmask(m: np.ndarray) -> np.ndarray:
    r = (m.astype(np.uint64) - _MASK_DELTA) & _U32
    return (((r >> 17) | (r << 15)) & _U32).astype(np.uint32)


def read_fixed(a: np.ndarray, pos: np.ndarray, dtype: str) -> np.ndarray:
    """Little-endian fixed-width values of ``dtype`` at arbitrary byte offsets ``pos`` of uint8 ``a``."""
    width = np.dtype(dtype).itemsize
    if pos.size == 0:
        return np.zeros(0, dtype)
    rows = sliding_window_view(a, width)[pos]
    return rows.view(dtype).reshape(-1)


def _walk(buf: bytes, pos: int):
    """Follow length headers from ``pos``; returns (run starts, run strides, run counts, stop)."""
    size = len(buf)
    r_pos, r_stride, r_count = [], [], []
    while pos + HEADER_BYTES <= size:
        n = _unpack_u64(buf, pos)[0]
        stride = n + HEADER_BYTES + FOOTER_BYTES
        if n > MAX_RECORD_BYTES or pos + stride > size:
            break
        m = 1
        nxt = pos + stride
        # Runs of equal-length records (a scalar log) are found with strided numpy views,
        # so the Python loop runs once per run rather than once per record.
        if nxt + stride <= size and _unpack_u64(buf, nxt)[0] == n:
            kmax = (size - pos) // stride
            chunk = 16
            m = 2
            while m < kmax:
                k = min(chunk, kmax - m)
                v = np.ndarray((k,), "<u8", buffer=buf, offset=pos + m * stride, strides=(stride,))
                bad = np.flatnonzero(v != n)
                if bad.size:
                    m += int(bad[0])
                    break
                m += k
                chunk *= 8
        r_pos.append(pos)
        r_stride.append(stride)
        r_count.append(m)
        pos += stride * m
    return r_pos, r_stride, r_count, pos


def _expand_runs(r_pos, r_stride, r_count):
    counts = np.asarray(r_count, np.int64)
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    first = np.repeat(np.cumsum(counts) - counts, counts)
    strides = np.repeat(np.asarray(r_stride, np.int64), counts)
    offs = np.repeat(np.asarray(r_pos, np.int64), counts) + (np.arange(total, dtype=np.int64) - first) * strides
    return offs, strides - (HEADER_BYTES + FOOTER_BYTES)


_ZERO_CRC: dict[int, int] = {}


def _zero_crc(n: int) -> int:
    c = _ZERO_CRC.get(n)
    if c is None:
        c = google_crc32c.value(bytes(n))
        if len(_ZERO_CRC) < 4096:
            _ZERO_CRC[n] = c
    return c


def _scatter_u32(dst: np.ndarray, pos: np.ndarray, vals) -> None:
    b = np.broadcast_to(np.asarray(vals, np.uint32), pos.shape).astype("<u4").view(np.uint8).reshape(-1, 4)
    for j in range(4):
        dst[pos + j] = b[:, j]


def _aggregate_ok(a: np.ndarray, offs: np.ndarray, lens: np.ndarray) -> bool:
    """True if every header and data CRC of these back-to-back records is (very likely) right.

    CRC-32C has a fixed residue: running the CRC over ``x || crc(x)`` always ends in the same
    register state, so the CRC of a whole run of such segments depends only on their lengths.
    One hardware CRC pass over the records (CRCs unmasked in place) is compared with one pass
    over all-zero records of the same lengths; any bad CRC changes the first but not the second.
    """
    lo = int(offs[0])
    hi = int(offs[-1] + lens[-1]) + HEADER_BYTES + FOOTER_BYTES
    rel = offs - lo
    hpos, dpos = rel + 8, rel + HEADER_BYTES + lens
    u = a[lo:hi].copy()
    _scatter_u32(u, hpos, _unmask(read_fixed(a, offs + 8, "<u4")))
    _scatter_u32(u, dpos, _unmask(read_fixed(a, offs + HEADER_BYTES + lens, "<u4")))
    z = np.zeros(hi - lo, np.uint8)
    _scatter_u32(z, hpos, _zero_crc(8))
    uniq, inv = np.unique(lens, return_inverse=True)
    _scatter_u32(z, dpos, np.array([_zero_crc(int(n)) for n in uniq], np.uint32)[inv])
    return google_crc32c.value(u) == google_crc32c.value(z)


def _header_ok(buf: bytes, pos: int) -> bool:
    return masked_crc32c(buf[pos:pos + 8]) == _unpack_u32(buf, pos + 8)[0]


def _data_ok(buf: bytes, pos: int, n: int) -> bool:
    d = pos + HEADER_BYTES
    return masked_crc32c(buf[d:d + n]) == _unpack_u32(buf, d + n)[0]


def _verify(buf: bytes, a: np.ndarray, offs: np.ndarray, lens: np.ndarray):
    """Returns (good mask, index of the first record with a bad header CRC or -1, bad-data indices)."""
    good = np.ones(offs.size, bool)
    if _aggregate_ok(a, offs, lens):
        return good, -1, []
    bad_data: list[int] = []
    for c0 in range(0, offs.size, _VERIFY_CHUNK):
        c1 = min(c0 + _VERIFY_CHUNK, offs.size)
        if _aggregate_ok(a, offs[c0:c1], lens[c0:c1]):
            continue
        for i in range(c0, c1):
            p, n = int(offs[i]), int(lens[i])
            if not _header_ok(buf, p):
                good[i:] = False
                return good, i, bad_data
            if not _data_ok(buf, p, n):
                good[i] = False
                bad_data.append(i)
    return good, -1, bad_data


def _crc_table() -> np.ndarray:
    table = np.arange(256, dtype=np.uint32)
    for _ in range(8):
        table = np.where(table & 1, (table >> 1) ^ np.uint32(0x82F63B78), table >> 1).astype(np.uint32)
    return table


_TABLE = _crc_table()


def _masked_crc_rows(rows: np.ndarray) -> np.ndarray:
    """Masked CRC-32C of each row of a (k, w) uint8 array (numpy table method)."""
    crc = np.full(rows.shape[0], _U32, np.uint32)
    for j in range(rows.shape[1]):
        crc = _TABLE[(crc ^ rows[:, j]) & 0xFF] ^ (crc >> 8)
    crc ^= np.uint32(_U32)
    c = crc.astype(np.uint64)
    return ((((c >> 15) | (c << 17)) + _MASK_DELTA) & _U32).astype(np.uint32)


def _find_header(buf: bytes, a: np.ndarray, start: int):
    """First offset >= start holding a length header whose CRC checks out, or None."""
    size = len(buf)
    pos = start
    while pos + HEADER_BYTES <= size:
        end = min(size - HEADER_BYTES, pos + _RESYNC_WINDOW) + 1
        cand = np.arange(pos, end, dtype=np.int64)
        cand = cand[read_fixed(a, cand, "<u8") <= MAX_RECORD_BYTES]
        if cand.size:
            ok = _masked_crc_rows(sliding_window_view(a, 8)[cand]) == read_fixed(a, cand + 8, "<u4")
            hits = np.flatnonzero(ok)
            if hits.size:
                return int(cand[hits[0]])
        pos = end
    return None


def _find_record(buf: bytes, a: np.ndarray, start: int):
    """First offset >= start of a complete record whose header and data CRCs both check out, or None."""
    size = len(buf)
    pos = start
    while True:
        h = _find_header(buf, a, pos)
        if h is None:
            return None
        n = _unpack_u64(buf, h)[0]
        if h + HEADER_BYTES + n + FOOTER_BYTES <= size and _data_ok(buf, h, n):
            return h
        pos = h + 1


def scan_frames(buf: bytes) -> FrameScan:
    """Find every complete record in ``buf`` and check both CRCs of each.

    A record with a bad data CRC is skipped and reported; a bad length CRC makes the scan look
    for the next offset holding a valid header and carry on from there. A record cut short at
    the end of ``buf`` is left unconsumed, so a later call with more bytes picks it up.

    Args:
        buf: the bytes read from a file, starting at a record boundary.
    Returns:
        A :class:`FrameScan`.
    """
    buf = bytes(buf)
    a = np.frombuffer(buf, np.uint8)
    size = len(buf)
    starts, lengths, skipped = [], [], []
    pos = 0
    consumed = 0
    pending = 0
    while True:
        r_pos, r_stride, r_count, stop = _walk(buf, pos)
        offs, lens = _expand_runs(r_pos, r_stride, r_count)
        resync_at = None
        if offs.size:
            good, bad_hdr, bad_data = _verify(buf, a, offs, lens)
            for i in bad_data:
                skipped.append((int(offs[i]), int(lens[i]) + HEADER_BYTES + FOOTER_BYTES, "data CRC mismatch"))
            starts.append(offs[good] + HEADER_BYTES)
            lengths.append(lens[good])
            if bad_hdr >= 0:
                resync_at = int(offs[bad_hdr])
            else:
                consumed = stop
        if resync_at is None:
            if stop + HEADER_BYTES > size:
                pending = size - stop
                consumed = stop
                break
            n_decl = _unpack_u64(buf, stop)[0]
            if _header_ok(buf, stop) and n_decl <= MAX_RECORD_BYTES:
                # A record still being written -- unless a complete record follows inside the bytes it
                # claims: writers append whole records, so then its length is a lie (a header with a valid
                # CRC declaring more than the file holds). Skip it rather than wait forever.
                nxt = _find_record(buf, a, stop + HEADER_BYTES)
                if nxt is None:
                    pending = size - stop
                    consumed = stop
                    break
                skipped.append((stop, nxt - stop, f"record header declares {n_decl} bytes but only "
                                f"{size - stop - HEADER_BYTES} follow and a complete record starts "
                                f"{nxt - stop} bytes later; header taken as corrupt"))
                pos = consumed = nxt
                continue
            resync_at = stop
        why = "bad length CRC"
        if _header_ok(buf, resync_at) and _unpack_u64(buf, resync_at)[0] > MAX_RECORD_BYTES:
            why = (f"record header declares {_unpack_u64(buf, resync_at)[0]} bytes, over the "
                   f"{MAX_RECORD_BYTES >> 20} MiB limit")
        nxt = _find_header(buf, a, resync_at + 1)
        if nxt is None:
            # Keep the last bytes: they may be the start of a header that is still being written.
            keep_from = max(resync_at, size - HEADER_BYTES + 1)
            if keep_from > resync_at:
                skipped.append((resync_at, keep_from - resync_at, f"{why}; no record boundary found"))
            consumed = keep_from
            pending = size - keep_from
            break
        skipped.append((resync_at, nxt - resync_at, f"{why}; skipped to the next valid header"))
        pos = consumed = nxt
    if starts:
        s, ln = np.concatenate(starts), np.concatenate(lengths)
    else:
        s, ln = np.zeros(0, np.int64), np.zeros(0, np.int64)
    return FrameScan(s, ln, consumed, skipped, pending)
