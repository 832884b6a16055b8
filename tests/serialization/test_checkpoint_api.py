"""save_checkpoint / load_checkpoint / load_param_into_net with Cells, Tensors and the MindSpore fixtures."""
import json
import os
import threading

import numpy as np
import pytest
from ckpt_test_support import LENET, RESNET

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.common.parameter import Parameter
from mindspore_hl.common.tensor import Tensor
from mindspore_hl.serialization import (
    CheckpointError,
    ParameterMismatchError,
    _ckpt_format,
    _save,
    load_checkpoint,
    load_param_into_net,
    save_checkpoint,
    wait_async_save,
)


class Head(nn.Cell):
    def __init__(self, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.weight = Parameter(Tensor(rng.standard_normal((3, 4)).astype(np.float32)))
        self.bias = Parameter(Tensor(np.zeros(3, np.float32)))


class Net(nn.Cell):
    def __init__(self, seed=0):
        super().__init__()
        rng = np.random.default_rng(seed + 100)
        self.emb = Parameter(Tensor(rng.standard_normal((5, 4)).astype(np.float32)))
        self.steps = Parameter(Tensor(np.array([seed], np.int32)), requires_grad=False)
        self.fc = Head(seed)


class LeNetShapes(nn.Cell):
    """A Cell with the LeNet5 fixture's parameter names and shapes (values are placeholders to overwrite)."""

    def __init__(self):
        super().__init__()
        for name, shape in [("conv1", (6, 1, 5, 5)), ("conv2", (16, 6, 5, 5))]:
            cell = nn.Cell()
            cell.weight = Parameter(Tensor(np.zeros(shape, np.float32)))
            setattr(self, name, cell)
        for name, shape in [("fc1", (120, 400)), ("fc2", (84, 120)), ("fc3", (10, 84))]:
            cell = nn.Cell()
            cell.weight = Parameter(Tensor(np.zeros(shape, np.float32)))
            cell.bias = Parameter(Tensor(np.zeros(shape[:1], np.float32)))
            setattr(self, name, cell)


def _values(net):
    return {name: p.asnumpy().copy() for name, p in net.parameters_and_names()}


# ------------------------------------------------------------------------------------------------------------
# Cell round trip
# ------------------------------------------------------------------------------------------------------------
def test_cell_save_writes_mindspore_names_in_order(tmp_path):
    net = Net(1)
    save_checkpoint(net, str(tmp_path / "net.ckpt"))
    items = _ckpt_format.read(tmp_path / "net.ckpt")
    assert [n for n, _ in items] == ["emb", "steps", "fc.weight", "fc.bias"]
    for (name, arr), (pname, p) in zip(items, net.parameters_and_names()):
        assert name == pname and arr.dtype == p.asnumpy().dtype
        np.testing.assert_array_equal(arr, p.asnumpy())


def test_save_load_into_fresh_net(tmp_path):
    src, dst = Net(1), Net(2)
    path = str(tmp_path / "net.ckpt")
    save_checkpoint(src, path)
    params = load_checkpoint(path)
    assert list(params) == ["emb", "steps", "fc.weight", "fc.bias"]
    assert all(isinstance(p, Parameter) and p.name == n for n, p in params.items())
    assert params["steps"].dtype == ms.int32 and params["steps"].shape == (1,)
    assert load_param_into_net(dst, params) == ([], [])
    for (n, a), (m, b) in zip(_values(src).items(), _values(dst).items()):
        assert n == m
        np.testing.assert_array_equal(a, b)


def test_load_checkpoint_with_net_loads_it(tmp_path):
    src, dst = Net(3), Net(4)
    save_checkpoint(src, str(tmp_path / "n.ckpt"), append_dict={"epoch_num": 2})
    params = load_checkpoint(str(tmp_path / "n.ckpt"), net=dst)
    assert "epoch_num" in params
    np.testing.assert_array_equal(dst.fc.weight.asnumpy(), src.fc.weight.asnumpy())


def test_list_and_dict_save_obj(tmp_path):
    t = Tensor(np.arange(4, dtype=np.float64))
    save_checkpoint([{"name": "a", "data": t}, {"name": "msg", "data": "hello"}], str(tmp_path / "l.ckpt"))
    save_checkpoint({"a": t, "p": Parameter(Tensor(np.ones(2, np.float16)), name="p")}, str(tmp_path / "d.ckpt"))
    lst = load_checkpoint(str(tmp_path / "l.ckpt"))
    assert lst["msg"] == "hello" and lst["a"].dtype == ms.float64
    np.testing.assert_array_equal(lst["a"].asnumpy(), np.arange(4))
    dct = load_checkpoint(str(tmp_path / "d.ckpt"))
    assert list(dct) == ["a", "p"] and dct["p"].dtype == ms.float16


def test_bfloat16_round_trip(tmp_path):
    t = Tensor(np.array([1.0, -2.5, 3.0], np.float32), dtype=ms.bfloat16)
    save_checkpoint({"w": t}, str(tmp_path / "b.ckpt"))
    raw = _ckpt_format.read(tmp_path / "b.ckpt")
    assert raw[0][1].dtype.name == "bfloat16"
    back = load_checkpoint(str(tmp_path / "b.ckpt"))["w"]
    assert back.dtype == ms.bfloat16
    np.testing.assert_array_equal(back.asnumpy().astype(np.float32), [1.0, -2.5, 3.0])


# ------------------------------------------------------------------------------------------------------------
# append_dict, crc, file names
# ------------------------------------------------------------------------------------------------------------
def test_append_dict_types_like_mindspore(tmp_path):
    path = str(tmp_path / "a.ckpt")
    save_checkpoint(Net(), path, append_dict={"epoch_num": 5, "lr": 0.01, "note": "hi", "flag": True,
                                             "extra": Tensor(np.ones(2, np.int16))}, crc_check=True)
    raw = dict(_ckpt_format.read(path, crc_check=True))
    assert raw["epoch_num"].dtype == np.int64 and raw["epoch_num"].shape == ()
    assert raw["lr"].dtype == np.float32 and raw["lr"].shape == ()
    assert raw["flag"].dtype == np.bool_ and raw["note"] == "hi" and raw["extra"].dtype == np.int16
    params = load_checkpoint(path, crc_check=True)
    assert params["epoch_num"].dtype == ms.int64 and int(params["epoch_num"].asnumpy()) == 5
    assert params["lr"].dtype == ms.float32 and params["note"] == "hi"


def test_crc_append_fixture_through_api():
    params = load_checkpoint(str(LENET / "lenet5_crc_append.ckpt"), crc_check=True)
    assert params["epoch_num"].dtype == ms.int64 and params["epoch_num"].shape == ()
    assert int(params["epoch_num"].asnumpy()) == 5
    assert params["lr"].dtype == ms.float32 and float(params["lr"].asnumpy()) == pytest.approx(0.01)
    assert params["note"] == "hi" and type(params["note"]) is str
    net = LeNetShapes()
    del net.fc3.bias   # MindSpore's doc example: (['fc.bias'], ['epoch_num', 'lr', 'note'])-style result
    not_loaded, unused = load_param_into_net(net, params)
    assert not_loaded == [] and unused == ["fc3.bias", "epoch_num", "lr", "note"]


def test_lenet_fixture_into_cell():
    params = load_checkpoint(str(LENET / "lenet5_trained.ckpt"))
    net = LeNetShapes()
    not_loaded, unused = load_param_into_net(net, params)
    assert not_loaded == []
    assert unused[:3] == ["global_step", "learning_rate", "momentum"] and len(unused) == 11
    raw = dict(_ckpt_format.read(LENET / "lenet5_trained.ckpt"))
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), raw["fc1.weight"])
    assert params["global_step"].dtype == ms.int32


