"""Dump (``MINDSPORE_DUMP_CONFIG``) and ``set_dump`` against real MindSpore 2.10's CPU dump
(tests/fixtures/oracle/dump.npz, recorded by tools/oracle/record_dump.py on the same network and weights).

What is compared, and why not more: MindSpore runs ``nn.Dense`` as ``MatMul`` + ``BiasAdd`` and a biased ``Conv2d``
as ``Conv2D`` + ``BiasAdd``; here each is one kernel (``Dense`` / ``Conv2D`` with the bias as input 2), and
``nn.Flatten`` is a ``Reshape``. So the tests compare: the directory layout and file-name grammar, the iterations
dumped, the Cells whose kernels are dumped (the scope part of the kernel names), which of inputs / outputs /
Parameters are written, and the values wherever one kernel here and one there see the same tensor (the layer's
input and weights, its final output, ReLU and Flatten in and out, the Parameters). Error cases compare MindSpore's
message. ``dump_mode`` 2 and ``saved_data`` "statistic" differ on purpose (MindSpore's CPU build refuses both; here
dump_mode 2 works and statistic is refused with a message of its own): those tests check this package's
behaviour and assert that the oracle refused.
"""
from __future__ import annotations

import copy
import glob
import json
import os
import warnings

import numpy as np
import pytest
from oracle import FIXTURE_ROOT, assert_close, load_cases

import mindspore_hl as ms
from mindspore_hl import nn, ops
from mindspore_hl._dump import DumpConfigError, parse

CASES = load_cases(FIXTURE_ROOT / "dump.npz")
W = CASES["dump/all"].inputs


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 2, 3, pad_mode="valid", has_bias=True, weight_init=ms.Tensor(W["conv_weight"]),
                              bias_init=ms.Tensor(W["conv_bias"]))
        self.relu = nn.ReLU()
        self.flatten = nn.Flatten()
        self.fc = nn.Dense(8, 3, weight_init=ms.Tensor(W["fc_weight"]), bias_init=ms.Tensor(W["fc_bias"]))
        self.out = nn.ReLU()

    def construct(self, x):
        return self.out(self.fc(self.flatten(self.relu(self.conv(x)))))


def _configure(monkeypatch, tmp_path, config):
    config = copy.deepcopy(config)
    out = str(tmp_path / "out")
    config["common_dump_settings"]["path"] = out
    file = tmp_path / "dump.json"
    file.write_text(json.dumps(config))
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(file))
    return out


def _files(out):
    """[(iteration, op_type, op_name, io, slot, dtype, path)] as the recorder lists MindSpore's files."""
    rows = []
    for f in sorted(glob.glob(os.path.join(out, "rank_0", "Net", "*", "*", "*.npy"))):
        parts = os.path.basename(f).split(".")
        assert len(parts) == 10 and parts[2:4] == ["0", "0"] and parts[4].isdigit() and parts[7] == "DefaultFormat"
        rows.append((int(f.split(os.sep)[-2]), parts[0], parts[1], parts[5], int(parts[6]), parts[8], f))
    return rows


def _run(monkeypatch, tmp_path, case_id, net=None):
    case = CASES[case_id]
    out = _configure(monkeypatch, tmp_path, case.meta["config"])
    ms.set_context(mode=ms.GRAPH_MODE)
    net = net or Net()
    for _ in range(case.meta["runs"]):
        net(ms.Tensor(W["x"])).asnumpy()
    return case, out, _files(out)


def _scope(row):
    """The Cell part of a kernel name: 'Default_fc-Dense_MatMul-op0' -> 'Default_fc-Dense' (Parameters: None)."""
    return None if row[1] == "Parameter" else row[2].rsplit("_", 1)[0]


