"""safetensors codec against the spec: hand-built files, exact bytes, round trips and errors."""
import functools
import json
import os
import struct
import tempfile
import zlib

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mindspore_hl.serialization import _safetensors
from mindspore_hl.serialization._safetensors import SafetensorsError


def _spec_file(path, header, data):
    """A file built directly from the spec: u64 LE header size, JSON header, byte buffer."""
    head = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(head)) + head + data)


def test_exact_bytes_of_a_small_file(tmp_path):
    path = tmp_path / "a.safetensors"
    _safetensors.write(path, [("b", np.array([1, 2], np.int64)), ("a", np.array([1.5, -2.0], np.float32))],
                       {"format": "ms"})
    head = (b'{"__metadata__":{"format":"ms"},"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},'
            b'"b":{"dtype":"I64","shape":[2],"data_offsets":[8,24]}}')
    head += b" " * (-len(head) % 8)  # the reference writer pads the header to 8-byte alignment with spaces
    expected = struct.pack("<Q", len(head)) + head + struct.pack("<2f", 1.5, -2.0) + struct.pack("<2q", 1, 2)
    assert path.read_bytes() == expected


def test_reads_a_spec_built_file(tmp_path):
    bf = np.array([[1.0, -0.5], [3.0, 0.25]], np.float32).astype(ml_dtypes.bfloat16)
    # data deliberately not in name order, to check offsets are honoured
    data = bf.tobytes() + bytes([1, 0, 1]) + struct.pack("<q", -7)
    header = {"z": {"dtype": "BF16", "shape": [2, 2], "data_offsets": [0, 8]},
              "mask": {"dtype": "BOOL", "shape": [3], "data_offsets": [8, 11]},
              "step": {"dtype": "I64", "shape": [], "data_offsets": [11, 19]},
              "__metadata__": {"format": "pt"}}
    path = tmp_path / "s.safetensors"
    _spec_file(path, header, data)
    tensors, metadata, crc = _safetensors.read(path, with_crc=True)
    assert [n for n, _ in tensors] == ["mask", "step", "z"]
    d = dict(tensors)
    assert d["z"].dtype == ml_dtypes.bfloat16 and d["z"].astype(np.float32).tolist() == [[1.0, -0.5], [3.0, 0.25]]
    assert d["mask"].tolist() == [True, False, True]
    assert d["step"].shape == () and d["step"] == -7
    assert metadata == {"format": "pt"}
    assert crc == zlib.crc32(bytes([1, 0, 1]) + struct.pack("<q", -7) + bf.tobytes())


@st.composite
def tensor_dicts(draw):
    keys = draw(st.lists(st.text(min_size=1, max_size=12).filter(lambda k: k != "__metadata__"),
                         max_size=5, unique=True))
    out = []
    for k in keys:
        dtype = draw(st.sampled_from([np.float32, np.float16, np.float64, np.int8, np.uint8, np.int16, np.uint16,
                                      np.int32, np.uint32, np.int64, np.uint64, np.bool_]))
        out.append((k, draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)))))
    return out


@settings(max_examples=100, deadline=None)
@given(tensor_dicts(), st.dictionaries(st.text(max_size=8), st.text(max_size=8), max_size=3))
def test_round_trip(tmp_path_factory, tensors, metadata):
    path = tmp_path_factory.mktemp("st") / "r.safetensors"
    _safetensors.write(path, tensors, metadata, crc_key="crc_num" if tensors else None)
    back, meta, crc = _safetensors.read(path, with_crc=True)
    assert [n for n, _ in back] == sorted(n for n, _ in tensors)
    src = dict(tensors)
    for n, arr in back:
        assert arr.dtype == src[n].dtype and arr.shape == src[n].shape and arr.tobytes() == src[n].tobytes()
    if tensors:
        assert meta.pop("crc_num") == str(crc)
    assert meta == metadata
    raw = path.read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    assert n % 8 == 0 and isinstance(json.loads(raw[8:8 + n]), dict)  # valid, aligned JSON header


def _bad(tmp_path, header, data=b""):
    path = tmp_path / "bad.safetensors"
    _spec_file(path, header, data)
    with pytest.raises(SafetensorsError) as e:
        _safetensors.read(path)
    assert str(path) in str(e.value)
    return str(e.value)


def test_errors_name_the_problem(tmp_path):
    f4 = {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}
    assert "unsupported dtype 'C64'" in _bad(tmp_path, {"x": {**f4, "dtype": "C64"}}, b"\0" * 8)
    assert "tensor 'x'" in _bad(tmp_path, {"x": {**f4, "data_offsets": [0, 12]}}, b"\0" * 12)
    assert "truncated" in _bad(tmp_path, {"x": f4}, b"\0" * 4)
    assert "hole" in _bad(tmp_path, {"x": {**f4, "data_offsets": [4, 12]}}, b"\0" * 12)
    assert "overlap" in _bad(tmp_path, {"x": f4, "y": f4}, b"\0" * 8)
    assert "trailing" in _bad(tmp_path, {"x": f4}, b"\0" * 9)
    assert "shape" in _bad(tmp_path, {"x": {**f4, "shape": [-2]}}, b"\0" * 8)
    assert "exactly" in _bad(tmp_path, {"x": {"dtype": "F32"}}, b"")


def test_not_a_safetensors_file(tmp_path):
    path = tmp_path / "n.safetensors"
    for payload, msg in [(b"abc", "only 3 bytes"), (b"\xff" * 16, "exceeds"),
                         (struct.pack("<Q", 50) + b"{}", "runs past"),
                         (struct.pack("<Q", 4) + b"{{{{", "not valid UTF-8 JSON"),
                         (struct.pack("<Q", 2) + b"[]", "JSON object")]:
        path.write_bytes(payload)
        with pytest.raises(SafetensorsError, match=msg):
            _safetensors.read(path)


def test_write_rejects_unsupported(tmp_path):
    with pytest.raises(TypeError, match="'c'.*complex64"):
        _safetensors.write(tmp_path / "x.safetensors", [("c", np.zeros(1, np.complex64))])
    with pytest.raises(ValueError, match="reserved"):
        _safetensors.write(tmp_path / "x.safetensors", [("__metadata__", np.zeros(1, np.float32))])
    assert not (tmp_path / "x.safetensors").exists()


@functools.lru_cache(maxsize=1)
def _valid_bytes():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "v.safetensors")
        _safetensors.write(path, [("w", np.arange(6, dtype=np.float32).reshape(2, 3)), ("b", np.ones(3, np.bool_)),
                                  ("s", np.asarray(3, np.int64))], {"format": "ms", "note": "hi"})
        with open(path, "rb") as f:
            return f.read()


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_fuzz_only_safetensors_error(tmp_path_factory, data):
    raw = bytearray(_valid_bytes())
    for pos, mask in data.draw(st.lists(st.tuples(st.integers(0, len(raw) - 1), st.integers(1, 255)), max_size=4)):
        raw[pos] ^= mask
    raw = raw[:data.draw(st.integers(0, len(raw)))]
    path = tmp_path_factory.mktemp("f") / "f.safetensors"
    path.write_bytes(bytes(raw))
    try:
        tensors, metadata, _ = _safetensors.read(path, with_crc=True)
    except SafetensorsError as e:
        assert str(path) in str(e)
        return
    assert all(isinstance(a, np.ndarray) for _, a in tensors) and isinstance(metadata, dict)
