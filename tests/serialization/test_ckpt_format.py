"""The .ckpt codec against the protobuf reference: encoding, decoding, splitting, crc, errors, atomicity."""
import os
import re
import zlib

import ml_dtypes
import numpy as np
import pytest
from ckpt_test_support import PbCheckpoint, pb_parse, pb_record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mindspore_hl.serialization import _atomic, _ckpt_format
from mindspore_hl.serialization._ckpt_format import CheckpointError

DTYPES = [np.float32, np.float16, np.float64, ml_dtypes.bfloat16, np.int8, np.uint8, np.int16, np.uint16,
          np.int32, np.uint32, np.int64, np.uint64, np.bool_]
TYPE_NAMES = {np.dtype(np.float32): "Float32", np.dtype(np.float16): "Float16", np.dtype(np.float64): "Float64",
              np.dtype(ml_dtypes.bfloat16): "BFloat16", np.dtype(np.int8): "Int8", np.dtype(np.uint8): "UInt8",
              np.dtype(np.int16): "Int16", np.dtype(np.uint16): "UInt16", np.dtype(np.int32): "Int32",
              np.dtype(np.uint32): "UInt32", np.dtype(np.int64): "Int64", np.dtype(np.uint64): "UInt64",
              np.dtype(np.bool_): "Bool"}

names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20)
# str entries: no surrogates (not encodable) and no trailing NUL (MindSpore's NumPy 'U' decoding strips them)
str_values = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30).filter(lambda s: not s.endswith("\0"))


@st.composite
def arrays(draw):
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    if dtype == np.dtype(ml_dtypes.bfloat16):
        bits = draw(hnp.arrays(np.uint16, shape))
        return bits.view(ml_dtypes.bfloat16)
    return draw(hnp.arrays(dtype, shape))


@st.composite
def item_lists(draw):
    keys = draw(st.lists(names, min_size=0, max_size=6, unique=True))
    return [(k, draw(st.one_of(arrays(), str_values))) for k in keys]


def _same(a, b):
    if isinstance(a, str):
        return a == b
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _reference_bytes(items):
    """What MindSpore's writer produces: one Checkpoint message per record, concatenated."""
    out = b""
    for name, value in items:
        if isinstance(value, str):
            out += pb_record(name, [0], "str", np.array(value).tobytes())
        else:
            out += pb_record(name, list(value.shape), TYPE_NAMES[value.dtype], value.tobytes())
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(item_lists())
def test_encoder_matches_protobuf_reference_and_round_trips(tmp_path_factory, items):
    path = tmp_path_factory.mktemp("rt") / "x.ckpt"
    _ckpt_format.write(path, items)
    data = path.read_bytes()
    assert data == _reference_bytes(items)
    back = _ckpt_format.read(path)
    assert [n for n, _ in back] == [n for n, _ in items]
    assert all(_same(v, w) for (_, v), (_, w) in zip(items, back))


@settings(max_examples=100, deadline=None)
@given(item_lists())
def test_decoder_reads_protobuf_written_bytes(items):
    back = _ckpt_format.parse(_reference_bytes(items))
    assert len(back) == len(items) and all(_same(v, w) for (_, v), (_, w) in zip(items, back))


def test_str_payload_is_numpy_utf32():
    # MindSpore writes np.array(s).tobytes(): UTF-32LE, and '' as one NUL character
    for s in ["hi", "", "ünï😀"]:
        assert _ckpt_format.encode_str(s) == np.array(s).tobytes()


def test_packed_dims_are_accepted():
    """protobuf parsers must accept packed encoding of a repeated scalar; MindSpore writes it unpacked."""
    content = np.arange(6, dtype=np.float32).tobytes()
    tensor = b"\x0a\x02\x02\x03" + b"\x12\x07Float32" + b"\x1a\x18" + content
    value = b"\x0a\x01w" + b"\x12" + bytes([len(tensor)]) + tensor
    data = b"\x0a" + bytes([len(value)]) + value
    assert pb_parse(data).value[0].tensor.dims == [2, 3]
    [(name, arr)] = _ckpt_format.parse(data)
    assert name == "w" and arr.shape == (2, 3) and arr[1, 2] == 5


# ------------------------------------------------------------------------------------------------------------
# split tensors
# ------------------------------------------------------------------------------------------------------------
def test_large_tensor_split_like_mindspore(tmp_path):
    arr = np.arange(10 * 7, dtype=np.float32).reshape(10, 7)   # 280 bytes
    path = tmp_path / "s.ckpt"
    _ckpt_format.write(path, [("a", np.ones(2, np.int8)), ("big", arr), ("z", "tail")], slice_bytes=100)
    msg = pb_parse(path.read_bytes())
    tags = [v.tag for v in msg.value]
    # MindSpore: slice_count = ceil(nbytes / limit) = 3 records, np.array_split along axis 0, full dims each
    assert tags == ["a", "big", "big", "big", "z"]
    pieces = np.array_split(arr, 3)
    for v, piece in zip(msg.value[1:4], pieces):
        assert list(v.tensor.dims) == [10, 7] and v.tensor.tensor_content == piece.tobytes()
    back = dict(_ckpt_format.read(path))
    np.testing.assert_array_equal(back["big"], arr)
    assert back["z"] == "tail"


