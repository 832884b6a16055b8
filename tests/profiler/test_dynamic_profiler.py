"""DynamicProfilerMonitor against real MindSpore 2.10's CPU build (tests/fixtures/oracle/profiler_dynamic.npz).

The oracle recorded the config file it writes, its checks of each key, and which folders a small Model.train
(or a loop calling ``step()``) leaves under the output path. Inside a session folder MindSpore and this project
write different raw files (its FRAMEWORK dumps, our jax trace); the comparison keeps the parts both write:
``rank<r>_start<a>_stop<b>/<session>_ascend_ms/ASCEND_PROFILER_OUTPUT/trace_view.json`` (present when analysed).
"""
import json
import os
import re

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from mindspore_hl.callbacks import Callback
from mindspore_hl.profiler import DynamicProfilerMonitor, load_summary
from mindspore_hl.profiler._dynamic_config import DynamicConfig
from mindspore_hl.train import Model
from tests.oracle import load_cases

CASES = load_cases("profiler_dynamic.npz")
SHARED = ("ASCEND_PROFILER_OUTPUT", "trace_view.json")


def _tree(root):
    """The recorder's view of a folder: session folders as '*_ascend_ms', only the files both sides write."""
    out = set()
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.normpath(os.path.join(os.path.relpath(dirpath, root), name))
            p = re.sub(r"[^/]+_\d+_\d+_ascend_ms", "*_ascend_ms", p)
            parts = p.split("/")
            tail = parts[parts.index("*_ascend_ms") + 1:] if "*_ascend_ms" in parts else []
            if all(part in SHARED for part in tail):
                out.add(p)
    return sorted(out)


def _printed(text):
    return [re.sub(r"/(?:[^/\s]+/)*?(cfg|out|prof)/", r"\1/", ln) for ln in text.splitlines()
            if ln.startswith("[Dynamic Profiler]")]


def _sessions(root):
    return [os.path.join(dp, d) for dp, dns, _ in os.walk(root) for d in dns if d.endswith("_ascend_ms")]


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)

    def construct(self, x):
        return self.fc(x)


@pytest.fixture(scope="module")
def model():
    """One Model for every scenario: its step compiles once."""
    ms.set_seed(0)
    net = _Net()
    return Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True), nn.Momentum(net.trainable_params(), 0.1, 0.9))


def _data(n=6):
    x = np.ones((n, 2), np.float32)
    y = np.ones((n,), np.int32)
    return ms.dataset.NumpySlicesDataset({"data": x, "label": y}, shuffle=False).batch(1)


def _write_config(cfg, tmp_path):
    os.makedirs("cfg", exist_ok=True)
    if isinstance(cfg, dict):
        cfg = dict(cfg)
        if cfg.get("prof_path") == "PROF":
            cfg["prof_path"] = str(tmp_path / "prof")
        with open("cfg/profiler_config.json", "w") as f:
            json.dump(cfg, f)
    elif isinstance(cfg, str):
        with open("cfg/profiler_config.json", "w") as f:
            f.write(cfg)


def _check_against(case, tmp_path, printed):
    assert _tree("out") == case.meta["out"]
    assert _tree("prof") == case.meta["prof"]
    assert sorted(os.listdir("cfg")) == case.meta["cfg_files"]
    with open("cfg/profiler_config.json") as f:   # left as the user wrote it (or as created)
        after, expected = f.read().replace(str(tmp_path) + "/", ""), case.meta["config_after"]
    if expected.startswith("{not"):
        assert after == expected
    else:   # the fixture's meta sorts the keys the recorder wrote: compare the JSON values
        assert json.loads(after) == json.loads(expected)
    assert _printed(printed) == case.meta["printed"]


def test_default_config_file(tmp_path, capsys):
    mon = DynamicProfilerMonitor(cfg_path=str(tmp_path / "cfg"))
    mon._clean_resource()
    path = tmp_path / "cfg" / "profiler_config.json"
    assert path.read_text() == CASES["dynamic/default_file"].meta["text"]
    assert os.stat(path).st_mode & 0o777 == CASES["dynamic/default_file_mode"].meta["mode"]
    assert "Init config json file" in capsys.readouterr().out


