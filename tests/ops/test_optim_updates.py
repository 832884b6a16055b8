"""Optimizer-update Primitives (``ApplyMomentum``, ``Adam``, ``ApplyFtrl`` ...) against real MindSpore 2.10
(tools/oracle/record_ops_math.py): returned outputs and the Parameters written in place.

``ApplyKerasMomentum`` has no CPU kernel in MindSpore 2.10: it is checked against a NumPy transcription of
MindSpore's documented formula instead. Where the CPU kernel departs from MindSpore's documented formula the case is a
strict xfail (below); where the CPU kernel returns uninitialised memory instead of the updated values (the outputs
are documented as the updated Parameters) only the Parameters are compared.
"""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import ops
from tests.oracle import assert_close, case_params
from tests.sweep import decode

_KNOWN = {
    "P.ApplyMomentum/2": "the CPU kernel ignores use_nesterov and gradient_scale",
    "P.ApplyAdagrad/4": "the CPU kernel ignores update_slots=False",
    "P.ApplyFtrl/14": "the CPU kernel uses l1 - linear where the documented formula has sign(linear) * l1 - linear",
    "P.ApplyAdagradDA/19": "the CPU kernel uses grad_accum - l1 * global_step where the documented formula has "
                           "sign(grad_accum) * max(|grad_accum| - l1 * global_step, 0)",
}
_OUTPUTS_UNINITIALISED = {"P.Adam", "P.AdamWeightDecay", "P.ApplyRMSProp", "P.ApplyCenteredRMSProp"}
_CASES = [pytest.param(p.values[0], id=p.id, marks=[pytest.mark.xfail(reason=_KNOWN[p.id], strict=True)]
                       if p.id in _KNOWN else [])
          for p in case_params("ops_math_more.npz") if p.values[0].meta.get("refs") is not None
          and p.values[0].name[2:] in ops._optim_updates.__all__ and p.values[0].error != "RuntimeError"]


def _call(case):
    init = {k: decode(v, case.inputs) for k, v in case.meta["init"].items()}
    args = [decode(a, case.inputs) for a in case.meta["args"]]
    for i in case.meta["refs"]:
        args[i] = ms.Parameter(args[i], name=f"p{i}")
    return getattr(ops, case.name[2:])(**init), args


@pytest.mark.parametrize("case", _CASES)
def test_update_matches_mindspore(case):
    if case.error:
        with pytest.raises((ValueError, TypeError)):
            prim, args = _call(case)
            prim(*args)
        return
    prim, args = _call(case)
    out = prim(*args)
    outs = list(out) if isinstance(out, tuple) else [out]
    got = outs + [args[i] for i in case.meta["refs"]]
    assert len(got) == len(case.outputs)
    start = len(outs) if case.name in _OUTPUTS_UNINITIALISED else 0
    for i, (g, want) in list(enumerate(zip(got, case.outputs)))[start:]:
        assert_close(g, want, rtol=1e-5, atol=1e-6, what=f"{case.id} output {i}")


def test_keras_momentum_formula():
    rng = np.random.default_rng(0)
    var, accum, grad = (rng.standard_normal((2, 3)).astype(np.float32) for _ in range(3))
    for nesterov in (False, True):
        pv, pa = ms.Parameter(ms.Tensor(var), name="v"), ms.Parameter(ms.Tensor(accum), name="a")
        out_v, out_a = ops.ApplyKerasMomentum(use_nesterov=nesterov)(pv, pa, 0.1, ms.Tensor(grad), 0.9)
        acc = accum * 0.9 - 0.1 * grad
        want = var + (acc * 0.9 - 0.1 * grad if nesterov else acc)
        np.testing.assert_allclose(pv.asnumpy(), want, rtol=1e-6)
        np.testing.assert_allclose(out_v.asnumpy(), want, rtol=1e-6)
        np.testing.assert_allclose(pa.asnumpy(), acc, rtol=1e-6)


def test_lars_update_formula():
    # no CPU kernel in MindSpore 2.10: NumPy transcription of the formula nn.LARS documents for LARSUpdate
    rng = np.random.default_rng(1)
    w, g = rng.standard_normal((2, 3)).astype(np.float32), rng.standard_normal((2, 3)).astype(np.float32)
    nw, ng = np.float32((w ** 2).sum()), np.float32((g ** 2).sum())
    for clip in (False, True):
        got = ops.LARSUpdate(hyperpara=0.01, use_clip=clip)(ms.Tensor(w), ms.Tensor(g), ms.Tensor(nw),
                                                            ms.Tensor(ng), 0.01, 0.1).asnumpy()
        trust = 0.01 * np.sqrt(nw) / (np.sqrt(ng) + 0.01 * np.sqrt(nw) + 1e-5)
        if clip:
            trust = min(trust / 0.1, 1.0)
        np.testing.assert_allclose(got, trust * (g + 0.01 * w), rtol=1e-5)
    with pytest.raises(TypeError, match="LARSUpdate.*use_clip"):
        ops.LARSUpdate(use_clip=1)


def test_update_inside_jit_writes_parameter():
    var = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="var")

    @ms.jit
    def step(g):
        return ops.ApplyGradientDescent()(var, 0.5, g)

    step(ms.Tensor(np.ones(3, np.float32)))
    np.testing.assert_allclose(var.asnumpy(), np.full(3, 0.5, np.float32))


def test_bad_input_names_the_op():
    var = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="var")
    with pytest.raises(ValueError, match="ApplyMomentum.*accumulation"):
        ops.ApplyMomentum()(var, ms.Tensor(np.ones(2, np.float32)), 0.1, ms.Tensor(np.ones(3, np.float32)), 0.9)
    with pytest.raises(TypeError, match="ApplyGradientDescent.*3 inputs"):
        ops.ApplyGradientDescent()(var, 0.1)