def test_split_at_exact_limit_is_not_split(tmp_path):
    arr = np.zeros(25, np.float32)  # exactly 100 bytes: MindSpore splits only when nbytes > limit
    path = tmp_path / "s.ckpt"
    _ckpt_format.write(path, [("x", arr)], slice_bytes=100)
    assert len(pb_parse(path.read_bytes()).value) == 1


def test_reader_joins_byte_chunked_slices():
    """Other MindSpore writers chunk the raw bytes (not whole rows); the reader only concatenates bytes."""
    arr = np.arange(12, dtype=np.int64).reshape(3, 4)
    raw = arr.tobytes()
    data = b"".join(pb_record("t", [3, 4], "Int64", raw[i:i + 40]) for i in range(0, len(raw), 40))
    [(name, back)] = _ckpt_format.parse(data)
    np.testing.assert_array_equal(back, arr)


# ------------------------------------------------------------------------------------------------------------
# crc
# ------------------------------------------------------------------------------------------------------------
def test_crc_trailer_written_and_checked(tmp_path):
    path = tmp_path / "c.ckpt"
    items = [("w", np.arange(5, dtype=np.float32)), ("note", "x")]
    _ckpt_format.write(path, items, crc_check=True)
    data = path.read_bytes()
    assert data[-17:-10] == b"crc_num" and int.from_bytes(data[-10:], "big") == zlib.crc32(data[:-17])
    assert data[:-17] == _reference_bytes(items)
    assert len(_ckpt_format.read(path, crc_check=True)) == 2


def test_crc_check_without_trailer_is_an_error(tmp_path):
    """MindSpore only warns; a file cut at a record boundary would then load as a silent prefix."""
    items = [("w", np.zeros(2, np.float32)), ("v", np.ones(3, np.float32))]
    path, first = tmp_path / "n.ckpt", tmp_path / "first.ckpt"
    _ckpt_format.write(path, items, crc_check=True)
    _ckpt_format.write(first, items[:1])
    boundary = first.stat().st_size  # the bytes of the first record
    data = path.read_bytes()
    for cut in (data[:-17], data[:boundary]):  # no trailer; cut at the record boundary
        path.write_bytes(cut)
        assert len(_ckpt_format.read(path, crc_check=False)) == (2 if len(cut) > boundary else 1)
        with pytest.raises(CheckpointError, match=f"{re.escape(str(path))}: crc_check=True but the file does not "
                                                  f"end with a crc_num trailer"):
            _ckpt_format.read(path, crc_check=True)


# ------------------------------------------------------------------------------------------------------------
# errors
# ------------------------------------------------------------------------------------------------------------
def _good_bytes():
    return pb_record("conv.weight", [2, 3], "Float32", np.ones(6, np.float32).tobytes()) + \
        pb_record("step", [], "Int64", np.int64(7).tobytes())


def test_truncated_file_names_file_record_and_field(tmp_path):
    data = _good_bytes()
    path = tmp_path / "t.ckpt"
    path.write_bytes(data[:30])
    with pytest.raises(CheckpointError) as e:
        _ckpt_format.read(path)
    msg = str(e.value)
    assert str(path) in msg and "record 0" in msg and "truncated" in msg and "'value'" in msg


def test_truncated_inside_second_record(tmp_path):
    data = _good_bytes()
    first = len(pb_record("conv.weight", [2, 3], "Float32", np.ones(6, np.float32).tobytes()))
    path = tmp_path / "t2.ckpt"
    path.write_bytes(data[:first + 5])
    with pytest.raises(CheckpointError, match=rf"record 1 at byte {first}"):
        _ckpt_format.read(path)


@pytest.mark.parametrize("payload", [b"PK\x03\x04 zip file", b"\x89PNG\r\n\x1a\n....", b"hello, world\n",
                                     np.lib.format.magic(1, 0) + b"{'descr': '<f4'}"])
def test_not_a_checkpoint(tmp_path, payload):
    path = tmp_path / "n.ckpt"
    path.write_bytes(payload)
    with pytest.raises(CheckpointError) as e:
        _ckpt_format.read(path)
    assert str(path) in str(e.value)


def test_not_a_checkpoint_message():
    with pytest.raises(CheckpointError, match="not a MindSpore checkpoint"):
        _ckpt_format.parse(b"hello, world\n", source="f.ckpt")


def test_unknown_tensor_type_is_named():
    data = pb_record("w", [2], "Complex64", b"\0" * 16)
    with pytest.raises(CheckpointError, match=r"record 0 \(tag 'w'\).*unknown tensor_type 'Complex64'"):
        _ckpt_format.parse(data, source="f.ckpt")


def test_content_size_mismatch_is_named():
    data = _good_bytes() + pb_record("fc.bias", [4], "Float32", b"\0" * 12)
    with pytest.raises(CheckpointError, match=r"record 2 \(tag 'fc.bias'\).*12 bytes.*\[4\] of Float32 need 16"):
        _ckpt_format.parse(data, source="f.ckpt")


