"""mindspore_hl.profiler: MindSpore's profiler API on jax.profiler, checked on LeNet5 Model.train.

The schedule is compared with real MindSpore 2.10 (tests/fixtures/oracle/profiler.npz); the files' names and
CSV columns with what MindSpore's Profiler wrote for LeNet5 (tests/fixtures/mindspore/lenet5/profiler).
"""
import csv
import logging
import os
import pathlib

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.callbacks._callback import CallbackManager
from mindspore_hl.model._data import DataSource
from mindspore_hl.ops._nn_conv_depthwise import conv_depthwise
from mindspore_hl.profiler import (
    ExportType,
    Profiler,
    ProfilerActivity,
    ProfilerLevel,
    _hlo,
    _profiler,
    load_summary,
    profile,
    schedule,
    tensorboard_trace_handler,
)
from mindspore_hl.train import Model
from model_zoo.lenet.src import LeNet5
from tests.oracle import FIXTURE_ROOT, load_cases

MS_PROFILE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "mindspore" / "lenet5" / "profiler"


def _model():
    ms.set_context(mode=ms.GRAPH_MODE)   # Model.train as one compiled step per batch
    ms.set_seed(1)
    net = LeNet5(10)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9))


def _dataset(n=32, batch=8):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(n, 1, 32, 32)).astype(np.float32)
    y = (np.arange(n) % 10).astype(np.int32)
    return ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(batch)


def _session(prof):
    return load_summary(prof.last_session)


@pytest.fixture(scope="module")
def lenet_profile(tmp_path_factory):
    """LeNet5 Model.train, 4 steps of batch 8, profiled after a warm-up epoch (compiled already)."""
    model, ds = _model(), _dataset()
    model.train(1, ds)
    prof = Profiler(output_path=str(tmp_path_factory.mktemp("prof")), profile_memory=True)
    model.train(1, ds)
    prof.analyse()
    return prof, _session(prof), model


@pytest.mark.parametrize("case", sorted(load_cases(FIXTURE_ROOT / "profiler.npz")))
def test_schedule_matches_mindspore(case):
    c = load_cases(FIXTURE_ROOT / "profiler.npz")[case]
    s = schedule(**c.meta["kwargs"])
    np.testing.assert_array_equal([s(i).value for i in range(24)], c.outputs[0])


def test_names_and_enums():
    assert ms.Profiler is Profiler
    assert ProfilerLevel.Level1.value == "Level1" and ExportType.Db.value == "db"
    assert ProfilerActivity.CPU.name == "CPU"
    with pytest.raises(TypeError, match="output_dir"):
        Profiler(output_dir="x", start_profile=False)
    with pytest.raises(TypeError, match="'wait' must be an int"):
        schedule(wait=1.5, active=1)


def test_steps_cells_and_flops(lenet_profile):
    prof, s, _ = lenet_profile
    assert len(s["steps"]) == 4
    cells = s["cells"]
    for name in ("conv1", "conv2", "fc1", "fc2", "fc3"):
        assert f"TrainOneStepCell.network._backbone.{name}" in cells
    assert "TrainOneStepCell.optimizer" in cells
    compiled = sum(r["compiled_step_ms"] for r in s["steps"])
    cell_sum = sum(c["forward_ms"] + c["backward_ms"] for c in cells.values())
    assert cell_sum == pytest.approx(compiled, rel=0.10)
    for r in s["steps"]:
        assert r["compiled_step_ms"] <= r["total_ms"] + 1e-6
    # nearly all of the step's time is attributed to a Cell (the rest: ops XLA made without metadata)
    # Little work falls outside every Cell: measured in FLOPs (from the compiled program), since the step's
    # sub-millisecond op times are at the mercy of the machine's load.
    assert cells.get("(no Cell)", {"flops": 0.0})["flops"] < 0.10 * sum(c["flops"] for c in cells.values())
    conv2 = cells["TrainOneStepCell.network._backbone.conv2"]
    assert conv2["backward_ms"] > 0 and conv2["forward_ms"] > 0
    # FLOPs: conv2 (16x6x5x5 kernel on 10x10 outputs, batch 8: forward 2*8*16*100*150 = 3.84 MFLOP); its
    # backward (input and weight gradients) costs at least twice that again
    assert conv2["flops"] >= 3 * 2 * 8 * 16 * 100 * 150
    (module,) = [m for m in s["modules"] if m["module"] == s["main_module"]]
    assert module["memory"]["peak_bytes"] > 0
    # the per-Cell counts (from the step's jaxpr) against XLA's own cost analysis of the compiled step, which on a
    # GPU leaves out the convolutions cuDNN runs
    if jax.default_backend() == "cpu":
        assert sum(c["flops"] for c in cells.values()) == pytest.approx(module["flops"], rel=0.25)
    else:
        assert 0 < module["flops"] < sum(c["flops"] for c in cells.values())
    assert s["step_gflops_per_s"] > 0
    assert s["memory"] and all(m["device_bytes"] > 0 for m in s["memory"])