@pytest.mark.parametrize("case_id", [k for k in CASES if k.startswith("dynamic/config/")])
def test_config_checks(case_id):
    case = CASES[case_id]
    cfg = DynamicConfig(dict(case.kwargs, is_valid=True))
    assert cfg.to_dict() == case.meta["checked"]
    assert cfg.analyse_mode == case.meta["analyse_mode"]
    expected = case.meta["args"]
    got = {k: ([x.value for x in v] if isinstance(v, list) else getattr(v, "value", v))
           for k, v in cfg.profiler_kwargs().items()}
    shared = set(got) & set(expected)
    assert len(shared) >= 15   # every Profiler option the config maps to
    assert {k: got[k] for k in shared} == {k: expected[k] for k in shared}


@pytest.mark.parametrize("case_id", [k for k in CASES if k.startswith("dynamic/train/")])
def test_train_windows(case_id, model, tmp_path, monkeypatch, capsys):
    case = CASES[case_id]
    monkeypatch.chdir(tmp_path)
    _write_config(case.kwargs["config"], tmp_path)
    mon = DynamicProfilerMonitor(cfg_path="cfg", output_path="out", poll_interval=1)
    model.train(1, _data(), callbacks=[mon], dataset_sink_mode=False)
    _check_against(case, tmp_path, capsys.readouterr().out)
    cfg = case.kwargs["config"]
    for session in _sessions(tmp_path):
        if isinstance(cfg, dict) and cfg.get("analyse"):   # the window's steps (6 steps were trained)
            steps = load_summary(session)["steps"]
            if cfg["stop_step"] <= 6:
                assert len(steps) == cfg["stop_step"] - cfg["start_step"] + 1
            else:   # stopped by the end of training: the trained steps, then the step opened after the last one
                assert len(steps) >= 6 - cfg["start_step"] + 1


@pytest.mark.parametrize("case_id", [k for k in CASES if k.startswith("dynamic/loop/")])
def test_loop_windows(case_id, tmp_path, monkeypatch, capsys):
    case = CASES[case_id]
    monkeypatch.chdir(tmp_path)
    _write_config(case.kwargs["config"], tmp_path)
    mon = DynamicProfilerMonitor(cfg_path="cfg", output_path="out", poll_interval=1)
    for _ in range(6):
        (ms.Tensor(np.ones(2, np.float32)) * 2).asnumpy()
        mon.step()
    mon._clean_resource()
    _check_against(case, tmp_path, capsys.readouterr().out)


def test_config_edited_while_training(model, tmp_path, monkeypatch):
    """A new window written during training is picked up by the watcher (MindSpore does this in a process)."""
    monkeypatch.chdir(tmp_path)
    _write_config({"start_step": 2, "stop_step": 2}, tmp_path)
    mon = DynamicProfilerMonitor(cfg_path="cfg", output_path="out", poll_interval=1)

    class Edit(Callback):
        def step_end(self, run_context):
            if run_context.original_args().cur_step_num == 3:
                seen = mon._watcher.readings
                with open("cfg/profiler_config.json", "w") as f:
                    json.dump({"start_step": 5, "stop_step": 6, "analyse": True}, f)
                for _ in range(100):   # wait for the watcher's next reading (it polls every second)
                    if mon._watcher.readings > seen:
                        break
                    mon._watcher._stop.wait(0.1)

    model.train(1, _data(), callbacks=[mon, Edit()], dataset_sink_mode=False)
    assert sorted(os.listdir("out")) == ["rank0_start2_stop2", "rank0_start5_stop6"]
    (session,) = _sessions("out/rank0_start5_stop6")
    assert len(load_summary(session)["steps"]) == 2


def test_arguments(tmp_path, caplog):
    with pytest.raises(TypeError, match="cfg_path"):
        DynamicProfilerMonitor(cfg_path=None)
    mon = DynamicProfilerMonitor(cfg_path=str(tmp_path), poll_interval=0)
    assert mon._poll_interval == 2 and "poll_interval" in caplog.text
    mon._clean_resource()
