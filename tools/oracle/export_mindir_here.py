"""Export the networks of ``tests/serialization/mindir_nets.py`` to MindIR with mindspore_hl (project venv).

Writes ``tests/fixtures/oracle/mindir/hl_<net>.mindir`` and ``hl_inputs.npz``; ResNet50's file (94 MB, too large
to commit) goes to ``build/mindir/hl_resnet50.mindir``. Then ``../ms-oracle/bin/python tools/oracle/record_mindir.py``
runs those files in real MindSpore and records its outputs (and each file's SHA-256), which
``tests/serialization/test_mindir.py`` compares with mindspore_hl's.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "serialization")]
from mindir_nets import networks, resnet50_case  # noqa: E402

import mindspore_hl as ms  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "oracle" / "mindir"
LARGE = ROOT / "build" / "mindir"


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    LARGE.mkdir(parents=True, exist_ok=True)
    inputs = {}
    for name, (net, x) in networks().items():
        ms.export(net, ms.Tensor(x), file_name=str(OUT / f"hl_{name}"), file_format="MINDIR")
        inputs[name] = x
    net, x = resnet50_case()
    ms.export(net, ms.Tensor(x), file_name=str(LARGE / "hl_resnet50"), file_format="MINDIR")
    inputs["resnet50"] = x
    np.savez(OUT / "hl_inputs.npz", **inputs)


if __name__ == "__main__":
    main()
