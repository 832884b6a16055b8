"""Model.train throughput on LeNet5 against a hand-written ``jax.jit`` floor, in the same run.

    python -m benchmarks.model_train [--steps 200] [--repeat 3] [--batches 32 256]

Model.train (GRAPH_MODE, ModelZoo LeNet5, Momentum(0.01, 0.9), SoftmaxCrossEntropyWithLogits) is timed over
one epoch of in-memory random batches (so the data pipeline is not measured) in four configurations:
per-step, dataset sink mode, per-step with a SummaryCollector (collect_freq=10), and per-step with a network
that contains a ScalarSummary op (the cost of jax.debug.callback). The floor is the same network written
directly in JAX (lax.conv, reshape-max pooling, optax.sgd with momentum = MindSpore's Momentum), one jitted
step per batch with donated state, in NHWC and NCHW layouts. The configurations are timed in turns; each time
is the best of ``--repeat`` epochs.

Prints one JSON line and a short table; ratio = Model images/s / floor images/s (1.0 = as fast as the floor).
"""
import argparse
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax


# ---- the floor: LeNet5 in plain JAX ---------------------------------------------------------------------------
def _floor_params(net: Any, layout: str) -> dict[str, jax.Array]:
    """The ModelZoo LeNet5 weights of ``net`` as a dict, convolution kernels in ``layout``'s order."""
    p = {n.replace(".", "_"): jnp.asarray(v.asnumpy()) for n, v in net.parameters_and_names()}
    if layout == "NHWC":
        for k in ("conv1_weight", "conv2_weight"):
            p[k] = jnp.transpose(p[k], (2, 3, 1, 0))  # OIHW -> HWIO
    return p


