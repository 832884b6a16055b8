"""Time from a fresh process to its first training step (cold, and warm from the compile cache), beside PyTorch.

    python -m benchmarks.startup [--net lenet5 resnet50] [--repeat 3]

Each measurement is a fresh Python process that runs: import the framework -> build the network (ModelZoo LeNet5
at batch 32 on 1x32x32, or ModelZoo ResNet50 at batch 8 on 3x224x224, 10 classes), its sparse softmax
cross-entropy and Momentum -> train one step, blocked until the updated weights exist. Configurations:

* ``cold``: mindspore_hl's ``Model.train(1, [batch])`` in GRAPH_MODE with nothing cached (the step is traced and
  compiled by XLA);
* ``warm``: the same with ``set_context(enable_compile_cache=True, compile_cache_path=...)`` in a process after one
  that filled the cache (the step is traced and lowered, the executable loaded from disk);
* ``jax_floor`` (LeNet5): the hand-written JAX step (``benchmarks/_floors.py``), cold;
* ``torch``: PyTorch eager's first step (no compilation; skipped when torch is not installed).

Phases are reported separately (``import``, ``build``, ``first_step``; ``total`` is their sum) with
``peak_rss_mb``, the process's maximum resident set size. Configurations are interleaved per repeat; the figures
are medians. ``cold_vs_torch`` and ``warm_vs_torch`` divide mindspore_hl's first-step phase by PyTorch's;
``cold_total_vs_torch`` and ``warm_total_vs_torch`` divide the whole time to the first step (import, build and
first step: what a user waits for after starting the script).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

import numpy as np

from . import _floors

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_NETS = {"lenet5": (32, (1, 32, 32)), "resnet50": (8, (3, 224, 224))}

_REPORT = """
print(json.dumps({"import": t1 - t0, "build": t2 - t1, "first_step": t3 - t2, "total": t3 - t0,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

_MODEL = r"""
import sys, time, json, resource
t0 = time.perf_counter()
import mindspore_hl as ms
t1 = time.perf_counter()
import numpy as np
from mindspore_hl import nn
from mindspore_hl.train import Model
net_name, batch, shape, cache = sys.argv[1], int(sys.argv[2]), eval(sys.argv[3]), sys.argv[4]
ms.set_context(mode=ms.GRAPH_MODE)
if cache:
    ms.set_context(enable_compile_cache=True, compile_cache_path=cache)
if net_name == "lenet5":
    from model_zoo.lenet.src.lenet import LeNet5
    net = LeNet5(10)
else:
    from model_zoo.resnet.src.resnet import resnet50
    net = resnet50(10)
model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
              nn.Momentum(net.trainable_params(), 0.01, 0.9))
t2 = time.perf_counter()
x = np.zeros((batch,) + shape, np.float32); y = np.zeros(batch, np.int32)
model.train(1, [(x, y)])
net.trainable_params()[-1].asnumpy()
t3 = time.perf_counter()
""" + _REPORT

_FLOOR = r"""
import sys, time, json, resource
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
""" + _REPORT

_TORCH = r"""
import sys, time, json, resource
t0 = time.perf_counter()
import torch
t1 = time.perf_counter()
import numpy as np
from benchmarks import _floors
net_name, batch, shape = sys.argv[1], int(sys.argv[2]), eval(sys.argv[3])
floor = _floors.TorchFloor(net_name)
t2 = time.perf_counter()
floor.step(*floor.convert(np.zeros((batch,) + shape, np.float32), np.zeros(batch, np.int32)))
t3 = time.perf_counter()
""" + _REPORT


def measure(script: str, *args: str) -> dict[str, float]:
    """Phase times of ``script`` run in a fresh interpreter (cwd = repository root) with ``args`` as argv."""
    out = subprocess.run([sys.executable, "-c", script, *args], cwd=_ROOT, capture_output=True, text=True,
                         check=True, env=dict(os.environ, PYTHONPATH=_ROOT))
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_net(net: str, repeat: int) -> dict[str, Any]:
    """Median phase times of each configuration for one network, and the first-step ratios to PyTorch."""
    batch, shape = _NETS[net]
    args = (net, str(batch), repr(shape))
    cache = tempfile.mkdtemp(prefix="startup_cache_")
    try:
        measure(_MODEL, *args, cache)  # fills the compile cache for the warm runs
        configs = {"cold": lambda: measure(_MODEL, *args, ""), "warm": lambda: measure(_MODEL, *args, cache)}
        if net == "lenet5":
            configs["jax_floor"] = lambda: measure(_FLOOR)
        if _floors.torch_available():
            configs["torch"] = lambda: measure(_TORCH, *args)
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in configs}
        for _ in range(repeat):  # interleaved, so all see the same machine load
            for name, run in configs.items():
                runs[name].append(run())
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    result: dict[str, Any] = {name: {k: round(float(np.median([r[k] for r in rs])), 3) for k in rs[0]}
                              for name, rs in runs.items()}
    if "torch" in result:
        for name in ("cold", "warm"):
            result[f"{name}_vs_torch"] = round(result[name]["first_step"] / result["torch"]["first_step"], 2)
            result[f"{name}_total_vs_torch"] = round(result[name]["total"] / result["torch"]["total"], 2)
    return result


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--net", nargs="+", default=list(_NETS), choices=list(_NETS))
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per configuration (median)")
    args = parser.parse_args(argv)
    results = {net: run_net(net, args.repeat) for net in args.net}
    print(json.dumps({"benchmark": "startup", "cpu_count": os.cpu_count(), "repeat": args.repeat,
                      "results": results}))
    print(f"{'net':<9} {'config':<10} {'import s':>9} {'build s':>8} {'1st step s':>10} {'total s':>8} "
          f"{'peak RSS MB':>11}")
    for net, res in results.items():
        for name, r in res.items():
            if isinstance(r, dict):
                print(f"{net:<9} {name:<10} {r['import']:>9.2f} {r['build']:>8.2f} {r['first_step']:>10.2f} "
                      f"{r['total']:>8.2f} {r['peak_rss_mb']:>11.0f}")
        ratios = ", ".join(f"{k} {v}" for k, v in res.items() if not isinstance(v, dict))
        if ratios:
            print(f"{net:<9} vs PyTorch's (first-step phase; whole time to first step): {ratios}")
    return results


if __name__ == "__main__":
    main()
