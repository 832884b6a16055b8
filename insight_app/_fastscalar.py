"""Vectorised decode of single-scalar events, the bulk of every training log.

A tensorboardX ``add_scalar`` event (and a MindSpore event holding one scalar) serialises as::

    09 <f64 wall_time> [10 <varint step>] 2a <len> 0a <len> 0a <len> <tag> 15|1d <f32 value>

All records are parsed at once with numpy gathers; a record that deviates in any byte (other fields,
several values, metadata, a different field order) is left to the full protobuf decoder.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ._framing import read_fixed

# Summary.Value scalar field key: TensorBoard simple_value = 2 (fixed32), MindSpore scalar_value = 3.
VALUE_KEY = {"tb": 0x15, "ms": 0x1D}


def _at(a: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Bytes at offsets ``p``, clipped into the buffer (garbage offsets are rejected by the callers' checks)."""
    return a[np.clip(p, 0, a.size - 1)]


def _varint(a: np.ndarray, p: np.ndarray):
    """Decode a varint at each offset ``p``; returns (uint64 values, offsets after, ok)."""
    b0 = _at(a, p)
    val = (b0 & 0x7F).astype(np.uint64)
    after = p + 1
    done = b0 < 0x80
    multi = np.flatnonzero(~done)
    if multi.size == 0:  # lengths and small steps: one byte each
        return val, after, done
    q = p[multi]
    v = val[multi]
    fin = np.zeros(multi.size, bool)
    end = q + 1
    for j in range(1, 10):
        b = _at(a, q + j).astype(np.uint64)
        active = ~fin
        v |= np.where(active, (b & np.uint64(0x7F)) << np.uint64(7 * j), np.uint64(0))
        ended = active & (b < 0x80)
        end = np.where(ended, q + j + 1, end)
        fin |= ended
        if fin.all():
            break
    val[multi] = v
    after[multi] = end
    done[multi] = fin
    return val, after, done


# (ok mask, wall_time, step, value, tag index, tag list): see decode_scalars
_Decoded = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[str]]


def decode_scalars(a: np.ndarray, starts: np.ndarray, lengths: np.ndarray, fmt: str
                   ) -> _Decoded:
    """Parse the records that are exactly one scalar event.

    Args:
        a: the file bytes as a uint8 array.
        starts, lengths: data offset and length of each record (int64).
        fmt: "tb" or "ms" (which field number holds the scalar).
    Returns:
        (ok mask, wall_time f64, step i64, value f64, tag index i64, tag list); the arrays hold the
        ok records only, in record order.
    """
    n = starts.size
    empty: _Decoded = (np.zeros(n, bool), np.zeros(0), np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.int64), [])
    if n == 0 or a.size < 16:
        return empty
    end = starts + lengths
    ok = (lengths >= 16) & (_at(a, starts) == 0x09)
    p = starts + 9
    has_step = _at(a, p) == 0x10
    step, after, vok = _varint(a, p + 1)
    ok &= ~has_step | vok
    p = np.where(has_step, after, p)
    step = np.where(has_step, step, np.uint64(0))
    # summary (field 5), its one Value (field 1), the Value's tag (field 1): each length must end the record.
    for key, must_end in ((0x2A, True), (0x0A, True), (0x0A, False)):
        ok &= _at(a, p) == key
        ln, p, vok = _varint(a, p + 1)
        vok &= ln <= np.uint64(1 << 31)
        ok &= vok
        ln = np.where(vok, ln, np.uint64(0)).astype(np.int64)
        if must_end:
            ok &= p + ln == end
        else:
            tag_start, tag_len = p, ln
            p = p + ln
    ok &= (p + 5 == end) & (_at(a, p) == VALUE_KEY[fmt])
    idx = np.flatnonzero(ok)
    if idx.size == 0:
        return empty
    wall = read_fixed(a, starts[idx] + 1, "<f8").astype(np.float64)
    with np.errstate(invalid="ignore"):  # a signalling-NaN float32 widens to NaN without a warning
        value = read_fixed(a, p[idx] + 1, "<f4").astype(np.float64)
    step = step[idx].view(np.int64)
    tag_ids, tags, valid = _group_tags(a, tag_start[idx], tag_len[idx])
    if not valid.all():  # left to the protobuf decoder, which reports them
        ok[idx[~valid]] = False
        wall, value, step, tag_ids = wall[valid], value[valid], step[valid], tag_ids[valid]
    return ok, wall, step, value, tag_ids, tags


def _group_tags(a: np.ndarray, start: np.ndarray, length: np.ndarray):
    """Map each (start, length) byte string to an index into a list of distinct decoded tags.

    Returns (ids, tags, valid); a tag that is not UTF-8 is not valid (protobuf rejects it too).
    """
    ids = np.zeros(start.size, np.int64)
    valid = np.ones(start.size, bool)
    tags: list[str] = []
    for ln in np.unique(length).tolist():
        rows_idx = np.flatnonzero(length == ln)
        if ln == 0:
            uniq, inv = [b""], np.zeros(rows_idx.size, np.int64)
        else:
            block = sliding_window_view(a, ln)[start[rows_idx]]
            if (block == block[0]).all():  # the common case: one tag of this length
                uniq, inv = [block[0].tobytes()], np.zeros(rows_idx.size, np.int64)
            else:
                u, inv = np.unique(np.ascontiguousarray(block).view(f"V{ln}").ravel(), return_inverse=True)
                uniq, inv = [bytes(x) for x in u], inv.ravel()
        base = len(tags)
        for k, raw in enumerate(uniq):
            try:
                tags.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                tags.append("")
                valid[rows_idx[inv == k]] = False
        ids[rows_idx] = base + inv
    return ids, tags, valid
