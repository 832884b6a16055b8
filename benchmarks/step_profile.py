"""Where a training step's time goes: ``Model.train`` of a benchmark case profiled by XLA op kind, op and Cell.

    taskset -c 0 python -m benchmarks.step_profile [--case resnet50-224] [--amp-dtype bfloat16] [--top 25]

Trains one of ``benchmarks.train_throughput``'s cases (a ModelZoo network on random batches, float32 or under
``auto_mixed_precision(net, "O2", dtype)``) for a warm-up epoch, then for ``--steps`` more under
``mindspore_hl.Profiler``, and prints from the profiler's summary:

* the step time, and XLA's FLOPs of the compiled step over it;
* time per step by XLA op kind (the compiled program's instruction names without their numbers: ``ynn_fusion``
  is a YNNPACK matrix product or reduction, ``dot_general`` a product on Eigen, ``convolution`` and
  ``conv_general_dilated`` XLA's convolutions, ``*_fusion`` XLA's element-wise loops);
* the slowest ops, each with its Cell and pass (forward or backward);
* the slowest Cells (leaves of the Cell tree), with their arithmetic rate.

Pin the process to one core for per-op costs, as above: on more cores XLA runs independent ops concurrently and
an op's time includes waiting for a core. Prints one JSON line, then the tables.
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import tempfile
from typing import Any

import numpy as np

from .train_throughput import CASES, ms_network, random_batches


def profile_case(case: str, amp_dtype: str | None = None, steps: int | None = None,
                 output_path: str | None = None) -> dict[str, Any]:
    """The profiler's summary (``mindspore_hl.profiler.load_summary``) of ``steps`` steps of ``case``."""
    import mindspore_hl as ms
    from mindspore_hl.profiler import Profiler, load_summary
    from mindspore_hl.train import Model
    ms.set_context(mode=ms.GRAPH_MODE)
    net_name, batch, shape, default_steps = CASES[case]
    batches = random_batches(batch, shape, steps or default_steps)
    model = Model(*ms_network(net_name, getattr(ms, amp_dtype) if amp_dtype else None))
    model.train(1, batches)  # compiles the step, and warms what a first epoch warms
    with tempfile.TemporaryDirectory() as scratch:
        profiler = Profiler(output_path=output_path or scratch)
        model.train(1, batches)
        profiler.analyse()
        if profiler.last_session is None:
            raise RuntimeError(f"step_profile: the profiler analysed no session of {case}")
        return load_summary(profiler.last_session)


def op_kind(op_name: str) -> str:
    """The kind of a compiled program's instruction: its name without the number XLA appends.

    >>> op_kind("ynn_fusion.42"), op_kind("convolution"), op_kind("add_select_fusion.3")
    ('ynn_fusion', 'convolution', 'add_select_fusion')
    """
    return re.sub(r"\.\d+$", "", op_name)


def tables(summary: dict[str, Any], top: int) -> dict[str, Any]:
    """Per-step times by op kind, the ``top`` slowest ops and the ``top`` slowest leaf Cells of a summary."""
    n = max(len(summary["steps"]), 1)
    kinds: collections.Counter[str] = collections.Counter()
    counts: collections.Counter[str] = collections.Counter()
    for row in summary["ops"]:
        kinds[op_kind(row["op_name"])] += row["op_total_time(ms)"] / n
        counts[op_kind(row["op_name"])] += row["op_occurrences"] / n
    ops = [{"op": row["op_name"], "ms": row["op_total_time(ms)"] / n, "cell": row["cell"],
            "pass": "backward" if row["backward"] else "forward"} for row in summary["ops"][:top]]
    names = set(summary["cells"])
    leaves = {name: c for name, c in summary["cells"].items()
              if not any(other.startswith(name + ".") for other in names)}
    cells = sorted(({"cell": name, "ms": c["time_ms_per_step"], "gflops_per_s": c["gflops_per_s"]}
                    for name, c in leaves.items()), key=lambda c: -c["ms"])[:top]
    step_ms = float(np.median([s["compiled_step_ms"] for s in summary["steps"]])) if summary["steps"] else 0.0
    return {"step_ms": step_ms, "step_gflops_per_s": summary.get("step_gflops_per_s", 0.0),
            "ops_ms": sum(kinds.values()),
            "kinds": [{"kind": k, "ms": v, "per_step": counts[k]} for k, v in kinds.most_common(top)],
            "ops": ops, "cells": cells}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", default="resnet50-224", choices=list(CASES))
    parser.add_argument("--amp-dtype", default=None, choices=["bfloat16", "float16"],
                        help="train the network under auto_mixed_precision O2 with this dtype")
    parser.add_argument("--steps", type=int, default=None, help="profiled steps (default: the case's round)")
    parser.add_argument("--top", type=int, default=25, help="rows per table")
    parser.add_argument("--output-path", default=None, help="keep the profiler's files here (default: discarded)")
    args = parser.parse_args(argv)
    result = tables(profile_case(args.case, args.amp_dtype, args.steps, args.output_path), args.top)
    result = {"benchmark": "step_profile", "case": args.case, "amp_dtype": args.amp_dtype, **result}
    print(json.dumps(result))
    print(f"step {result['step_ms']:.1f} ms, {result['step_gflops_per_s']:.1f} GFLOP/s; ops {result['ops_ms']:.1f} ms")
    print(f"\n{'ms/step':>9} {'ops/step':>8}  op kind")
    for k in result["kinds"]:
        print(f"{k['ms']:>9.2f} {k['per_step']:>8.0f}  {k['kind']}")
    print(f"\n{'ms/step':>9}  {'op':<30} {'pass':<8} cell")
    for o in result["ops"]:
        print(f"{o['ms']:>9.2f}  {o['op']:<30} {o['pass']:<8} {o['cell']}")
    print(f"\n{'ms/step':>9} {'GFLOP/s':>8}  cell")
    for c in result["cells"]:
        print(f"{c['ms']:>9.2f} {c['gflops_per_s']:>8.1f}  {c['cell']}")
    return result


if __name__ == "__main__":
    main()
