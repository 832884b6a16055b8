"""Reading jax.profiler's trace: executions, steps and op names, on a trace and a step recorded on a GPU.

``tests/fixtures/profiler/lenet5_h100.trace.json.gz`` is what ``Profiler`` recorded on one NVIDIA H100 (JAX 0.11.2)
around LeNet5 ``Model.train``, four steps of batch 8 compiled before, and ``lenet5_h100_step.hlo.gz`` that step's
compiled HLO from the same process (``python -m tests.profiler.make_fixture --gpu`` on a GPU machine writes both).
A GPU's kernel events carry no run id, so the trace itself is the truth here: four host executions of
``jit_step``, each launching the same 63 kernels and copies.
"""
import gzip
import pathlib

from mindspore_hl.profiler._hlo import cell_of, kernel_names, parse_hlo
from mindspore_hl.profiler._report import _instruction, _match_analysis
from mindspore_hl.profiler._trace import Trace, load_events

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "profiler"


def _gpu_trace():
    return Trace(load_events(str(FIXTURES / "lenet5_h100.trace.json.gz")))


def _gpu_analysis(drop=()):
    with gzip.open(FIXTURES / "lenet5_h100_step.hlo.gz", "rt") as f:
        instructions = {k: v for k, v in parse_hlo(f.read()).items() if k not in drop}
    return {"module": "jit_step", "instructions": instructions, "kernels": kernel_names(instructions)}


def test_gpu_kernels_are_grouped_by_the_execution_that_launched_them():
    trace = _gpu_trace()
    executions = [e for e in trace.events if e.get("name") == "CommonPjRtLoadedExecutable::Execute (jit_step)"]
    assert len(executions) == 4
    assert sorted(run for _, run in trace.runs) == sorted(e["args"]["run_id"] for e in executions)
    assert [len(r["ops"]) for r in trace.runs.values()] == [63] * 4
    # each execution's kernels run after its launch, and one execution's kernels end before the next one's start
    runs = sorted(trace.runs.values(), key=lambda r: r["start"])
    for run, execution in zip(runs, sorted(executions, key=lambda e: e["ts"])):
        assert run["start"] >= execution["ts"]
    assert all(a["end"] <= b["start"] for a, b in zip(runs, runs[1:]))
    assert [n for n, _, _ in trace.step_windows()] == [1, 2, 3, 4]


def test_kernels_inside_a_cuda_graph_are_named_by_their_fusion():
    run = next(iter(_gpu_trace().runs.values()))
    analysis = _gpu_analysis()
    graphs = {o["op"] for o in run["ops"] if o["op"].startswith("command_buffer")}
    assert graphs and not graphs & analysis["instructions"].keys()  # a CUDA graph is no instruction
    by_kernel = {o["kernel"]: o for o in run["ops"]}
    fusion = _instruction(by_kernel["gemm_fusion_dot_14"], analysis)
    assert fusion == "gemm_fusion_dot.14" and cell_of(analysis["instructions"][fusion][1])[0]
    conv = next(o for o in run["ops"] if o["op"] == "cudnn-conv.1")   # a cuDNN call: its own hlo_op
    assert conv["kernel"] != conv["op"] and _instruction(conv, analysis) == "cudnn-conv.1"
    assert _instruction(by_kernel["memcpy32_post"], analysis) is None  # a graph's own copy: no instruction
    resolved = [_instruction(o, analysis) for o in run["ops"]]
    assert sum(r is None for r in resolved) == sum(o["kernel"] == "memcpy32_post" for o in run["ops"])
    # the step whose HLO holds the run's instructions is the one matched (a step without its cuDNN call is not)
    assert _match_analysis(run, [_gpu_analysis(drop={"cudnn-conv.1"}), analysis]) is analysis


def test_cpu_op_events_keep_their_own_run_ids():
    events = [{"ph": "X", "name": n, "ts": t, "dur": 1.0, "tid": 1,
               "args": {"hlo_module": "jit_step", "hlo_op": n, "run_id": r}}
              for n, t, r in (("add.1", 0.0, "7"), ("mul.2", 2.0, "7"), ("add.1", 10.0, "8"))]
    trace = Trace(events)
    assert {k: len(r["ops"]) for k, r in trace.runs.items()} == {("jit_step", "7"): 2, ("jit_step", "8"): 1}
    assert all(o["kernel"] == o["op"] for o in trace.ops)