def test_resnet50_fixture_through_api(resnet_ckpt):
    params = load_checkpoint(str(resnet_ckpt))
    expected = json.loads((RESNET / "parameter_names.json").read_text())
    assert [(n, list(p.shape)) for n, p in params.items()] == [(n, s) for n, s, _ in expected]
    assert all(p.dtype == ms.float32 for p in params.values())


def test_suffix_appended_on_save(tmp_path):
    save_checkpoint(Net(), str(tmp_path / "model"))
    save_checkpoint(Net(), str(tmp_path / "model2"), format="safetensors")
    save_checkpoint(Net(), str(tmp_path / "model3.safetensors"), format="safetensors")
    assert sorted(os.listdir(tmp_path)) == ["model.ckpt", "model2.safetensors", "model3.safetensors"]


def test_load_path_errors(tmp_path):
    with pytest.raises(ValueError, match="should end with '.ckpt'"):
        load_checkpoint(str(tmp_path / "model.bin"))
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint(str(tmp_path / "missing.ckpt"))
    with pytest.raises(ValueError, match="'format' must be"):
        load_checkpoint(str(tmp_path / "m.ckpt"), format="pt")
    (tmp_path / "junk.ckpt").write_bytes(b"not a checkpoint at all")
    with pytest.raises(CheckpointError, match="junk.ckpt"):
        load_checkpoint(str(tmp_path / "junk.ckpt"))
    save_checkpoint(Net(), str(tmp_path / "st.safetensors"), format="safetensors")
    os.rename(tmp_path / "st.safetensors", tmp_path / "st.ckpt")
    with pytest.raises(CheckpointError, match="st.ckpt.*format='safetensors'"):
        load_checkpoint(str(tmp_path / "st.ckpt"))


