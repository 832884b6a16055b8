"""Record real MindSpore 2.10's ``ops.interpolate(mode='bicubic')`` (run with the MindSpore interpreter).

    python tools/oracle/record_interpolate_bicubic.py   ->  tests/fixtures/oracle/interpolate_bicubic.npz
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore as ms  # noqa: E402
from mindspore import ops  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(26)
CASES = [  # (id, input shape, dtype, kwargs)
    ("up_half_pixel", (2, 3, 4, 5), np.float32, {"size": (7, 9)}),
    ("down_half_pixel", (1, 2, 9, 8), np.float32, {"size": (4, 3), "align_corners": False}),
    ("align_corners", (2, 1, 5, 4), np.float32, {"size": (8, 6), "align_corners": True}),
    ("recomputed_scale", (1, 2, 4, 5), np.float32, {"scale_factor": (1.5, 2.0), "recompute_scale_factor": True}),
    ("f64", (1, 1, 3, 4), np.float64, {"size": (5, 7)}),
    ("f16", (1, 2, 4, 4), np.float16, {"size": (6, 5), "align_corners": True}),
    ("scale_without_recompute", (1, 1, 4, 4), np.float32, {"scale_factor": 2.0}),
    ("int_input", (1, 1, 4, 4), np.int32, {"size": (6, 6)}),
    ("3d_input", (1, 2, 6), np.float32, {"size": (9,)}),
]

with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "interpolate_bicubic.npz") as w:
    for case_id, shape, dtype, kw in CASES:
        x = (rng.standard_normal(shape) * 4).astype(dtype)
        try:
            y = ops.interpolate(ms.Tensor(x), mode="bicubic", **kw)
        except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
            w.add(f"ops.interpolate/bicubic_{case_id}", inputs={"input": x}, outputs=[], name="ops.interpolate",
                  kwargs={"mode": "bicubic", **kw}, error=type(e).__name__, message=str(e).splitlines()[0])
            continue
        w.add(f"ops.interpolate/bicubic_{case_id}", inputs={"input": x}, outputs=[y.asnumpy()],
              name="ops.interpolate", kwargs={"mode": "bicubic", **kw})
