"""Autodiff: MindSpore's return conventions, the autograd tutorial, higher order, custom bprop, both modes."""
import jax
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Parameter, Tensor, nn, ops


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


# ---- the autograd tutorial skeleton (docs beginner/autograd.md), unchanged ----------------------------
def test_autograd_tutorial_matches_hand_computed(mode):
    np.random.seed(0)
    x = ops.ones(5, ms.float32)
    y = ops.zeros(3, ms.float32)
    w = Parameter(Tensor(np.random.randn(5, 3), ms.float32), name='w')
    b = Parameter(Tensor(np.random.randn(3,), ms.float32), name='b')

    def function(x, y, w, b):
        z = ops.matmul(x, w) + b
        loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
        return loss

    # hand-computed: loss = mean(softplus(z) - y*z) over 3 outputs, dloss/dz = (sigmoid(z) - y) / 3
    wn, bn, xn = w.asnumpy(), b.asnumpy(), np.ones(5, np.float32)
    z = xn @ wn + bn
    dz = (_sigmoid(z) - 0) / 3
    np.testing.assert_allclose(function(x, y, w, b).asnumpy(), np.mean(np.log1p(np.exp(z))), rtol=1e-5)

    dw, db = ms.grad(function, (2, 3))(x, y, w, b)
    np.testing.assert_allclose(dw.asnumpy(), np.outer(xn, dz), rtol=1e-5)
    np.testing.assert_allclose(db.asnumpy(), dz, rtol=1e-5)

    def function_with_logits(x, y, w, b):
        z = ops.matmul(x, w) + b
        loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
        return loss, z

    # without has_aux every output gets a ones sensitivity: the gradient of loss + sum(z)
    dw2, db2 = ms.grad(function_with_logits, (2, 3))(x, y, w, b)
    np.testing.assert_allclose(db2.asnumpy(), dz + 1, rtol=1e-5)
    np.testing.assert_allclose(dw2.asnumpy(), np.outer(xn, dz + 1), rtol=1e-5)

    def function_stop_gradient(x, y, w, b):
        z = ops.matmul(x, w) + b
        loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
        return loss, ops.stop_gradient(z)

    _, db3 = ms.grad(function_stop_gradient, (2, 3))(x, y, w, b)
    np.testing.assert_allclose(db3.asnumpy(), dz, rtol=1e-5)

    grads, (zz,) = ms.grad(function_with_logits, (2, 3), has_aux=True)(x, y, w, b)
    np.testing.assert_allclose(grads[1].asnumpy(), dz, rtol=1e-5)
    np.testing.assert_allclose(zz.asnumpy(), z, rtol=1e-5)

    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = w
            self.b = b

        def construct(self, x):
            return ops.matmul(x, self.w) + self.b

    model = Network()
    loss_fn = nn.BCEWithLogitsLoss()

    def forward_fn(x, y):
        z = model(x)
        return loss_fn(z, y)

    loss, grads = ms.value_and_grad(forward_fn, None, weights=model.trainable_params())(x, y)
    assert isinstance(grads, tuple) and len(grads) == 2
    np.testing.assert_allclose(grads[0].asnumpy(), np.outer(xn, dz), rtol=1e-5)
    np.testing.assert_allclose(grads[1].asnumpy(), dz, rtol=1e-5)
    np.testing.assert_allclose(loss.asnumpy(), np.mean(np.log1p(np.exp(z))), rtol=1e-5)


# ---- return structures --------------------------------------------------------------------------------
def _f(x, y):
    return x * x * y


X, Y = Tensor([1.0, 2.0]), Tensor([3.0, 4.0])


def test_return_structure_positions(mode):
    g = ms.grad(_f)(X, Y)
    assert isinstance(g, Tensor) and g.tolist() == [6.0, 16.0]
    g = ms.grad(_f, (0, 1))(X, Y)
    assert isinstance(g, tuple) and [t.tolist() for t in g] == [[6.0, 16.0], [1.0, 4.0]]
    g = ms.grad(_f, (1,))(X, Y)
    assert isinstance(g, tuple) and len(g) == 1
    v, g = ms.value_and_grad(_f, 1)(X, Y)
    assert v.tolist() == [3.0, 16.0] and g.tolist() == [1.0, 4.0]
    g = ms.grad(_f, (0, 1), return_ids=True)(X, Y)
    assert g[0][0] == 0 and g[1][0] == 1 and g[1][1].tolist() == [1.0, 4.0]


