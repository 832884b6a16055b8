"""Optimizers against real MindSpore 2.10 (tools/oracle/record_nn_optim.py): three steps on two Parameters;
the trained values after each step and every optimizer Parameter (names, order and final values)."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import experimental, mint, nn
from mindspore_hl.mint import optim as _mint_optim  # noqa: F401  (registers mint.optim)
from tests.nn import nn_optim_cases
from tests.oracle import FIXTURE_ROOT, assert_close, case_params


@pytest.mark.parametrize("case", case_params(FIXTURE_ROOT / "nn_optim.npz"))
def test_optimizer_matches_mindspore(case):
    names = ["fc.weight", "fc.bias"]
    params = [ms.Parameter(ms.Tensor(case.inputs[f"init:{n}"]), name=n) for n in names]
    opt = getattr(nn, case.name)(params, **nn_optim_cases.decode(case.meta["kwargs"]))
    assert [p.name for p in opt.get_parameters()] == case.meta["state_names"]
    outs = iter(case.outputs)
    for step in range(3):
        opt(tuple(ms.Tensor(case.inputs[f"grad{step}:{n}"]) for n in names))
        for p in params:
            assert_close(p, next(outs), rtol=1e-5, atol=1e-6, what=f"{case.id} step {step} {p.name}")
    for p in opt.get_parameters():
        assert_close(p, next(outs), rtol=1e-5, atol=1e-6, what=f"{case.id} state {p.name}")


@pytest.mark.parametrize("case", case_params(FIXTURE_ROOT / "nn_exp_optim.npz"))
def test_torch_style_optimizer_matches_mindspore(case):
    module = mint.optim if case.meta["mod"] == "mint.optim" else experimental.optim
    names = ["fc.weight", "fc.bias"]
    params = [ms.Parameter(ms.Tensor(case.inputs[f"init:{n}"]), name=n) for n in names]
    opt = getattr(module, case.name)(params, **nn_optim_cases.decode(case.meta["kwargs"]))
    assert [p.name for p in opt.get_parameters()] == case.meta["state_names"]
    if case.meta["mod"] == "mint.optim":
        # MindSpore 2.10's CPU build runs mint.optim without changing anything (its kernels are Ascend's): the
        # names are checked against it, the values against PyTorch's optimizers, whose maths mint.optim follows.
        torch = pytest.importorskip("torch")
        tparams = [torch.tensor(case.inputs[f"init:{n}"], requires_grad=True) for n in names]
        topt = getattr(torch.optim, case.name)(tparams, **nn_optim_cases.decode(case.meta["kwargs"]))
        for step in range(3):
            for t, n in zip(tparams, names):
                t.grad = torch.tensor(case.inputs[f"grad{step}:{n}"])
            topt.step()
            opt(tuple(ms.Tensor(case.inputs[f"grad{step}:{n}"]) for n in names))
            for p, t in zip(params, tparams):
                assert_close(p, t.detach().numpy(), rtol=1e-5, atol=1e-6, what=f"{case.id} step {step} {p.name}")
        return
    outs = iter(case.outputs)
    for step in range(3):
        opt(tuple(ms.Tensor(case.inputs[f"grad{step}:{n}"]) for n in names))
        for p in params:
            assert_close(p, next(outs), rtol=1e-5, atol=1e-6, what=f"{case.id} step {step} {p.name}")
    for p in opt.get_parameters():
        want = next(outs)
        # MindSpore 2.10's CPU kernel keeps AMSGrad's running maximum in another slot than its name says; the
        # trained values above match all the same.
        if "exp_avg_sq." in p.name and case.meta["kwargs"].get("amsgrad"):
            continue
        assert_close(p, want, rtol=1e-5, atol=1e-6, what=f"{case.id} state {p.name}")


def test_fused_adamw_is_adamw():
    assert issubclass(mint.optim.FusedAdamW, mint.optim.AdamW)


def test_radam_rectified_steps_match_torch():
    # The recorded cases stop before RAdam's rectification starts (step 6 with the default betas): ten steps
    # against PyTorch's RAdam, the formula MindSpore's follows.
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    w0 = rng.standard_normal((3, 4)).astype(np.float32)
    p = ms.Parameter(ms.Tensor(w0), name="w")
    t = torch.tensor(w0, requires_grad=True)
    opt, topt = experimental.optim.RAdam([p], lr=0.01), torch.optim.RAdam([t], lr=0.01)
    for _ in range(10):
        g = rng.standard_normal((3, 4)).astype(np.float32)
        opt((ms.Tensor(g),))
        t.grad = torch.tensor(g)
        topt.step()
    np.testing.assert_allclose(p.asnumpy(), t.detach().numpy(), rtol=1e-4, atol=1e-5)