def test_encryption_is_refused_clearly(tmp_path):
    with pytest.raises(NotImplementedError, match="encryption"):
        save_checkpoint(Net(), str(tmp_path / "e.ckpt"), enc_key=b"0" * 16)
    assert not (tmp_path / "e.ckpt").exists()
    save_checkpoint(Net(), str(tmp_path / "e.ckpt"))
    with pytest.raises(NotImplementedError, match="encrypted"):
        load_checkpoint(str(tmp_path / "e.ckpt"), dec_key=b"0" * 16)


def test_bad_save_arguments(tmp_path):
    with pytest.raises(TypeError, match="'save_obj' must be"):
        save_checkpoint(42, str(tmp_path / "x.ckpt"))
    with pytest.raises(TypeError, match="'name' and 'data'"):
        save_checkpoint([{"data": Tensor(np.ones(1, np.float32))}], str(tmp_path / "x.ckpt"))
    with pytest.raises(TypeError, match="append_dict values"):
        save_checkpoint(Net(), str(tmp_path / "x.ckpt"), append_dict={"bad": [1, 2]})
    with pytest.raises(ValueError, match="two entries are named 'emb'"):
        save_checkpoint(Net(), str(tmp_path / "x.ckpt"), append_dict={"emb": 1})
    with pytest.raises(IsADirectoryError):
        save_checkpoint(Net(), str(tmp_path))
    assert not (tmp_path / "x.ckpt").exists()


# ------------------------------------------------------------------------------------------------------------
# selection
# ------------------------------------------------------------------------------------------------------------
def test_choice_func_on_save_and_load(tmp_path):
    path = str(tmp_path / "c.ckpt")
    save_checkpoint(Net(), path, choice_func=lambda n: n.startswith("fc."), append_dict={"lr": 0.1})
    assert [n for n, _ in _ckpt_format.read(path)] == ["fc.weight", "fc.bias", "lr"]
    assert list(load_checkpoint(path, choice_func=lambda n: n != "lr")) == ["fc.weight", "fc.bias"]


def test_prefix_arguments_override_choice_func(tmp_path):
    path = str(tmp_path / "p.ckpt")
    save_checkpoint(Net(), path)
    reject_all = lambda n: False  # noqa: E731
    assert list(load_checkpoint(path, specify_prefix="fc", choice_func=reject_all)) == ["fc.weight", "fc.bias"]
    assert list(load_checkpoint(path, filter_prefix=["fc", "steps"])) == ["emb"]
    assert list(load_checkpoint(path, specify_prefix=("fc", "emb"), filter_prefix="fc.b")) == ["emb", "fc.weight"]
    with pytest.raises(ValueError, match="no parameter was loaded"):
        load_checkpoint(path, choice_func=reject_all)
    with pytest.raises(TypeError, match="specify_prefix"):
        load_checkpoint(path, specify_prefix=3)


# ------------------------------------------------------------------------------------------------------------
# load_param_into_net semantics
# ------------------------------------------------------------------------------------------------------------
def _pdict(**arrays):
    return {k: Parameter(Tensor(v), name=k) for k, v in arrays.items()}


def test_shape_mismatch_names_param_and_shapes():
    net = Net()
    bad = _pdict(**{"fc.weight": np.zeros((4, 3), np.float32)})
    with pytest.raises(ValueError, match=r"'fc.weight'.*\(3, 4\) in 'net'.*\(4, 3\) in 'parameter_dict'") as e:
        load_param_into_net(net, bad)
    assert isinstance(e.value, RuntimeError) and isinstance(e.value, ParameterMismatchError)


def test_trailing_unit_dims_are_reshaped_like_mindspore():
    net = Net()
    w = np.arange(12, dtype=np.float32).reshape(3, 4, 1, 1)
    load_param_into_net(net, _pdict(**{"fc.weight": w}))
    np.testing.assert_array_equal(net.fc.weight.asnumpy(), w.reshape(3, 4))


def test_dtype_cast_within_families_and_errors_across():
    net = Net()
    w64 = np.full((3, 4), 1.25, np.float64)
    not_loaded, _ = load_param_into_net(net, _pdict(**{"fc.weight": w64, "steps": np.array([9], np.int64)}))
    assert net.fc.weight.dtype == ms.float32 and net.steps.dtype == ms.int32
    np.testing.assert_array_equal(net.fc.weight.asnumpy(), w64.astype(np.float32))
    assert net.steps.asnumpy().tolist() == [9]
    with pytest.raises(ValueError, match=r"'fc.weight'.*Float32 in 'net' and Float64.*strict_load"):
        load_param_into_net(Net(), _pdict(**{"fc.weight": w64}), strict_load=True)
    with pytest.raises(ValueError, match=r"'fc.bias'.*Float32 in 'net' and Int32"):
        load_param_into_net(Net(), _pdict(**{"fc.bias": np.zeros(3, np.int32)}))


