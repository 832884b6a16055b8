"""Fuzzing: truncated or bit-flipped checkpoints raise CheckpointError (a ValueError) and nothing else."""
import os
import re
import tempfile

import ml_dtypes
import numpy as np
import pytest
from ckpt_test_support import LENET, pb_record
from hypothesis import given, settings
from hypothesis import strategies as st

from mindspore_hl.serialization import _ckpt_format
from mindspore_hl.serialization._ckpt_format import CheckpointError


def _valid_file():
    """A small file exercising every record shape: dims, scalars, str, bool, bf16, a split tensor, crc trailer."""
    items = [
        ("conv.weight", np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 4)),
        ("step", np.asarray(7, np.int64)),
        ("flag", np.array([True, False, True])),
        ("half", np.arange(3, dtype=np.float32).astype(ml_dtypes.bfloat16)),
        ("split", np.arange(30, dtype=np.int16).reshape(10, 3)),
        ("note", "héllo"),
        ("empty", np.zeros((0, 2), np.float64)),
    ]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "v.ckpt")
        _ckpt_format.write(path, items, crc_check=True, slice_bytes=20)
        with open(path, "rb") as f:
            return f.read()


VALID = _valid_file()


def _parse_only_raises_checkpoint_error(data, crc):
    try:
        out = _ckpt_format.parse(data, source="fuzz.ckpt", crc_check=crc)
    except CheckpointError as e:
        assert "fuzz.ckpt" in str(e)
        return None
    assert isinstance(out, list)
    for name, value in out:
        assert isinstance(name, str) and isinstance(value, (np.ndarray, str, bytes))
    return out


def test_valid_file_parses():
    out = dict(_ckpt_format.parse(VALID, crc_check=True))
    assert out["note"] == "héllo" and out["split"].shape == (10, 3) and out["empty"].shape == (0, 2)


@settings(max_examples=400, deadline=None)
@given(cut=st.integers(0, len(VALID) - 1), crc=st.booleans())
def test_truncation(cut, crc):
    out = _parse_only_raises_checkpoint_error(VALID[:cut], crc)
    assert out is None or not crc  # with crc_check every cut is an error (the trailer is gone)
    if out is not None:  # cut exactly at a record boundary: a shorter valid file without a trailer
        full = _ckpt_format.parse(VALID)
        assert [n for n, _ in out] == [n for n, _ in full[:len(out)]]


@settings(max_examples=600, deadline=None)
@given(flips=st.lists(st.tuples(st.integers(0, len(VALID) - 1), st.integers(1, 255)), min_size=1, max_size=6),
       crc=st.booleans())
def test_byte_flips(flips, crc):
    data = bytearray(VALID)
    for pos, mask in flips:
        data[pos] ^= mask
    out = _parse_only_raises_checkpoint_error(bytes(data), crc)
    if out is not None and crc:  # the crc let it through: only if the values are exactly the saved ones
        _assert_same(out, _ckpt_format.parse(VALID))


def _assert_same(got, want):
    assert [n for n, _ in got] == [n for n, _ in want]
    for (name, a), (_, b) in zip(got, want):
        if isinstance(b, np.ndarray):
            assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), name
        else:
            assert a == b, name


@settings(max_examples=300, deadline=None)
@given(junk=st.binary(max_size=200))
def test_random_bytes(junk):
    _parse_only_raises_checkpoint_error(junk, False)
    _parse_only_raises_checkpoint_error(pb_record("w", [2], "Float32", b"\0" * 8) + junk, False)


@settings(max_examples=100, deadline=None)
@given(cut=st.integers(1, 4000))
def test_truncated_real_fixture_file(tmp_path_factory, cut):
    """Cutting the tail off the crc fixture: with crc_check=True always an error naming the file (a cut at a
    record boundary too: the trailer is gone); without it, an error or a clean prefix of the records."""
    data = (LENET / "lenet5_crc_append.ckpt").read_bytes()
    full = _ckpt_format.parse(data)
    path = tmp_path_factory.mktemp("cut") / "c.ckpt"
    path.write_bytes(data[:-cut])
    with pytest.raises(CheckpointError, match=re.escape(str(path))):
        _ckpt_format.read(path, crc_check=True)
    try:
        out = _ckpt_format.read(path, crc_check=False)
    except CheckpointError as e:
        assert str(path) in str(e)
        return
    assert cut >= 17 and [n for n, _ in out] == [n for n, _ in full[:len(out)]]
