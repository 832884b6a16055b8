"""Record real MindSpore 2.10 running the control-flow corpus in GRAPH_MODE into tests/fixtures/oracle/control_flow.npz.

Run with the oracle interpreter (real MindSpore installed), from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_control_flow.py

The corpus (``tests/syntax/control_flow_corpus.py``) is the same source file the tests run on mindspore_hl; here its
``ms``/``nn``/``ops`` are real MindSpore. For each case: the outputs of a fresh function (``ms.jit``) or Cell in
GRAPH_MODE, a Cell's Parameter values after that call, and ``ms.grad`` with respect to the float inputs (and a
Cell's trainable Parameters) of another fresh instance. Where GRAPH_MODE rejects a case (``range`` over a Tensor),
the error is recorded in ``graph_error`` and the values come from PYNATIVE_MODE (``mode`` says which).
"""
import os
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "syntax"))

import control_flow_loader  # noqa: E402
import mindspore as ms  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


def _run(factory, inputs, grad):
    obj = factory()
    is_cell = isinstance(obj, ms.nn.Cell)
    args = [ms.Tensor(v) for v in inputs.values()]
    fn = obj if is_cell or ms.get_context("mode") == ms.PYNATIVE_MODE else ms.jit(obj)
    if not grad:
        out = control_flow_loader.flat(fn(*args))
        params = [p.asnumpy() for p in obj.get_parameters()] if is_cell else []
        return out, params
    weights = obj.trainable_params() if is_cell else None
    positions = control_flow_loader.float_positions(inputs)
    return control_flow_loader.flat(ms.grad(fn, grad_position=positions, weights=weights)(*args))


def main():
    os.chdir(tempfile.mkdtemp())  # MindSpore writes rank_0/analyze_fail.ir into the working directory on failures
    corpus = control_flow_loader.load(ms)
    out_path = ROOT / "tests" / "fixtures" / "oracle" / "control_flow.npz"
    with FixtureWriter(out_path) as writer:
        for case_id, factory, inputs, _ in corpus.CASES:
            ms.set_context(mode=ms.GRAPH_MODE)
            mode, graph_error = "graph", None
            try:
                values, params = _run(factory, inputs, grad=False)
                grads = _run(factory, inputs, grad=True)
            except Exception as e:  # recorded: the test checks mindspore_hl against PYNATIVE for these
                graph_error = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
                mode = "pynative"
                ms.set_context(mode=ms.PYNATIVE_MODE)
                values, params = _run(factory, inputs, grad=False)
                grads = _run(factory, inputs, grad=True)
            writer.add(case_id, inputs=inputs, outputs=values + params + grads, n_values=len(values),
                       n_params=len(params), mode=mode, graph_error=graph_error)
            print(f"{case_id:32s} {mode:9s} values={[v.tolist() for v in values]} grads={len(grads)}"
                  + (f"  ({graph_error[:80]})" if graph_error else ""))


if __name__ == "__main__":
    main()