def test_layout_names_and_values_match_mindspore(monkeypatch, tmp_path):
    case, out, ours = _run(monkeypatch, tmp_path, "dump/all")
    theirs = case.meta["files"]
    assert {r[0] for r in ours} == {r[0] for r in theirs} == {0, 1}
    assert {_scope(r) for r in ours} == {_scope(r) for r in theirs}
    assert {r[5] for r in ours} == {"Float32"}
    expected = {tuple(name): value for name, value in zip(case.meta["arrays"], case.outputs)}
    got = {(r[1], r[2], r[3], r[4]): np.load(r[6]) for r in ours if r[0] == 0}
    # Parameters: same names and values (the weights and the graph input x).
    assert {k for k in got if k[0] == "Parameter"} == {k for k in expected if k[0] == "Parameter"}
    pairs = [(k, k) for k in expected if k[0] in ("Parameter", "ReLU")]
    # Kernels fused here (bias inside Dense / Conv2D) or named otherwise (Flatten is a Reshape): the same tensors.
    conv, fc = "Default_conv-Conv2d_", "Default_fc-Dense_"
    pairs += [(("Conv2D", conv + "Conv2D-op0", "input", 0), ("Conv2D", conv + "Conv2D-op0", "input", 0)),
              (("Conv2D", conv + "Conv2D-op0", "input", 1), ("Conv2D", conv + "Conv2D-op0", "input", 1)),
              (("Conv2D", conv + "Conv2D-op0", "input", 2), ("BiasAdd", conv + "BiasAdd-op0", "input", 1)),
              (("Conv2D", conv + "Conv2D-op0", "output", 0), ("BiasAdd", conv + "BiasAdd-op0", "output", 0)),
              (("Reshape", "Default_flatten-Flatten_Reshape-op0", "input", 0),
               ("Flatten", "Default_flatten-Flatten_Flatten-op0", "input", 0)),
              (("Reshape", "Default_flatten-Flatten_Reshape-op0", "output", 0),
               ("Flatten", "Default_flatten-Flatten_Flatten-op0", "output", 0)),
              (("Dense", fc + "Dense-op0", "input", 0), ("MatMul", fc + "MatMul-op0", "input", 0)),
              (("Dense", fc + "Dense-op0", "input", 1), ("MatMul", fc + "MatMul-op0", "input", 1)),
              (("Dense", fc + "Dense-op0", "input", 2), ("BiasAdd", fc + "BiasAdd-op0", "input", 1)),
              (("Dense", fc + "Dense-op0", "output", 0), ("BiasAdd", fc + "BiasAdd-op0", "output", 0))]
    # MindSpore's CPU dump writes Flatten's output (and so MatMul's input 0) with the shape of Flatten's input: the
    # Flatten shares that buffer. Here they have their real shape (1, 8); the values are compared in order.
    reshaped = {("Flatten", "Default_flatten-Flatten_Flatten-op0", "output", 0),
                ("MatMul", fc + "MatMul-op0", "input", 0)}
    for mine, oracle in pairs:
        want = expected[oracle].reshape(got[mine].shape) if oracle in reshaped else expected[oracle]
        assert_close(got[mine], want, rtol=1e-5, atol=1e-6)
    assert len(got) == len(pairs)  # nothing else dumped (4 ReLU files, 5 Parameters, 10 for the fused layers)
    rank = os.path.join(out, "rank_0")
    with open(os.path.join(rank, ".dump_metadata", "data_dump.json")) as f:
        assert json.load(f)["common_dump_settings"]["path"] == out
    with open(os.path.join(rank, ".dump_metadata", "config.json")) as f:
        assert json.load(f)["ms_version"] == "2.10.0"
    with open(os.path.join(rank, "execution_order", "ms_execution_order_graph_0.csv")) as f:
        order = f.read().split("\n")
    assert order[0] == "NodeExecutionOrder-FullNameWithScope"
    assert order[1:] == ["Default/conv-Conv2d/Conv2D-op0", "Default/relu-ReLU/ReLU-op0",
                         "Default/flatten-Flatten/Reshape-op0", "Default/fc-Dense/Dense-op0",
                         "Default/out-ReLU/ReLU-op0", ""]
    assert [o.rsplit("/", 1)[0] for o in order[1:-1]] == \
        list(dict.fromkeys(o.rsplit("/", 1)[0] for o in case.meta["execution_order"]))
    with open(os.path.join(rank, "execution_order", "ms_global_execution_order_graph_0.csv")) as f:
        assert f.read() == "0\n1\n"


