"""Same-process A/B of two or more code paths inside a compiled train step, selected by a module attribute
or by an XLA compiler option.

    python -m benchmarks.step_ab --case lenet5-256 --switch mindspore_hl.ops._nn_pool:_FIRST --values last,first
    python -m benchmarks.step_ab --case resnet50-224 --xla-option xla_cpu_enable_fast_min_max --values default,true

For a change under study, add a temporary module-level switch that the code reads while tracing, then name it
here. Each value is set, JAX's caches are cleared, and a ``TrainOneStepCell`` step is traced and compiled ahead
of time; the timed rounds then call the compiled executables (values interleaved, order rotating), so no later
setting can retrace an earlier variant.

Why not simply set the switch and build another network: the ops' ``jax.jit`` cores (``_conv2d_core``,
``_max_pool_core``, ...) cache their traces, so a second variant silently reuses the first's trace; clearing
the caches instead makes every earlier ``jax.jit`` retrace with the *last* setting on its next call. Either
way all variants run the same program and the A/B reads as "no difference" (docs/performance.md, "How to measure a
change").

``--xla-option NAME`` compiles the same traced step once per value, with that compiler option added to the engine's
(``default``: the engine's options alone; ``true``/``false`` are booleans, digits integers), so flags that
``XLA_FLAGS`` would set for a whole process compare in one. ``--separator`` splits ``--values`` where a value holds
commas (YNNPACK's fusion types).
Prints one JSON line: the median ms per step of each value and the per-round times.
"""
import argparse
import importlib
import json
import time
from typing import Any

import jax
import numpy as np

from .train_throughput import ALL_CASES, ms_network


def _compiled_step(net_name: str, x: Any, y: Any, amp_dtype: Any = None,
                   xla_options: dict[str, Any] | None = None) -> list[Any]:
    """(executable, state, rng, inputs) of a fresh network's compiled TrainOneStepCell step (``amp_dtype``: under
    ``auto_mixed_precision(net, "O2", dtype=amp_dtype)``; ``xla_options``: compiler options added to the
    engine's)."""
    from mindspore_hl import nn
    from mindspore_hl._jit import split_args
    from mindspore_hl.common import seed
    net, loss, opt = ms_network(net_name, amp_dtype)
    step: Any = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)  # (its _compiled / training are dynamic)
    step.set_train(True)  # as Model.train does: BatchNorm on batch statistics, Dropout on
    step(x, y).asnumpy()
    (entry,) = step._compiled._cache.values()
    dyn, _ = split_args((step.training, x, y))  # a Cell's compiled call takes its training flag first
    state, rng = tuple(p._value for p in entry.params), seed.global_key()
    return [entry.jitted.lower(state, rng, dyn).compile(xla_options), state, rng, dyn]


def _option_value(text: str) -> Any:
    """A compiler option's value as typed on the command line: a boolean, an integer or a string."""
    if text in ("true", "false"):
        return text == "true"
    return int(text) if text.lstrip("-").isdigit() else text


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", default="lenet5-256", choices=list(ALL_CASES))
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--switch", help="module:ATTRIBUTE read while tracing")
    what.add_argument("--xla-option", help="an XLA compiler option (e.g. xla_cpu_enable_fast_min_max)")
    parser.add_argument("--values", required=True, help="the values to compare, separated by --separator")
    parser.add_argument("--separator", default=",", help="what separates --values (default: a comma)")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--amp-dtype", default=None, choices=["bfloat16", "float16"],
                        help="train the network under auto_mixed_precision O2 with this dtype")
    parser.add_argument("--steps", type=int, default=None, help="steps per round (default: the case's)")
    args = parser.parse_args(argv)
    import mindspore_hl as ms
    net_name, batch, shape, steps = ALL_CASES[args.case]
    steps = args.steps or steps
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.random((batch, *shape), dtype=np.float32))
    y = ms.Tensor(rng.integers(0, 10, batch).astype(np.int32))
    values = args.values.split(args.separator)
    amp_dtype = getattr(ms, args.amp_dtype) if args.amp_dtype else None
    runs = {}
    if args.switch:
        module_name, attr = args.switch.split(":")
        module = importlib.import_module(module_name)
        for v in values:
            setattr(module, attr, v)
            jax.clear_caches()
            runs[v] = _compiled_step(net_name, x, y, amp_dtype)
    else:  # the same trace, compiled once per value with its option
        for v in values:
            options = None if v == "default" else {args.xla_option: _option_value(v)}
            runs[v] = _compiled_step(net_name, x, y, amp_dtype, options)
    times: dict[str, list[float]] = {v: [] for v in values}
    for r in range(args.rounds):
        for v in values[r % len(values):] + values[:r % len(values)]:
            run = runs[v]
            compiled, state, key, dyn = run
            start = time.perf_counter()
            for _ in range(steps):
                out, state, key = compiled(state, key, dyn)
            jax.block_until_ready(out)
            times[v].append((time.perf_counter() - start) / steps * 1e3)
            run[1], run[2] = state, key
    print(json.dumps({"benchmark": "step_ab", "case": args.case, "switch": args.switch or args.xla_option,
                      "ms_per_step": {v: round(float(np.median(t)), 3) for v, t in times.items()},
                      "rounds": {v: [round(t, 2) for t in ts] for v, ts in times.items()}}))


if __name__ == "__main__":
    main()
