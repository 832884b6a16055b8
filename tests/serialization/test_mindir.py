"""MindIR both ways, checked against real MindSpore 2.10.

- Files that real MindSpore exported (``tests/fixtures/mindspore/lenet5/lenet5.mindir`` and the small ResNet and
  Transformer-encoder networks of ``tools/oracle/record_mindir.py``) run here with real MindSpore's outputs.
- Files exported here (``hl_<net>.mindir``) were run by real MindSpore, which recorded its outputs on them
  (``hl_outputs.npz``); the exporter must still write those exact bytes, and the networks here must give those
  outputs.
- ModelZoo's ResNet50 both ways: its MindIR (94 MB) is too large to commit, so the fixtures keep real MindSpore's
  outputs and the file's SHA-256. The file exported here must hash the same; real MindSpore's file is rebuilt
  from its committed graph and the seeded weights, and must hash as the file real MindSpore wrote.
"""
import hashlib
import os
import pathlib

import numpy as np
import pytest
from mindir_nets import networks, resnet50_case
from mindir_weights import seeded_value
from oracle import assert_close, load_cases

import mindspore_hl as ms
from mindspore_hl import Tensor, nn, ops
from mindspore_hl.serialization import MindIRGraph
from mindspore_hl.serialization._mindir_proto import ModelProto
from mindspore_hl.serialization._mindir_read import MindIRError
from mindspore_hl.serialization._mindir_write import MindIRExportError

HERE = pathlib.Path(__file__).resolve().parent
MINDIR = HERE.parent / "fixtures" / "oracle" / "mindir"
LENET = HERE.parent / "fixtures" / "mindspore" / "lenet5"


def test_real_mindspore_lenet5_mindir_runs_here():
    graph = ms.load(str(LENET / "lenet5.mindir"))
    assert isinstance(graph, MindIRGraph)
    assert graph.parameter_names[:2] == ["conv1.weight", "conv2.weight"]
    out = nn.GraphCell(graph)(Tensor(np.load(LENET / "input.npy")))
    assert_close(out, np.load(LENET / "logits.npy"), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["mini_resnet", "mini_encoder"])
def test_real_mindspore_mindir_runs_here(name):
    case = load_cases(MINDIR / "mindir.npz")[name]
    graph = ms.load(str(MINDIR / f"{name}.mindir"))
    assert sorted(graph.parameter_names) == sorted(case.meta["params"])
    out = nn.GraphCell(graph)(*[Tensor(x) for x in case.inputs.values()])
    assert_close(out, case.outputs[0], rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_real_mindspore_resnet50_mindir_runs_here(tmp_path):
    case = load_cases(MINDIR / "mindir.npz")["resnet50"]
    model = ModelProto()
    model.ParseFromString((MINDIR / "resnet50_graph.mindir").read_bytes())
    prefix = model.graph.name + ":"
    for t in model.graph.parameter:
        t.raw_data = seeded_value(t.name[len(prefix):], tuple(t.dims), case.meta["seed"]).tobytes()
    data = model.SerializeToString()
    assert hashlib.sha256(data).hexdigest() == case.meta["sha256"]  # the bytes real MindSpore exported and ran
    path = tmp_path / "resnet50.mindir"
    path.write_bytes(data)
    graph = ms.load(str(path))
    assert sorted(graph.parameter_names) == sorted(case.meta["params"])
    assert_close(nn.GraphCell(graph)(Tensor(case.inputs["x0"])), case.outputs[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["lenet5", "mini_resnet", "encoder"])
def test_mindir_exported_here_ran_in_real_mindspore(name, tmp_path):
    net, x = networks()[name]
    recorded = load_cases(MINDIR / "hl_outputs.npz")[name]
    np.testing.assert_array_equal(recorded.inputs["x"], x)
    path = ms.export(net, Tensor(x), file_name=str(tmp_path / name), file_format="MINDIR")
    # The file real MindSpore ran is the file the exporter writes today.
    assert pathlib.Path(path).read_bytes() == (MINDIR / f"hl_{name}.mindir").read_bytes()
    assert_close(net(Tensor(x)), recorded.outputs[0], rtol=1e-5, atol=1e-5)
    assert_close(ms.load(path)(Tensor(x)), recorded.outputs[0], rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_resnet50_mindir_exported_here_ran_in_real_mindspore(tmp_path):
    net, x = resnet50_case()
    recorded = load_cases(MINDIR / "hl_outputs.npz")["resnet50"]
    np.testing.assert_array_equal(recorded.inputs["x"], x)
    path = ms.export(net, Tensor(x), file_name=str(tmp_path / "resnet50"), file_format="MINDIR")
    # The exporter writes the very file real MindSpore ran (the export itself already ran it with the reader
    # and compared it with the network's output).
    assert hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest() == recorded.meta["sha256"]
    assert_close(net(Tensor(x)), recorded.outputs[0], rtol=1e-5, atol=1e-5)


def test_export_in_graph_mode_writes_the_same_file(tmp_path):
    net, x = networks()["mini_resnet"]
    first = ms.export(net, Tensor(x), file_name=str(tmp_path / "a"), file_format="MINDIR")
    ms.set_context(mode=ms.GRAPH_MODE)
    second = ms.export(net, Tensor(x), file_name=str(tmp_path / "b"), file_format="MINDIR")
    assert pathlib.Path(first).read_bytes() == pathlib.Path(second).read_bytes()


def test_unsupported_primitive_is_named_with_its_node(tmp_path):
    from mindspore_hl.serialization._mindir_proto import ModelProto
    model = ModelProto()
    model.ParseFromString((LENET / "lenet5.mindir").read_bytes())
    conv = next(p for p in model.primitives if p.op_type == "Conv2D")
    conv.op_type = "Conv3DTranspose"
    path = tmp_path / "bad.mindir"
    path.write_bytes(model.SerializeToString())
    with pytest.raises(MindIRError, match=r"bad\.mindir: node .*conv\d-Conv2d.*'Conv3DTranspose' is not supported"):
        ms.load(str(path))


def test_a_file_that_is_not_mindir_is_named(tmp_path):
    path = tmp_path / "noise.mindir"
    path.write_bytes(os.urandom(64) + b"\xff" * 64)
    with pytest.raises(ValueError, match="noise.mindir"):
        ms.load(str(path))


def test_wrong_input_shape_is_reported():
    graph = ms.load(str(LENET / "lenet5.mindir"))
    with pytest.raises(ValueError, match=r"input 0 must have shape \(4, 1, 32, 32\).*\(4, 1, 28, 28\)"):
        graph(np.zeros((4, 1, 28, 28), np.float32))


class _JnpInside(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 2)

    def construct(self, x):
        return self.fc(Tensor(np.float32(2.0)) ** ops.relu(x))  # the power is not an exportable op


def test_computation_outside_ops_stops_the_export(tmp_path):
    with pytest.raises(MindIRExportError, match="op 'dense' received a value computed outside"):
        ms.export(_JnpInside(), Tensor(np.ones((2, 4), np.float32)), file_name=str(tmp_path / "x"),
                  file_format="MINDIR")
    assert not (tmp_path / "x.mindir").exists()