def test_iteration_ranges(monkeypatch, tmp_path):
    case, out, ours = _run(monkeypatch, tmp_path, "dump/iteration")  # "0|2-3" over 5 runs
    assert sorted({r[0] for r in ours}) == sorted({r[0] for r in case.meta["files"]}) == [0, 2, 3]
    with open(os.path.join(out, "rank_0", "execution_order", "ms_global_execution_order_graph_0.csv")) as f:
        assert f.read().split() == ["0", "1", "2", "3", "4"]


@pytest.mark.parametrize("name", ["input_only", "output_only", "kernels_type", "kernels_regex", "kernels_name",
                                  "exception_dump", "overflow_dump", "file_format_not_read"])
def test_input_output_and_kernels_select_as_mindspore(monkeypatch, tmp_path, name):
    case, _, ours = _run(monkeypatch, tmp_path, f"dump/{name}")
    theirs = case.meta["files"]
    # Which Cells' kernels, which of inputs / outputs, and whether Parameters are dumped.
    assert {(_scope(r), r[3]) for r in ours} == {(_scope(r), r[3]) for r in theirs}


def test_train_step_dumps_parameters_after_the_update(monkeypatch, tmp_path):
    case = CASES["dump/train"]
    out = _configure(monkeypatch, tmp_path, case.meta["config"])
    ms.set_context(mode=ms.GRAPH_MODE)
    dense = nn.Dense(8, 3, weight_init=ms.Tensor(W["fc_weight"]), bias_init=ms.Tensor(W["fc_bias"]))
    step = nn.TrainOneStepCell(nn.WithLossCell(dense, nn.MSELoss()), nn.SGD(dense.trainable_params(), 0.1))
    step(ms.Tensor(W["x"].reshape(2, 8)), ms.Tensor(np.zeros((2, 3), np.float32))).asnumpy()
    got = {r[2]: np.load(r[6]) for r in _files(out) if r[1] == "Parameter"}
    expected = {name[1]: value for name, value in zip(case.meta["arrays"], case.outputs)}
    for name in ("weight", "bias", "inputs0", "inputs1"):  # updated weights; *inputs named as MindSpore does
        assert_close(got[name], expected[name], rtol=1e-5, atol=1e-6)


def test_dump_mode_2_dumps_what_set_dump_marked(monkeypatch, tmp_path):
    assert CASES["dump/dump_mode_2"].meta["message"].startswith("Set dump is only supported in Ascend")
    config = copy.deepcopy(CASES["dump/all"].meta["config"])
    config["common_dump_settings"]["dump_mode"] = 2
    out = _configure(monkeypatch, tmp_path, config)
    ms.set_context(mode=ms.GRAPH_MODE)

    class PrimNet(Net):
        def __init__(self):
            super().__init__()
            self.sigmoid = ops.Sigmoid()

        def construct(self, x):
            return self.sigmoid(super().construct(x))

    net = PrimNet()
    ms.set_dump(net.fc)
    ms.set_dump(net.sigmoid)
    net(ms.Tensor(W["x"])).asnumpy()
    assert {(r[1], _scope(r)) for r in _files(out)} == {("Dense", "Default_fc-Dense"), ("Sigmoid", "Default")}


def test_set_dump_flags_and_checks():
    net = Net()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning: unlike MindSpore off Ascend, every device dumps the marks
        assert ms.set_dump(net) is None
    assert all(c.get_flags()["dump"] is True for c in [net] + list(net.cells()))
    prim = ops.Add()
    ms.set_dump(prim, False)
    assert prim.attrs["dump"] == "false"
    with pytest.raises(ValueError, match=r"The \"target\" parameter must be an instance of Cell or Primitive, but got "
                                         r"an instance of <class 'int'>\."):
        ms.set_dump(1)
    with pytest.raises(ValueError, match=r"The \"enabled\" parameter must be bool\."):
        ms.set_dump(net, 1)


ERRORS = sorted(k for k, c in CASES.items() if c.error and k != "dump/dump_mode_2")


