"""Record real MindSpore 2.10's PyTorch-style optimizers (experimental.optim, mint.optim) into
tests/fixtures/oracle/nn_exp_optim.npz.

    ../ms-oracle/bin/python tools/oracle/record_nn_exp_optim.py

Three steps on seeded ``fc.weight`` / ``fc.bias`` with seeded gradients (the same data as record_nn_optim.py),
recording the trained values after each step and every optimizer Parameter (names and final values).
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "nn"))

import mindspore as ms  # noqa: E402
import nn_optim_cases  # noqa: E402
from mindspore import mint  # noqa: E402
from mindspore.experimental import optim  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    path = ROOT / "tests" / "fixtures" / "oracle" / "nn_exp_optim.npz"
    with FixtureWriter(path) as w:
        for case in nn_optim_cases.TORCH_STYLE:
            init, grads = nn_optim_cases.data(case)
            params = [ms.Parameter(ms.Tensor(v), name=k) for k, v in init.items()]
            module = mint.optim if case.get("mod") == "mint.optim" else optim
            opt = getattr(module, case["cls"])(params, **nn_optim_cases.decode(case["kwargs"]))
            outs = []
            for step in grads:
                opt(tuple(ms.Tensor(g) for g in step))
                outs += [p.asnumpy().copy() for p in params]
            state = [(p.name, p.asnumpy().copy()) for p in opt.get_parameters()]
            inputs = {f"init:{k}": v for k, v in init.items()}
            for i, step in enumerate(grads):
                for k, g in zip(init, step):
                    inputs[f"grad{i}:{k}"] = g
            w.add(case["id"], inputs=inputs, outputs=outs + [v for _, v in state], name=case["cls"],
                  kwargs=case["kwargs"], mod=case.get("mod", "experimental.optim"),
                  state_names=[n for n, _ in state])
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
