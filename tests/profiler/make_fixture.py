"""Write the small committed profile under tests/fixtures/profiler/ (run from the repository root):

    python -m tests.profiler.make_fixture

LeNet5 ``Model.train`` in GRAPH_MODE, batches of 8, 8 and 4 (the last one recompiles the step), memory sampled,
a checkpoint every 2 steps and LossMonitor.
Only what insight_app reads is kept (jax's raw trace under ``plugins/`` is left out to keep it small).

    python -m tests.profiler.make_fixture --gpu

on a machine whose JAX computes on a GPU writes ``lenet5_h100.trace.json.gz`` (jax's raw trace of four compiled
LeNet5 steps of batch 8) and ``lenet5_h100_step.hlo.gz`` (that step's compiled HLO), which ``test_trace.py`` reads.
"""
import glob
import gzip
import json
import pathlib
import shutil
import sys
import tempfile

import numpy as np

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.profiler._collect import compiled_steps
from mindspore_hl.profiler._hlo import compile_step
from mindspore_hl.train import Model
from model_zoo.lenet.src import LeNet5

OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "profiler" / "lenet5_session"


def _model():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = LeNet5(10)
    return Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                 nn.Momentum(net.trainable_params(), 0.01, 0.9))


def gpu_trace():
    """The raw trace and compiled HLO of LeNet5's step on a GPU (see the module docstring)."""
    model = _model()
    rng = np.random.default_rng(0)
    ds = ms.dataset.NumpySlicesDataset({"x": rng.normal(size=(32, 1, 32, 32)).astype(np.float32),
                                        "y": (np.arange(32) % 10).astype(np.int32)}, shuffle=False).batch(8)
    model.train(1, ds)   # compiled before it is profiled
    with tempfile.TemporaryDirectory() as tmp:
        prof = ms.Profiler(output_path=tmp)
        model.train(1, ds)
        prof.analyse()
        (trace,) = glob.glob(f"{prof.last_session}/plugins/profile/*/*.trace.json.gz")
        shutil.copy(trace, OUT.parent / "lenet5_h100.trace.json.gz")
    ((runner, _, entry, cols),) = compiled_steps()
    with gzip.open(OUT.parent / "lenet5_h100_step.hlo.gz", "wt") as f:
        f.write(compile_step(runner, entry, cols).as_text())


def main():
    model = _model()
    x = np.random.default_rng(0).normal(size=(20, 1, 32, 32)).astype(np.float32)
    y = (np.arange(20) % 10).astype(np.int32)
    ds = ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
    with tempfile.TemporaryDirectory() as tmp:
        ckpt = ms.ModelCheckpoint(prefix="lenet", directory=tmp, config=ms.CheckpointConfig(save_checkpoint_steps=2))
        prof = ms.Profiler(output_path=tmp, profile_memory=True)
        model.train(2, ds, callbacks=[ckpt, ms.LossMonitor(1)])
        prof.analyse()
        shutil.rmtree(OUT, ignore_errors=True)
        shutil.copytree(prof.last_session, OUT, ignore=shutil.ignore_patterns("plugins"))
    summary = json.loads((OUT / "profiler_summary.json").read_text())
    summary["config"]["output_path"] = "./data"   # not this machine's temporary folder
    (OUT / "profiler_summary.json").write_text(json.dumps(summary))


if __name__ == "__main__":
    gpu_trace() if "--gpu" in sys.argv[1:] else main()
