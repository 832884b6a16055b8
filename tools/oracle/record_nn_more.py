"""Record real MindSpore 2.10's special-function, image and PyTorch-style ``*Ext`` nn layers into
tests/fixtures/oracle/nn_more.npz (replayed by tests/nn/test_oracle_more.py).

Run with the oracle interpreter (real MindSpore installed), from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_nn_more.py

Same recording as ``record_nn.py`` (seeded Parameters, outputs, gradients of ``sum(out * sens)``), other cases.
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "oracle"))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "nn"))

import mindspore as ms  # noqa: E402
import nn_optim_cases  # noqa: E402
import numpy as np  # noqa: E402
import record_nn  # noqa: E402
from mindspore import nn  # noqa: E402
from mindspore.experimental import optim as exp_optim  # noqa: E402
from nn_cases import _c  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

X4 = [["x", [2, 3, 4, 5], "n"]]
# "graph": recorded compiled (MindSpore's image layers fail in PYNATIVE on a ScalarCast of a float32).
IMG = [["img1", [2, 2, 12, 12], "u"], ["img2", [2, 2, 12, 12], "u"]]

CASES = [
    _c("LGamma", [["x", [3, 4], "pos"]]), _c("DiGamma", [["x", [3, 4], "pos"]]),
    _c("IGamma", [["a", [3, 4], "pos"], ["x", [3, 4], "pos"]], grad=False),
    _c("LBeta", [["x", [3, 4], "pos"], ["y", [3, 4], "pos"]]),
    _c("ImageGradients", X4),
    _c("PSNR", IMG, graph=True), _c("PSNR", IMG, {"max_val": 2}, "max2", graph=True),
    _c("SSIM", IMG, graph=True), _c("SSIM", IMG, {"filter_size": 5, "filter_sigma": 1.0, "k1": 0.02}, "f5", graph=True),
    _c("MSSSIM", [["img1", [1, 2, 16, 16], "u"], ["img2", [1, 2, 16, 16], "u"]],
       {"power_factors": [0.4, 0.6], "filter_size": 3}, graph=True),
    _c("DropoutExt", X4, {"p": 0.3}, "eval"),
    _c("PReLUExt", X4, {"num_parameters": 3}),
    # indices ("const": literal values), one per pooling window and unique per plane as max pooling gives them
    _c("MaxUnpool1d", [["x", [1, 2, 3], "n"], ["indices", [[[1, 2, 5], [0, 3, 4]]], "const"]], {"kernel_size": 2}),
    _c("MaxUnpool2d", [["x", [1, 2, 2, 2], "n"], ["indices", [[[[5, 2], [12, 11]], [[0, 7], [9, 15]]]], "const"]],
       {"kernel_size": 2}),
    _c("MaxUnpool2d", [["x", [1, 1, 2, 2], "n"], ["indices", [[[[0, 2], [6, 8]]]], "const"]],
       {"kernel_size": 3, "stride": 2, "padding": 1}, "strided"),
    _c("MaxUnpool3d", [["x", [1, 1, 1, 2, 2], "n"], ["indices", [[[[[0, 7], [25, 30]]]]], "const"]],
       {"kernel_size": 2}),
    _c("Conv2dBnAct", X4, {"in_channels": 3, "out_channels": 2, "kernel_size": 3, "has_bn": True,
                           "activation": "relu"}),
    _c("Conv2dBnAct", X4, {"in_channels": 3, "out_channels": 2, "kernel_size": 2, "pad_mode": "valid",
                           "has_bias": True, "activation": "leakyrelu", "alpha": 0.1}, "leaky"),
    _c("DenseBnAct", [["x", [4, 3], "n"]], {"in_channels": 3, "out_channels": 5, "has_bn": True,
                                            "activation": "tanh"}, train=True),
    _c("TripletMarginWithDistanceLoss", [["x", [4, 3], "n"], ["p", [4, 3], "n"], ["q", [4, 3], "n"]]),
    _c("TripletMarginWithDistanceLoss", [["x", [4, 3], "n"], ["p", [4, 3], "n"], ["q", [4, 3], "n"]],
       {"swap": True, "margin": 0.5, "reduction": "none"}, "swap"),
    # MindSpore 2.10's CPU build has no kernel for MatrixDiag/MatrixDiagPart/MatrixSetDiag, LayerNormExt,
    # EmbeddingExt, MaxPool2dExt, AvgPool2dExt, LogSoftmaxExt, L1LossExt: test_oracle_more.py checks those
    # against NumPy.
]


def _fn1(x):
    return x * x * x + 2.0 * x


def _fn2(x, y):
    return x * x * y + y


def _record_functional(w):
    """Cells built from other Cells or functions (cases ``fn/...``, replayed by dedicated tests)."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    wd, bd = rng.standard_normal((5, 4)).astype(np.float32), rng.standard_normal(5).astype(np.float32)
    dense = nn.Dense(4, 5)
    dense.weight.set_data(ms.Tensor(wd))
    dense.bias.set_data(ms.Tensor(bd))
    outs = [nn.TimeDistributed(dense, time_axis=1)(ms.Tensor(x)).asnumpy(),
            nn.TimeDistributed(dense, time_axis=1, reshape_with_axis=0)(ms.Tensor(x)).asnumpy(),
            nn.TimeDistributed(dense, time_axis=-3)(ms.Tensor(x)).asnumpy()]
    w.add("fn/TimeDistributed", inputs={"x": x, "weight": wd, "bias": bd}, outputs=outs, name="TimeDistributed")
    a, b, v, u = (rng.standard_normal((2, 3)).astype(np.float32) for _ in range(4))
    ta, tb, tv, tu = (ms.Tensor(t) for t in (a, b, v, u))
    o1, j1 = nn.Jvp(_fn1)(ta, tv)
    o2, j2 = nn.Jvp(_fn2)(ta, tb, (tv, tu))
    p1, g1 = nn.Vjp(_fn1)(ta, tv)
    p2, g2 = nn.Vjp(_fn2)(ta, tb, tv)
    w.add("fn/JvpVjp", inputs={"a": a, "b": b, "v": v, "u": u}, name="Jvp",
          outputs=[o1.asnumpy(), j1.asnumpy(), o2.asnumpy(), j2.asnumpy(), p1.asnumpy(), g1.asnumpy(),
                   p2.asnumpy(), g2[0].asnumpy(), g2[1].asnumpy()])


