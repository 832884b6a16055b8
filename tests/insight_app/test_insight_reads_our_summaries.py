"""The dashboard reads what mindspore_hl's own SummaryRecord writes (TensorBoard events under MindSpore's names)."""
import numpy as np

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
    assert data.problems == []
    assert "loss/auto" in data.scalars and "fc.weight/auto" in data.histograms
    steps, _, values = data.scalars["loss/auto"].arrays()
    assert list(steps) == [1, 2, 3, 4, 5]
    np.testing.assert_allclose(values, [1.0, 0.5, 1 / 3, 0.25, 0.2], rtol=1e-6)
