"""The dashboard reads what mindspore_hl's own SummaryRecord writes (TensorBoard events under MindSpore's names)."""
import numpy as np
import pytest

from insight_app._store import LogStore
from mindspore_hl import Tensor
from mindspore_hl.summary import SummaryRecord


def test_summary_record_files_open_in_the_dashboard(tmp_path):
    run = tmp_path / "run1"
    with SummaryRecord(str(run)) as record:
        for step in range(1, 6):
            record.add_value("scalar", "loss/auto", Tensor(np.float32(1.0 / step)))
            record.add_value("histogram", "fc.weight/auto", Tensor(np.arange(10, dtype=np.float32) * step))
            record.record(step)
    assert any(p.name.endswith("_MS") for p in run.iterdir())
    store = LogStore(str(tmp_path))
    store.refresh()
    (data,) = store.sorted_runs()
    assert store.problems() == []
    assert "loss/auto" in data.scalars and "fc.weight/auto" in data.histograms
    steps, _, values = data.scalars["loss/auto"].arrays()
    assert list(steps) == [1, 2, 3, 4, 5]
    np.testing.assert_allclose(values, [1.0, 0.5, 1 / 3, 0.25, 0.2], rtol=1e-6)


def test_summary_record_files_open_in_tensorboard(tmp_path):
    """TensorBoard finds event files by "tfevents" in the name, which SummaryRecord's names carry; the contents are
    TensorBoard events, so TensorBoard reads them as written -- and so does the dashboard."""
    import shutil

    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    with SummaryRecord(str(tmp_path / "w")) as record:
        for step in range(1, 4):
            record.add_value("scalar", "loss/auto", Tensor(np.float32(1.0 / step)))
            record.record(step)
    (src,) = [p for p in (tmp_path / "w").iterdir() if p.name.endswith("_MS")]
    assert ".out.tfevents.summary." in src.name  # the name TensorBoard's loader looks for
    run = tmp_path / "logs" / "run"
    run.mkdir(parents=True)
    shutil.copy(src, run / src.name)
    ea = EventAccumulator(str(run), size_guidance={"scalars": 0})
    ea.Reload()
    assert [(e.step, round(e.value, 6)) for e in ea.Scalars("loss/auto")] == [(1, 1.0), (2, 0.5), (3, 0.333333)]
    store = LogStore(str(tmp_path / "logs"))
    steps, _, values = store.sorted_runs()[0].scalars["loss/auto"].arrays()
    assert list(steps) == [1, 2, 3] and store.problems() == []


@pytest.mark.slow
def test_main_job_writes_test_accuracy_and_learning_rate_per_epoch(tmp_path):
    from model_zoo.lenet import train

    train.main(["--output_dir", str(tmp_path / "lenet5"), "--epoch_size", "2"])
    store = LogStore(str(tmp_path))
    (run,) = store.sorted_runs()
    steps, _, acc = run.scalars["eval/Accuracy"].arrays()
    assert list(steps) == [1875, 3750] and acc[-1] > 0.97  # the test set, after each epoch
    lr_steps, _, lr = run.scalars["learning_rate/auto"].arrays()
    assert lr_steps[0] == 1 and lr[0] == pytest.approx(0.03) and lr[-1] == pytest.approx(0.01525)  # cosine
    assert run.problems == [] and store.problems() == []