def test_missing_required_fields():
    msg = PbCheckpoint()
    v = msg.value.add()
    v.tag = "w"
    v.tensor.dims.append(1)
    with pytest.raises(CheckpointError, match="missing required field 'tensor_type'"):
        _ckpt_format.parse(msg.SerializePartialToString(), source="f.ckpt")
    v.tensor.tensor_type = "Float32"
    with pytest.raises(CheckpointError, match="missing required field 'tensor_content'"):
        _ckpt_format.parse(msg.SerializePartialToString(), source="f.ckpt")
    msg2 = PbCheckpoint()
    msg2.value.add().tensor.tensor_type = "Float32"
    with pytest.raises(CheckpointError, match="missing required field 'tag'"):
        _ckpt_format.parse(msg2.SerializePartialToString(), source="f.ckpt")


def test_negative_dims_and_bad_utf8_tag():
    with pytest.raises(CheckpointError, match="negative"):
        _ckpt_format.parse(pb_record("w", [-1], "Float32", b""), source="f.ckpt")
    bad = b"\x0a\x0c\x0a\x02\xff\xfe\x12\x06\x12\x04Bool"
    with pytest.raises(CheckpointError, match="'tag' is not valid UTF-8"):
        _ckpt_format.parse(bad, source="f.ckpt")


def test_maptensor_is_rejected_clearly():
    msg = PbCheckpoint()
    v = msg.value.add()
    v.tag = "emb"
    t = v.maptensor.tensor.add()
    t.tensor_type = "Int64"
    t.tensor_content = b""
    with pytest.raises(CheckpointError, match="MapTensor"):
        _ckpt_format.parse(msg.SerializeToString(), source="f.ckpt")


def test_write_rejects_unsupported_dtype_and_names(tmp_path):
    with pytest.raises(TypeError, match="'z'.*complex64"):
        _ckpt_format.write(tmp_path / "a.ckpt", [("z", np.zeros(2, np.complex64))])
    with pytest.raises(TypeError, match="must be str"):
        _ckpt_format.write(tmp_path / "a.ckpt", [(3, np.zeros(2, np.float32))])
    assert not (tmp_path / "a.ckpt").exists()


def test_big_endian_input_is_written_little_endian(tmp_path):
    arr = np.arange(4, dtype=">i4")
    _ckpt_format.write(tmp_path / "b.ckpt", [("x", arr)])
    [(_, back)] = _ckpt_format.read(tmp_path / "b.ckpt")
    assert back.dtype == np.dtype("<i4") and back.tolist() == [0, 1, 2, 3]


# ------------------------------------------------------------------------------------------------------------
# atomic replacement
# ------------------------------------------------------------------------------------------------------------
def test_failure_mid_write_keeps_old_file(tmp_path, monkeypatch):
    path = tmp_path / "m.ckpt"
    _ckpt_format.write(path, [("old", np.arange(3, dtype=np.float32))])
    before = path.read_bytes()
    real = _ckpt_format._record_header
    calls = []

    def failing_header(*args):
        calls.append(1)
        if len(calls) == 2:   # the first record is already in the temp file
            raise OSError("No space left on device")
        return real(*args)

    monkeypatch.setattr(_ckpt_format, "_record_header", failing_header)
    with pytest.raises(OSError, match="No space left"):
        _ckpt_format.write(path, [("a", np.zeros(4, np.float32)), ("b", np.zeros(4, np.float32))])
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["m.ckpt"]  # no temp file left behind


def test_failing_fsync_keeps_old_file(tmp_path, monkeypatch):
    path = tmp_path / "m.ckpt"
    _ckpt_format.write(path, [("old", np.arange(3, dtype=np.float32))])
    before = path.read_bytes()

    def bad_fsync(fd):
        raise OSError("I/O error")

    monkeypatch.setattr(_atomic.os, "fsync", bad_fsync)
    with pytest.raises(OSError, match="I/O error"):
        _ckpt_format.write(path, [("new", np.zeros(4, np.float32))])
    monkeypatch.undo()
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["m.ckpt"]


def test_legacy_scalar_dims_and_empty_tensors():
    """dims [0] with one element's bytes is a scalar (older writers); with no bytes it is an empty vector."""
    out = dict(_ckpt_format.parse(pb_record("s", [0], "Float32", np.float32(2.5).tobytes())
                                  + pb_record("e", [0], "Float32", b"")
                                  + pb_record("m", [3, 0], "Int8", b"")))
    assert out["s"].shape == () and out["s"] == 2.5
    assert out["e"].shape == (0,) and out["m"].shape == (3, 0)


def test_random_op_record_passes_through_as_bytes():
    # MindSpore's loader returns the raw content of its 'random_op' (RNG state) record unchanged
    out = _ckpt_format.parse(pb_record("random_op", [], "random_op", b"\x01\x02\x03"))
    assert out == [("random_op", b"\x01\x02\x03")]
