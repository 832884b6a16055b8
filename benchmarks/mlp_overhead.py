"""Framework overhead per training step as the number of Cells grows: deep MLPs against a hand-written floor.

    python -m benchmarks.mlp_overhead [--depths 10 100] [--width 128] [--batch 32] [--rounds 7]

The network is ``depth`` ``nn.Dense(width, width)`` Cells (ReLU between them) in a SequentialCell, trained with
SoftmaxCrossEntropyWithLogits and Momentum(0.01, 0.9) on in-memory batches through ``Model.train`` (GRAPH_MODE,
one epoch per round) and through a GRAPH_MODE ``TrainOneStepCell``; the floor is the same MLP as a list of
(weight, bias) arrays in one donated ``jax.jit`` step (``benchmarks/_floors.py``). Device work per step is
small, so the per-step host cost of the framework (state handling, dispatch, callbacks) is what the ratio shows:
it must not grow with the number of Cells. Rounds are interleaved; ratios are medians of per-round ratios.
Prints one JSON line and a short table.
"""
import argparse
import json
import os
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _floors
from .train_throughput import JaxFloorConfig, ModelConfig, TrainOneStepConfig


def mlp(depth: int, width: int) -> Any:
    """A mindspore_hl MLP of ``depth`` Dense Cells (parameter names ``layers.<i>.weight``/``bias``)."""
    from mindspore_hl import nn

    class MLP(nn.Cell):
        def __init__(self) -> None:
            super().__init__()
            self.layers = nn.SequentialCell([nn.Dense(width, width, activation="relu" if i < depth - 1 else None)
                                             for i in range(depth)])

        def construct(self, x: Any) -> Any:
            return self.layers(x)

    return MLP()


def _network_factory(depth: int, width: int) -> Callable[[], tuple[Any, Any, Any]]:
    def make() -> tuple[Any, Any, Any]:
        import mindspore_hl as ms
        from mindspore_hl import nn
        ms.set_seed(1)
        net = mlp(depth, width)
        return net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), \
            nn.Momentum(net.trainable_params(), _floors.LR, _floors.MOMENTUM)  # type: ignore[attr-defined]
    return make


class _MLPFloor(JaxFloorConfig):
    def __init__(self, batches: list[tuple[np.ndarray, np.ndarray]], depth: int,
                 make: Callable[[], tuple[Any, Any, Any]]) -> None:
        import time
        net, _, _ = make()
        params, stats = _floors.mlp_jax_params(_floors.ms_params(net), depth)
        self.floor = _floors.JaxFloor(params, stats, _floors.mlp_jax_forward)
        self.batches = batches
        start = time.perf_counter()
        self.floor.jitted = self.floor.jitted.lower(self.floor.state, *batches[0]).compile()
        self.compile_s = time.perf_counter() - start
        self.floor.step(*batches[0])
        self.floor.sync()


def run_depth(depth: int, width: int, batch: int, steps: int, rounds: int) -> dict[str, Any]:
    """Median time per step of Model, TrainOneStepCell and the JAX floor for one MLP depth, and the ratios."""
    import mindspore_hl as ms
    ms.set_context(mode=ms.GRAPH_MODE)
    rng = np.random.default_rng(0)
    batches = [(rng.normal(size=(batch, width)).astype(np.float32),
                rng.integers(0, width, batch).astype(np.int32)) for _ in range(steps)]
    make = _network_factory(depth, width)
    configs: dict[str, ModelConfig | TrainOneStepConfig | JaxFloorConfig] = {
        "model": ModelConfig(make, batches), "train_one_step": TrainOneStepConfig(make, batches),
        "jax_floor": _MLPFloor(batches, depth, make)}
    times: dict[str, list[float]] = {k: [] for k in configs}
    order = list(configs)
    for r in range(rounds):
        for name in order[r % 3:] + order[:r % 3]:
            times[name].append(configs[name].round() / steps)
    floor = np.array(times["jax_floor"])
    out: dict[str, Any] = {"depth": depth, "width": width, "batch": batch, "steps_per_round": steps, "rounds": rounds}
    for name, t in times.items():
        out[f"{name}_ms_per_step"] = round(float(np.median(t)) * 1e3, 4)
        if name != "jax_floor":
            out[f"{name}_vs_floor"] = round(float(np.median(floor / np.array(t))), 3)
            out[f"{name}_overhead_us_per_step"] = round(float(np.median(np.array(t) - floor)) * 1e6, 1)
    return out


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--steps", type=int, default=200, help="steps per round")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    import jax
    results = [run_depth(d, args.width, args.batch, args.steps, args.rounds) for d in args.depths]
    print(json.dumps({"benchmark": "mlp_overhead", "device": str(jax.devices()[0]), "cpu_count": os.cpu_count(),
                      "results": results}))
    print(f"{'depth':>5} {'floor ms':>9} {'model ms':>9} {'ratio':>6} {'ovh us':>7} {'1step ms':>9} {'ratio':>6} "
          f"{'ovh us':>7}")
    for r in results:
        print(f"{r['depth']:>5} {r['jax_floor_ms_per_step']:>9.3f} {r['model_ms_per_step']:>9.3f} "
              f"{r['model_vs_floor']:>6.3f} {r['model_overhead_us_per_step']:>7.1f} "
              f"{r['train_one_step_ms_per_step']:>9.3f} {r['train_one_step_vs_floor']:>6.3f} "
              f"{r['train_one_step_overhead_us_per_step']:>7.1f}")
    return results


if __name__ == "__main__":
    main()
