"""The control-flow corpus (control_flow_corpus.py): converted code under jax.jit gives the same values,
Parameter updates and gradients as the original code run eagerly (PYNATIVE_MODE) and as real MindSpore 2.10 in
GRAPH_MODE (recorded by tools/oracle/record_control_flow.py). ``range`` over a Tensor is rejected by MindSpore's
GRAPH_MODE, so those cases were recorded in its PYNATIVE_MODE (the fixture says so). Loops whose trip count
depends on a Tensor run forward only on JAX: their gradient raises an error naming the loop's line (MindSpore
differentiates them)."""
import control_flow_harness as harness
import control_flow_loader
import numpy as np
import pytest

import mindspore_hl as ms
from tests.oracle import assert_close, load_cases

CORPUS = control_flow_loader.load(ms)
RECORDED = load_cases("control_flow.npz")


def test_corpus_size_and_fixture_agree():
    assert len(CORPUS.CASES) >= 30
    assert [c[0] for c in CORPUS.CASES] == list(RECORDED)


@pytest.mark.parametrize("case", CORPUS.CASES, ids=[c[0] for c in CORPUS.CASES])
def test_converted_matches_eager_and_mindspore(case):
    case_id, factory, inputs, opts = case
    rec = RECORDED[case_id]
    for key, value in inputs.items():
        np.testing.assert_array_equal(rec.inputs[key], value)
    n_values, n_params = rec.meta["n_values"], rec.meta["n_params"]
    unbounded = opts.get("unbounded", False)
    values, params, grads = harness.converted(factory, inputs, grad=not unbounded)
    e_values, e_params, e_grads = harness.eager(factory, inputs)

    assert len(values) == n_values == len(e_values)
    for i, (got, eager, want) in enumerate(zip(values, e_values, rec.outputs[:n_values])):
        assert_close(got, eager, what=f"{case_id} value {i} vs eager")
        assert_close(got, want, check_dtype=want.dtype.kind == "f", what=f"{case_id} value {i} vs MindSpore")
    assert len(params) == n_params
    for i, (got, eager, want) in enumerate(zip(params, e_params, rec.outputs[n_values:n_values + n_params])):
        assert_close(got, eager, what=f"{case_id} parameter {i} vs eager")
        assert_close(got, want, what=f"{case_id} parameter {i} vs MindSpore")
    want_grads = rec.outputs[n_values + n_params:]
    assert len(e_grads) == len(want_grads)
    for i, (eager, want) in enumerate(zip(e_grads, want_grads)):
        assert_close(eager, want, rtol=1e-5, atol=1e-5, what=f"{case_id} eager gradient {i} vs MindSpore")
    if unbounded:
        return
    assert len(grads) == len(want_grads)
    for i, (got, want) in enumerate(zip(grads, want_grads)):
        assert_close(got, want, rtol=1e-5, atol=1e-5, what=f"{case_id} gradient {i} vs MindSpore")


@pytest.mark.parametrize("case_id", ["while_tensor", "for_range_tensor", "cell/while_parameter"])
def test_unbounded_loop_gradient_names_the_loop(case_id):
    _, factory, inputs, _ = next(c for c in CORPUS.CASES if c[0] == case_id)
    with pytest.raises(ValueError, match=r'control_flow_corpus\.py", line \d+: reverse-mode differentiation '
                                         r"\(grad\) through this `(while|for \.\.\. in range)`"):
        harness.converted(factory, inputs, grad=True)
