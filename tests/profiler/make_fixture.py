"""Write the small committed profile under tests/fixtures/profiler/ (run from the repository root):

    python -m tests.profiler.make_fixture

LeNet5 ``Model.train`` in GRAPH_MODE, batches of 8, 8 and 4 (the last one recompiles the step), memory sampled,
a checkpoint every 2 steps and LossMonitor.
Only what insight_app reads is kept (jax's raw trace under ``plugins/`` is left out to keep it small).
"""
import json
import pathlib
import shutil
import tempfile

import numpy as np

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.train import Model
from model_zoo.lenet.src import LeNet5

OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "profiler" / "lenet5_session"


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = LeNet5(10)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.01, 0.9))
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
    main()