def _floor_step(layout: str) -> tuple[Callable[[Any], Any], Callable[..., Any]]:
    dn = ("NHWC", "HWIO", "NHWC") if layout == "NHWC" else ("NCHW", "OIHW", "NCHW")

    def pool(x: jax.Array) -> jax.Array:
        if layout == "NHWC":
            n, h, w, c = x.shape
            return x.reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))
        n, c, h, w = x.shape
        return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))

    def forward(p: dict[str, jax.Array], x: jax.Array) -> jax.Array:
        x = pool(jax.nn.relu(jax.lax.conv_general_dilated(x, p["conv1_weight"], (1, 1), "VALID",
                                                          dimension_numbers=dn)))
        x = pool(jax.nn.relu(jax.lax.conv_general_dilated(x, p["conv2_weight"], (1, 1), "VALID",
                                                          dimension_numbers=dn)))
        if layout == "NHWC":
            x = jnp.transpose(x, (0, 3, 1, 2))  # flatten in NCHW order, as nn.Flatten does
        x = x.reshape(x.shape[0], -1)
        x = jax.nn.relu(x @ p["fc1_weight"].T + p["fc1_bias"])
        x = jax.nn.relu(x @ p["fc2_weight"].T + p["fc2_bias"])
        return x @ p["fc3_weight"].T + p["fc3_bias"]

    def loss(p: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> jax.Array:
        return optax.softmax_cross_entropy_with_integer_labels(forward(p, x), y).mean()

    opt = optax.sgd(0.01, momentum=0.9)

    @jax.jit
    def init(p: dict[str, jax.Array]) -> Any:
        return p, opt.init(p)

    def step(state: Any, x: jax.Array, y: jax.Array) -> tuple[Any, jax.Array]:
        p, o = state
        value, grads = jax.value_and_grad(loss)(p, x, y)
        updates, o = opt.update(grads, o, p)
        return (optax.apply_updates(p, updates), o), value

    return init, jax.jit(step, donate_argnums=0)


def floor_epoch(net: Any, batches: list[tuple[np.ndarray, np.ndarray]], layout: str) -> Callable[[], Any]:
    """A function running one epoch of the JAX floor (compiled on creation); returns the last loss."""
    init, step = _floor_step(layout)
    holder = [init(_floor_params(net, layout))]
    xs = [np.ascontiguousarray(x.transpose(0, 2, 3, 1)) if layout == "NHWC" else x for x, _ in batches]
    ys = [y for _, y in batches]

    def epoch() -> Any:
        state = holder[0]
        for x, y in zip(xs, ys):
            state, loss = step(state, x, y)
        holder[0] = state
        return loss

    holder[0], loss = step(holder[0], xs[0], ys[0])  # compile
    loss.block_until_ready()
    return epoch


# ---- Model.train ------------------------------------------------------------------------------------------------
def _model(with_summary_op: bool = False) -> tuple[Any, Any]:
    import mindspore_hl as ms
    from mindspore_hl import nn
    from mindspore_hl.train import Model
    from model_zoo.lenet.src import LeNet5
    ms.set_seed(1)
    net = LeNet5(10)
    if with_summary_op:
        from mindspore_hl.summary import ScalarSummary
        scalar = ScalarSummary()
        forward = net.construct

        def construct(x: Any) -> Any:
            logits = forward(x)
            scalar("logits_mean", logits.mean())
            return logits
        net.construct = construct  # type: ignore[method-assign]  # (the same network with one op more)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.01, 0.9))  # type: ignore[attr-defined]
    return model, net


def model_epoch(batches: list[tuple[np.ndarray, np.ndarray]], sink: bool = False, summary_dir: str | None = None,
                summary_op: bool = False) -> Callable[[], Any]:
    """A function running one epoch of Model.train (compiled on creation); returns a value to wait on."""
    from mindspore_hl.train import SummaryCollector
    model, net = _model(summary_op)
    callbacks = [SummaryCollector(summary_dir, collect_freq=10)] if summary_dir is not None else []
    if summary_op:  # the op sends its value to the host only while a SummaryRecord listens
        from mindspore_hl.summary import SummaryRecord
        record = SummaryRecord(tempfile.mkdtemp(prefix="bench_summary_op_"))
        record.close()
        shutil.rmtree(record.log_dir, ignore_errors=True)
    model.train(1, batches[:2], callbacks=callbacks, dataset_sink_mode=sink)  # compile (and the first summaries)

    def epoch() -> Any:
        model.train(1, batches, callbacks=callbacks, dataset_sink_mode=sink)
        return net.fc3.weight._value

    return epoch


def run(batch_sizes: list[int], steps: int, repeat: int) -> list[dict[str, Any]]:
    """Per batch size: build every configuration, then time them in turns (best of ``repeat`` epochs each),
    so a change of machine load affects the floor and Model alike."""
    import mindspore_hl as ms
    ms.set_context(mode=ms.GRAPH_MODE)
    results: list[dict[str, Any]] = []
    for batch in batch_sizes:
        n = max(20, steps * 32 // batch)
        rng = np.random.default_rng(0)
        batches = [(rng.normal(size=(batch, 1, 32, 32)).astype(np.float32),
                    rng.integers(0, 10, batch).astype(np.int32)) for _ in range(n)]
        _, net = _model()
        summary_dir = tempfile.mkdtemp(prefix="bench_summary_")
        try:
            epochs = {"floor NHWC": floor_epoch(net, batches, "NHWC"),
                      "floor NCHW": floor_epoch(net, batches, "NCHW"),
                      "step": model_epoch(batches),
                      "sink": model_epoch(batches, sink=True),
                      "step+SummaryCollector": model_epoch(batches, summary_dir=summary_dir),
                      "step+ScalarSummary op": model_epoch(batches, summary_op=True)}
            best = dict.fromkeys(epochs, float("inf"))
            for _ in range(repeat):
                for name, epoch in epochs.items():
                    start = time.perf_counter()
                    jax.block_until_ready(epoch())
                    best[name] = min(best[name], time.perf_counter() - start)
        finally:
            shutil.rmtree(summary_dir, ignore_errors=True)
        floors = {"NHWC": best.pop("floor NHWC"), "NCHW": best.pop("floor NCHW")}
        for name, seconds in best.items():
            results.append({
                "batch": batch, "config": name, "steps": n,
                "model_ms_per_step": round(seconds / n * 1e3, 3),
                "model_images_per_s": round(n * batch / seconds, 1),
                "floor_nhwc_ms_per_step": round(floors["NHWC"] / n * 1e3, 3),
                "floor_nchw_ms_per_step": round(floors["NCHW"] / n * 1e3, 3),
                "ratio_vs_nhwc_floor": round(floors["NHWC"] / seconds, 3),
                "ratio_vs_nchw_floor": round(floors["NCHW"] / seconds, 3),
            })
    return results


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=200, help="steps per timed epoch at batch 32 (scaled by batch)")
    parser.add_argument("--repeat", type=int, default=3, help="timed epochs per configuration (best is kept)")
    parser.add_argument("--batches", type=int, nargs="+", default=[32, 256])
    args = parser.parse_args(argv)
    results = run(args.batches, args.steps, args.repeat)
    print(json.dumps({"benchmark": "model_train", "device": str(jax.devices()[0]), "cpu_count": os.cpu_count(),
                      "repeat": args.repeat, "results": results}))
    print(f"{'batch':>5}  {'config':<22} {'ms/step':>8} {'NHWC floor':>10} {'NCHW floor':>10} "
          f"{'ratio NHWC':>10} {'ratio NCHW':>10}")
    for r in results:
        print(f"{r['batch']:>5}  {r['config']:<22} {r['model_ms_per_step']:>8.3f} "
              f"{r['floor_nhwc_ms_per_step']:>10.3f} {r['floor_nchw_ms_per_step']:>10.3f} "
              f"{r['ratio_vs_nhwc_floor']:>10.3f} {r['ratio_vs_nchw_floor']:>10.3f}")
    return results


if __name__ == "__main__":
    main()
