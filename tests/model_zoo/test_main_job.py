"""The README's main job: LeNet5 on the bundled real MNIST reaches the issue's accuracy and writes a dashboard run."""
import pytest

from insight_app._store import LogStore
from model_zoo.lenet import train


@pytest.mark.slow
def test_main_job_reaches_98_8_percent_and_writes_summaries(tmp_path, capsys):
    acc = train.main(["--output_dir", str(tmp_path / "lenet5")])
    assert acc["Accuracy"] >= 0.988
    out = capsys.readouterr().out
    assert "mindspore-hl-insight --logdir" in out and "epoch: 5 step:" in out
    assert list((tmp_path / "lenet5" / "ckpt").glob("checkpoint_lenet-5_1875.ckpt"))
    store = LogStore(str(tmp_path))
    store.refresh()
    (run,) = store.sorted_runs()
    assert run.problems == [] and "loss/auto" in run.scalars and run.graph is not None
