"""Record real MindSpore 2.10's Cell hooks into tests/fixtures/oracle/nn_cell.npz (PYNATIVE).

    ../ms-oracle/bin/python tools/oracle/record_nn_cell.py

A Dense(3, 2) with seeded weights, called through forward pre-hooks / forward hooks / backward hooks that change
inputs, outputs and input gradients; recorded: outputs, input and weight gradients, and what the backward hook saw.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import mindspore as ms  # noqa: E402
from mindspore import nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


def _net(rng):
    net = nn.Dense(3, 2)
    net.weight.set_data(ms.Tensor(rng.standard_normal((2, 3)).astype(np.float32)))
    net.bias.set_data(ms.Tensor(rng.standard_normal(2).astype(np.float32)))
    return net


def _hook_case(w, kind, x):
    net = _net(np.random.default_rng(1))
    seen = {}
    if kind == "forward_pre":
        net.register_forward_pre_hook(lambda cell, inputs: (inputs[0] * 2,))
    elif kind == "forward":
        net.register_forward_hook(lambda cell, inputs, out: out + 1)
    elif kind == "backward":
        def hook(cell, grad_in, grad_out):
            seen["grad_out"] = grad_out[0].asnumpy()
            seen["grad_in"] = grad_in[0].asnumpy()
            return (grad_in[0] * 3,)
        net.register_backward_hook(hook)
    else:
        def pre(cell, grad_out):
            seen["grad_out"] = grad_out[0].asnumpy()
            return (grad_out[0] * 0.5,)
        net.register_backward_pre_hook(pre)
    sens = np.arange(8, dtype=np.float32).reshape(4, 2)
    out = net(ms.Tensor(x))
    gx, gw = ms.grad(lambda t: (net(t) * ms.Tensor(sens)).sum(), 0, net.trainable_params())(ms.Tensor(x))
    outs = [out.asnumpy(), gx.asnumpy()] + [g.asnumpy() for g in gw]
    extra = [seen[k] for k in ("grad_out", "grad_in") if k in seen]
    w.add(f"hook/{kind}", inputs={"x": x, "sens": sens}, outputs=outs + extra, seen=[k for k in seen])


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    path = ROOT / "tests" / "fixtures" / "oracle" / "nn_cell.npz"
    with FixtureWriter(path) as w:
        for kind in ("forward_pre", "forward", "backward", "backward_pre"):
            _hook_case(w, kind, x)
        _wrappers(w, x)
    print(f"wrote {path}")


def _wrappers(w, x):
    """ForwardValueAndGrad in its three forms and the micro-batch wrappers, on Dense + MSE."""
    y = np.random.default_rng(2).standard_normal((4, 2)).astype(np.float32)
    for tag, kw in (("first", {}), ("all", {"get_all": True}), ("list", {"get_by_list": True}),
                    ("all_list_sens", {"get_all": True, "get_by_list": True, "sens_param": True})):
        net = nn.WithLossCell(_net(np.random.default_rng(1)), nn.MSELoss())
        cell = nn.ForwardValueAndGrad(net, weights=net.trainable_params() if "get_by_list" in kw else None, **kw)
        args = [ms.Tensor(x), ms.Tensor(y)] + ([ms.Tensor(np.float32(2.0))] if kw.get("sens_param") else [])
        loss, grads = cell(*args)
        flat = []
        for g in (grads if isinstance(grads, tuple) else (grads,)):
            flat += [t.asnumpy() for t in g] if isinstance(g, tuple) else [g.asnumpy()]
        w.add(f"ForwardValueAndGrad/{tag}", inputs={"x": x, "y": y}, outputs=[loss.asnumpy()] + flat, kwargs=kw)
    for cls, arg in (("GradAccumulationCell", 2), ("MicroBatchInterleaved", 2)):
        net = getattr(nn, cls)(nn.WithLossCell(_net(np.random.default_rng(1)), nn.MSELoss()), arg)
        loss = net(ms.Tensor(x), ms.Tensor(y))
        grads = ms.grad(net, None, net.trainable_params())(ms.Tensor(x), ms.Tensor(y))
        w.add(f"{cls}/2", inputs={"x": x, "y": y}, outputs=[loss.asnumpy()] + [g.asnumpy() for g in grads])


if __name__ == "__main__":
    main()
