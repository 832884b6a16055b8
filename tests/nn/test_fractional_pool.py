"""``nn.FractionalMaxPool2d`` / ``nn.FractionalMaxPool3d`` against real MindSpore 2.10 (fixture recorded by
tools/oracle/record_nn_extra.py with fixed ``_random_samples``): values and indices exactly, unbatched inputs,
``output_size`` over ``output_ratio``, and the errors MindSpore raises when the Cell runs."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from tests.oracle import FIXTURE_ROOT, assert_outputs, load_cases

FIXTURE = FIXTURE_ROOT / "nn_extra.npz"
RAISES = {"TypeError": TypeError, "ValueError": ValueError}
CASES = {k: c for k, c in load_cases(FIXTURE).items() if c.name.startswith("nn.FractionalMaxPool")}
#: Returning cases run by default (each new shape / dtype costs eager compiles); the others are marked slow.
DEFAULT = {"nn.FractionalMaxPool2d/2d/size_idx", "nn.FractionalMaxPool2d/2d/unbatched",
           "nn.FractionalMaxPool2d/2d/ratio", "nn.FractionalMaxPool3d/3d/unbatched"}


def _params() -> list:
    return [pytest.param(k, marks=[] if c.error or k in DEFAULT else [pytest.mark.slow]) for k, c in CASES.items()]


def _build(case):
    cls = getattr(nn, case.name.split(".")[1])
    kw = {k: tuple(v) if isinstance(v, list) else v for k, v in case.kwargs.items()}
    return cls(**kw, _random_samples=ms.Tensor(case.inputs["samples"]))


@pytest.mark.parametrize("case_id", _params())
def test_fractional_max_pool_matches_mindspore(case_id):
    case = CASES[case_id]
    net = _build(case)
    x = ms.Tensor(case.inputs["x"])
    if case.error:
        with pytest.raises(RAISES[case.error]):
            net(x)
        return
    assert_outputs(net(x), case, rtol=0, atol=0)


def test_fractional_max_pool_random_samples_drawn_per_call():
    """Without ``_random_samples`` the regions are drawn: shapes follow output_size / output_ratio, every output
    is a maximum of the input it indexes."""
    x = np.random.default_rng(0).uniform(-1, 1, (1, 2, 7, 5)).astype(np.float32)
    y, idx = nn.FractionalMaxPool2d(3, output_ratio=(0.5, 0.5), return_indices=True)(ms.Tensor(x))
    assert y.shape == (1, 2, 3, 2) and idx.shape == (1, 2, 3, 2)
    flat = x.reshape(1, 2, -1)
    np.testing.assert_array_equal(np.take_along_axis(flat, idx.asnumpy().reshape(1, 2, -1), -1).reshape(y.shape),
                                  y.asnumpy())


def test_fractional_max_pool_keeps_arguments():
    net = nn.FractionalMaxPool2d((2, 3), output_size=(4, 2), return_indices=True)
    assert (net.kernel_size, net.output_size, net.output_ratio, net.return_indices) == ((2, 3), (4, 2), None, True)
    assert net._random_samples is None
