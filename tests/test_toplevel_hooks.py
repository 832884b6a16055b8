"""``saved_tensors_hooks`` / ``register_saved_tensors_hooks`` / ``DeviceCtx`` replayed against real MindSpore 2.10
(``tools/oracle/record_toplevel_hooks.py``; the scenarios are shared in ``tests/toplevel_hooks_cases.py``), plus the
checks where this backend differs on purpose (documented in ``mindspore_hl/_engine/_saved_tensors.py``)."""
import jax
import numpy as np
import pytest

import mindspore_hl as ms
from tests.oracle import assert_close, case_params
from tests.toplevel_hooks_cases import SCENARIOS, X, Y

FIXTURE = "toplevel_hooks.npz"


@pytest.mark.parametrize("case", [pytest.param(p.values[0], id=p.id, marks=pytest.mark.host_cpu)
                                  if p.values[0].name == "device_ctx" else p for p in case_params(FIXTURE)])
def test_replay(case):
    outputs, facts = SCENARIOS[case.name](ms)
    assert len(outputs) == len(case.outputs)
    for i, (got, want) in enumerate(zip(outputs, case.outputs)):
        assert_close(got, want, what=f"{case.id} output {i}")
    assert facts == case.meta["facts"]


def _f(x, y):
    return ms.ops.sin(x) * y


def test_unpack_must_return_a_tensor_of_the_saved_shape_and_dtype():
    x, y = ms.Tensor(X), ms.Tensor(Y)
    with pytest.raises(TypeError, match="'unpack_hook' must return a Tensor, but got ndarray"):
        with ms.saved_tensors_hooks(lambda t: t.asnumpy(), lambda a: a):
            ms.grad(_f)(x, y)
    with pytest.raises(ValueError, match=r"\(2,\) float32, but got \(2,\) float64"):
        with ms.saved_tensors_hooks(lambda t: t.asnumpy(), lambda a: ms.Tensor(a.astype(np.float64))):
            ms.grad(_f)(x, y)


def test_saved_tensors_are_packed_once_and_kept_only_packed():
    packed = []

    def pack(t):
        packed.append(t.asnumpy())
        return len(packed) - 1

    with ms.saved_tensors_hooks(pack, lambda i: ms.Tensor(packed[i])):
        out, vjp_fn = ms.vjp(_f, ms.Tensor(X), ms.Tensor(Y))
    assert packed  # the forward pass packed what the backward pass needs
    n = len(packed)
    gx, gy = vjp_fn(ms.ops.ones_like(out))
    assert len(packed) == n
    np.testing.assert_allclose(gx.asnumpy(), np.cos(X) * Y, rtol=1e-6)
    np.testing.assert_allclose(gy.asnumpy(), np.sin(X), rtol=1e-6)


def test_a_different_pair_inside_the_function_warns():
    def inner(x, y):
        with ms.saved_tensors_hooks(lambda t: t, lambda t: t):
            return x * y

    with ms.saved_tensors_hooks(lambda t: t, lambda t: t):
        with pytest.warns(UserWarning, match="one pair of hooks"):
            ms.grad(inner)(ms.Tensor(X), ms.Tensor(Y))


def test_graph_mode_uses_the_registered_hooks_and_refuses_the_context():
    calls = []

    @ms.register_saved_tensors_hooks(lambda t: t + 1, lambda t: t)
    def f(x, y):
        return x * y

    def entering(x):
        with ms.saved_tensors_hooks(calls.append, calls.append):
            return x * 2

    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        gx, gy = ms.grad(f, (0, 1))(ms.Tensor(X), ms.Tensor(Y))
        with pytest.raises(RuntimeError, match="not supported in GRAPH_MODE or inside jit"):
            ms.grad(entering)(ms.Tensor(X))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    np.testing.assert_allclose(gx.asnumpy(), Y + 1)
    np.testing.assert_allclose(gy.asnumpy(), X + 1)
    assert calls == []


@pytest.mark.host_cpu
def test_device_ctx_places_arrays_and_restores():
    # the test session has 8 host devices (conftest), so device 1 exists
    with ms.DeviceCtx("CPU", 1):
        assert tuple(ms.get_current_device()) == ("CPU", 1)
        t = ms.Tensor(X) + 1
        assert t._value.devices() == {jax.devices("cpu")[1]}
    assert tuple(ms.get_current_device()) == ("CPU", 0)
    assert (ms.Tensor(X) + 1)._value.devices() == {jax.devices("cpu")[0]}
    with pytest.raises(ValueError, match="'meta' device"):
        with ms.DeviceCtx("meta"):
            pass
    with pytest.raises(ValueError, match="out of range"):
        with ms.DeviceCtx("CPU", 99):
            pass
    assert tuple(ms.get_current_device()) == ("CPU", 0)


def test_cell_register_saved_tensors_hooks():
    # real MindSpore 2.10, PYNATIVE: a Cell computing x * y with pack = t + 1 registered on it gives grads
    # (y + 1, x + 1) with calls p, p, u, u; registered on a Cell called inside the differentiated one, they do not
    # apply (grads of (x * y) * x unchanged, no calls). GRAPH_MODE applies them too (as the function decorator).
    class Mul(ms.nn.Cell):
        def construct(self, x, y):
            return x * y

    class Outer(ms.nn.Cell):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def construct(self, x, y):
            return self.inner(x, y) * x

    calls = []

    def pack(t):
        calls.append("p")
        return t + 1

    def unpack(t):
        calls.append("u")
        return t

    x, y = ms.Tensor(np.array([1.0, 2.0], np.float32)), ms.Tensor(np.array([3.0, 4.0], np.float32))
    net = Mul()
    net.register_saved_tensors_hooks(pack, unpack)
    assert net(x, y).asnumpy().tolist() == [3.0, 8.0] and calls == []
    assert [g.asnumpy().tolist() for g in ms.grad(net, (0, 1))(x, y)] == [[4.0, 5.0], [2.0, 3.0]]
    assert calls == ["p", "p", "u", "u"]
    calls.clear()
    inner = Mul()
    inner.register_saved_tensors_hooks(pack, unpack)
    assert [g.asnumpy().tolist() for g in ms.grad(Outer(inner), (0, 1))(x, y)] == [[6.0, 16.0], [1.0, 4.0]]
    assert calls == []
    ms.set_context(mode=ms.GRAPH_MODE)
    graph_net = Mul()
    graph_net.register_saved_tensors_hooks(pack, unpack)
    assert [g.asnumpy().tolist() for g in ms.grad(graph_net, (0, 1))(x, y)] == [[4.0, 5.0], [2.0, 3.0]]
