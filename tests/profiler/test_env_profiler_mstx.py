"""EnvProfiler (MS_PROFILER_OPTIONS) and mstx, against real MindSpore 2.10's CPU build (profiler_dynamic.npz).

MindSpore's CPU build makes every mstx call a no-op (``range_start`` returns 0): that is checked here for the
case without a profile. With a running ``Profiler(mstx=True)`` the markers land in the jax trace, which
MindSpore does only on Ascend; those are checked against the trace file itself.
"""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl.profiler import EnvProfiler, ProfilerActivity, ProfilerLevel, mstx
from mindspore_hl.profiler._profiler import Profiler
from mindspore_hl.profiler._trace import find_traces, load_events
from tests.oracle import load_cases

CASES = load_cases("profiler_dynamic.npz")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = ("ASCEND_PROFILER_OUTPUT", "trace_view.json")


def _tree(root):
    out = set()
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = re.sub(r"[^/]+_\d+_\d+_ascend_ms", "*_ascend_ms",
                       os.path.normpath(os.path.join(os.path.relpath(dirpath, root), name)))
            if all(part in SHARED for part in p.split("/")[1:]):
                out.add(p)
    return sorted(out)


def test_env_profiler_profiles_the_whole_run(tmp_path):
    """MS_PROFILER_OPTIONS with start: a profile from import to exit, analysed into output_path."""
    case = CASES["env/start"]
    out = tmp_path / "o"
    opts = '{"start": true, "activities": ["CPU"], "output_path": "%s"}' % out
    code = ("import numpy as np, mindspore_hl as ms\nfrom mindspore_hl.profiler import EnvProfiler\n"
            "assert EnvProfiler.profiler is not None\n(ms.Tensor(np.ones(4, np.float32)) * 2).asnumpy()\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=300,
                   env=dict(os.environ, MS_PROFILER_OPTIONS=opts))
    assert _tree(out) == case.meta["out"]


@pytest.mark.parametrize("case_id", ["env/not_started", "env/bad_json"])
def test_env_profiler_not_started(case_id, tmp_path, monkeypatch, caplog):
    case = CASES[case_id]
    opts = case.kwargs["options"]
    text = opts if isinstance(opts, str) else '{"output_path": "%s"}' % (tmp_path / "o")
    monkeypatch.setenv("MS_PROFILER_OPTIONS", text)
    EnvProfiler.init_profiler()
    assert (EnvProfiler.profiler is not None) == case.meta["started"]
    assert _tree(tmp_path / "o") == case.meta["out"]
    if isinstance(opts, str):
        assert "MS_PROFILER_OPTIONS" in caplog.text


def test_env_profiler_options():
    params = EnvProfiler._options_to_params(
        {"start": True, "activities": ["CPU", "GPU", "CPU"], "profiler_level": "Level2", "schedule": 1,
         "export_type": ["text", "xml"], "unknown": 1, "with_stack": True})
    assert params == {"start": True, "activities": [ProfilerActivity.CPU, ProfilerActivity.GPU],
                      "profiler_level": ProfilerLevel.Level2, "export_type": [ms.profiler.ExportType.Text],
                      "with_stack": True}
    # an invalid entry makes the whole list the default, as in MindSpore
    assert EnvProfiler._options_to_params({"activities": ["CPU", "TPU"]})["activities"] == \
        [ProfilerActivity.CPU, ProfilerActivity.NPU]


def test_mstx_without_profile_is_a_noop():
    case = CASES["mstx/cpu"]
    assert mstx.mark("m") == case.meta["mark"]
    assert mstx.range_start("r") == case.meta["range_start"]
    assert mstx.range_end(1) == case.meta["range_end"]


def _markers(folder):
    events = load_events(find_traces(folder)[-1])
    return {e["name"]: e for e in events if e.get("args", {}).get("mstx")}


def test_mstx_markers_in_trace(tmp_path, caplog):
    prof = Profiler(output_path=str(tmp_path), mstx=True, mstx_domain_exclude=["noisy"])
    outer = mstx.range_start("outer")
    inner = mstx.range_start("inner", domain="d2")
    mstx.mark("hello")
    mstx.mark("dropped", domain="noisy")
    assert mstx.range_start("", domain="d2") == 0 and "message" in caplog.text
    (ms.Tensor(np.ones(3, np.float32)) * 2).asnumpy()
    mstx.range_end(outer)
    mstx.range_end(inner, "d2")
    prof.analyse()
    assert outer > 0 and inner == outer + 1
    marks = _markers(prof.last_session)
    assert set(marks) == {"outer", "inner", "hello"}
    assert marks["inner"]["args"]["domain"] == "d2" and marks["hello"]["args"]["mstx"] == "mark"
    # the range spans what ran between start and end: it holds the mark
    assert marks["outer"]["ts"] <= marks["hello"]["ts"] <= marks["outer"]["ts"] + marks["outer"]["dur"]


def test_mstx_needs_mstx_profile(tmp_path):
    prof = Profiler(output_path=str(tmp_path))            # mstx=False: MindSpore records nothing either
    assert mstx.range_start("r") == 0
    mstx.mark("m")
    prof.analyse()
    assert _markers(prof.last_session) == {}
    prof = Profiler(output_path=str(tmp_path), mstx=True, mstx_domain_include=["only"])
    assert mstx.range_start("r") == 0                     # domain "default" is not included
    mstx.range_end(mstx.range_start("kept", domain="only"), "only")
    prof.analyse()
    assert set(_markers(prof.last_session)) == {"kept"}
