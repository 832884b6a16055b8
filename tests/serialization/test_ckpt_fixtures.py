"""The real-MindSpore checkpoint files: read them, and re-encode them byte for byte."""
import json
import zlib

import numpy as np
import pytest
from ckpt_test_support import LENET, RESNET, pb_parse

from mindspore_hl.serialization import _ckpt_format

LENET_PARAMS = [
    ("conv1.weight", (6, 1, 5, 5)), ("conv2.weight", (16, 6, 5, 5)), ("fc1.weight", (120, 400)),
    ("fc1.bias", (120,)), ("fc2.weight", (84, 120)), ("fc2.bias", (84,)), ("fc3.weight", (10, 84)),
    ("fc3.bias", (10,)),
]


def _pb_arrays(data):
    """Decode every record with the protobuf reference: tag -> (dims, type, raw content)."""
    return [(v.tag, tuple(v.tensor.dims), v.tensor.tensor_type, v.tensor.tensor_content)
            for v in pb_parse(data).value]


def test_lenet_trained_names_shapes_and_optimizer_state():
    items = _ckpt_format.read(LENET / "lenet5_trained.ckpt")
    names = [n for n, _ in items]
    expected = ([n for n, _ in LENET_PARAMS] + ["global_step", "learning_rate", "momentum"]
                + ["moments." + n for n, _ in LENET_PARAMS])
    assert names == expected
    d = dict(items)
    for n, shape in LENET_PARAMS:
        assert d[n].shape == shape and d[n].dtype == np.float32
        assert d["moments." + n].shape == shape and d["moments." + n].dtype == np.float32
    # Momentum(lr=0.01, momentum=0.9) after 4 steps: global_step is an Int32 (1,) tensor
    assert d["global_step"].dtype == np.int32 and d["global_step"].tolist() == [4]
    assert d["learning_rate"].shape == () and d["learning_rate"] == np.float32(0.01)
    assert d["momentum"].shape == () and d["momentum"] == np.float32(0.9)


def test_lenet_values_match_protobuf_reference_decoder():
    data = (LENET / "lenet5_trained.ckpt").read_bytes()
    ours = _ckpt_format.parse(data)
    ref = _pb_arrays(data)
    assert len(ours) == len(ref)
    for (name, arr), (tag, dims, ttype, content) in zip(ours, ref):
        assert name == tag and arr.shape == dims
        np.testing.assert_array_equal(arr, np.frombuffer(content, _ckpt_format.TYPE_TO_NP[ttype]).reshape(dims))


def test_lenet_weights_are_the_trained_ones():
    """The fixture's gradients were taken at exactly these weights; params_after_one_more_step = Momentum step."""
    d = dict(_ckpt_format.read(LENET / "lenet5_trained.ckpt"))
    grads = np.load(LENET / "grads.npz")
    after = np.load(LENET / "params_after_one_more_step.npz")
    for n, _ in LENET_PARAMS:
        moment = np.float32(0.9) * d["moments." + n] + grads[n]
        np.testing.assert_allclose(d[n] - np.float32(0.01) * moment, after[n], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fname,crc", [("lenet5_trained.ckpt", False), ("lenet5_crc_append.ckpt", True)])
def test_reencoding_fixture_is_byte_identical(tmp_path, fname, crc):
    src = (LENET / fname).read_bytes()
    items = _ckpt_format.parse(src, crc_check=crc)
    out = tmp_path / fname
    _ckpt_format.write(out, items, crc_check=crc)
    assert out.read_bytes() == src


def test_crc_append_fixture():
    data = (LENET / "lenet5_crc_append.ckpt").read_bytes()
    # The trailer is b'crc_num' + zlib.crc32 of everything before it, as 10 big-endian bytes.
    assert data[-17:-10] == b"crc_num"
    assert int.from_bytes(data[-10:], "big") == zlib.crc32(data[:-17])
    items = _ckpt_format.read(LENET / "lenet5_crc_append.ckpt", crc_check=True)
    assert [n for n, _ in items] == [n for n, _ in LENET_PARAMS] + ["epoch_num", "lr", "note"]
    d = dict(items)
    assert d["epoch_num"].dtype == np.int64 and d["epoch_num"].shape == () and d["epoch_num"] == 5
    assert d["lr"].dtype == np.float32 and d["lr"].shape == () and d["lr"] == np.float32(0.01)
    assert d["note"] == "hi"
    for n, shape in LENET_PARAMS:
        assert d[n].shape == shape and d[n].dtype == np.float32


def test_crc_append_fixture_with_a_flipped_byte_fails_crc(tmp_path):
    data = bytearray((LENET / "lenet5_crc_append.ckpt").read_bytes())
    data[1000] ^= 0x01  # inside conv1.weight's content: still parses, but the crc no longer matches
    path = tmp_path / "bad.ckpt"
    path.write_bytes(bytes(data))
    with pytest.raises(_ckpt_format.CheckpointError, match="crc check failed") as e:
        _ckpt_format.read(path, crc_check=True)
    assert str(path) in str(e.value)
    assert len(_ckpt_format.read(path, crc_check=False)) == 11


def test_resnet50_names_shapes_order(resnet_ckpt):
    expected = json.loads((RESNET / "parameter_names.json").read_text())
    items = _ckpt_format.read(resnet_ckpt)
    assert len(items) == len(expected) == 267
    for (name, arr), (ename, eshape, _) in zip(items, expected):
        assert name == ename and list(arr.shape) == eshape and arr.dtype == np.float32
    d = dict(items)
    # BatchNorm entries come in MindSpore's order and moving_variance is positive
    assert [n for n, _ in items][1:5] == ["bn1.moving_mean", "bn1.moving_variance", "bn1.gamma", "bn1.beta"]
    assert (d["bn1.moving_variance"] > 0).all()


def test_resnet50_matches_reference_and_reencodes_identically(resnet_ckpt, tmp_path):
    data = resnet_ckpt.read_bytes()
    ours = _ckpt_format.parse(data)
    ref = _pb_arrays(data)
    for (name, arr), (tag, _dims, ttype, content) in zip(ours, ref):
        assert name == tag and ttype == "Float32"
        assert arr.tobytes() == content
    out = tmp_path / "re.ckpt"
    _ckpt_format.write(out, ours)
    assert out.read_bytes() == data