def test_return_structure_weights(mode):
    w = Parameter(Tensor([2.0, 3.0]), name="w")
    u = Parameter(Tensor(1.5), name="u")

    def f(x):
        return ops.sum(x * w) * u

    gw = ms.grad(f, None, (w, u))(X)
    assert isinstance(gw, tuple) and len(gw) == 2
    assert gw[0].tolist() == [1.5, 3.0] and gw[1].item() == pytest.approx(8.0)
    single = ms.grad(f, None, w)(X)
    assert isinstance(single, Tensor) and single.tolist() == [1.5, 3.0]
    gx, gws = ms.grad(f, 0, [w])(X)
    assert gx.tolist() == [3.0, 4.5] and isinstance(gws, tuple) and gws[0].tolist() == [1.5, 3.0]
    (gx2,), gws2 = ms.grad(f, (0,), ms.ParameterTuple([w, u]))(X)
    assert gx2.tolist() == [3.0, 4.5] and len(gws2) == 2
    ids = ms.grad(f, None, [w], return_ids=True)(X)
    assert ids[0][0] == "w"


def test_has_aux_structures(mode):
    def f(x, y):
        return ops.sum(x * y), x + 1, y * 2

    g, aux = ms.grad(f, 0, has_aux=True)(X, Y)
    assert g.tolist() == [3.0, 4.0] and isinstance(aux, tuple) and len(aux) == 2
    assert aux[0].tolist() == [2.0, 3.0]
    (loss, a1, a2), g = ms.value_and_grad(f, (0, 1), has_aux=True)(X, Y)
    assert loss.item() == 11.0 and a2.tolist() == [6.0, 8.0] and g[1].tolist() == [1.0, 2.0]


def test_argument_errors():
    with pytest.raises(ValueError, match="cannot both be None"):
        ms.grad(_f, None)
    with pytest.raises(ValueError, match=">= 0"):
        ms.grad(_f, -1)
    with pytest.raises(ValueError, match="duplicate"):
        ms.grad(_f, (0, 0))
    with pytest.raises(TypeError, match="grad_position"):
        ms.grad(_f, "0")
    with pytest.raises(IndexError, match="grad_position 3 is out of range"):
        ms.grad(_f, 3)(X, Y)
    with pytest.raises(TypeError, match="Parameters"):
        ms.grad(_f, None, [Tensor([1.0])])(X, Y)


def test_integer_inputs_get_zero_grads():
    g = ms.grad(lambda x, n: x * n, (0, 1))(Tensor([2.0]), Tensor([3]))
    assert g[0].tolist() == [3.0] and g[1].tolist() == [0] and g[1].dtype == ms.int64


# ---- GradOperation -----------------------------------------------------------------------------------
class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor([2.0]), name="w")

    def construct(self, a, b):
        return a * b * self.w


def test_grad_operation_variants(mode):
    net, a, b = _Net(), Tensor([3.0]), Tensor([5.0])
    assert ops.GradOperation()(net)(a, b).tolist() == [10.0]
    ga = ops.GradOperation(get_all=True)(net)(a, b)
    assert isinstance(ga, tuple) and [t.tolist() for t in ga] == [[10.0], [6.0]]
    gw = ops.GradOperation(get_by_list=True)(net, ms.ParameterTuple(net.trainable_params()))(a, b)
    assert isinstance(gw, tuple) and gw[0].tolist() == [15.0]
    gi, gw = ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(a, b)
    assert gi[1].tolist() == [6.0] and gw[0].tolist() == [15.0]
    gs = ops.GradOperation(sens_param=True)(net)(a, b, Tensor([0.5]))
    assert gs.tolist() == [5.0]
    with pytest.raises(ValueError, match="get_by_list"):
        ops.GradOperation(get_by_list=True)(net)


