"""set_context / get_context / set_device / set_seed: values, validation, and the same code in both modes."""
import jax
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Parameter, Tensor, nn, ops


@pytest.fixture(autouse=True)
def _restore_device():
    yield
    ms.set_device("CPU", 0)


def test_mode_values_and_roundtrip():
    assert ms.GRAPH_MODE == 0 and ms.PYNATIVE_MODE == 1
    assert ms.get_context("mode") == ms.PYNATIVE_MODE  # MindSpore's default (the conftest resets to it)
    ms.set_context(mode=ms.GRAPH_MODE)
    assert ms.get_context("mode") == 0
    ms.context.set_context(mode=ms.PYNATIVE_MODE)
    assert ms.context.get_context("mode") == 1


def test_other_keys_are_stored():
    ms.set_context(jit_config={"jit_level": "O1"}, jit_syntax_level=ms.STRICT, save_graphs=False,
                   max_call_depth=2000, enable_graph_kernel=True, pynative_synchronize=True)
    assert ms.get_context("jit_config") == {"jit_level": "O1"} and ms.get_context("max_call_depth") == 2000
    assert ms.get_context("jit_syntax_level") == ms.STRICT


def test_bad_keys_and_modes():
    with pytest.raises(ValueError, match="'mode' must be GRAPH_MODE \\(0\\) or PYNATIVE_MODE \\(1\\).*5"):
        ms.set_context(mode=5)
    with pytest.raises(ValueError, match="'no_such_key' is not supported"):
        ms.set_context(no_such_key=1)
    with pytest.raises(ValueError, match="not supported"):
        ms.get_context("no_such_key")


@pytest.mark.host_cpu
def test_device_target_and_id():
    assert ms.get_context("device_target") == "CPU"
    ms.set_device("CPU", 1)
    assert ms.get_context("device_id") == 1
    assert Tensor([1.0]).asnumpy().tolist() == [1.0]
    assert (ops.ones(2) + 1)._value.devices() == {jax.devices("cpu")[1]}
    ms.set_device("cpu")  # case-insensitive, device 0
    assert ms.get_context("device_target") == "CPU" and ms.get_context("device_id") == 0
    with pytest.warns(FutureWarning, match="set_device"):
        ms.set_context(device_target="CPU", device_id=0)


def test_device_errors_name_what_is_installed():
    with pytest.raises(ValueError, match=r"'Ascend' is not available.*Installed targets: \['CPU', 'GPU'.*"
                                         r"entry-point group 'mindspore_hl.backends'"):
        ms.set_device("Ascend")
    with pytest.raises(ValueError, match="device_id 99 is out of range"):
        ms.set_device("CPU", 99)
    with pytest.raises(TypeError, match="device_target must be a str"):
        ms.set_device(3)


def test_seed():
    ms.set_seed(42)
    assert ms.get_seed() == 42
    a = ops.randn(3)
    ms.set_seed(42)
    np.testing.assert_array_equal(ops.randn(3).asnumpy(), a.asnumpy())
    from mindspore_hl.common import set_seed
    set_seed(7)
    assert ms.get_seed() == 7
    with pytest.raises(ValueError, match="non-negative int"):
        ms.set_seed(-1)


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(3, 2) / 10), name="w")

    def construct(self, x):
        h = ops.matmul(x, self.w)
        h = ops.where(h > 0.5, h, ops.zeros_like(h))
        return ops.softmax(ops.concat([h, ops.sum(h, 1, keepdim=True)], 1))


def test_same_code_in_both_modes():
    x = Tensor(np.linspace(-1, 2, 12, dtype=np.float32).reshape(4, 3))
    results = {}
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        net = _Net()
        out = net(x)
        loss, grads = ms.value_and_grad(lambda a, net=net: ops.mean(net(a) ** 2), None, net.trainable_params())(x)
        results[mode] = (out.asnumpy(), loss.asnumpy(), grads[0].asnumpy())
    for a, b in zip(results[ms.PYNATIVE_MODE], results[ms.GRAPH_MODE]):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)
