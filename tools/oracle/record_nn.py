"""Record real MindSpore 2.10's nn and mint.nn layers and losses into tests/fixtures/oracle/nn_layers.npz.

Run with the oracle interpreter (real MindSpore installed), from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_nn.py

Each case builds ``mindspore.nn.<name>(**kwargs)`` in PYNATIVE mode, overwrites every Parameter with seeded
NumPy values (recorded, so the replay sets the same weights by name), calls it on seeded inputs and records the
outputs, the gradients of ``sum(out * sens)`` w.r.t. the float inputs and the trainable Parameters, and the
Parameter names and shapes. The cases themselves live in ``nn_cases.py`` (shared with the replaying test).
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "nn"))

import mindspore as ms  # noqa: E402
import nn_cases  # noqa: E402
from mindspore import mint, nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


def _record(writer, case):
    rng = np.random.default_rng(case["seed"])
    cls = getattr(mint.nn if case.get("mod") == "mint.nn" else nn, case["cls"])
    kwargs = nn_cases.decode(case["kwargs"], ms)
    net = cls(**kwargs)
    net.set_train(case.get("train", False))
    # Nested in a container, Parameters take their attribute-path names (a top-level BatchNorm's would be
    # 'mean'/'variance'); those are the names checkpoints of real networks hold.
    nn.SequentialCell([net])
    for p in net.get_parameters():
        p.name = p.name[2:] if p.name.startswith("0.") else p.name
    params = list(net.get_parameters())
    values = {p.name: nn_cases.param_value(rng, p.name, tuple(p.shape), case) for p in params}
    for p in params:
        p.set_data(ms.Tensor(values[p.name]))
    inputs = nn_cases.make_inputs(rng, case)
    tensors = [ms.Tensor(v) for v in inputs.values()]
    out = net(*tensors)
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    outs = [o.asnumpy() for o in outs]
    meta = dict(cls=case["cls"], mod=case.get("mod", "nn"), kwargs=case["kwargs"], param_names=[p.name for p in params],
                param_shapes=[list(p.shape) for p in params])
    grad_pos = [i for i, k in enumerate(inputs) if inputs[k].dtype.kind == "f" and not k.startswith("nograd")]
    trainable = [p for p in params if p.requires_grad]
    if case.get("grad", True) and (grad_pos or trainable):
        sens = rng.standard_normal(outs[0].shape).astype(outs[0].dtype)
        sens_t = ms.Tensor(sens)

        def loss(*xs):
            y = net(*xs)
            y = y[0] if isinstance(y, (tuple, list)) else y
            return (y * sens_t).sum()

        weights = ms.ParameterTuple(trainable) if trainable else None
        gfn = ms.grad(loss, grad_position=tuple(grad_pos) if grad_pos else None, weights=weights)
        g = gfn(*tensors)
        if grad_pos and trainable:
            gin, gw = g
        elif grad_pos:
            gin, gw = g, ()
        else:
            gin, gw = (), g
        gin = gin if isinstance(gin, tuple) else (gin,)
        outs += [x.asnumpy() for x in gin] + [x.asnumpy() for x in gw]
        meta.update(n_fwd=len(outs) - len(gin) - len(gw), grad_pos=grad_pos, sens=True,
                    grad_params=[p.name for p in trainable])
        inputs["__sens"] = sens
    else:
        meta.update(n_fwd=len(outs), grad_pos=[], sens=False, grad_params=[])
    for name, v in values.items():
        inputs[f"param:{name}"] = v
    if case.get("train"):
        meta["after"] = [p.name for p in params if not p.requires_grad]
        outs += [p.asnumpy() for p in params if not p.requires_grad]
    case_id = case["id"] if case.get("mod", "nn") == "nn" else f"mint.{case['id']}"
    writer.add(case_id, inputs=inputs, outputs=outs, name=case["cls"], **meta)


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    only = set(sys.argv[1:])
    path = ROOT / "tests" / "fixtures" / "oracle" / "nn_layers.npz"
    with FixtureWriter(path) as w:
        for case in nn_cases.CASES:
            if only and case["cls"] not in only:
                continue
            try:
                _record(w, case)
            except Exception as e:  # noqa: BLE001 -- a case MindSpore's CPU build cannot run is reported, not kept
                print(f"SKIP {case.get('mod', 'nn')} {case['id']}: {type(e).__name__}: {str(e)[:200]}")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