def test_prefixed_checkpoint_names_are_matched_when_not_strict():
    src = Net(7)
    params = {"network." + n: Parameter(Tensor(p.asnumpy()), name="network." + n)
              for n, p in src.parameters_and_names()}
    dst = Net(8)
    assert load_param_into_net(dst, params) == ([], [])
    np.testing.assert_array_equal(dst.emb.asnumpy(), src.emb.asnumpy())
    strict = Net(9)
    not_loaded, unused = load_param_into_net(strict, params, strict_load=True)
    assert not_loaded == ["emb", "steps", "fc.weight", "fc.bias"] and len(unused) == 4


def test_load_param_into_net_argument_errors():
    with pytest.raises(TypeError, match="'net' must be a Cell"):
        load_param_into_net({}, {})
    with pytest.raises(TypeError, match="must be a dict"):
        load_param_into_net(Net(), [])
    with pytest.raises(TypeError, match="'emb' holds int"):
        load_param_into_net(Net(), {"emb": 3})
    with pytest.raises(ValueError, match="'emb' in 'parameter_dict' is a str"):
        load_param_into_net(Net(), {"emb": "text"})


# ------------------------------------------------------------------------------------------------------------
# async save
# ------------------------------------------------------------------------------------------------------------
def test_async_save_does_not_block_and_snapshots(tmp_path, monkeypatch):
    release = threading.Event()
    started = threading.Event()
    real_write = _ckpt_format.write

    def slow_write(*args, **kwargs):
        started.set()
        assert release.wait(10)
        return real_write(*args, **kwargs)

    monkeypatch.setattr(_ckpt_format, "write", slow_write)
    net = Net(1)
    before = net.emb.asnumpy().copy()
    path = str(tmp_path / "a.ckpt")
    save_checkpoint(net, path, async_save=True)   # returns while the writer is blocked
    assert started.wait(10) and not os.path.exists(path)
    net.emb.set_data(Tensor(np.zeros((5, 4), np.float32)))   # training goes on
    release.set()
    wait_async_save()
    np.testing.assert_array_equal(dict(_ckpt_format.read(path))["emb"], before)


def test_async_save_is_awaited_by_load_and_errors_surface(tmp_path, monkeypatch):
    path = str(tmp_path / "b.ckpt")
    save_checkpoint(Net(2), path, async_save=True)
    assert list(load_checkpoint(path)) == ["emb", "steps", "fc.weight", "fc.bias"]

    def broken_write(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(_ckpt_format, "write", broken_write)
    save_checkpoint(Net(2), str(tmp_path / "c.ckpt"), async_save=True)
    with pytest.raises(RuntimeError, match="asynchronous save_checkpoint failed: disk full"):
        wait_async_save()
    wait_async_save()   # the error is reported once
    assert not _save._pending


# ------------------------------------------------------------------------------------------------------------
# safetensors through the API
# ------------------------------------------------------------------------------------------------------------
def test_safetensors_round_trip_through_api(tmp_path):
    src = Net(5)
    path = str(tmp_path / "n.safetensors")
    save_checkpoint(src, path, format="safetensors", append_dict={"epoch_num": 3, "note": "hi"}, crc_check=True)
    raw = open(path, "rb").read()
    header = json.loads(raw[8:8 + int.from_bytes(raw[:8], "little")])
    assert header["__metadata__"]["format"] == "ms" and header["emb"]["dtype"] == "F32"
    params = load_checkpoint(path, format="safetensors", crc_check=True)
    assert list(params) == sorted(["emb", "steps", "fc.weight", "fc.bias", "epoch_num"]) + ["note"]
    assert params["note"] == "hi" and params["epoch_num"].dtype == ms.int64
    dst = Net(6)
    assert load_param_into_net(dst, params) == ([], ["epoch_num", "note"])
    np.testing.assert_array_equal(dst.fc.weight.asnumpy(), src.fc.weight.asnumpy())


def test_safetensors_crc_mismatch(tmp_path):
    path = tmp_path / "n.safetensors"
    save_checkpoint(Net(5), str(path), format="safetensors", crc_check=True)
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 0x40
    path.write_bytes(bytes(raw))
    with pytest.raises(ValueError, match="crc check failed"):
        load_checkpoint(str(path), format="safetensors", crc_check=True)
    assert "emb" in load_checkpoint(str(path), format="safetensors")
