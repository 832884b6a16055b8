"""``python -m benchmarks.model_train`` runs end to end (tiny sizes) and reports every configuration."""
import json

import pytest


@pytest.mark.slow
def test_benchmark_runs(capsys):
    from benchmarks import model_train
    results = model_train.main(["--steps", "20", "--repeat", "1", "--batches", "32"])
    out = capsys.readouterr().out.splitlines()
    line = json.loads(out[0])
    assert line["benchmark"] == "model_train" and len(line["results"]) == 4 == len(results)
    assert {r["config"] for r in results} == {"step", "sink", "step+SummaryCollector", "step+ScalarSummary op"}
    assert all(r["model_ms_per_step"] > 0 and r["ratio_vs_nhwc_floor"] > 0 for r in results)
