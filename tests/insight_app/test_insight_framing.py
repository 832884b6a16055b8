"""TFRecord frame scanning: round trips, corruption, truncation, resynchronisation."""

from __future__ import annotations

import struct

import google_crc32c
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from insight_app import frame, masked_crc32c, scan_frames


def _payloads(buf, scan):
    return [bytes(buf[s:s + n]) for s, n in zip(scan.starts.tolist(), scan.lengths.tolist())]


def test_masked_crc_matches_tensorboardx():
    from tensorboardX.record_writer import masked_crc32c as tbx_masked

    for data in (b"", b"a", b"brain.Event:2", bytes(range(256)) * 3):
        assert masked_crc32c(data) == tbx_masked(data)
    # The CRC itself is CRC-32C (Castagnoli): the standard check value.
    assert google_crc32c.value(b"123456789") == 0xE3069283


def test_frame_layout_is_tfrecord():
    rec = frame(b"hello")
    (n,) = struct.unpack("<Q", rec[:8])
    assert n == 5 and len(rec) == 8 + 4 + 5 + 4
    assert struct.unpack("<I", rec[8:12])[0] == masked_crc32c(rec[:8])
    assert struct.unpack("<I", rec[-4:])[0] == masked_crc32c(b"hello")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=40))
def test_valid_records_round_trip(payloads):
    buf = b"".join(frame(p) for p in payloads)
    scan = scan_frames(buf)
    assert _payloads(buf, scan) == payloads
    assert scan.consumed == len(buf) and scan.skipped == [] and scan.pending == 0


@settings(max_examples=50, deadline=None)
@given(st.integers(min_value=1, max_value=5), st.integers(min_value=2, max_value=3000))
def test_equal_length_runs_round_trip(width, count):
    # Long runs of equal-length records take the vectorised path; their order and content must hold.
    payloads = [struct.pack("<I", i)[:width].ljust(width, b"x") + bytes([i % 7]) * (i % 3 == 0)
                for i in range(count)]
    buf = b"".join(frame(p) for p in payloads)
    assert _payloads(buf, scan_frames(buf)) == payloads


def _is_subsequence(small, big):
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(min_size=1, max_size=80), min_size=1, max_size=25), st.data())
def test_random_corruption_never_crashes_and_keeps_untouched_records(payloads, data):
    frames = [frame(p) for p in payloads]
    buf = bytearray(b"".join(frames))
    bounds = np.cumsum([0] + [len(f) for f in frames])
    touched = set()
    for _ in range(data.draw(st.integers(min_value=1, max_value=4))):
        kind = data.draw(st.sampled_from(["flip", "set", "truncate"]))
        if not buf:
            break
        pos = data.draw(st.integers(min_value=0, max_value=len(buf) - 1))
        if kind == "truncate":
            del buf[pos:]
            touched |= {i for i in range(len(frames)) if bounds[i + 1] > pos}
        else:
            buf[pos] = (buf[pos] ^ data.draw(st.integers(1, 255))) if kind == "flip" else data.draw(st.integers(0, 255))
            touched |= {i for i in range(len(frames)) if bounds[i] <= pos < bounds[i + 1]}
    scan = scan_frames(bytes(buf))
    got = _payloads(buf, scan)
    # Every record returned has both CRCs right.
    for s, n in zip(scan.starts.tolist(), scan.lengths.tolist()):
        assert struct.unpack_from("<I", buf, s + n)[0] == masked_crc32c(bytes(buf[s:s + n]))
    # Every record the corruption did not touch is still found, in order.
    intact = [p for i, p in enumerate(payloads) if i not in touched]
    assert _is_subsequence(intact, got)
    assert 0 <= scan.consumed <= len(buf)


def test_truncated_tail_is_pending_not_an_error():
    payloads = [bytes([i]) * (10 + i) for i in range(20)]
    buf = b"".join(frame(p) for p in payloads)
    for cut in (1, 5, 12, 15, len(frame(payloads[-1])) - 1):
        scan = scan_frames(buf[:-cut])
        assert _payloads(buf, scan) == payloads[:-1]
        assert scan.skipped == [] and scan.pending == len(frame(payloads[-1])) - cut


def test_bad_data_crc_is_skipped_and_reported():
    payloads = [b"record-%03d" % i for i in range(100)]
    frames = [frame(p) for p in payloads]
    buf = bytearray(b"".join(frames))
    off = sum(len(f) for f in frames[:50])
    buf[off + 14] ^= 0x40  # inside record 50's data
    scan = scan_frames(bytes(buf))
    assert _payloads(buf, scan) == payloads[:50] + payloads[51:]
    assert [(o, why) for o, _, why in scan.skipped] == [(off, "data CRC mismatch")]


def test_bad_length_crc_resynchronises():
    payloads = [b"x" * (5 + i % 7) for i in range(60)]
    frames = [frame(p) for p in payloads]
    buf = bytearray(b"".join(frames))
    off = sum(len(f) for f in frames[:30])
    buf[off] ^= 0x03  # record 30's length: its header CRC no longer matches
    scan = scan_frames(bytes(buf))
    assert _payloads(buf, scan) == payloads[:30] + payloads[31:]
    assert scan.skipped[0][0] == off and "length CRC" in scan.skipped[0][2]
    assert scan.skipped[0][1] == len(frames[30])


