"""nn.Cell itself: naming, traversal, repr, train flag, GRAPH vs PYNATIVE, control-flow errors, bprop, to_float."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Parameter, Tensor, nn, ops

RNG = np.random.default_rng(0)


def _x(*shape):
    return RNG.normal(size=shape).astype(np.float32)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.seq = nn.SequentialCell([nn.Dense(4, 8), nn.ReLU(), nn.Dense(8, 2)])
        self.scale = Parameter(Tensor(np.ones(2, np.float32)))
        self.bn = nn.BatchNorm1d(2)

    def construct(self, x):
        return self.bn(self.seq(self.flatten(x)) * self.scale)


def test_parameter_names_are_attribute_paths_in_mindspore_order():
    net = Net()
    assert [n for n, _ in net.parameters_and_names()] == [
        "scale", "seq.0.weight", "seq.0.bias", "seq.2.weight", "seq.2.bias",
        "bn.moving_mean", "bn.moving_variance", "bn.gamma", "bn.beta"]  # own parameters first, then sub-cells
    assert [p.name for p in net.trainable_params()] == ["scale", "seq.0.weight", "seq.0.bias", "seq.2.weight",
                                                       "seq.2.bias", "bn.gamma", "bn.beta"]
    assert [p.name for p in net.untrainable_params()] == ["bn.moving_mean", "bn.moving_variance"]
    assert list(net.parameters_dict())[:2] == ["scale", "seq.0.weight"]

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Net()
            self.named = Parameter(Tensor(np.zeros(1, np.float32)), name="custom")

    names = [n for n, _ in Outer().parameters_and_names()]
    assert names[0] == "custom" and names[1] == "inner.scale" and names[-1] == "inner.bn.beta"


def test_cells_and_names_name_cells_and_repr():
    net = Net()
    assert [n for n, _ in net.cells_and_names()] == ["", "flatten", "seq", "seq.0", "seq.1", "seq.2", "bn"]
    assert list(net.name_cells()) == ["flatten", "seq", "bn"]
    r = repr(net)
    assert r.startswith("Net(\n  (flatten): Flatten()\n  (seq): SequentialCell(\n"
                        "    (0): Dense(input_channels=4, output_channels=8, has_bias=True)\n    (1): ReLU()\n"
                        "    (2): Dense(input_channels=8, output_channels=2, has_bias=True)\n  )\n  (bn): BatchNorm1d(")
    assert r.endswith(")\n)")


def test_set_train_propagates_and_returns_self():
    net = Net()
    assert net.training is False and net.bn.training is False
    assert net.set_train() is net
    assert all(c.training for _, c in net.cells_and_names()) and net.phase == "train"
    net.set_train(False)
    assert not any(c.training for _, c in net.cells_and_names()) and net.phase == "predict"


def test_setattr_registry_edge_cases():
    class Bad(nn.Cell):
        def __init__(self):
            self.fc = nn.Dense(2, 2)  # before super().__init__()

    with pytest.raises(RuntimeError, match="call super\\(\\).__init__\\(\\) before assigning"):
        Bad()
    net = Net()
    net.seq = None
    assert "seq" not in net.name_cells() and all(not n.startswith("seq") for n, _ in net.parameters_and_names())
    net.insert_child_to_cell("head", nn.Dense(2, 3))
    assert [n for n, _ in net.parameters_and_names()][-2:] == ["head.weight", "head.bias"]


def test_graph_and_pynative_give_the_same_results_and_state():
    x = Tensor(_x(6, 2, 2))
    ms.set_seed(1)
    a = Net().set_train()
    ms.set_seed(1)
    b = Net().set_train()
    ms.set_context(mode=ms.GRAPH_MODE)
    ya = a(x).asnumpy()
    assert a._compiled is not None and len(a._compiled._cache) == 1
    a(x)
    assert len(a._compiled._cache) == 1  # compiled once per signature
    ms.set_context(mode=ms.PYNATIVE_MODE)
    yb = b(x).asnumpy()
    b(x)
    np.testing.assert_allclose(ya, yb, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(a.bn.moving_mean.asnumpy(), b.bn.moving_mean.asnumpy(), rtol=1e-5, atol=1e-7)
    assert not np.allclose(a.bn.moving_mean.asnumpy(), 0)  # the compiled step wrote the new state back


class Branchy(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 3)

    def construct(self, x):
        y = self.fc(x)
        if y.sum() > 0:  # Python control flow on a tensor value
            return y * 2
        return -y


def _branchy_eager(net, x):
    y = net.fc(Tensor(x)).asnumpy()
    return y * 2 if y.sum() > 0 else -y


def test_python_control_flow_on_tensor_values():
    net = Branchy()
    x = Tensor(_x(2, 3))
    y = net.fc(x).asnumpy()
    out = net(x).asnumpy()  # PYNATIVE: ordinary Python
    np.testing.assert_allclose(out, y * 2 if y.sum() > 0 else -y, rtol=1e-6)
    ms.set_context(mode=ms.GRAPH_MODE)  # the static-graph syntax compiles the if into graph control flow
    np.testing.assert_allclose(net(x).asnumpy(), out, rtol=1e-6)
    neg = -_x(2, 3)
    np.testing.assert_allclose(net(Tensor(neg)).asnumpy(), _branchy_eager(net, neg), rtol=1e-6)


class Scaled(nn.Cell):
    """A Cell with a custom backward: bprop(self, *inputs, out, dout)."""

    def construct(self, x, y):
        return x * y

    def bprop(self, x, y, out, dout):
        return 10 * dout, 20 * dout


def test_custom_bprop(mode):
    net = Scaled()
    x, y = Tensor(_x(3)), Tensor(_x(3))
    fn = ms.grad(lambda a, b: net(a, b).sum(), grad_position=(0, 1))
    gx, gy = (ms.jit(fn) if mode == ms.GRAPH_MODE else fn)(x, y)
    np.testing.assert_allclose(gx.asnumpy(), np.full(3, 10.0))
    np.testing.assert_allclose(gy.asnumpy(), np.full(3, 20.0))
    np.testing.assert_allclose(net(x, y).asnumpy(), x.asnumpy() * y.asnumpy(), rtol=1e-6)


def test_to_float_computes_in_float16_with_float32_weights(mode):
    net = nn.SequentialCell([nn.Dense(4, 3), nn.ReLU()])
    x = _x(5, 4)
    y32 = net(Tensor(x)).asnumpy()
    net.to_float(ms.float16)
    y16 = net(Tensor(x))
    assert y16.dtype == ms.float16 and net[0].weight.dtype == ms.float32
    np.testing.assert_allclose(y16.asnumpy().astype(np.float32), y32, rtol=1e-2, atol=1e-2)


def test_nested_cells_with_ops_inside_compiled_grad(mode):
    net = Net()
    params = net.trainable_params()
    fn = ms.value_and_grad(lambda x: ops.sum(net(x)), None, params)
    loss, grads = (ms.jit(fn) if mode == ms.GRAPH_MODE else fn)(Tensor(_x(4, 2, 2)))
    assert len(grads) == len(params) and all(g.shape == p.shape for g, p in zip(grads, params))
    assert np.isfinite(float(loss.asnumpy()))


def test_assignments_go_through_property_setters():
    net = nn.Dense(2, 2)
    net.pipeline_stage = 2
    net.phase = "eval"
    assert (net.pipeline_stage, net.phase) == (2, "eval")
    with pytest.raises(TypeError, match="pipeline_stage must be a non-negative int"):
        net.pipeline_stage = -1
