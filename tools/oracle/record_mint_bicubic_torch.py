"""Record PyTorch's bicubic interpolation, the truth for ``mint.nn.functional.interpolate(mode='bicubic')``
(MindSpore 2.10's CPU build has no kernel for mint's UpsampleBicubic2D; mint follows PyTorch's semantics).

    python tools/oracle/record_mint_bicubic_torch.py   ->  tests/fixtures/oracle/mint_bicubic_torch.npz
"""
import pathlib
import sys

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(27)
CASES = [
    ("size", (2, 3, 5, 7), {"size": (9, 4)}),
    ("size_align_corners", (1, 2, 4, 6), {"size": (7, 11), "align_corners": True}),
    ("scale", (1, 2, 5, 5), {"scale_factor": 1.7}),
    ("scales_recomputed", (1, 1, 6, 5), {"scale_factor": (2.5, 0.6), "recompute_scale_factor": True}),
    ("scales", (1, 1, 6, 5), {"scale_factor": (2.5, 0.6)}),
]

with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "mint_bicubic_torch.npz") as w:
    for case_id, shape, kw in CASES:
        x = rng.standard_normal(shape).astype(np.float32)
        y = torch.nn.functional.interpolate(torch.tensor(x), mode="bicubic", **kw).numpy()
        w.add(f"mint.nn.functional.interpolate/bicubic_{case_id}", inputs={"input": x}, outputs=[y],
              name="mint.nn.functional.interpolate", kwargs={"mode": "bicubic", **kw}, truth="torch")
