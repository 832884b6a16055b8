"""Record real MindSpore's ``TrainFaultTolerance`` constructor errors (run with the MindSpore 2.10 interpreter).

    python tools/oracle/record_fault_tolerance.py   ->  tests/fixtures/oracle/fault_tolerance.npz

On CPU MindSpore builds the callback only in MindIO's TRE mode; with a checkpoint path and no MS_ENABLE_TFT it
refuses (MindIO needs Ascend), which this backend does not (it saves the failure checkpoint itself): that
message is recorded for the record, and the test replays the argument check both share.
"""
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from mindspore.train import TrainFaultTolerance  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

os.environ.pop("MS_ENABLE_TFT", None)
with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "fault_tolerance.npz") as w:
    for case, kwargs in (("no_save_target", {}), ("no_mindio", {"ckpt_save_path": "ttp_ckpt"})):
        try:
            TrainFaultTolerance(**kwargs)
        except ValueError as e:
            w.add(f"TrainFaultTolerance/{case}", inputs={}, name="TrainFaultTolerance", error=type(e).__name__,
                  message=str(e), kwargs=kwargs)
