"""The one compile mechanism (mindspore_hl._engine): caching, state threading, write-back, errors."""
import numpy as np

import mindspore_hl as ms
from mindspore_hl import Parameter, Tensor, nn, ops


class Affine(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weight = Parameter(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)), name="weight")
        self.bias = Parameter(Tensor(np.ones(2, np.float32)), name="bias")
        self.calls = Parameter(Tensor(np.zeros((), np.float32)), name="calls", requires_grad=False)

    def construct(self, x):
        self.calls.set_data(self.calls + 1)
        return ops.matmul(x, self.weight.T) + self.bias


def _expected(x):
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    return x @ w.T + 1


def test_graph_call_compiles_once_per_signature_and_writes_state_back():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Affine()
    x = np.random.default_rng(0).normal(size=(4, 3)).astype(np.float32)
    for _ in range(3):
        np.testing.assert_allclose(net(Tensor(x)).asnumpy(), _expected(x), rtol=1e-6)
    assert len(net._compiled._cache) == 1
    assert float(net.calls.asnumpy()) == 3.0  # the assignment inside the compiled step reached the Parameter
    net(Tensor(x[:2]))
    assert len(net._compiled._cache) == 2  # new batch size, new signature
    net.set_train(True)
    net(Tensor(x))
    assert len(net._compiled._cache) == 3  # the training flag is part of the signature


def test_graph_and_pynative_agree_and_updated_weights_are_seen():
    net = Affine()
    x = Tensor(np.ones((2, 3), np.float32))
    ms.set_context(mode=ms.GRAPH_MODE)
    first = net(x).asnumpy()
    net.weight.set_data(Tensor(np.zeros((2, 3), np.float32)))
    np.testing.assert_allclose(net(x).asnumpy(), np.ones((2, 2)))  # not a stale constant
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net.weight.set_data(Tensor(np.arange(6, dtype=np.float32).reshape(2, 3)))
    np.testing.assert_allclose(net(x).asnumpy(), first)


def test_ms_jit_function_discovers_parameters_it_reads():
    net = Affine()

    @ms.jit
    def twice(x):
        return net(x) * 2

    x = np.ones((1, 3), np.float32)
    np.testing.assert_allclose(twice(Tensor(x)).asnumpy(), 2 * _expected(x))
    net.bias.set_data(Tensor(np.zeros(2, np.float32)))
    np.testing.assert_allclose(twice(Tensor(x)).asnumpy(), 2 * (_expected(x) - 1))
    assert float(net.calls.asnumpy()) == 2.0


def test_jit_on_cell_method():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scale = Parameter(Tensor(np.float32(3.0)), name="scale")

        @ms.jit
        def construct(self, x):
            return x * self.scale

    net = Net()
    np.testing.assert_allclose(net(Tensor(np.ones(2, np.float32))).asnumpy(), [3.0, 3.0])
    net.scale.set_data(Tensor(np.float32(5.0)))
    np.testing.assert_allclose(net(Tensor(np.ones(2, np.float32))).asnumpy(), [5.0, 5.0])


def test_python_branch_on_tensor_value_compiles_in_graph_mode():
    class Branchy(nn.Cell):
        def construct(self, x):
            if x.sum() > 0:  # a condition on a Tensor's value: graph control flow in GRAPH_MODE
                return x
            return -x

    net = Branchy()
    pos, neg = Tensor(np.ones(3, np.float32)), Tensor(-2 * np.ones(3, np.float32))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    expected = [net(pos).asnumpy(), net(neg).asnumpy()]
    ms.set_context(mode=ms.GRAPH_MODE)
    for x, want in zip((pos, neg), expected):
        np.testing.assert_allclose(net(x).asnumpy(), want)
    np.testing.assert_allclose(expected[1], [2.0, 2.0, 2.0])


def test_dropout_rng_is_state_reproducible_from_seed():
    class Drop(nn.Cell):
        def construct(self, x):
            return ops.dropout(x, p=0.5, training=True)

    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.ones((64,), np.float32))
    ms.set_seed(7)
    a1, a2 = Drop()(x).asnumpy(), Drop()(x).asnumpy()
    ms.set_seed(7)
    b1, b2 = Drop()(x).asnumpy(), Drop()(x).asnumpy()
    np.testing.assert_array_equal(a1, b1)
    np.testing.assert_array_equal(a2, b2)
    assert not np.array_equal(a1, a2)  # the key advances between calls
    assert set(np.unique(a1)) <= {0.0, 2.0}


def test_shared_parameter_buffers_are_not_donated_twice():
    class Tied(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = Parameter(Tensor(np.ones(2, np.float32)), name="a")
            self.b = Parameter(Tensor(np.ones(2, np.float32)), name="b")

        def construct(self, x):
            return x + self.a + self.b

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Tied()
    net.b._data = net.a._data  # two Parameters sharing one buffer
    np.testing.assert_allclose(net(Tensor(np.zeros(2, np.float32))).asnumpy(), [2.0, 2.0])
    np.testing.assert_allclose(net(Tensor(np.zeros(2, np.float32))).asnumpy(), [2.0, 2.0])


def test_tensors_made_from_parameters_survive_donation():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Affine()
    snapshot, value = Tensor(net.bias), net.bias.value()
    net(Tensor(np.ones((1, 3), np.float32)))  # donates the Parameter buffers
    np.testing.assert_array_equal(snapshot.asnumpy(), np.ones(2))
    np.testing.assert_array_equal(value.asnumpy(), np.ones(2))