def test_grad_operation_inside_a_cell(mode):
    class GradNet(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net
            self.grad_op = ops.GradOperation(get_all=True)

        def construct(self, a, b):
            return self.grad_op(self.net)(a, b)

    out = GradNet(_Net())(Tensor([3.0]), Tensor([5.0]))
    assert isinstance(out, tuple) and out[0].tolist() == [10.0] and out[1].tolist() == [6.0]


# ---- vjp / jvp / jacobians / vmap (values from MindSpore's docstrings) ------------------------------
XM = Tensor(np.array([[1, 2], [3, 4]]).astype(np.float32))
VM = Tensor(np.array([[1, 1], [1, 1]]).astype(np.float32))


def test_vjp_and_jvp():
    out, vjp_fn = ms.vjp(lambda x, y: x ** 3 + y, XM, XM)
    np.testing.assert_allclose(out.asnumpy(), [[2, 10], [30, 68]])
    gx, gy = vjp_fn(VM)
    np.testing.assert_allclose(gx.asnumpy(), [[3, 12], [27, 48]])
    np.testing.assert_allclose(gy.asnumpy(), [[1, 1], [1, 1]])
    out, vjp_fn, aux = ms.vjp(lambda x, y: (2 * x + y, y ** 3), XM, XM, has_aux=True)
    np.testing.assert_allclose(aux.asnumpy(), [[1, 8], [27, 64]])
    np.testing.assert_allclose(vjp_fn(VM)[0].asnumpy(), [[2, 2], [2, 2]])
    (single,) = ms.vjp(lambda x: x * 2, XM)[1](VM)
    np.testing.assert_allclose(single.asnumpy(), [[2, 2], [2, 2]])
    w = Parameter(Tensor([1.0, 1.0]), name="w")
    _, vjp_w = ms.vjp(lambda x: x * w, Tensor([3.0, 4.0]), weights=[w])
    gx, gw = vjp_w(Tensor([1.0, 1.0]))
    assert gx[0].tolist() == [1.0, 1.0] and gw[0].tolist() == [3.0, 4.0]

    out, jvp_out = ms.jvp(lambda x, y: x ** 3 + y, (XM, XM), (VM, VM))
    np.testing.assert_allclose(out.asnumpy(), [[2, 10], [30, 68]])
    np.testing.assert_allclose(jvp_out.asnumpy(), [[4, 13], [28, 49]])
    out, jvp_out, aux = ms.jvp(lambda x, y: (x ** 3 + y, y), (XM, XM), (VM, VM), has_aux=True)
    np.testing.assert_allclose(aux.asnumpy(), XM.asnumpy())
    np.testing.assert_allclose(jvp_out.asnumpy(), [[4, 13], [28, 49]])


def test_jacobians_and_vmap():
    class MIMO(nn.Cell):
        def construct(self, x, y, z):
            return x ** 2 + y ** 2 + z ** 2, x * y * z

    z = Tensor(np.ones((2, 2), np.float32))
    jac, aux = ms.jacfwd(MIMO(), grad_position=0, has_aux=True)(XM, XM, z)
    want = np.zeros((2, 2, 2, 2), np.float32)
    for i in range(2):
        for j in range(2):
            want[i, j, i, j] = 2 * XM.asnumpy()[i, j]
    np.testing.assert_allclose(jac.asnumpy(), want)
    np.testing.assert_allclose(aux.asnumpy(), [[1, 4], [9, 16]])
    jr = ms.jacrev(MIMO(), grad_position=(0, 1))(XM, XM, z)
    assert isinstance(jr, tuple) and len(jr) == 2 and len(jr[0]) == 2  # (outputs) x (inputs)
    np.testing.assert_allclose(jr[0][0].asnumpy(), want)
    j1 = ms.jacrev(lambda a: a ** 2)(Tensor([1.0, 2.0]))
    np.testing.assert_allclose(j1.asnumpy(), [[2, 0], [0, 4]])

    batched = ms.vmap(lambda a, m: ops.matmul(m, a), in_axes=(0, None))(Tensor(np.ones((3, 2), np.float32)), XM)
    np.testing.assert_allclose(batched.asnumpy(), np.ones((3, 2)) @ XM.asnumpy().T)
    out = ms.vmap(lambda a: (a.sum(), a * 2), out_axes=(0, 1))(Tensor(np.ones((3, 2), np.float32)))
    assert out[0].shape == (3,) and out[1].shape == (2, 3)
    with pytest.raises(ValueError, match="vmap"):
        ms.vmap(lambda a, b: a + b)(Tensor(np.ones(3)), Tensor(np.ones(4)))


# ---- higher order ------------------------------------------------------------------------------------
def test_higher_order_grads(mode):
    f = lambda x: x ** 3  # noqa: E731
    x = Tensor(2.0)
    assert ms.grad(f)(x).item() == pytest.approx(12.0)
    assert ms.grad(ms.grad(f))(x).item() == pytest.approx(12.0)   # 6x
    assert ms.grad(ms.grad(ms.grad(f)))(x).item() == pytest.approx(6.0)
    h = ms.jacfwd(ms.jacrev(lambda v: ops.sum(v ** 3)))(Tensor([1.0, 2.0]))
    np.testing.assert_allclose(h.asnumpy(), np.diag([6.0, 12.0]))
    w = Parameter(Tensor(3.0), name="w")
    dd = ms.grad(lambda x: ms.grad(lambda y: y * y * w)(x))(Tensor(2.0))  # d/dx (2 x w) = 2 w
    assert dd.item() == pytest.approx(6.0)


# ---- custom backward ----------------------------------------------------------------------------------
def test_custom_bprop_function(mode):
    def f(x, y):
        return x * y

    def f_bprop(x, y, out, dout):
        return 10 * dout, 20 * dout

    g = ops.custom_bprop(f, f_bprop)
    assert g(Tensor(2.0), Tensor(3.0)).item() == 6.0
    gx, gy = ms.grad(g, (0, 1))(Tensor(2.0), Tensor(3.0))
    assert gx.item() == 10.0 and gy.item() == 20.0
    # composes: the chain rule multiplies the custom dout
    gx = ms.grad(lambda a, b: g(a, b) * 3)(Tensor(2.0), Tensor(3.0))
    assert gx.item() == 30.0
    jitted = ms.jit(lambda a, b: ms.grad(g, (0, 1))(a, b))(Tensor(2.0), Tensor(3.0))
    assert jitted[1].item() == 20.0


def test_custom_bprop_with_parameters_and_errors():
    w = Parameter(Tensor(5.0), name="w")
    g = ops.custom_bprop(lambda x: x * w, lambda x, out, dout: (dout * 2,), params=[w])
    gx, gw = ms.grad(g, 0, [w])(Tensor(1.0))
    assert gx.item() == 2.0 and gw[0].item() == 0.0  # MindSpore: a custom-bprop block gives its Parameters no grad
    bad = ops.custom_bprop(lambda x, y: x * y, lambda x, y, out, dout: (dout,))
    with pytest.raises(ValueError, match="one gradient per input"):
        ms.grad(bad)(Tensor(1.0), Tensor(2.0))


# ---- modes --------------------------------------------------------------------------------------------
def test_graph_mode_compiles_pynative_runs_eagerly():
    calls = []

    def f(x):
        calls.append(1)
        return ops.sum(x * x)

    g = ms.grad(f)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    for _ in range(3):
        assert g(Tensor([1.0, 2.0])).tolist() == [2.0, 4.0]
    assert len(calls) == 3
    calls.clear()
    ms.set_context(mode=ms.GRAPH_MODE)
    for _ in range(3):
        assert g(Tensor([1.0, 2.0])).tolist() == [2.0, 4.0]
    traced = len(calls)
    assert 1 <= traced <= 2  # traced when compiling (state discovery + jit), not run per call
    g(Tensor([3.0, 4.0]))
    assert len(calls) == traced  # same signature: the cached program


def test_parameter_updates_inside_grad_are_written_back(mode):
    counter = Parameter(Tensor(0.0), name="counter", requires_grad=False)

    def f(x):
        counter.set_data(counter + 1)
        return ops.sum(x * 2)

    g = ms.grad(f)(Tensor([1.0]))
    assert g.tolist() == [2.0] and counter.item() == 1.0


def test_transforms_of_a_cell_in_both_modes(mode):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor([[1.0, 2.0], [3.0, 4.0]]), name="w")

        def construct(self, x):
            return ops.matmul(x, self.w)

    net, wn = Net(), np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    np.testing.assert_allclose(ms.vmap(net)(Tensor(np.ones((3, 2), np.float32))).asnumpy(), np.ones((3, 2)) @ wn)
    np.testing.assert_allclose(ms.jacfwd(net)(Tensor([1.0, 1.0])).asnumpy(), wn.T)
    np.testing.assert_allclose(ms.jacrev(net)(Tensor([1.0, 1.0])).asnumpy(), wn.T)
    _, tangent = ms.jvp(net, Tensor([1.0, 1.0]), Tensor([1.0, 0.0]))
    np.testing.assert_allclose(tangent.asnumpy(), wn[0])
    assert not isinstance(net.w._value, jax.core.Tracer)  # no tracer leaked into the Parameter
    np.testing.assert_allclose(net(Tensor([1.0, 1.0])).asnumpy(), [4.0, 6.0])
