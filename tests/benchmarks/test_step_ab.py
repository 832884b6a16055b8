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


def test_option_values_are_typed_as_on_the_command_line():
    from benchmarks.step_ab import _option_value
    assert [_option_value(v) for v in ("true", "false", "3", "-1", "A,B")] == [True, False, 3, -1, "A,B"]


@pytest.mark.slow
def test_an_xla_option_reaches_the_compiler_on_top_of_the_engines():
    import numpy as np

    import mindspore_hl as ms
    from benchmarks.step_ab import _compiled_step
    ms.set_context(mode=ms.GRAPH_MODE)
    x = ms.Tensor(np.random.default_rng(0).random((4, 1, 32, 32), dtype=np.float32))
    y = ms.Tensor(np.zeros(4, np.int32))
    engine = _compiled_step("lenet5", x, y)[0].as_text()
    without_ynn = _compiled_step("lenet5", x, y, None, {"xla_cpu_experimental_ynn_fusion_type": ""})[0].as_text()
    # The engine hands products to YNNPACK; the added option, with no fusion types, takes them away.
    assert "ynn_fusion" in engine and "ynn_fusion" not in without_ynn
    with pytest.raises(Exception, match="xla_cpu_no_such_option"):
        _compiled_step("lenet5", x, y, None, {"xla_cpu_no_such_option": True})


@pytest.mark.slow
def test_xla_option_values_are_timed_side_by_side(capsys):
    from benchmarks import step_ab
    step_ab.main(["--case", "lenet5-32", "--xla-option", "xla_cpu_experimental_ynn_fusion_type", "--separator", ";",
                  "--values", "default;LIBRARY_FUSION_TYPE_INDIVIDUAL_DOT,LIBRARY_FUSION_TYPE_REDUCE",
                  "--rounds", "2", "--steps", "3"])
    line = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert line["switch"] == "xla_cpu_experimental_ynn_fusion_type"
    assert list(line["ms_per_step"]) == ["default", "LIBRARY_FUSION_TYPE_INDIVIDUAL_DOT,LIBRARY_FUSION_TYPE_REDUCE"]
    assert all(len(r) == 2 for r in line["rounds"].values())
