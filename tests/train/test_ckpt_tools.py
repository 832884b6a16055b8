"""Checkpoint utilities of mindspore.train: format conversion (checked against the bytes real MindSpore 2.10
writes, ``toplevel.npz``), background loading, segmented / sliced checkpoints, load_mindir / save_mindir."""
import json
import os

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from tests.oracle import load_cases

CASES = load_cases("toplevel.npz")


def _entries(raw):
    """{name: (dtype, shape, tensor bytes)} and the metadata of a safetensors file."""
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    meta = header.pop("__metadata__", {})
    body = raw[8 + n:]
    return {k: (v["dtype"], v["shape"], body[v["data_offsets"][0]:v["data_offsets"][1]])
            for k, v in header.items()}, meta


def test_ckpt_to_safetensors_matches_mindspore(tmp_path):
    # Same header entries, metadata and tensor bytes as real MindSpore's output (it keeps the checkpoint's order;
    # the shared safetensors writer stores names sorted: both are valid files).
    case = CASES["ckpt_to_safetensors"]
    src = tmp_path / "net.ckpt"
    src.write_bytes(case.inputs["ckpt"].tobytes())
    ms.ckpt_to_safetensors(str(src))
    got = (tmp_path / "net.safetensors").read_bytes()
    want = case.outputs[0].tobytes()
    assert len(got) == len(want)
    assert _entries(got) == _entries(want)


def test_safetensors_to_ckpt_round_trip_with_name_map(tmp_path):
    case = CASES["ckpt_to_safetensors"]
    st = tmp_path / "in" / "net.safetensors"
    st.parent.mkdir()
    st.write_bytes(case.outputs[0].tobytes())
    ms.safetensors_to_ckpt(str(st), str(tmp_path / "out"), name_map={"w": "fc.weight"})
    back = ms.load_checkpoint(str(tmp_path / "out" / "net.ckpt"))
    assert sorted(back) == ["b", "fc.weight", "h"]
    orig = ms.load_checkpoint(str(st), format="safetensors")
    np.testing.assert_array_equal(back["fc.weight"].asnumpy(), orig["w"].asnumpy())
    assert back["h"].dtype == ms.float16


def test_safetensors_header_is_standard(tmp_path):
    ms.save_checkpoint(nn.Dense(3, 2), str(tmp_path / "d.ckpt"))
    ms.ckpt_to_safetensors(str(tmp_path / "d.ckpt"), str(tmp_path / "st"))
    raw = (tmp_path / "st" / "d.safetensors").read_bytes()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + n])
    assert header["weight"]["dtype"] == "F32" and header["weight"]["shape"] == [2, 3]
    assert header["__metadata__"]["format"] == "ms"


def test_convert_directory_of_ranks(tmp_path):
    for r in range(2):
        (tmp_path / "src" / f"rank{r}").mkdir(parents=True)
        ms.save_checkpoint({"p": ms.Tensor(np.full((2,), r, np.float32))},
                           str(tmp_path / "src" / f"rank{r}" / "a.ckpt"))
    ms.ckpt_to_safetensors(str(tmp_path / "src"), str(tmp_path / "dst"))
    for r in range(2):
        got = ms.load_checkpoint(str(tmp_path / "dst" / f"rank{r}" / "a.safetensors"), format="safetensors")
        np.testing.assert_array_equal(got["p"].asnumpy(), [r, r])
    with pytest.raises(ValueError, match="no directories starting with 'rank'"):
        ms.ckpt_to_safetensors(str(tmp_path / "dst" / "rank0"))
    with pytest.raises(ValueError, match="must be a .ckpt file"):
        ms.ckpt_to_safetensors(str(tmp_path / "dst" / "rank0" / "a.safetensors"))


def test_load_checkpoint_async_and_thread_status(tmp_path):
    net = nn.Dense(2, 2)
    ms.save_checkpoint(net, str(tmp_path / "n.ckpt"), async_save=True)
    ms.serialization.wait_async_save()
    assert ms.async_ckpt_thread_status() is False
    params = ms.load_checkpoint_async(str(tmp_path / "n.ckpt")).result()
    np.testing.assert_array_equal(params["weight"].asnumpy(), net.weight.asnumpy())
    with pytest.raises(ValueError, match="does not exist"):
        ms.load_checkpoint_async(str(tmp_path / "missing.ckpt")).result()


def test_load_segmented_checkpoints(tmp_path):
    net = nn.Dense(2, 2)
    ms.save_checkpoint(net, str(tmp_path / "part0.ckpt"), choice_func=lambda n: n == "weight")
    ms.save_checkpoint(net, str(tmp_path / "part1.ckpt"), choice_func=lambda n: n == "bias")
    fresh = nn.Dense(2, 2)
    params = ms.train.load_segmented_checkpoints(str(tmp_path), fresh)
    assert sorted(params) == ["bias", "weight"]
    np.testing.assert_array_equal(fresh.weight.asnumpy(), net.weight.asnumpy())
    with pytest.raises(ValueError, match="not a directory"):
        ms.train.load_segmented_checkpoints(str(tmp_path / "part0.ckpt"))


def test_merge_sliced_parameter():
    a = ms.Parameter(ms.Tensor(np.ones((1, 3), np.float32)), "w")
    b = ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float32)), "w")
    merged = ms.merge_sliced_parameter([a, b])
    assert merged.name == "w" and merged.shape == (3, 3)
    np.testing.assert_array_equal(merged.asnumpy()[:, 0], [1, 0, 0])
    with pytest.raises(ValueError, match="same name"):
        ms.merge_sliced_parameter([a, ms.Parameter(ms.Tensor(np.ones((1, 3), np.float32)), "v")])


def test_load_and_save_mindir_round_trip(tmp_path):
    ms.export(nn.Dense(3, 2), ms.Tensor(np.ones((1, 3), np.float32)), file_name=str(tmp_path / "d"),
              file_format="MINDIR")
    model = ms.load_mindir(str(tmp_path / "d.mindir"))
    assert len(model.graph.node) > 0
    ms.save_mindir(model, str(tmp_path / "copy"))
    assert (tmp_path / "copy.mindir").read_bytes() == (tmp_path / "d.mindir").read_bytes()
    with pytest.raises(ValueError, match="end with '.mindir'"):
        ms.load_mindir(str(tmp_path / "d.ckpt"))
    os.remove(tmp_path / "copy.mindir")
