"""Record real MindSpore 2.10's ``nn.FractionalMaxPool2d`` / ``nn.FractionalMaxPool3d``, ``nn.AdaFactor`` and
``nn.SampledSoftmaxLoss`` into tests/fixtures/oracle/nn_extra.npz.

Run with the oracle interpreter (real MindSpore installed), from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_nn_extra.py

Replayed by tests/nn/test_fractional_pool.py, tests/nn/optim/test_adafactor.py and
tests/nn/loss/test_sampled_softmax.py. The pooling cases pass explicit ``_random_samples`` and the loss cases
explicit ``sampled_values``, so every recorded output is deterministic. AdaFactor cases feed fixed gradients for a
few steps and record every parameter after each step (on CPU MindSpore runs its FusedAdaFactor kernel).
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import mindspore as ms  # noqa: E402
from mindspore import Parameter, Tensor, nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(20261126)
OUT = ROOT / "tests" / "fixtures" / "oracle" / "nn_extra.npz"


def _run(w, case_id, fn, inputs, name, **meta):
    try:
        out = fn()
    except Exception as exc:  # noqa: BLE001  (the error type is what is recorded)
        w.add(case_id, inputs=inputs, name=name, error=type(exc).__name__, **meta)
        return
    outs = out if isinstance(out, (tuple, list)) else [out]
    w.add(case_id, inputs=inputs, outputs=[o.asnumpy() for o in outs], name=name, **meta)


def pool_cases(w):
    specs = [
        ("2d/size", 2, (1, 2, 6, 6), (1, 2, 2), dict(kernel_size=2, output_size=3)),
        ("2d/size_idx", 2, (2, 3, 7, 5), (2, 3, 2), dict(kernel_size=(2, 3), output_size=(4, 2), return_indices=True)),
        ("2d/unbatched", 2, (2, 7, 5), (1, 2, 2), dict(kernel_size=2, output_size=(3, 2), return_indices=True)),
        ("2d/ratio", 2, (1, 1, 8, 8), (1, 1, 2), dict(kernel_size=3, output_ratio=0.5, return_indices=True)),
        ("2d/ratio_tuple", 2, (1, 2, 8, 10), (1, 2, 2), dict(kernel_size=2, output_ratio=(0.5, 0.6))),
        ("2d/size_wins", 2, (1, 2, 6, 6), (1, 2, 2), dict(kernel_size=2, output_size=4, output_ratio=0.5)),
        ("2d/f64", 2, (1, 2, 6, 6), (1, 2, 2), dict(kernel_size=2, output_size=3, return_indices=True), np.float64),
        ("2d/int32", 2, (1, 2, 6, 6), (1, 2, 2), dict(kernel_size=2, output_size=3, return_indices=True), np.int32),
        ("2d/err_no_size", 2, (1, 2, 6, 6), (1, 2, 2), dict(kernel_size=2)),
        ("2d/err_ratio", 2, (1, 2, 6, 6), (1, 2, 2), dict(kernel_size=2, output_ratio=1.5)),
        ("2d/err_indices", 2, (1, 2, 6, 6), (1, 2, 2), dict(kernel_size=2, output_size=3, return_indices=1)),
        ("3d/size", 3, (1, 2, 5, 6, 6), (1, 2, 3), dict(kernel_size=2, output_size=3)),
        ("3d/size_idx", 3, (2, 1, 4, 6, 5), (2, 1, 3), dict(kernel_size=(1, 2, 2), output_size=(3, 4, 2),
                                                           return_indices=True)),
        ("3d/unbatched", 3, (2, 4, 5, 6), (1, 2, 3), dict(kernel_size=2, output_size=(2, 3, 3), return_indices=True)),
        ("3d/ratio", 3, (1, 1, 6, 8, 8), (1, 1, 3), dict(kernel_size=2, output_ratio=(0.5, 0.5, 0.5),
                                                        return_indices=True)),
        ("3d/f64", 3, (1, 1, 4, 4, 4), (1, 1, 3), dict(kernel_size=2, output_size=2, return_indices=True), np.float64,
         np.float64),
        ("3d/err_no_size", 3, (1, 2, 5, 6, 6), (1, 2, 3), dict(kernel_size=2)),
        ("3d/err_dtype", 3, (1, 1, 4, 4, 4), (1, 1, 3), dict(kernel_size=2, output_size=2), np.float32, np.float64),
    ]
    for spec in specs:
        cid, nd, xshape, sshape, kw = spec[:5]
        xdt = spec[5] if len(spec) > 5 else np.float32
        sdt = spec[6] if len(spec) > 6 else np.float32
        if np.issubdtype(xdt, np.integer):
            x = rng.permutation(int(np.prod(xshape))).reshape(xshape).astype(xdt)
        else:
            x = rng.uniform(-3, 3, xshape).astype(xdt)
        s = rng.uniform(0, 1, sshape).astype(sdt)
        cls = nn.FractionalMaxPool2d if nd == 2 else nn.FractionalMaxPool3d
        name = f"nn.{cls.__name__}"
        _run(w, f"{name}/{cid}", lambda cls=cls, kw=kw, s=s, x=x: cls(**kw, _random_samples=Tensor(s))(Tensor(x)),
             {"x": x, "samples": s}, name, kwargs=kw)


ADA_SHAPES = {"w2": (4, 3), "b1": (3,), "w3": (2, 3, 4)}
ADA_STEPS = 3
ADA_CASES = {
    "default": {},
    "lr_no_relative": dict(learning_rate=0.05, relative_step=False),
    "beta1_none": dict(beta1=None),
    "beta1_0": dict(beta1=0.0, scale_parameter=False),
    "no_scale": dict(scale_parameter=False, learning_rate=0.1, relative_step=False, beta1=0.5),
    "warmup": dict(warmup_init=True),
    "weight_decay": dict(weight_decay=0.1, learning_rate=0.02, relative_step=False),
    "clip_decay": dict(clip_threshold=0.5, decay_rate=0.5, eps=(1e-20, 1e-2)),
    "compression": dict(compression=True),
}
#: cases whose parameters, gradients and state are float16
ADA_FLOAT16 = {"float16": dict(beta1=0.5)}
ADA_ERRORS = {
    "lr_and_relative": dict(learning_rate=0.1),
    "warmup_no_relative": dict(warmup_init=True, relative_step=False, learning_rate=0.1),
    "no_lr_no_relative": dict(relative_step=False),
    "eps_len": dict(eps=(1e-30,)),
    "eps_type": dict(eps=(1e-30, 1)),
    "clip_type": dict(clip_threshold=1),
    "decay_range": dict(decay_rate=1.0),
    "wd_range": dict(weight_decay=1.0, learning_rate=0.1, relative_step=False),
    "beta1_neg": dict(beta1=-0.1),
    "scale_type": dict(scale_parameter=1),
}


def adafactor_cases(w):
    init = {k: rng.normal(0, 1, s).astype(np.float32) for k, s in ADA_SHAPES.items()}
    grads = {f"g{t}_{k}": rng.normal(0, 0.5, s).astype(np.float32) for t in range(ADA_STEPS)
             for k, s in ADA_SHAPES.items()}
    runs = [(cid, kw, np.float32) for cid, kw in ADA_CASES.items()]
    runs += [(cid, kw, np.float16) for cid, kw in ADA_FLOAT16.items()]
    for cid, kw, dt in runs:
        params = [Parameter(Tensor(v.astype(dt)), name=k) for k, v in init.items()]
        opt = nn.AdaFactor(params, **kw)
        outs = []
        for t in range(ADA_STEPS):
            opt(tuple(Tensor(grads[f"g{t}_{k}"].astype(dt)) for k in ADA_SHAPES))
            outs += [p.asnumpy().copy() for p in params]
        names = sorted(p.name for p in opt.get_parameters())
        inputs = {k: v.astype(dt) for k, v in dict(init, **grads).items()}
        w.add(f"nn.AdaFactor/{cid}", inputs=inputs, outputs=outs, name="nn.AdaFactor", kwargs=kw,
              state_names=names, steps=ADA_STEPS)
    for cid, kw in ADA_ERRORS.items():
        params = [Parameter(Tensor(v.copy()), name=k) for k, v in init.items()]
        _run(w, f"nn.AdaFactor/err_{cid}", lambda params=params, kw=kw: nn.AdaFactor(params, **kw), {}, "nn.AdaFactor",
             kwargs=kw)


def sampled_softmax_cases(w):
    num_classes, dim, batch = 7, 4, 3
    weights = rng.normal(0, 1, (num_classes, dim)).astype(np.float32)
    biases = rng.normal(0, 1, (num_classes,)).astype(np.float32)
    logits = rng.normal(0, 1, (batch, dim)).astype(np.float32)
    specs = [
        ("true1", 1, np.array([[0], [2], [5]], np.int32), np.array([1, 3, 6, 4], np.int32), {}),
        ("true1_hit_int64", 1, np.array([[1], [2], [5]], np.int64), np.array([1, 3, 5], np.int64),
         dict(remove_accidental_hits=False)),
        ("true2", 2, np.array([[0, 1], [2, 6], [5, 3]], np.int32), np.array([4, 0, 2], np.int32),
         dict(reduction="mean")),
        ("reduction_sum", 1, np.array([[0], [2], [5]], np.int32), np.array([1, 3], np.int32), dict(reduction="sum")),
    ]
    for cid, num_true, labels, sampled, kw in specs:
        true_exp = rng.uniform(0.2, 1.0, (batch, num_true)).astype(np.float32)
        sampled_exp = rng.uniform(0.2, 1.0, sampled.shape).astype(np.float32)
        sv = (Tensor(sampled), Tensor(true_exp), Tensor(sampled_exp))
        args = dict(num_sampled=len(sampled), num_classes=num_classes, num_true=num_true, **kw)
        inputs = {"weights": weights, "biases": biases, "labels": labels, "logits": logits, "sampled": sampled,
                  "true_expected": true_exp, "sampled_expected": sampled_exp}
        _run(w, f"nn.SampledSoftmaxLoss/{cid}", lambda args=args, sv=sv, labels=labels: nn.SampledSoftmaxLoss(
            **args, sampled_values=sv)(Tensor(weights), Tensor(biases), Tensor(labels), Tensor(logits)), inputs,
             "nn.SampledSoftmaxLoss", kwargs=args)
    errors = {
        "num_true0": dict(num_sampled=2, num_classes=7, num_true=0),
        "seed_neg": dict(num_sampled=2, num_classes=7, seed=-1),
        "sampled_gt_classes": dict(num_sampled=8, num_classes=7),
        "true_gt_classes": dict(num_sampled=2, num_classes=3, num_true=4),
        "values_type": dict(num_sampled=2, num_classes=7, sampled_values=1),
        "values_len": dict(num_sampled=2, num_classes=7, sampled_values=(1, 2)),
        "reduction": dict(num_sampled=2, num_classes=7, reduction="avg"),
    }
    for cid, kw in errors.items():
        _run(w, f"nn.SampledSoftmaxLoss/err_{cid}", lambda kw=kw: nn.SampledSoftmaxLoss(**kw), {},
             "nn.SampledSoftmaxLoss", kwargs={k: v for k, v in kw.items() if k != "sampled_values"},
             sampled_values=repr(kw.get("sampled_values")))
    # float labels are refused when the Cell runs
    sv = (Tensor(np.array([1, 3], np.int32)), Tensor(np.ones((batch, 1), np.float32)), Tensor(np.ones(2, np.float32)))
    _run(w, "nn.SampledSoftmaxLoss/err_label_dtype", lambda: nn.SampledSoftmaxLoss(2, 7, sampled_values=sv)(
        Tensor(weights), Tensor(biases), Tensor(np.zeros((batch, 1), np.float32)), Tensor(logits)), {},
         "nn.SampledSoftmaxLoss")


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    ms.set_seed(0)
    with FixtureWriter(OUT) as w:
        pool_cases(w)
        adafactor_cases(w)
        sampled_softmax_cases(w)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
