"""Record real MindSpore 2.10's nn.probability distributions and bijectors into
tests/fixtures/oracle/nn_probability.npz.

    ../ms-oracle/bin/python tools/oracle/record_nn_probability.py

For each distribution of tests/nn/prob_cases.py: the value methods on a 2 x 2 batch of values, the statistics
and (where a second parameter set is listed) kl_loss and cross_entropy; methods MindSpore raises on are left out
(the replay checks exactly the recorded ones). For each bijector: forward, inverse and both log-Jacobians.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "nn"))

import mindspore as ms  # noqa: E402
import mindspore.nn.probability.bijector as msb  # noqa: E402
import mindspore.nn.probability.distribution as msd  # noqa: E402
import prob_cases  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    path = ROOT / "tests" / "fixtures" / "oracle" / "nn_probability.npz"
    with FixtureWriter(path) as w:
        for name, params, values, other in prob_cases.DISTRIBUTIONS:
            kw = {k: ms.Tensor(np.asarray(v, np.float32)) for k, v in params.items()}
            if name in ("Bernoulli", "Geometric", "Categorical"):
                kw["dtype"] = ms.int32
            dist = getattr(msd, name)(**kw)
            x = ms.Tensor(np.asarray(values, np.float32))
            outs, done = [], []
            for m in prob_cases.METHODS:
                try:
                    outs.append(getattr(dist, m)(x).asnumpy())
                    done.append(m)
                except Exception as e:  # noqa: BLE001
                    print(f"  {name}.{m}: {type(e).__name__}")
            for m in prob_cases.STATS:
                try:
                    outs.append(getattr(dist, m)().asnumpy())
                    done.append(m)
                except Exception as e:  # noqa: BLE001
                    print(f"  {name}.{m}: {type(e).__name__}")
            if other:
                args = [ms.Tensor(np.asarray(v, np.float32)) for v in other.values()]
                for m in ("kl_loss", "cross_entropy"):
                    try:
                        outs.append(getattr(dist, m)(name, *args).asnumpy())
                        done.append(m)
                    except Exception as e:  # noqa: BLE001
                        print(f"  {name}.{m}: {type(e).__name__}")
            w.add(f"dist/{name}", inputs={"x": np.asarray(values, np.float32)}, outputs=outs, name=name,
                  methods=done)
        for name, kw, values in prob_cases.BIJECTORS:
            b = getattr(msb, name)(**kw)
            x = ms.Tensor(np.asarray(values, np.float32))
            y = b.forward(x)
            outs = [y.asnumpy(), b.inverse(y).asnumpy(), b.forward_log_jacobian(x).asnumpy(),
                    b.inverse_log_jacobian(y).asnumpy()]
            w.add(f"bijector/{name}", inputs={"x": np.asarray(values, np.float32)}, outputs=outs, name=name)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
