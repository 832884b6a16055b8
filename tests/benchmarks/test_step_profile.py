"""``python -m benchmarks.step_profile`` reads a profiled ``Model.train`` back by op kind, op and Cell."""
import json

from benchmarks.step_profile import main, op_kind


def test_op_kind_drops_the_instruction_number():
    assert [op_kind(n) for n in ("ynn_fusion.42", "convolution", "add_select_fusion.3", "copy.1.2")] == \
        ["ynn_fusion", "convolution", "add_select_fusion", "copy.1"]


def test_lenet_step_is_read_back_by_kind_op_and_cell(capsys):
    result = main(["--case", "lenet5-32", "--steps", "3", "--top", "1000"])
    assert json.loads(capsys.readouterr().out.splitlines()[0]) == result
    assert result["step_ms"] > 0 and result["step_gflops_per_s"] > 0
    kinds = {k["kind"] for k in result["kinds"]}
    assert kinds & {"convolution", "conv_general_dilated", "cudnn-conv"}, kinds  # XLA's convolutions (cuDNN's on a GPU)
    # the kinds add up to the ops' time, and no op takes longer than the kinds together
    assert abs(sum(k["ms"] for k in result["kinds"]) - result["ops_ms"]) < 1e-6 * max(result["ops_ms"], 1)
    assert all(0 < o["ms"] <= result["ops_ms"] for o in result["ops"])
    assert {o["pass"] for o in result["ops"]} == {"forward", "backward"}
    # leaf Cells of LeNet5 (conv1, conv2, fc1-3, ...) carry the time, with their arithmetic rate
    cells = {c["cell"].rsplit(".", 1)[-1] for c in result["cells"]}
    assert {"conv1", "conv2", "fc1"} <= cells, cells
    assert all(c["gflops_per_s"] >= 0 for c in result["cells"])
