"""``python -m benchmarks.step_ab`` compiles one step per switch value, each traced with its own setting."""
import json

import pytest


@pytest.mark.slow
def test_each_value_is_traced_with_its_own_setting(capsys, monkeypatch):
    from benchmarks import step_ab
    from mindspore_hl.ops import _nn_pool
    seen = []
    first_max = _nn_pool._window_max_jvp

    def recording_jvp(*args):  # the pool derivative notes the switch's value each time it is traced
        seen.append(_nn_pool._STEP_AB_PROBE)
        return first_max(*args)

    monkeypatch.setattr(_nn_pool, "_STEP_AB_PROBE", None, raising=False)
    monkeypatch.setattr(_nn_pool._window_max, "jvp", recording_jvp)
    step_ab.main(["--case", "lenet5-32", "--switch", "mindspore_hl.ops._nn_pool:_STEP_AB_PROBE",
                  "--values", "a,b", "--rounds", "2", "--steps", "3"])
    line = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert set(line["ms_per_step"]) == {"a", "b"} and all(t > 0 for t in line["ms_per_step"].values())
    # Traced under each setting, equally often (a variant retraced under another setting would tip the count).
    assert seen and seen.count("a") == seen.count("b") == len(seen) / 2
