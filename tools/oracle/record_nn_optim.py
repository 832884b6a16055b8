"""Record real MindSpore 2.10's optimizers into tests/fixtures/oracle/nn_optim.npz.

    ../ms-oracle/bin/python tools/oracle/record_nn_optim.py

Each case trains two seeded Parameters ``fc.weight`` (3, 4) and ``fc.bias`` (4,) for three steps with seeded
gradients (PYNATIVE), recording every Parameter of the optimizer (names, and values after the last step) and the
trained parameters after each step.
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "nn"))

import mindspore as ms  # noqa: E402
import nn_optim_cases  # noqa: E402
from mindspore import nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    path = ROOT / "tests" / "fixtures" / "oracle" / "nn_optim.npz"
    with FixtureWriter(path) as w:
        for case in nn_optim_cases.CASES:
            init, grads = nn_optim_cases.data(case)
            params = [ms.Parameter(ms.Tensor(v), name=k) for k, v in init.items()]
            opt = getattr(nn, case["cls"])(params, **nn_optim_cases.decode(case["kwargs"]))
            outs = []
            for step in grads:
                opt(tuple(ms.Tensor(g) for g in step))
                outs += [p.asnumpy().copy() for p in params]  # asnumpy() may share the buffer
            state = [(p.name, p.asnumpy().copy()) for p in opt.get_parameters()]
            inputs = {f"init:{k}": v for k, v in init.items()}
            for i, step in enumerate(grads):
                for k, g in zip(init, step):
                    inputs[f"grad{i}:{k}"] = g
            w.add(case["id"], inputs=inputs, outputs=outs + [v for _, v in state], name=case["cls"],
                  kwargs=case["kwargs"], state_names=[n for n, _ in state])
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
