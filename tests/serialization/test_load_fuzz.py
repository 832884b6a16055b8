"""Fuzzing ``load_checkpoint`` on files on disk: a damaged file saved with crc_check=True raises an error
naming the file or loads exactly the saved values; damaged framing in any file raises such an error; sizes
declared larger than the file are errors before anything is allocated; nothing hangs or crashes."""
import os
import re

import numpy as np
import pytest
from ckpt_test_support import pb_record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindspore_hl import Tensor
from mindspore_hl.serialization import load_checkpoint, save_checkpoint

pytestmark = pytest.mark.timeout(300)
_FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

SAVED = {
    "fc.weight": np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4),
    "fc.bias": np.arange(3, dtype=np.float32),
    "global_step": np.asarray([5], np.int32),
    "moments.fc.weight": np.full((3, 4), 0.25, np.float32),
}
APPEND = {"epoch_num": 2, "note": "resumable"}


def _saved_bytes(tmp_path, crc_check):
    path = tmp_path / f"src_{crc_check}.ckpt"
    save_checkpoint({k: Tensor(v) for k, v in SAVED.items()}, str(path), append_dict=APPEND, crc_check=crc_check)
    return path.read_bytes()


def _load(path, crc_check):
    """The loaded values as NumPy / str, or the error (which must be a ValueError naming the file)."""
    try:
        out = load_checkpoint(str(path), crc_check=crc_check)
    except ValueError as e:
        assert str(path) in str(e), str(e)
        return None
    return {k: (v if isinstance(v, str) else v.asnumpy()) for k, v in out.items()}


def _assert_exact(loaded):
    want = dict(SAVED, epoch_num=np.asarray(2, np.int64), note="resumable")
    assert list(loaded) == list(want)
    for name, value in want.items():
        if isinstance(value, str):
            assert loaded[name] == value
        else:
            got = loaded[name]
            assert got.dtype == value.dtype and got.shape == value.shape and got.tobytes() == value.tobytes(), name


def _damage(data, draw):
    """One of: truncate, flip bytes, delete a range, insert bytes, overwrite a range, append junk."""
    data = bytearray(data)
    kind = draw(st.sampled_from(["cut", "flip", "delete", "insert", "overwrite", "append"]))
    pos = draw(st.integers(0, len(data) - 1))
    if kind == "cut":
        del data[pos:]
    elif kind == "flip":
        for p, mask in draw(st.lists(st.tuples(st.integers(0, len(data) - 1), st.integers(1, 255)),
                                     min_size=1, max_size=4)):
            data[p] ^= mask
    elif kind == "delete":
        del data[pos:pos + draw(st.integers(1, 40))]
    elif kind == "insert":
        data[pos:pos] = draw(st.binary(min_size=1, max_size=40))
    elif kind == "overwrite":
        junk = draw(st.binary(min_size=1, max_size=40))
        data[pos:pos + len(junk)] = junk
    else:
        data += draw(st.binary(min_size=1, max_size=40))
    return bytes(data)


@_FUZZ
@given(st.data())
def test_damaged_crc_file_errors_or_loads_exactly(tmp_path, data):
    original = _saved_bytes(tmp_path, crc_check=True)
    damaged = _damage(original, data.draw)
    path = tmp_path / "damaged.ckpt"
    path.write_bytes(damaged)
    loaded = _load(path, crc_check=True)
    if loaded is not None:  # only a "damage" that changed nothing (flips that cancel, same bytes) may load
        assert damaged == original
        _assert_exact(loaded)


@_FUZZ
@given(st.data())
def test_damaged_file_without_crc_never_crashes(tmp_path, data):
    path = tmp_path / "damaged.ckpt"
    path.write_bytes(_damage(_saved_bytes(tmp_path, crc_check=False), data.draw))
    loaded = _load(path, crc_check=False)
    if loaded is not None:  # no crc: content changes can go unseen, but the names and shapes are well formed
        assert all(isinstance(k, str) for k in loaded)


def _varint(n):
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(declared=st.one_of(st.integers(1, 2 ** 20), st.integers(2 ** 30, 2 ** 63)), crc=st.booleans())
def test_declared_length_past_the_end_is_an_error(tmp_path, declared, crc):
    """A record / tensor_content that declares more bytes than the file holds: an error naming the file,
    whether the claim is a little too long or exabytes (nothing is allocated from the claim)."""
    good = pb_record("w", [2], "Float32", np.ones(2, np.float32).tobytes())
    content = b"\x1a" + _varint(declared) + b"\0" * 8
    tensor = b"\x08\x02\x12\x07Float32" + content
    value = b"\x0a\x01x\x12" + _varint(len(tensor) + declared) + tensor
    framed = b"\x0a" + _varint(len(value) + declared) + value
    path = tmp_path / "long.ckpt"
    path.write_bytes(good + framed)
    with pytest.raises(ValueError, match=re.escape(str(path))):
        load_checkpoint(str(path), crc_check=crc)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dims=st.lists(st.integers(0, 2 ** 62), min_size=1, max_size=8))
def test_huge_dims_are_an_error_not_an_allocation(tmp_path, dims):
    path = tmp_path / "dims.ckpt"
    content = np.ones(2, np.float32).tobytes()
    path.write_bytes(pb_record("w", dims, "Float32", content))
    if int(np.prod(dims, dtype=object)) == 2:
        assert load_checkpoint(str(path))["w"].shape == tuple(dims)
        return
    with pytest.raises(ValueError, match=re.escape(str(path)) + ".*tensor_content has 8 bytes"):
        load_checkpoint(str(path))


def test_a_loadable_damaged_crc_file_is_impossible_at_record_boundaries(tmp_path):
    """The case the issue found: a crc file cut exactly between records used to load a prefix."""
    original = _saved_bytes(tmp_path, crc_check=True)
    path = tmp_path / "cut.ckpt"
    boundaries = []
    for cut in range(1, len(original)):
        path.write_bytes(original[:cut])
        if _load(path, crc_check=False) is not None:
            boundaries.append(cut)
            assert _load(path, crc_check=True) is None
    assert len(boundaries) >= len(SAVED)  # the record boundaries (and the cut that only drops the trailer)
    os.remove(path)
