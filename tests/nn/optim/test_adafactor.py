"""``nn.AdaFactor`` against real MindSpore 2.10 (fixture recorded by tools/oracle/record_nn_extra.py): parameters
after each of three steps of fixed gradients, for 2-D, 1-D and 3-D parameters and several argument combinations
(float16 parameters and ``compression`` included), in PYNATIVE and GRAPH_MODE (the optimizer called from a
compiled Cell); the state names; the argument errors."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from tests.oracle import FIXTURE_ROOT, assert_close, load_cases

FIXTURE = FIXTURE_ROOT / "nn_extra.npz"
RAISES = {"TypeError": TypeError, "ValueError": ValueError}
CASES = {k: c for k, c in load_cases(FIXTURE).items() if c.name == "nn.AdaFactor"}
RUNS = {k: c for k, c in CASES.items() if c.error is None}
ERRORS = {k: c for k, c in CASES.items() if c.error is not None}
SHAPES = ("w2", "b1", "w3")


class _Apply(nn.Cell):
    """A compiled Cell that calls the optimizer, as a GRAPH_MODE train step does."""

    def __init__(self, opt):
        super().__init__(auto_prefix=False)
        self.opt = opt

    def construct(self, *grads):
        return self.opt(grads)


def _kwargs(case):
    kw = dict(case.kwargs)
    if "eps" in kw:
        kw["eps"] = tuple(kw["eps"])
    return kw


def _run(case, graph):
    params = [ms.Parameter(ms.Tensor(case.inputs[k].copy()), name=k) for k in SHAPES]
    opt = nn.AdaFactor(params, **_kwargs(case))
    call = _Apply(opt) if graph else (lambda *g: opt(g))
    for t in range(case.meta["steps"]):
        call(*[ms.Tensor(case.inputs[f"g{t}_{k}"]) for k in SHAPES])
        for j, p in enumerate(params):
            assert_close(p, case.outputs[t * len(SHAPES) + j], rtol=1e-5, atol=1e-6,
                         what=f"{case.id} step {t} {p.name}")
    return opt


@pytest.mark.parametrize("case_id", list(RUNS))
def test_adafactor_matches_mindspore_pynative(case_id):
    ms.set_context(mode=ms.PYNATIVE_MODE)
    case = RUNS[case_id]
    opt = _run(case, graph=False)
    # the placeholder Parameter MindSpore keeps without a first moment has a generated name
    names = sorted(p.name for p in opt.get_parameters() if not p.name.startswith("Parameter"))
    assert names == [n for n in case.meta["state_names"] if not n.startswith("Parameter")]
    assert opt.global_step.asnumpy().tolist() == [case.meta["steps"]]
    assert opt.step.asnumpy().tolist() == [float(case.meta["steps"])]


@pytest.mark.parametrize("case_id", ["nn.AdaFactor/default", "nn.AdaFactor/weight_decay"])
def test_adafactor_matches_mindspore_graph(case_id):
    ms.set_context(mode=ms.GRAPH_MODE)
    _run(RUNS[case_id], graph=True)


@pytest.mark.parametrize("case_id", list(ERRORS))
def test_adafactor_argument_errors(case_id):
    case = ERRORS[case_id]
    params = [ms.Parameter(ms.Tensor(np.zeros((2, 2), np.float32)), name="w")]
    with pytest.raises(RAISES[case.error]):
        nn.AdaFactor(params, **_kwargs(case))


def test_adafactor_state_shapes_and_trains():
    """Factored state over the last two axes; a schedule learning rate with relative_step=False is used as given
    (not scaled by the parameter's RMS); a few steps lower a quadratic loss."""
    w = ms.Parameter(ms.Tensor(np.full((2, 3, 4), 2.0, np.float32)), name="w")
    b = ms.Parameter(ms.Tensor(np.full((4,), 2.0, np.float32)), name="b")
    opt = nn.AdaFactor([w, b], learning_rate=nn.ExponentialDecayLR(0.1, 0.5, 1), relative_step=False)
    shapes = {p.name: tuple(p.shape) for p in opt.get_parameters()}
    assert shapes["exp_avg_sq_row_w"] == (2, 3) and shapes["exp_avg_sq_col_w"] == (2, 4)
    assert shapes["exp_avg_sq_w"] == (1,) and shapes["exp_avg_sq_b"] == (4,) and shapes["exp_avg_sq_row_b"] == (1,)
    assert not opt.scale_parameter
    losses = []
    for _ in range(4):
        losses.append(float((w.asnumpy() ** 2).sum() + (b.asnumpy() ** 2).sum()))
        opt((ms.Tensor(2 * w.asnumpy()), ms.Tensor(2 * b.asnumpy())))
    assert all(a > c for a, c in zip(losses, losses[1:]))