def test_ops_xla_made_without_metadata_take_a_neighbours_cell():
    # A layout copy does its operand's work; a convolution XLA rewrote from a weight gradient and its transposes
    # reads the forward activation and a gradient, and is backward work.
    text = """HloModule jit_step
ENTRY %main {
  %p0 = f32[8,4]{1,0} parameter(0)
  %act = f32[8,4]{1,0} add(%p0, %p0), metadata={op_name="jit(step)/net/bn1/add"}
  %grad = f32[8,4]{1,0} multiply(%p0, %p0), metadata={op_name="jit(step)/transpose(jvp(net))/bn2/mul"}
  %copy.1 = f32[8,4]{0,1} copy(%act)
  %convolution.3 = f32[4,4]{1,0} convolution(%copy.1, %grad), dim_labels=bf_io->bf
  ROOT %t = (f32[4,4]{1,0}) tuple(%convolution.3)
}"""
    ops = _hlo.parse_hlo(text)
    assert ops["copy.1"] == ("copy", "jit(step)/net/bn1/add")
    assert ops["convolution.3"] == ("convolution", "jit(step)/transpose(jvp(net))/bn2/mul")
    assert _hlo.cell_of(ops["convolution.3"][1]) == ("net.bn2", True)


def test_depthwise_convolution_flops_are_a_multiply_add_per_tap():
    """The depthwise form's primitives count as the grouped convolution they compute: 2 FLOPs per tap and output
    element forward, the same again per tap and cotangent element for the weight gradient."""
    x, w = jnp.ones((2, 8, 8, 4)), jnp.ones((4, 1, 3, 3))
    conv = lambda a, b: conv_depthwise(a, b, (1, 1), ((1, 1), (1, 1)), (1, 1))  # noqa: E731
    out = 2 * 8 * 8 * 4
    # (the rest: the materialising conditionals' predicates, and the sum's and the cast's element-wise work)
    assert sum(_hlo.jaxpr_flops(jax.make_jaxpr(conv)(x, w)).values()) == pytest.approx(2 * 9 * out, rel=0.01)
    weight_grad = jax.make_jaxpr(jax.grad(lambda b: jnp.sum(conv(x, b))))(w)  # (the forward, then the sums)
    assert sum(_hlo.jaxpr_flops(weight_grad).values()) == pytest.approx(2 * 2 * 9 * out, rel=0.06)


