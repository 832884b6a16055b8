"""cond / switch_case / while_loop / fori_loop / scan over Tensors: values, gradients, no unrolling, both modes."""
import jax
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Parameter, Tensor, nn, ops
from mindspore_hl.ops._control_flow import cond  # private: MindSpore's ops.cond is the condition number


def test_cond_and_switch():
    f = lambda x: cond(ops.sum(x) > 0, lambda a: a * 2, lambda a: a - 1, x)  # noqa: E731
    assert f(Tensor([1.0, 2.0])).tolist() == [2.0, 4.0] and f(Tensor([-3.0])).tolist() == [-4.0]
    branches = [lambda a: a + 1, lambda a: a * 10, lambda a: -a]
    assert [ops.switch_case(Tensor(i), branches, Tensor(2.0)).item() for i in range(3)] == [3.0, 20.0, -2.0]
    with pytest.raises(ValueError, match="For 'cond', the condition must be a scalar"):
        cond(Tensor([True, False]), lambda: Tensor(1), lambda: Tensor(2))


def test_loops_values():
    # sum of 0..9 with a while loop carrying (i, acc)
    i, acc = ops.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] + c[0]), (0, Tensor(0)))
    assert i.item() == 10 and acc.item() == 45
    out = ops.fori_loop(0, 5, lambda k, v: v * 2, Tensor([1.0]))
    assert out.tolist() == [32.0]
    carry, ys = ops.scan(lambda c, x: (c + x, c * x), Tensor(0.0), Tensor([1.0, 2.0, 3.0]))
    assert carry.item() == 6.0 and ys.tolist() == [0.0, 2.0, 9.0]
    assert ops.WhileLoop()(lambda v: v < 5, lambda v: v + 2, Tensor(0)).item() == 6
    assert ops.ForiLoop()(0, 3, lambda k, v: v + k, Tensor(0)).item() == 3
    assert ops.Scan()(lambda c, x: (c * x, c), Tensor(1.0), Tensor([2.0, 3.0]))[0].item() == 6.0


def test_loop_body_errors():
    with pytest.raises(ValueError, match="same structure"):
        ops.while_loop(lambda v: v[0] < 3, lambda v: v[0] + 1, (Tensor(0),))
    with pytest.raises(ValueError, match="changed a carried value's shape"):
        ops.fori_loop(0, 2, lambda k, v: ops.concat([v, v]), Tensor([1.0]))


def _power(x, n):
    return ops.fori_loop(0, n, lambda k, v: v * x, ops.ones_like(x))


def test_gradients_through_control_flow(mode):
    g = ms.grad(lambda x: _power(x, 5))(Tensor(2.0))
    assert g.item() == pytest.approx(5 * 2.0 ** 4)
    g = ms.grad(lambda x: cond(x > 0, lambda a: a * a, lambda a: -a, x))(Tensor(3.0))
    assert g.item() == 6.0
    g = ms.grad(lambda xs: ops.scan(lambda c, x: (c * x, c), Tensor(1.0), xs)[0])(Tensor([2.0, 3.0, 4.0]))
    np.testing.assert_allclose(g.asnumpy(), [12.0, 8.0, 6.0])
    fwd = ms.jvp(lambda x: ops.while_loop(lambda v: v[0] < 3, lambda v: (v[0] + 1, v[1] * x), (0, x))[1],
                 Tensor(2.0), Tensor(1.0))[1]
    assert fwd.item() == pytest.approx(4 * 2.0 ** 3)  # d/dx x^4


def test_loops_are_not_unrolled():
    def grad_jaxpr(n):
        f = lambda x: ms.grad(lambda y: _power(y, n))(ms.Tensor(x))._value  # noqa: E731
        return jax.make_jaxpr(f)(np.float32(1.5))

    small, big = grad_jaxpr(3), grad_jaxpr(300)
    assert len(small.jaxpr.eqns) == len(big.jaxpr.eqns)  # the program does not grow with the trip count
    assert "scan" in str(big)


def test_control_flow_in_a_graph_mode_cell(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(2.0), name="w")

        def construct(self, x):
            y = ops.fori_loop(0, 3, lambda k, v: v * self.w, x)
            return cond(ops.sum(y) > 10, lambda a: a - 10, lambda a: a, y)

    net = Net()
    assert net(Tensor([1.0])).tolist() == [8.0] and net(Tensor([2.0])).tolist() == [6.0]
    loss, grads = ms.value_and_grad(lambda x: ops.sum(net(x)), None, net.trainable_params())(Tensor([1.0]))
    assert loss.item() == 8.0 and grads[0].item() == pytest.approx(3 * 2.0 ** 2)


def test_select_and_where_are_differentiable():
    g = ms.grad(lambda x: ops.sum(ops.select(x > 0, x * x, -x)))(Tensor([2.0, -1.0]))
    assert g.tolist() == [4.0, -1.0]


def _python_branch(x):
    if ops.sum(x) > 0:
        return x * x
    return -x


def test_python_control_flow_runs_in_pynative_and_graph_mode():
    assert ms.grad(_python_branch)(Tensor([2.0])).tolist() == [4.0]  # PYNATIVE: eager Python control flow works
    assert ms.grad(_python_branch)(Tensor([-2.0])).tolist() == [-1.0]
    ms.set_context(mode=ms.GRAPH_MODE)  # GRAPH_MODE: the static-graph syntax (mindspore_hl/_syntax) compiles it
    assert ms.grad(_python_branch)(Tensor([2.0])).tolist() == [4.0]
    assert ms.grad(_python_branch)(Tensor([-2.0])).tolist() == [-1.0]
    with pytest.raises(RuntimeError, match="asnumpy.*being compiled"):
        ms.jit(lambda x: x.asnumpy())(Tensor([1.0]))