def _record_optimizers(w):
    """As record_nn_optim.py: three steps on seeded fc.weight / fc.bias (cases ``optim/...``)."""
    for cls, kwargs, tag in [("AdamOffload", {"learning_rate": 0.01}, "default"),
                             ("AdamOffload", {"learning_rate": 0.02, "beta1": 0.8, "eps": 1e-6,
                                              "weight_decay": 0.1, "loss_scale": 2.0}, "wd_scale")]:
        init, grads = nn_optim_cases.data({"seed": 5})
        params = [ms.Parameter(ms.Tensor(v), name=k) for k, v in init.items()]
        opt = getattr(nn, cls)(params, **nn_optim_cases.decode(kwargs))
        outs = []
        for step in grads:
            opt(tuple(ms.Tensor(g) for g in step))
            outs += [p.asnumpy().copy() for p in params]
        state = [(p.name, p.asnumpy().copy()) for p in opt.get_parameters()]
        inputs = {f"init:{k}": v for k, v in init.items()}
        for i, step in enumerate(grads):
            for k, g in zip(init, step):
                inputs[f"grad{i}:{k}"] = g
        w.add(f"optim/{cls}/{tag}", inputs=inputs, outputs=outs + [v for _, v in state], name=cls, kwargs=kwargs,
              state_names=[n for n, _ in state])
    for cls, kwargs, tag in [("RMSprop", {"lr": 0.01}, "default"),
                             ("RMSprop", {"lr": 0.01, "alpha": 0.9, "momentum": 0.5, "centered": True,
                                          "weight_decay": 0.1}, "centered"),
                             ("RMSprop", {"lr": 0.02, "momentum": 0.3, "maximize": True}, "momentum"),
                             ("Rprop", {"lr": 0.1}, "default"),
                             ("Rprop", {"lr": 0.05, "etas": [0.3, 1.5], "step_sizes": [0.01, 0.1]}, "etas"),
                             ("ASGD", {"lr": 0.1}, "default"),
                             ("ASGD", {"lr": 0.05, "lambd": 0.01, "alpha": 0.5, "t0": 1.0, "weight_decay": 0.1},
                              "t0")]:
        init, grads = nn_optim_cases.data({"seed": 6})
        params = [ms.Parameter(ms.Tensor(v), name=k) for k, v in init.items()]
        opt = getattr(exp_optim, cls)(params, **nn_optim_cases.decode(kwargs))
        outs = []
        for step in grads:
            opt(tuple(ms.Tensor(g) for g in step))
            outs += [p.asnumpy().copy() for p in params]
        state = [(p.name, p.asnumpy().copy()) for p in opt.get_parameters()]
        inputs = {f"init:{k}": v for k, v in init.items()}
        for i, step in enumerate(grads):
            for k, g in zip(init, step):
                inputs[f"grad{i}:{k}"] = g
        w.add(f"optim/exp.{cls}/{tag}", inputs=inputs, outputs=outs + [v for _, v in state], name=cls,
              kwargs=kwargs, mod="experimental.optim", state_names=[n for n, _ in state])


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    path = ROOT / "tests" / "fixtures" / "oracle" / "nn_more.npz"
    with FixtureWriter(path) as w:
        for case in CASES:
            # MindSpore 2.10's image layers only run compiled (their ScalarCast fails in PYNATIVE).
            ms.set_context(mode=ms.GRAPH_MODE if case.get("graph") else ms.PYNATIVE_MODE)
            try:
                record_nn._record(w, case)
            except Exception as e:  # noqa: BLE001 -- a case MindSpore's CPU build cannot run is reported, not kept
                print(f"SKIP {case['id']}: {type(e).__name__}: {str(e)[:300]}")
        ms.set_context(mode=ms.PYNATIVE_MODE)
        _record_functional(w)
        _record_optimizers(w)
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
