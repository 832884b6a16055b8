"""Cell hooks, recompute, apply, buffers and state dicts; hooks against real MindSpore 2.10
(tools/oracle/record_nn_cell.py)."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from tests.oracle import FIXTURE_ROOT, assert_close, case_params


def _net():
    rng = np.random.default_rng(1)
    net = nn.Dense(3, 2)
    net.weight.set_data(ms.Tensor(rng.standard_normal((2, 3)).astype(np.float32)))
    net.bias.set_data(ms.Tensor(rng.standard_normal(2).astype(np.float32)))
    return net


@pytest.mark.parametrize("mode", [ms.PYNATIVE_MODE, ms.GRAPH_MODE])
@pytest.mark.parametrize("case", [c for c in case_params(FIXTURE_ROOT / "nn_cell.npz")
                                  if c.values[0].id.startswith("hook/")])
def test_hooks_match_mindspore(case, mode):
    old = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        kind = case.id.split("/")[1]
        net, seen = _net(), {}
        if kind == "forward_pre":
            handle = net.register_forward_pre_hook(lambda cell, inputs: (inputs[0] * 2,))
        elif kind == "forward":
            handle = net.register_forward_hook(lambda cell, inputs, out: out + 1)
        elif kind == "backward":
            def hook(cell, grad_in, grad_out):
                seen["grad_out"], seen["grad_in"] = grad_out[0], grad_in[0]
                return (grad_in[0] * 3,)
            handle = net.register_backward_hook(hook)
        else:
            def pre(cell, grad_out):
                seen["grad_out"] = grad_out[0]
                return (grad_out[0] * 0.5,)
            handle = net.register_backward_pre_hook(pre)
        x, sens = ms.Tensor(case.inputs["x"]), ms.Tensor(case.inputs["sens"])
        out = net(x)
        gx, gw = ms.grad(lambda t: (net(t) * sens).sum(), 0, net.trainable_params())(x)
        got = [out, gx] + list(gw)
        want = case.outputs
        for i, g in enumerate(got):
            assert_close(g, want[i], what=f"{case.id} value {i}")
        if mode == ms.PYNATIVE_MODE:  # in GRAPH_MODE the hook saw traced values
            for i, key in enumerate(case.meta["seen"]):
                assert_close(seen[key], want[len(got) + i], what=f"{case.id} {key} seen by the hook")
        handle.remove()
        np.testing.assert_allclose(net(x).asnumpy(), _net()(x).asnumpy(), rtol=1e-6)
    finally:
        ms.set_context(mode=old)


def test_recompute_keeps_values_and_gradients():
    x = ms.Tensor(np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32))
    plain, again = _net(), _net()
    again.recompute()
    for net in (plain, again):
        net.__dict__["g"] = ms.grad(lambda t, n=net: n(t).sum(), 0, net.trainable_params())(x)
    for a, b in zip([plain(x), plain.g[0]] + list(plain.g[1]), [again(x), again.g[0]] + list(again.g[1])):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)


def test_apply_buffers_and_state_dict_round_trip():
    net = nn.SequentialCell([nn.Dense(3, 2), nn.ReLU()])
    visited = []
    net.apply(lambda c: visited.append(type(c).__name__))
    assert visited == ["Dense", "ReLU", "SequentialCell"]
    net[0].register_buffer("steps", ms.Tensor(np.array([3], np.int32)))
    assert [n for n, _ in net.named_buffers()] == ["0.steps"]
    state = net.state_dict()
    assert list(state) == ["0.weight", "0.bias", "0.steps"]
    other = nn.SequentialCell([nn.Dense(3, 2), nn.ReLU()])
    other[0].register_buffer("steps", ms.Tensor(np.array([0], np.int32)))
    assert other.load_state_dict(state) == ([], [])
    np.testing.assert_array_equal(other[0].weight.asnumpy(), net[0].weight.asnumpy())
    assert other.get_buffer("0.steps").asnumpy().tolist() == [3]
    with pytest.raises(KeyError, match="unexpected"):
        other.load_state_dict({**state, "extra": ms.Tensor(np.zeros(1, np.float32))})
    assert net.get_sub_cell("0") is net[0]
    net.add_flags_recursive(fp16=True)
    assert net[1].get_flags()["fp16"] is True and net[1].fp16 is True  # MindSpore sets flags as attributes too


def _loss_net():
    return nn.WithLossCell(_net(), nn.MSELoss())


@pytest.mark.parametrize("case", [c for c in case_params(FIXTURE_ROOT / "nn_cell.npz")
                                  if not c.values[0].id.startswith("hook/")])
def test_grad_wrappers_match_mindspore(case):
    x, y = ms.Tensor(case.inputs["x"]), ms.Tensor(case.inputs["y"])
    cls, _ = case.id.split("/")
    if cls == "ForwardValueAndGrad":
        kw = case.meta["kwargs"]
        net = _loss_net()
        cell = nn.ForwardValueAndGrad(net, weights=net.trainable_params() if kw.get("get_by_list") else None, **kw)
        args = [x, y] + ([ms.Tensor(np.float32(2.0))] if kw.get("sens_param") else [])
        loss, grads = cell(*args)
        flat = []
        for g in (grads if isinstance(grads, tuple) else (grads,)):
            flat += list(g) if isinstance(g, tuple) else [g]
    else:
        net = getattr(nn, cls)(_loss_net(), 2)
        loss = net(x, y)
        flat = list(ms.grad(net, None, net.trainable_params())(x, y))
    for i, got in enumerate([loss] + flat):
        assert_close(got, case.outputs[i], what=f"{case.id} value {i}")


def test_optimizer_accepts_hooks():
    # Optimizer registers its sequence attributes with its own ``_register``: the hook registry must not collide.
    net = _net()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    seen = []
    handle = opt.register_forward_pre_hook(lambda cell, inputs: seen.append(len(inputs[0])))
    back = opt.register_backward_hook(lambda cell, grad_in, grad_out: None)
    grads = tuple(ms.Tensor(np.ones(p.shape, np.float32)) for p in net.trainable_params())
    opt(grads)
    assert seen == [2]
    handle.remove()
    back.remove()
    opt(grads)
    assert seen == [2]
