"""Exported ModelZoo networks reload in a fresh process and match the live network: StableHLO at two batch sizes
(its batch axis is symbolic), MindIR at the exported shape (MindSpore's MindIR graphs have static shapes)."""
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor
from model_zoo.lenet.src import LeNet5
from model_zoo.resnet.src import resnet50

_RUNNER = """
import sys, numpy as np
import mindspore_hl as ms
from mindspore_hl import nn
graph = nn.GraphCell(ms.load(sys.argv[1]))
for i, path in enumerate(sys.argv[2:]):
    np.save(path + ".out.npy", graph(ms.Tensor(np.load(path))).asnumpy())
"""


def _roundtrip(net, shape_tail, batches, tmp_path, tol, file_format="STABLEHLO"):
    net.set_train(False)
    example = (batches[0] if file_format == "MINDIR" else 1,) + shape_tail
    path = ms.export(net, Tensor(np.zeros(example, np.float32)), file_name=str(tmp_path / "net"),
                     file_format=file_format)
    rng = np.random.default_rng(0)
    inputs = []
    for b in batches:
        p = tmp_path / f"x{b}.npy"
        np.save(p, rng.normal(size=(b,) + shape_tail).astype(np.float32))
        inputs.append(p)
    # A fresh interpreter that never imports the model code: the graph alone must be enough.
    subprocess.run([sys.executable, "-c", _RUNNER, path] + [str(p) for p in inputs], check=True,
                   cwd=tmp_path, timeout=600)
    for p in inputs:
        got = np.load(str(p) + ".out.npy")
        want = net(Tensor(np.load(p))).asnumpy()
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, **tol)


def test_lenet_export_reloads_in_fresh_process(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    _roundtrip(LeNet5(10), (1, 32, 32), (3, 17), tmp_path, dict(rtol=1e-5, atol=1e-5))


def test_lenet_mindir_reloads_in_fresh_process(tmp_path):
    _roundtrip(LeNet5(10), (1, 32, 32), (3,), tmp_path, dict(rtol=1e-5, atol=1e-5), file_format="MINDIR")


@pytest.mark.slow
def test_resnet50_export_reloads_in_fresh_process(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    _roundtrip(resnet50(10), (3, 32, 32), (2, 5), tmp_path, dict(rtol=1e-4, atol=1e-4))


def test_export_rejects_unknown_format_and_load_names_bad_file(tmp_path):
    with pytest.raises(ValueError, match="file_format"):
        ms.export(LeNet5(), Tensor(np.zeros((1, 1, 32, 32), np.float32)), file_name=str(tmp_path / "n"),
                  file_format="AIR")
    bad = tmp_path / "bad.mindir"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match=str(bad)):
        ms.load(str(bad))


def test_graph_cell_checks_input_shape(tmp_path):
    path = ms.export(LeNet5(), Tensor(np.zeros((2, 1, 32, 32), np.float32)), file_name=str(tmp_path / "n"),
                     file_format="STABLEHLO")
    graph = ms.nn.GraphCell(ms.load(path))
    with pytest.raises(ValueError, match=r"\(N, 1, 32, 32\)"):
        graph(Tensor(np.zeros((2, 1, 28, 28), np.float32)))
    assert pathlib.Path(path).suffix == ".shlo"
    path = ms.export(LeNet5(), Tensor(np.zeros((2, 1, 32, 32), np.float32)), file_name=str(tmp_path / "n"))
    assert pathlib.Path(path).suffix == ".mindir"  # MINDIR is the default format, as in MindSpore
    with pytest.raises(ValueError, match=r"\(2, 1, 32, 32\)"):
        ms.nn.GraphCell(ms.load(path))(Tensor(np.zeros((2, 1, 28, 28), np.float32)))
