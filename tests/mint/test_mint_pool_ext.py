"""mint.nn.functional 1-D / 3-D pooling, adaptive max pooling and max_unpool2d: replayed against real MindSpore
(tests/fixtures/oracle/toplevel_ext.npz, tools/oracle/record_toplevel_ext.py) and compared with torch as the
second implementation. MindSpore's CPU build has no mint kernel for avg_pool1d / avg_pool3d / adaptive_avg_pool1d /
adaptive_avg_pool3d / adaptive_max_pool1d / max_unpool2d (Ascend only), so those cases were recorded from the ops
function with the same semantics (meta ``oracle_fn``) and the names without an ops twin (adaptive_*_pool1d,
ceil_mode avg_pool1d) are checked against torch only."""
import inspect
import json

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl.mint.nn import functional as F
from tests.oracle import FIXTURE_ROOT, assert_outputs, case_params

FIXTURE = "toplevel_ext.npz"
_POOL_CASES = [p for p in case_params(FIXTURE) if p.values[0].name.startswith("mint.nn.functional.")]
_rng = np.random.default_rng(3)


def _kw(kwargs):
    return {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}


@pytest.mark.parametrize("case", _POOL_CASES)
def test_mint_pool_oracle(case):
    fn = getattr(F, case.name.rsplit(".", 1)[1])
    args = [ms.Tensor(case.inputs["input"])]
    if "indices" in case.inputs:
        args.append(ms.Tensor(case.inputs["indices"]))
    assert_outputs(fn(*args, **_kw(case.kwargs)), case)


def test_mint_pool_names_exported():
    names = {"adaptive_avg_pool1d", "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d",
             "avg_pool1d", "avg_pool3d", "max_unpool2d"}
    assert names <= set(F.__all__)
    assert names <= set(dir(ms.mint.nn.functional))


try:
    import torch
    TF = torch.nn.functional
except ImportError:  # torch is the optional second implementation
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="torch (second implementation) is not installed")

X1 = _rng.standard_normal((2, 3, 7)).astype(np.float32)
X3 = _rng.standard_normal((1, 2, 5, 6, 7)).astype(np.float32)
TORCH_CASES = [
    ("adaptive_avg_pool1d", X1, (3,), {}), ("adaptive_avg_pool1d", X1[0], ((4,),), {}),
    ("adaptive_max_pool1d", X1, (3,), {"return_indices": True}), ("adaptive_max_pool1d", X1[0], (5,), {}),
    ("avg_pool1d", X1, (3,), {}),
    ("avg_pool1d", X1, (3, 2, 1), {"ceil_mode": True, "count_include_pad": False}),
    ("avg_pool1d", X1[0], (2, 1, 1), {"ceil_mode": True}),
    ("avg_pool3d", X3, (3, 2, 1), {"ceil_mode": True, "divisor_override": 5}),
    ("avg_pool3d", X3[0], ((2, 3, 2), (1, 2, 3)), {}),
    ("adaptive_avg_pool3d", X3[0], ((2, None, 3),), {}),
    ("adaptive_max_pool2d", X3[0, 0], ((3, 4),), {"return_indices": True}),
]


def _outs(res):
    return res if isinstance(res, tuple) else (res,)


@needs_torch
@pytest.mark.parametrize("name,x,args,kwargs", TORCH_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(TORCH_CASES)])
def test_mint_pool_matches_torch(name, x, args, kwargs):
    ours = _outs(getattr(F, name)(ms.Tensor(x), *args, **kwargs))
    theirs = _outs(getattr(TF, name)(torch.from_numpy(x), *args, **kwargs))
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        a, b = a.asnumpy(), b.numpy()
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@needs_torch
def test_max_unpool2d_matches_torch():
    x = torch.from_numpy(_rng.standard_normal((2, 3, 6, 4)).astype(np.float32))
    pooled, idx = TF.max_pool2d(x, 2, return_indices=True)
    want = TF.max_unpool2d(pooled, idx, 2, output_size=(7, 5)).numpy()
    got = F.max_unpool2d(ms.Tensor(pooled.numpy()), ms.Tensor(idx.numpy()), 2, output_size=(7, 5)).asnumpy()
    np.testing.assert_array_equal(got, want)


def test_pool_1d_bad_arguments():
    with pytest.raises(ValueError, match="adaptive_avg_pool1d.*output_size"):
        F.adaptive_avg_pool1d(ms.Tensor(X1), (2, 3))
    with pytest.raises(ValueError, match="avg_pool1d.*padding"):
        F.avg_pool1d(ms.Tensor(X1), 2, padding=2)
    with pytest.raises(ValueError, match="adaptive_max_pool1d.*input"):
        F.adaptive_max_pool1d(ms.Tensor(X3), 2)


def test_mint_pool_signatures_match_mindspore():
    sigs = json.loads((FIXTURE_ROOT / "numpy_mint_signatures.json").read_text())
    for name in ("adaptive_avg_pool1d", "adaptive_avg_pool3d", "adaptive_max_pool1d", "adaptive_max_pool2d",
                 "avg_pool1d", "avg_pool3d", "max_unpool2d"):
        sig = inspect.signature(getattr(F, name))
        bare = sig.replace(parameters=[p.replace(annotation=p.empty) for p in sig.parameters.values()],
                           return_annotation=sig.empty)
        assert str(bare) == sigs[f"mint.nn.functional.{name}"], name
