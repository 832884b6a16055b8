"""Time from ``import mindspore_hl`` to the first compiled LeNet5 training step, and the process's peak memory.

    python -m benchmarks.startup [--repeat 3]

Each measurement is a fresh Python process (nothing cached in memory; JAX's persistent compilation cache is
off unless the environment turns it on) that runs: ``import mindspore_hl`` -> build ModelZoo LeNet5, its
loss, Momentum and ``Model`` -> ``Model.train(1, [one batch of 32])`` in GRAPH_MODE, blocked until the updated
weights exist. The floor is the same process shape for the hand-written JAX step (``import jax`` -> build the
parameters -> first jitted step). Phases are reported separately; ``peak_rss_mb`` is the process's maximum
resident set size. Prints one JSON line and a short table; the goal is total < 5 s.
"""
import argparse
import json
import os
import subprocess
import sys
from typing import Any

import numpy as np

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_MODEL = r"""
import time, json, resource
t0 = time.perf_counter()
import mindspore_hl as ms
t1 = time.perf_counter()
import numpy as np
from mindspore_hl import nn
from mindspore_hl.train import Model
from model_zoo.lenet.src.lenet import LeNet5
ms.set_context(mode=ms.GRAPH_MODE)
net = LeNet5(10)
model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
              nn.Momentum(net.trainable_params(), 0.01, 0.9))
t2 = time.perf_counter()
x = np.zeros((32, 1, 32, 32), np.float32); y = np.zeros(32, np.int32)
model.train(1, [(x, y)])
net.fc3.weight.asnumpy()
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "build": t2 - t1, "first_step": t3 - t2, "total": t3 - t0,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

_FLOOR = r"""
import time, json, resource
t0 = time.perf_counter()
import jax
t1 = time.perf_counter()
import numpy as np
from benchmarks import _floors
rng = np.random.default_rng(0)
p = {"conv1.weight": rng.normal(size=(6, 1, 5, 5)), "conv2.weight": rng.normal(size=(16, 6, 5, 5)),
     "fc1.weight": rng.normal(size=(120, 400)), "fc1.bias": np.zeros(120), "fc2.weight": rng.normal(size=(84, 120)),
     "fc2.bias": np.zeros(84), "fc3.weight": rng.normal(size=(10, 84)), "fc3.bias": np.zeros(10)}
params, stats = _floors.lenet_jax_params({k: v.astype(np.float32) for k, v in p.items()})
floor = _floors.JaxFloor(params, stats, _floors.lenet_jax_forward)
t2 = time.perf_counter()
floor.step(np.zeros((32, 32, 32, 1), np.float32), np.zeros(32, np.int32))
floor.sync()
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "build": t2 - t1, "first_step": t3 - t2, "total": t3 - t0,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(script: str) -> dict[str, float]:
    """Phase times of ``script`` run in a fresh interpreter (cwd = repository root)."""
    out = subprocess.run([sys.executable, "-c", script], cwd=_ROOT, capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=_ROOT))
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per configuration (median)")
    args = parser.parse_args(argv)
    runs: dict[str, list[dict[str, Any]]] = {"mindspore_hl": [], "jax_floor": []}
    for _ in range(args.repeat):  # interleaved, so both see the same machine load
        runs["mindspore_hl"].append(measure(_MODEL))
        runs["jax_floor"].append(measure(_FLOOR))
    result = {name: {k: round(float(np.median([r[k] for r in rs])), 3) for k in rs[0]} for name, rs in runs.items()}
    ratio = round(result["jax_floor"]["total"] / result["mindspore_hl"]["total"], 3)
    print(json.dumps({"benchmark": "startup", "cpu_count": os.cpu_count(), "repeat": args.repeat, "results": result,
                      "ratio_vs_floor": ratio, "goal_total_s": 5.0}))
    print(f"{'':<13} {'import s':>9} {'build s':>8} {'1st step s':>10} {'total s':>8} {'peak RSS MB':>11}")
    for name, r in result.items():
        print(f"{name:<13} {r['import']:>9.2f} {r['build']:>8.2f} {r['first_step']:>10.2f} {r['total']:>8.2f} "
              f"{r['peak_rss_mb']:>11.0f}")
    return result


if __name__ == "__main__":
    main()