def test_garbage_at_the_end_keeps_the_last_bytes_for_later():
    buf = frame(b"ok") + b"\xff" * 40
    scan = scan_frames(buf)
    assert _payloads(buf, scan) == [b"ok"]
    assert scan.consumed == len(buf) - 11 and scan.pending == 11


@pytest.mark.parametrize("buf", [b"", b"\x00", b"\x00" * 11])
def test_short_buffers(buf):
    scan = scan_frames(buf)
    assert scan.starts.size == 0 and scan.consumed == 0 and scan.skipped == []


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(st.one_of(st.binary(max_size=60), st.floats(allow_nan=False, width=32)), max_size=40),
       st.sampled_from(["tb", "ms"]))
@example(items=[b"brain.Event:", 0.0], fmt="ms")  # garbage that merely contains TensorBoard's version prefix
def test_decoding_garbage_records_never_crashes(tmp_path_factory, items, fmt):
    """CRC-valid records holding random bytes are reported, never fatal; real scalar events around them
    are all read, in order."""
    from tensorboardX.proto import event_pb2, summary_pb2

    from insight_app import FileTail, RunData, _msproto

    recs, expect = [], []
    for i, item in enumerate(items):
        if isinstance(item, bytes):
            recs.append(frame(item))
            continue
        if fmt == "tb":
            ev = event_pb2.Event(wall_time=1.0, step=i, summary=summary_pb2.Summary(
                value=[summary_pb2.Summary.Value(tag="s", simple_value=item)]))
        else:
            ev = _msproto.Event(wall_time=1.0, step=i)
            ev.summary.value.add(tag="s", scalar_value=item)
        recs.append(frame(ev.SerializeToString()))
        expect.append((i, item))
    path = tmp_path_factory.mktemp("garbage") / ("events.out.tfevents.1.h" if fmt == "tb" else "x.summary.1_MS")
    path.write_bytes(b"".join(recs))
    run = RunData("r0", "garbage", str(path.parent))
    FileTail(str(path), fmt).poll(run)
    got = []
    if "s" in run.scalars:
        step, _, value = run.scalars["s"].arrays()
        got = list(zip(step.tolist(), value.tolist()))
    # Garbage can itself parse as an event with tag "s"; the real points are all there, in order.
    assert _is_subsequence(expect, got)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=12), st.integers(-2**63, 2**63 - 1), st.floats(width=32),
                          st.floats(1e-3, 2e9), st.integers(0, 60), st.integers(0, 255)), min_size=1, max_size=30),
       st.sampled_from(["tb", "ms"]))
def test_vectorised_scalar_decode_agrees_with_protobuf(events, fmt):
    """Scalar events, some with one byte changed: every record the fast path accepts decodes to the same
    wall time, step, tag and value with protobuf (the records it declines go to protobuf anyway)."""
    from tensorboardX.proto import event_pb2, summary_pb2

    from insight_app import _msproto
    from insight_app._fastscalar import decode_scalars

    payloads = []
    for tag, step, value, wall, pos, byte in events:
        if fmt == "tb":
            ev = event_pb2.Event(wall_time=wall, step=step, summary=summary_pb2.Summary(
                value=[summary_pb2.Summary.Value(tag=tag, simple_value=value)]))
        else:
            ev = _msproto.Event(wall_time=wall, step=step)
            ev.summary.value.add(tag=tag, scalar_value=value)
        raw = bytearray(ev.SerializeToString())
        if byte and pos < len(raw):
            raw[pos] = byte
        payloads.append(bytes(raw))
    buf = b"".join(frame(p) for p in payloads)
    scan = scan_frames(buf)
    a = np.frombuffer(buf, np.uint8)
    ok, wall, step, value, tag_ids, tags = decode_scalars(a, scan.starts, scan.lengths, fmt)
    cls = event_pb2.Event if fmt == "tb" else _msproto.Event
    for k, rec in enumerate(np.flatnonzero(ok).tolist()):
        ev = cls.FromString(payloads[rec])
        (v,) = ev.summary.value
        want = v.simple_value if fmt == "tb" else v.scalar_value
        assert (ev.wall_time, ev.step, v.tag) == (wall[k], step[k], tags[tag_ids[k]])
        assert np.float32(want).tobytes() == np.float32(value[k]).tobytes()


@pytest.mark.parametrize("first,want", [
    (None, "tb"),                                  # a TensorBoard header event (file_version brain.Event:2)
    ("mindspore", "ms"),                           # MindSpore's header event (version MindSpore.Event:1)
    (b"brain.Event:", "ms"),                       # bytes that are not an event, whatever they contain
    (b"\xff\xff", "ms"),
])
def test_the_format_is_sniffed_from_the_first_events_version(first, want):
    from tensorboardX.proto import event_pb2

    from insight_app import _msproto
    from insight_app._reader import sniff_format
    if first is None:
        first = event_pb2.Event(wall_time=1.0, file_version="brain.Event:2").SerializeToString()
    elif first == "mindspore":
        first = _msproto.Event(wall_time=1.0, version="MindSpore.Event:1").SerializeToString()
    buf = frame(first)
    assert sniff_format(buf, 12, len(first)) == want
