"""Training throughput of LeNet5, ResNet50 and MobileNetV2 through ``Model.train`` and ``TrainOneStepCell``
against floors.

    python -m benchmarks.train_throughput [--cases lenet5-32 lenet5-256 resnet50-32 resnet50-224] [--rounds 5]

Cases: LeNet5 (1x32x32) at batch 32 and 256; ModelZoo ResNet50 (10 classes) on CIFAR-sized 3x32x32 at batch 32 and
ImageNet-sized 3x224x224 at batch 8; ModelZoo MobileNetV2 (width 1.0, 10 classes) on 3x224x224 at batch 8 (its
depthwise convolutions; no hand-written JAX floor); on a GPU (JAX's default device), ResNet50 224x224 at batch
256, against PyTorch on the same GPU (batches copied from pinned host memory each step, as a DataLoader feeds
them; no one-thread or own-process PyTorch there; ``torch_cl``/``torch_bf16_cl`` in channels_last format). Every
case trains with SoftmaxCrossEntropyWithLogits(sparse, mean) and Momentum(0.01, 0.9) on in-memory random batches
(the data pipeline is ``benchmarks.dataset_pipeline``'s job):

* ``model``: ``Model.train(1, batches)`` in GRAPH_MODE (one epoch = one timed round; NumPy batches, as a dataset
  iterator with ``output_numpy=True`` gives them); ``model_sink``: the same with ``dataset_sink_mode=True``;
* ``train_one_step``: ``TrainOneStepCell(WithLossCell(net, loss), opt)(x, y)`` in GRAPH_MODE on Tensors;
* ``model_bf16``: ``Model.train`` of the network under ``amp.auto_mixed_precision(net, "O2", dtype=bfloat16)``
  (BatchNorm and the loss in float32, float32 master weights); ``torch_bf16``: PyTorch eager under
  ``torch.autocast("cpu", dtype=torch.bfloat16)``, all cores. ``vs_fp32`` is ``model``'s time over
  ``model_bf16``'s, ``vs_torch_bf16`` ``torch_bf16``'s over ``model_bf16``'s;
* ``jax_floor``: the same network hand-written in JAX, NHWC (``benchmarks/_floors.py``), one jitted step;
  ``jax_floor_bf16``: the same in bfloat16 mixed precision (float32 master weights and BatchNorm), the floor
  of the bfloat16 configurations' ``vs_jax_floor`` when it runs (its own ``vs_fp32`` is over ``jax_floor``);
* ``torch`` / ``torch_1t``: PyTorch eager with all cores / one thread (skipped when torch is not installed);
  ``vs_torch`` compares with the faster of the two in each round (on a busy 2-core machine one thread wins).
  They share this process with mindspore_hl (and glibc malloc as GRAPH_MODE tunes it, ``_host_memory``);
  ``torch_own`` (column "own proc") is PyTorch with all cores in a process of its own, as users run it, and
  ``torch_bf16_own`` (column "t-bf16 own") its autocast there: PyTorch in this process runs with the tuned malloc
  too, which spares it the page faults it takes in a process of its own (ResNet50 224x224 float32: 750 ms per step
  here, 820-1130 ms alone).

All configurations of a case run in this process (``torch_own`` and ``torch_bf16_own`` in their own),
interleaved round by round (the order rotates, reversed every other round), because the 2-core machine is shared
and absolute times drift; each ratio is the median over rounds of that round's ratio. Every step is compiled
ahead of the timed rounds (its compile time is reported). ``xla_mb``: XLA's memory estimate of one compiled step
(arguments + outputs + temporaries). ``vs_ms210``: samples/s against real MindSpore 2.10 GRAPH_MODE on this
machine (figures from the issue, LeNet5 only). Prints one JSON line (with each
configuration's per-round times, ``rounds_ms``), then a table.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any, Protocol

import jax
import numpy as np

from . import _floors

CASES = {  # name: (network, batch, input shape, steps per round)
    "lenet5-32": ("lenet5", 32, (1, 32, 32), 100),
    "lenet5-256": ("lenet5", 256, (1, 32, 32), 20),
    "resnet50-32": ("resnet50", 32, (3, 32, 32), 4),
    "resnet50-224": ("resnet50", 8, (3, 224, 224), 2),
    "mobilenetv2-224": ("mobilenetv2", 8, (3, 224, 224), 4),
}
GPU_CASES = {  # run when JAX's default device is a GPU (the default there)
    "resnet50-224-b256": ("resnet50", 256, (3, 224, 224), 8),
}
ALL_CASES = {**CASES, **GPU_CASES}
MS210_GRAPH = {"lenet5-32": 188.0, "lenet5-256": 284.0}  # real MindSpore 2.10 GRAPH_MODE samples/s (issue 9)


def ms_network(name: str, amp_dtype: Any = None) -> tuple[Any, Any, Any]:
    """A freshly initialised (seed 1) ModelZoo network, its loss and optimizer (``amp_dtype``: the network under
    ``auto_mixed_precision(net, "O2", dtype=amp_dtype)``)."""
    import mindspore_hl as ms
    from mindspore_hl import nn
    ms.set_seed(1)
    net: nn.Cell
    if name == "lenet5":
        from model_zoo.lenet.src.lenet import LeNet5
        net = LeNet5(10)
    elif name == "mobilenetv2":
        from model_zoo.mobilenetv2.src import MobileNetV2Backbone, MobileNetV2Head, mobilenet_v2
        net = mobilenet_v2(MobileNetV2Backbone(), MobileNetV2Head(num_classes=10))
    else:
        from model_zoo.resnet.src.resnet import resnet50
        net = resnet50(10)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), _floors.LR, _floors.MOMENTUM)  # type: ignore[attr-defined]
    if amp_dtype is not None:
        net = ms.amp.auto_mixed_precision(net, "O2", dtype=amp_dtype)
    return net, loss, opt


def _xla_mb(compiled: Any) -> float:
    m = compiled.memory_analysis()
    total = m.argument_size_in_bytes + m.output_size_in_bytes - m.alias_size_in_bytes + m.temp_size_in_bytes
    return round(total / 2 ** 20, 1)


_Batches = list[tuple[np.ndarray, np.ndarray]]
_Make = Callable[[], tuple[Any, Any, Any]]


def random_batches(batch: int, shape: tuple[int, ...], steps: int) -> _Batches:
    """``steps`` in-memory (data, label) NumPy batches from seed 0: standard-normal data, labels in 0..9."""
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(batch,) + shape).astype(np.float32), rng.integers(0, 10, batch).astype(np.int32))
            for _ in range(steps)]


class _Config(Protocol):
    """One timed configuration: ``round()`` runs the batches once and returns the seconds it took."""

    compile_s: float
    xla_mb: float | None

    def round(self) -> float: ...


class ModelConfig:
    """``Model.train`` over one epoch of the batches (``sink``: dataset_sink_mode=True).

    Args:
        make: () -> (network, loss, optimizer); batches: list of (data, label) NumPy arrays.
    """

    def __init__(self, make: _Make, batches: _Batches, sink: bool = False, model: Any = None) -> None:
        from mindspore_hl.train import Model
        self.model, self.batches, self.sink = model, batches, sink
        self.compile_s: float = 0.0
        self.xla_mb: float | None = None
        if model is None:  # else share a built Model (on CPU a sink reuses the per-step executable)
            net, loss, opt = make()
            self.model = model = Model(net, loss, opt)
            start = time.perf_counter()
            model.build(train_dataset=batches[:1], sink_mode=False)  # ahead-of-time compile of the step
            self.compile_s = time.perf_counter() - start
            entry = next(iter(model._train_runner()._cache.values()))  # the engine's compiled step
            compiled = entry.jitted
            self.xla_mb = _xla_mb(compiled) if hasattr(compiled, "memory_analysis") else None
        model.train(1, batches[:2], dataset_sink_mode=sink)  # warm-up (first call paths, dataset tagging)

    def round(self) -> float:
        """Seconds for one epoch of the batches."""
        start = time.perf_counter()
        self.model.train(1, self.batches, dataset_sink_mode=self.sink)
        jax.block_until_ready([p._value for p in self.model.train_network.get_parameters()])
        return time.perf_counter() - start


class TrainOneStepConfig:
    """A GRAPH_MODE ``TrainOneStepCell`` called once per batch on Tensors."""

    def __init__(self, make: _Make, batches: _Batches) -> None:
        import mindspore_hl as ms
        from mindspore_hl import nn
        net, loss, opt = make()
        self.train_net = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt)
        self.train_net.set_train(True)
        self.batches = [(ms.Tensor(x), ms.Tensor(y)) for x, y in batches]
        start = time.perf_counter()
        self.loss = self.train_net(*self.batches[0])
        jax.block_until_ready(self.loss._value)
        self.compile_s = time.perf_counter() - start
        self.xla_mb: float | None = None

    def round(self) -> float:
        """Seconds for one pass over the batches."""
        start = time.perf_counter()
        for x, y in self.batches:
            self.loss = self.train_net(x, y)
        jax.block_until_ready(self.loss._value)
        return time.perf_counter() - start


class JaxFloorConfig:
    """The hand-written NHWC JAX step (inputs transposed to NHWC once, outside the timing)."""

    def __init__(self, name: str, batches: _Batches, compute_dtype: Any = None) -> None:
        net, _, _ = ms_network(name)
        make_params, forward = _floors.JAX_NETS[name]
        params, stats = make_params(_floors.ms_params(net))
        self.floor = _floors.JaxFloor(params, stats, forward, compute_dtype)
        self.batches = [(np.ascontiguousarray(x.transpose(0, 2, 3, 1)), y) for x, y in batches]
        start = time.perf_counter()
        compiled = self.floor.jitted.lower(self.floor.state, *self.batches[0]).compile()
        self.floor.jitted = compiled
        self.compile_s = time.perf_counter() - start
        self.xla_mb: float | None = _xla_mb(compiled)
        self.floor.step(*self.batches[0])
        self.floor.sync()

    def round(self) -> float:
        """Seconds for one pass over the batches."""
        start = time.perf_counter()
        for x, y in self.batches:
            self.floor.step(x, y)
        self.floor.sync()
        return time.perf_counter() - start


class TorchConfig:
    """PyTorch eager on NCHW tensors (converted once, outside the timing), with ``threads`` intra-op threads."""

    def __init__(self, name: str, batches: _Batches, threads: int, autocast_bf16: bool = False,
                 device: str = "cpu", channels_last: bool = False) -> None:
        self.floor = _floors.TorchFloor(name, autocast_bf16=autocast_bf16, device=device, channels_last=channels_last)
        self.threads = threads
        self.floor.torch.set_num_threads(threads)
        self.batches = [self.floor.convert(x, y) for x, y in batches]
        start = time.perf_counter()
        self.floor.step(*self.batches[0])
        self.floor.sync()
        self.compile_s = time.perf_counter() - start
        self.xla_mb: float | None = None

    def round(self) -> float:
        """Seconds for one pass over the batches."""
        self.floor.torch.set_num_threads(self.threads)
        start = time.perf_counter()
        for x, y in self.batches:
            self.floor.step(x, y)
        self.floor.sync()
        return time.perf_counter() - start


class TorchProcessConfig:
    """PyTorch eager with all cores in a process of its own (``_torch_worker``): PyTorch as users run it, never
    sharing a process (or a tuned malloc) with mindspore_hl (``autocast_bf16``: under its bfloat16 autocast)."""

    def __init__(self, name: str, batches: _Batches, autocast_bf16: bool = False) -> None:
        fd, self._path = tempfile.mkstemp(suffix=".npz")
        os.close(fd)
        np.savez(self._path, **{f"{k}{i}": a for i, b in enumerate(batches) for k, a in zip("xy", b)})  # type: ignore[arg-type]
        worker = [sys.executable, "-m", "benchmarks._torch_worker", name, str(os.cpu_count()), self._path]
        self._proc = subprocess.Popen(worker + (["bf16"] if autocast_bf16 else []), stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True,
                                      cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        assert self._proc.stdin is not None and self._proc.stdout is not None  # (both are pipes)
        self._in, self._out = self._proc.stdin, self._proc.stdout
        self.compile_s = float(self._out.readline())
        self.xla_mb: float | None = None

    def round(self) -> float:
        """Seconds the worker reports for one pass over the batches."""
        self._in.write("round\n")
        self._in.flush()
        return float(self._out.readline())

    def close(self) -> None:
        """End the worker and remove the batch file."""
        self._in.close()
        self._proc.wait()
        os.unlink(self._path)


def run_case(case: str, rounds: int, steps: int | None = None, configs: list[str] | None = None,
             progress: bool = False) -> dict[str, Any]:
    """Median seconds per step of each configuration and the per-round ratios, for one case (``progress``:
    print each configuration's build time and one round as soon as it is built)."""
    import mindspore_hl as ms
    ms.set_context(mode=ms.GRAPH_MODE)
    net_name, batch, shape, default_steps = ALL_CASES[case]
    on_gpu = jax.default_backend() == "gpu"
    steps = steps or default_steps
    batches = random_batches(batch, shape, steps)
    wanted = configs or ["model", "model_sink", "train_one_step", "jax_floor", "torch"]
    if "torch" in wanted and not _floors.torch_available():
        wanted = [c for c in wanted if c != "torch"]
    if net_name not in _floors.JAX_NETS:  # (MobileNetV2 has no hand-written floor)
        wanted = [c for c in wanted if not c.startswith("jax_floor")]
    built: dict[str, _Config] = {}
    shown: set[str] = set()
    make = lambda: ms_network(net_name)  # noqa: E731
    for name in wanted:
        if name == "model":
            built[name] = ModelConfig(make, batches)
        elif name == "model_sink":
            base = built.get("model")  # the same Model: sink mode on CPU reuses the per-step executable
            shared = base.model if isinstance(base, ModelConfig) else None
            built[name] = ModelConfig(make, batches, sink=True, model=shared)
        elif name == "model_bf16":
            built[name] = ModelConfig(lambda: ms_network(net_name, ms.bfloat16), batches)
        elif name.startswith("torch") and on_gpu:  # PyTorch on the same GPU as JAX, when it has CUDA
            if _floors.torch_cuda_available():
                built[name] = TorchConfig(net_name, batches, os.cpu_count() or 1, "bf16" in name, "cuda",
                                          channels_last=name.endswith("_cl"))
        elif name in ("torch", "torch_bf16"):
            # all cores (torch's default) and one thread: on a busy machine one is faster
            cores = os.cpu_count() or 1  # (None when the count cannot be determined)
            for suffix, threads in (("", cores), ("_1t", 1)) if cores > 1 else (("", cores),):
                built[name + suffix] = TorchConfig(net_name, batches, threads, autocast_bf16=name == "torch_bf16")
            built[name + "_own"] = TorchProcessConfig(net_name, batches, autocast_bf16=name == "torch_bf16")
        elif name == "train_one_step":
            built[name] = TrainOneStepConfig(make, batches)
        elif name == "jax_floor":
            built[name] = JaxFloorConfig(net_name, batches)
        elif name == "jax_floor_bf16":
            built[name] = JaxFloorConfig(net_name, batches, jax.numpy.bfloat16)
        if progress:
            for key in [k for k in built if k.startswith(name) and k not in shown]:
                shown.add(key)
                print(f"{case} {key}: built in {built[key].compile_s:.1f} s, one round "
                      f"{built[key].round() / steps * 1e3:.1f} ms/step", flush=True)
    times: dict[str, list[float]] = {name: [] for name in built}
    order = list(built)
    try:
        for r in range(rounds):
            turn = order[r % len(order):] + order[:r % len(order)]
            for name in (turn[::-1] if r % 2 else turn):  # so no configuration always follows the same one
                times[name].append(built[name].round() / steps)
    finally:
        for cfg in built.values():
            getattr(cfg, "close", lambda: None)()
    med = {name: float(np.median(t)) for name, t in times.items()}
    for family in ("torch", "torch_bf16"):  # the PyTorch floor of a round is its fastest thread setting or layout
        variants = [times[v] for v in (family, f"{family}_1t", f"{family}_cl") if v in times]
        if variants:
            times[f"{family}_best"] = [float(t) for t in np.min(np.array(variants), axis=0)]
    result: dict[str, Any] = {"case": case, "batch": batch, "input": list(shape), "steps_per_round": steps,
                              "rounds": rounds, "configs": {}}
    for name, cfg in built.items():
        entry = {"ms_per_step": round(med[name] * 1e3, 3), "samples_per_s": round(batch / med[name], 1),
                 "compile_s": round(cfg.compile_s, 2), "xla_mb": cfg.xla_mb,
                 "rounds_ms": [round(t * 1e3, 2) for t in times[name]]}
        torch_floor = "torch_best" if "torch_best" in times else "torch"
        jax_floor = "jax_floor_bf16" if "bf16" in name and "jax_floor_bf16" in times else "jax_floor"
        for key, floor in (("vs_jax_floor", jax_floor), ("vs_torch", torch_floor),
                           ("vs_torch_own", "torch_own")):
            family = "jax_floor" if key == "vs_jax_floor" else "torch"  # no ratio of a floor to itself
            if floor in times and not name.startswith(family):
                entry[key] = round(float(np.median(np.array(times[floor]) / np.array(times[name]))), 3)
        if name in ("model_bf16", "jax_floor_bf16"):
            torch_bf16 = "torch_bf16_best" if "torch_bf16_best" in times else "torch_bf16"
            fp32 = "model" if name == "model_bf16" else "jax_floor"
            for key, ref in (("vs_fp32", fp32), ("vs_torch_bf16", torch_bf16), ("vs_torch_bf16_own", "torch_bf16_own")):
                if ref in times:
                    entry[key] = round(float(np.median(np.array(times[ref]) / np.array(times[name]))), 3)
        if case in MS210_GRAPH:
            entry["vs_ms210"] = round(batch / med[name] / MS210_GRAPH[case], 1)
        result["configs"][name] = entry
    return result


def print_table(results: list[dict[str, Any]]) -> None:
    """The results of :func:`run_case` as a text table."""
    print(f"{'case':<13} {'config':<15} {'ms/step':>9} {'samples/s':>10} {'vs jax':>7} {'vs torch':>8} "
          f"{'own proc':>8} {'vs ms2.10':>9} {'compile s':>9} {'xla MB':>7} {'vs fp32':>7} {'vs t-bf16':>9} "
          f"{'t-bf16 own':>10}")
    for res in results:
        for name, e in res["configs"].items():
            def cell(key: str, width: int, fmt: str = "{:.3f}", e: dict[str, Any] = e) -> str:
                v = e.get(key)
                return f"{'-' if v is None else fmt.format(v):>{width}}"
            print(f"{res['case']:<13} {name:<15} {e['ms_per_step']:>9.2f} {e['samples_per_s']:>10.1f} "
                  f"{cell('vs_jax_floor', 7)} {cell('vs_torch', 8)} {cell('vs_torch_own', 8)} "
                  f"{cell('vs_ms210', 9, '{:.1f}')} "
                  f"{e['compile_s']:>9.2f} {cell('xla_mb', 7, '{:.1f}')} {cell('vs_fp32', 7)} "
                  f"{cell('vs_torch_bf16', 9)} {cell('vs_torch_bf16_own', 10)}")


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", nargs="+", default=None, choices=list(ALL_CASES),
                        help="default: every CPU case, or the GPU cases when JAX's default device is a GPU")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved timed rounds per configuration")
    parser.add_argument("--steps", type=int, default=None, help="steps per round (default: per case)")
    parser.add_argument("--progress", action="store_true", help="print each configuration's first round as built")
    parser.add_argument("--configs", nargs="+", default=None,
                        choices=["model", "model_sink", "train_one_step", "jax_floor", "torch", "model_bf16",
                                 "jax_floor_bf16", "torch_bf16", "torch_cl", "torch_bf16_cl"],
                        help="torch_cl / torch_bf16_cl: PyTorch in channels_last memory format (GPU only)")
    args = parser.parse_args(argv)
    if any(name.startswith("torch") for name in args.configs or ["torch"]):
        # On a GPU PyTorch shares the device with JAX, whose default preallocation (75% of its memory) left
        # PyTorch too little for ResNet50 at batch 256 on an 80 GB card. This must precede JAX's first device use.
        os.environ.setdefault("XLA_PYTHON_CLIENT_MEM_FRACTION", "0.5")
    cases = args.cases or list(GPU_CASES if jax.default_backend() == "gpu" else CASES)
    results = [run_case(case, args.rounds, args.steps, args.configs, args.progress) for case in cases]
    print(json.dumps({"benchmark": "train_throughput", "device": str(jax.devices()[0]), "cpu_count": os.cpu_count(),
                      "xla_flags": os.environ.get("XLA_FLAGS", ""), "torch": _floors.torch_available(),
                      "results": results}))
    print_table(results)
    return results


if __name__ == "__main__":
    main()
