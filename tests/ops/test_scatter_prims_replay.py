"""Replay real MindSpore 2.10's scatter family and a set of Primitives (tools/oracle/record_scatter_prims_replay.py),
eagerly on small inputs.

The scatter ops update their first input in place: the recorder passed a Parameter (or a plain Tensor, which
PyNative MindSpore updates in place too) and recorded its value after the call after the return value(s); the
replay compares both. ``Tensor.scatter_`` / ``Tensor.scatter_add(dim, index, src)`` and ``Fills`` have no CPU
kernel in MindSpore 2.10: their cases recorded real MindSpore's ``ops.tensor_scatter_elements`` / ``ops.full_like``
(same semantics). Einsum, MatrixExp and SoftMarginLoss have no CPU kernel and no such twin (recorded as
RuntimeError): their inputs are checked against NumPy / SciPy here instead.
"""
import numpy as np
import pytest
import scipy.linalg

from mindspore_hl import ops
from tests.oracle import Case, assert_close, case_params
from tests.sweep import call_recorded, flatten

FIXTURE = "scatter_prims_replay.npz"


def _inputs(case: Case) -> list[np.ndarray]:
    return [case.inputs[k] for k in sorted(case.inputs, key=lambda k: int(k[1:]))]


def _einsum(case: Case) -> list[np.ndarray]:
    return [np.einsum(case.meta["init"]["equation"], *_inputs(case))]


def _matrix_exp(case: Case) -> list[np.ndarray]:
    x = _inputs(case)[0]
    return [np.stack([scipy.linalg.expm(m) for m in x.reshape((-1,) + x.shape[-2:])]).reshape(x.shape)]


def _soft_margin_loss(case: Case) -> list[np.ndarray]:
    x, y = _inputs(case)
    loss = np.log1p(np.exp(-y.astype(np.float64) * x.astype(np.float64)))
    reduction = case.meta["init"].get("reduction", "mean")
    loss = {"none": loss, "mean": loss.mean(), "sum": loss.sum()}[reduction]
    return [np.asarray(loss, x.dtype)]


def _batch_norm(outs: list) -> list:
    # y and the moving mean / variance Parameters after the call; MindSpore's CPU kernel leaves outputs 1-4
    # (batch_mean, batch_variance, reserve_space_1/2) uninitialised in inference and zero / saved statistics in
    # training, which are backend-specific.
    return [outs[0]] + list(outs[5:])


#: Outputs compared per name (default: all).
COMPARED = {"P.BatchNorm": _batch_norm}

#: No CPU kernel in MindSpore 2.10 (the recorder saw a RuntimeError): NumPy / SciPy are the truth.
SECOND_IMPLEMENTATION = {"P.Einsum": _einsum, "P.MatrixExp": _matrix_exp, "P.SoftMarginLoss": _soft_margin_loss}


#: What mindspore_hl raises for the error MindSpore raised: its kernels report indices out of range as
#: RuntimeError, which mindspore_hl checks eagerly before computing (ValueError).
RAISES = {"TypeError": TypeError, "ValueError": ValueError, "RuntimeError": (ValueError, IndexError)}


def _params() -> list:
    """The first returning and the first raising case of each name run by default, the others are marked slow."""
    seen, out = set(), []
    for p in case_params(FIXTURE):
        key = (p.values[0].name, p.values[0].error is None)
        out.append(pytest.param(*p.values, id=p.id, marks=[pytest.mark.slow] if key in seen else []))
        seen.add(key)
    return out


@pytest.mark.parametrize("case", _params())
def test_oracle_case(case):
    made: list = []
    if case.name in SECOND_IMPLEMENTATION:
        assert case.error == "RuntimeError", f"{case.id}: MindSpore has a CPU kernel now; replay it"
        want = SECOND_IMPLEMENTATION[case.name](case)
        outs = flatten(call_recorded(case, ops))
        assert len(outs) == len(want)
        for i, (got, w) in enumerate(zip(outs, want)):
            assert_close(got, w, rtol=2e-3 if w.dtype == np.float16 else 1e-5, atol=1e-5, what=f"{case.id} {i}")
        return
    if case.error:
        with pytest.raises(RAISES[case.error]):
            call_recorded(case, ops, made)
        return
    outs = flatten(call_recorded(case, ops, made)) + made
    assert len(outs) == len(case.outputs), f"{case.id}: {len(outs)} outputs, recorded {len(case.outputs)}"
    pick = COMPARED.get(case.name, list)
    for i, (got, want) in enumerate(zip(pick(outs), pick(case.outputs))):
        assert_close(got, want, what=f"{case.id} output {i}")
