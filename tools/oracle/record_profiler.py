"""Record real MindSpore's ``mindspore.profiler.schedule`` actions (run with the MindSpore 2.10 interpreter).

    python tools/oracle/record_profiler.py   ->  tests/fixtures/oracle/profiler.npz
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from mindspore.profiler import schedule  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

CASES = {
    "all": dict(wait=1, warmup=1, active=2, repeat=1, skip_first=1),
    "defaults": dict(wait=0, active=1),
    "repeat2": dict(wait=2, warmup=0, active=3, repeat=2),
    "forever": dict(wait=1, active=1, repeat=0, skip_first=3),
    "warmup_only": dict(wait=0, warmup=2, active=1, repeat=3),
    "negative_wait": dict(wait=-1, active=1),
    "zero_active": dict(wait=1, active=0),
}

with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "profiler.npz") as w:
    for case, kwargs in CASES.items():
        s = schedule(**kwargs)
        w.add(f"schedule/{case}", inputs={}, outputs=[np.array([s(i).value for i in range(24)], np.int32)],
              name="schedule", kwargs=kwargs)
