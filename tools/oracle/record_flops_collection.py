"""Record real MindSpore's ``flops_collection`` and Cell phases (MindSpore 2.10 interpreter).

    python tools/oracle/record_flops_collection.py   ->  tests/fixtures/oracle/flops_collection.npz

Each case compiles a small network in GRAPH_MODE on CPU (a Cell call, a TrainOneStepCell call, a Model's train or
eval step) and records the phase name's prefix (``current_phase`` up to its first '.'), whether the Cell reports
itself compiled, and the model FLOPs ``flops_collection(current_phase)`` returned (full and shard). Hardware FLOPs
are MindSpore's own device count and are not compared. Also recorded: the default ``phase``, ``phase`` after
``set_train(False)``, and the errors for a phase nothing was compiled as and for a non-string ``phase``.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "engine"))
import mindspore as ms  # noqa: E402
from flops_collection_nets import NETS, call, model_cell  # noqa: E402  (tests/engine/flops_collection_nets.py)
from mindspore import nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "flops_collection.npz") as w:
        for name in NETS:
            cell = call(ms, nn, name)
            flops = ms.flops_collection(cell.current_phase)
            w.add(f"flops_collection/{name}", outputs=[np.array([flops[0], flops[2]], np.float64)],
                  prefix=cell.current_phase.split(".")[0], compiled=cell.compiled, dynamic=flops[4])
        for evaluate in (False, True):
            cell = model_cell(ms, nn, evaluate)
            flops = ms.flops_collection(cell.current_phase)
            w.add(f"flops_collection/model_{'eval' if evaluate else 'train'}",
                  outputs=[np.array([flops[0], flops[2]], np.float64)],
                  prefix=cell.current_phase.split(".")[0], compiled=cell.compiled, dynamic=flops[4])
        fresh = nn.Dense(2, 2)
        w.add("Cell.phase/default", outputs=[], phase=fresh.phase, compiled=fresh.compiled,
              predict=fresh.set_train(False).phase, train=fresh.set_train(True).phase)
        for label, phase in (("unknown", "train.0.0.0"), ("number", 3)):
            try:
                ms.flops_collection(phase)
            except Exception as e:  # noqa: BLE001  (the type is what is recorded)
                w.add(f"flops_collection/error_{label}", error=type(e).__name__)
        try:
            fresh.phase = 3
        except TypeError as e:
            w.add("Cell.phase/error", error="TypeError", message=str(e))


if __name__ == "__main__":
    main()
