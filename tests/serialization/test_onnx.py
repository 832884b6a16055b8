"""ONNX export (LeNet5, ResNet, a Transformer encoder) runs in onnxruntime with mindspore_hl's outputs, at batch sizes
other than the example's."""
import numpy as np
import pytest
from mindir_nets import networks, resnet50_case
from oracle import assert_close

import mindspore_hl as ms
from mindspore_hl import Tensor

ort = pytest.importorskip("onnxruntime")
pytest.importorskip("jax2onnx")


def _check_two_batch_sizes(net, x, name, tmp_path):
    path = ms.export(net, Tensor(x), file_name=str(tmp_path / name), file_format="ONNX")
    assert path.endswith(".onnx")
    session = ort.InferenceSession(path)
    (inp,) = session.get_inputs()
    rng = np.random.default_rng(3)
    for batch in (1, 5):
        xb = rng.normal(size=(batch,) + x.shape[1:]).astype(np.float32)
        (out,) = session.run(None, {inp.name: xb})
        assert_close(out, net(Tensor(xb)).asnumpy(), rtol=1e-5, atol=1e-5, what=f"batch {batch}")


@pytest.mark.parametrize("name", ["lenet5", "mini_resnet",
                                  pytest.param("encoder", marks=pytest.mark.slow)])  # encoder: ~7 s, eager reference
def test_onnx_export_runs_in_onnxruntime_at_two_batch_sizes(name, tmp_path):
    net, x = networks()[name]
    _check_two_batch_sizes(net, x, name, tmp_path)


@pytest.mark.slow
def test_resnet50_onnx_export_runs_in_onnxruntime_at_two_batch_sizes(tmp_path):
    net, x = resnet50_case()
    _check_two_batch_sizes(net, x, "resnet50", tmp_path)