@pytest.mark.parametrize("case_id", ERRORS)
def test_bad_configs_raise_mindspores_message(tmp_path, case_id):
    case = CASES[case_id]
    file = tmp_path / "cfg.json"
    config = case.meta["config"]
    if "common_dump_settings" in config and config["common_dump_settings"].get("path", "").startswith("/tmp/"):
        if " " not in config["common_dump_settings"]["path"]:
            config["common_dump_settings"]["path"] = str(tmp_path / "out")
    file.write_text(json.dumps(config))
    with pytest.raises(RuntimeError) as info:
        parse(str(file))
    message = str(info.value)
    assert isinstance(info.value, DumpConfigError) and f"'{file}'" in message
    if case_id == "dump/statistic":  # refused here too, but not "only on GPU and Ascend": no device dumps it here
        assert message.startswith("Dump Json parse failed, storing statistic dump is")
    else:
        assert message.startswith(case.meta["message"]), (message, case.meta["message"])


def test_unreadable_config_and_engine_error(monkeypatch, tmp_path):
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(tmp_path / "missing.json"))
    ms.set_context(mode=ms.GRAPH_MODE)
    with pytest.raises(RuntimeError, match="missing.json"):
        Net()(ms.Tensor(W["x"]))
    (tmp_path / "bad.json").write_text("{not json")
    monkeypatch.setenv("MINDSPORE_DUMP_CONFIG", str(tmp_path / "bad.json"))
    with pytest.raises(RuntimeError, match="Parse dump json failed.*bad.json"):
        Net()(ms.Tensor(W["x"]))


def test_off_writes_nothing_and_keeps_the_program(monkeypatch, tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    monkeypatch.delenv("MINDSPORE_DUMP_CONFIG", raising=False)
    net, x = Net(), ms.Tensor(W["x"])
    plain = net.lower(x).as_text()
    net(x).asnumpy()  # compiled without dump
    out = _configure(monkeypatch, tmp_path, CASES["dump/all"].meta["config"])
    hooked = net.lower(x).as_text()
    assert hooked != plain and "callback" in hooked
    net(x).asnumpy()  # the program compiled without dump is not reused
    assert {r[0] for r in _files(out)} == {0}
    monkeypatch.delenv("MINDSPORE_DUMP_CONFIG")
    assert net.lower(x).as_text() == plain
    before = sorted(glob.glob(os.path.join(out, "**"), recursive=True))
    net(x).asnumpy()  # nor is the one with dump hooks reused once the variable is unset
    assert sorted(glob.glob(os.path.join(out, "**"), recursive=True)) == before


def test_pynative_ops_are_not_dumped_but_jit_functions_are(monkeypatch, tmp_path):
    out = _configure(monkeypatch, tmp_path, CASES["dump/all"].meta["config"])
    ms.set_context(mode=ms.PYNATIVE_MODE)
    Net()(ms.Tensor(W["x"])).asnumpy()  # MindSpore 2.10 writes nothing for PYNATIVE either
    assert _files(out) == []

    @ms.jit
    def f(a):
        return ops.relu(a)

    f(ms.Tensor(W["fc_bias"])).asnumpy()
    rows = _files(out)
    assert {(r[1], r[3]) for r in rows} == {("ReLU", "input"), ("ReLU", "output"), ("Parameter", "output")}
    relu_in = next(np.load(r[6]) for r in rows if r[1] == "ReLU" and r[3] == "input")
    assert_close(relu_in, W["fc_bias"])


def test_unwritable_path_is_logged_and_the_step_runs(monkeypatch, tmp_path, caplog):
    (tmp_path / "file").write_text("")
    config = copy.deepcopy(CASES["dump/all"].meta["config"])
    _configure(monkeypatch, tmp_path, config)
    config["common_dump_settings"]["path"] = str(tmp_path / "file" / "dump")  # under a regular file
    (tmp_path / "dump.json").write_text(json.dumps(config))
    ms.set_context(mode=ms.GRAPH_MODE)
    out = nn.ReLU()(ms.Tensor(W["fc_bias"]))  # as MindSpore: an error is logged, the step's result is intact
    assert_close(out, np.maximum(W["fc_bias"], 0))
    assert "Dump: cannot write under" in caplog.text


@pytest.mark.devices(2)
def test_parallel_steps_are_refused(monkeypatch, tmp_path):
    _configure(monkeypatch, tmp_path, CASES["dump/all"].meta["config"])
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    with pytest.raises(NotImplementedError, match="devices \\(a parallel mode\\) is not supported"):
        nn.Dense(4, 3)(ms.Tensor(np.ones((8, 4), np.float32)))