def test_files_as_mindspore_and_tensorboard_write_them(lenet_profile):
    prof, _, _ = lenet_profile
    folder = pathlib.Path(prof.last_session)
    assert folder.name.endswith("_ascend_ms")
    assert list(folder.glob("plugins/profile/*/*.trace.json.gz")) and list(folder.glob("plugins/profile/*/*.xplane.pb"))
    for name in ("cpu_op_detail_info_0.csv", "cpu_op_type_info_0.csv"):
        with open(MS_PROFILE / "FRAMEWORK" / name) as f:
            header = next(csv.reader(f))
        with open(folder / "FRAMEWORK" / name) as f:
            rows = list(csv.reader(f))
        assert rows[0] == header and len(rows) > 5
    assert (folder / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").exists()


def test_recompilation_reported_with_both_signatures(tmp_path, model_factory):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory()
    rng = np.random.default_rng(0)
    ds = ms.dataset.NumpySlicesDataset({"x": rng.normal(size=(20, 8)).astype(np.float32),
                                        "y": np.arange(20, dtype=np.int32) % 3}, shuffle=False).batch(8)
    prof = Profiler(output_path=str(tmp_path))
    model.train(1, ds)   # batches of 8, 8, then 4: the last one recompiles the step
    prof.analyse()
    recompiles = [c for c in _session(prof)["compiles"] if "recompile_of" in c and c["function"] == "step"]
    assert recompiles, _session(prof)["compiles"]
    changed = recompiles[0]["changed"]
    assert {(c["before"], c["after"]) for c in changed} == {("float32[8,8]", "float32[4,8]"), ("int32[8]", "int32[4]")}
    assert "float32[8,8]" in recompiles[0]["recompile_of"] and "float32[4,8]" in recompiles[0]["signature"]
    assert recompiles[0]["compile_s"] > 0
    # the step that waited for the recompile shows it in its breakdown
    assert max(r["compile_ms"] for r in _session(prof)["steps"]) > 0


def test_sink_mode_scan_is_attributed_to_cells(tmp_path, model_factory):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory()
    rng = np.random.default_rng(0)
    ds = ms.dataset.NumpySlicesDataset({"x": rng.normal(size=(64, 8)).astype(np.float32),
                                        "y": np.arange(64, dtype=np.int32) % 3}, shuffle=False).batch(8)
    model.train(1, ds, dataset_sink_mode=True)
    prof = Profiler(output_path=str(tmp_path))
    model.train(2, ds, dataset_sink_mode=True)   # one scan of 8 steps per epoch
    prof.analyse()
    s = _session(prof)
    assert len(s["steps"]) == 2
    cells = s["cells"]
    fc1 = "TrainOneStepCell.network._backbone.fc1"
    assert {fc1, "TrainOneStepCell.network._backbone.fc2", "TrainOneStepCell.optimizer"} <= set(cells)
    cell_sum = sum(c["forward_ms"] + c["backward_ms"] for c in cells.values())
    assert cell_sum == pytest.approx(sum(r["compiled_step_ms"] for r in s["steps"]), rel=0.10)
    # Little work falls outside every Cell: measured in FLOPs (from the compiled program), since the step's
    # sub-millisecond op times are at the mercy of the machine's load.
    assert cells.get("(no Cell)", {"flops": 0.0})["flops"] < 0.10 * sum(c["flops"] for c in cells.values())
    assert "(sink loop)" in cells   # the scan's slicing of the stacked batches, named as such
    # FLOPs of fc1 (8 -> 16, batch 8) over the scan's 8 steps: forward 2*8*16*8 and its weight gradient as large
    # (the first layer needs no input gradient), counted once per scanned step
    assert 8 * 2 * (2 * 8 * 16 * 8) <= cells[fc1]["flops"] < 8 * 3 * (2 * 8 * 16 * 8)


def test_callback_limited_to_a_step_range(tmp_path, model_factory):
    class StopAtStep(ms.Callback):   # as in MindSpore's profiler tutorial
        def __init__(self, start_step, stop_step):
            super().__init__()
            self.start_step, self.stop_step = start_step, stop_step
            self.profiler = Profiler(start_profile=False, output_path=str(tmp_path))

        def on_train_step_begin(self, run_context):
            if run_context.original_args().cur_step_num == self.start_step:
                self.profiler.start()

        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == self.stop_step:
                self.profiler.stop()
                self.profiler.analyse()

    ms.set_context(mode=ms.GRAPH_MODE)
    model, _, _ = model_factory()
    rng = np.random.default_rng(0)
    ds = ms.dataset.NumpySlicesDataset({"x": rng.normal(size=(48, 8)).astype(np.float32),
                                        "y": np.arange(48, dtype=np.int32) % 3}, shuffle=False).batch(8)
    cb = StopAtStep(2, 4)
    model.train(1, ds, callbacks=[cb])
    assert len(load_summary(cb.profiler.last_session)["steps"]) == 3


def test_profile_schedule_custom_loop(tmp_path):
    net = nn.Dense(4, 3)
    step = ms.jit(lambda x: net(x).sum())
    x = ms.Tensor(np.ones((2, 4), np.float32))
    handler = tensorboard_trace_handler(str(tmp_path))
    with profile(schedule=schedule(wait=1, warmup=1, active=2, repeat=1), on_trace_ready=handler) as prof:
        for _ in range(6):
            step(x).asnumpy()
            prof.step()
    s = _session(prof)
    assert [r["step"] for r in s["steps"]] == [2, 3]
    assert len(list(pathlib.Path(tmp_path).glob("*_ascend_ms"))) == 1


def test_step_breakdown_names_data_checkpoints_and_callbacks(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    model, ds = _model(), _dataset(n=24)
    model.train(1, ds)
    ckpt = ms.ModelCheckpoint(prefix="lenet", directory=str(tmp_path / "ckpt"),
                              config=ms.CheckpointConfig(save_checkpoint_steps=1))
    prof = Profiler(output_path=str(tmp_path / "prof"))
    model.train(1, ds, callbacks=[ckpt, ms.LossMonitor(1)])
    prof.analyse()
    steps = _session(prof)["steps"]
    assert len(steps) == 3
    # a step's window runs from the end of the previous step: it holds the previous step's save
    assert steps[0]["checkpoint_ms"] == 0 and all(r["checkpoint_ms"] > 0 for r in steps[1:])
    assert sum(r["callbacks_ms"] for r in steps) > 0          # LossMonitor reads the loss (waits for the step)
    for r in steps:
        parts = sum(r[k] for k in ("compiled_step_ms", "other_xla_ms", "compile_ms", "data_ms", "checkpoint_ms",
                                   "summary_ms", "callbacks_ms", "host_ms"))
        assert parts == pytest.approx(r["total_ms"], rel=1e-6, abs=1e-6)


def test_nothing_left_behind_after_stop(tmp_path):
    logger = logging.getLogger("jax._src.interpreters.pxla")
    level, handlers = logger.level, list(logger.handlers)
    epochs, hook = DataSource.epochs, CallbackManager.on_train_step_end
    prof = Profiler(output_path=str(tmp_path))
    assert _profiler._active[0] is prof
    assert DataSource.epochs is not epochs and CallbackManager.on_train_step_end is not hook
    with pytest.raises(RuntimeError, match="another Profiler"):
        Profiler(output_path=str(tmp_path))
    prof.stop()
    assert _profiler._active[0] is None
    assert logger.level == level and logger.handlers == handlers
    # the training code is exactly as it was: nothing of the profiler runs in an unprofiled step
    assert DataSource.epochs is epochs and CallbackManager.on_train_step_end is hook
    prof.analyse()
    assert os.path.exists(os.path.join(prof.last_session, "profiler_summary.json"))


@pytest.mark.slow
def test_resnet50_cells_add_up(tmp_path):
    """ResNet50 Model.train, 3 steps of 2 images of 224x224: per-Cell times against the compiled step."""
    from model_zoo.resnet.src.resnet import resnet50
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = resnet50(class_num=10)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), 0.01, 0.9))
    x = np.random.default_rng(0).normal(size=(6, 3, 224, 224)).astype(np.float32)
    ds = ms.dataset.NumpySlicesDataset({"x": x, "y": np.arange(6, dtype=np.int32) % 10}, shuffle=False).batch(2)
    model.train(1, ds)
    prof = Profiler(output_path=str(tmp_path))
    model.train(1, ds)
    prof.analyse()
    s = _session(prof)
    assert len(s["steps"]) == 3
    cells = s["cells"]
    cell_sum = sum(c["forward_ms"] + c["backward_ms"] for c in cells.values())
    assert cell_sum == pytest.approx(sum(r["compiled_step_ms"] for r in s["steps"]), rel=0.10)
    # Little work falls outside every Cell: measured in FLOPs (from the compiled program), since the step's
    # sub-millisecond op times are at the mercy of the machine's load.
    assert cells.get("(no Cell)", {"flops": 0.0})["flops"] < 0.10 * sum(c["flops"] for c in cells.values())
    assert any(k.startswith("TrainOneStepCell.network._backbone.layer4.") for k in cells), sorted(cells)[:20]
    total = sum(r["total_ms"] for r in s["steps"])
    print(f"ResNet50: cells {cell_sum:.1f} ms, compiled steps {sum(r['compiled_step_ms'] for r in s['steps']):.1f}"
          f" ms, step windows {total:.1f} ms, {s['step_gflops_per_s']:.1f} GFLOP/s")
