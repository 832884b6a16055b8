"""launch_blocking and set_cpu_affinity (argument checks replayed against real MindSpore from
tests/fixtures/oracle/toplevel_runtime.npz; the binding itself checked with os.sched_getaffinity)."""
import json
import os
import threading

import numpy as np
import pytest
from oracle import FIXTURE_ROOT, load_cases

import mindspore_hl as ms
from mindspore_hl._engine import _state
from mindspore_hl.ops import _core

CASES = load_cases(FIXTURE_ROOT / "toplevel_runtime.npz")


@pytest.fixture
def restore_affinity():
    """Put every thread of this process back on the CPUs it had (set_cpu_affinity binds them)."""
    before = {}
    for tid in (int(t) for t in os.listdir("/proc/self/task")):
        try:
            before[tid] = os.sched_getaffinity(tid)
        except ProcessLookupError:  # a thread that ended since the listing
            pass
    yield sorted(before[threading.get_native_id()])
    for tid, cpus in before.items():
        try:
            os.sched_setaffinity(tid, cpus)
        except OSError:
            pass


def test_launch_blocking_makes_eager_ops_wait(monkeypatch):
    assert CASES["launch_blocking"].meta["returned"] is None
    waited = []
    block = _core._block
    monkeypatch.setattr(_core, "_block", lambda out: (block(out), waited.append(out.is_ready())))
    x = ms.Tensor(np.ones((64, 64), np.float32))
    ms.ops.matmul(x, x)
    assert waited == []  # by default eager ops return before their result is computed
    assert ms.launch_blocking() is None
    assert _state.runtime["launch_blocking"] is True
    ready = []
    for _ in range(3):
        y = ms.ops.matmul(x, x)
        ready.append(y._value.is_ready())  # finished when the op returned, not later
    assert waited == ready == [True, True, True]
    np.testing.assert_allclose(y.asnumpy(), np.full((64, 64), 64, np.float32))
    _state.reset()
    assert "launch_blocking" not in _state.runtime


def test_launch_blocking_leaves_traced_ops_alone():
    ms.launch_blocking()

    @ms.jit
    def f(x):
        return ms.ops.exp(x) + 1  # the ops see tracers here: nothing to wait for

    np.testing.assert_allclose(f(ms.Tensor(np.zeros(3, np.float32))).asnumpy(), np.full(3, 2, np.float32))


@pytest.mark.parametrize("cid", sorted(k for k in CASES if k.startswith("set_cpu_affinity/args/")))
def test_set_cpu_affinity_argument_checks_match_mindspore(cid, restore_affinity):
    case = CASES[cid]
    cpu_list, modules = case.meta["affinity_cpu_list"], case.meta["module_to_cpu_dict"]
    if case.error:
        with pytest.raises(Exception) as info:
            ms.set_cpu_affinity(True, cpu_list, modules)
        assert type(info.value).__name__ == case.error
        assert str(info.value) == case.meta["message"]
        assert "cpu_affinity" not in _state.runtime  # nothing was bound: it may be called again
    else:
        assert ms.set_cpu_affinity(True, cpu_list, modules) is None


def test_set_cpu_affinity_disable_then_again_raises():
    assert ms.set_cpu_affinity(False) is None
    with pytest.raises(RuntimeError, match=CASES["set_cpu_affinity/again"].meta["message"]):
        ms.set_cpu_affinity(True)


def test_set_cpu_affinity_binds_the_main_thread(restore_affinity):
    cpus = restore_affinity
    ms.set_cpu_affinity(True, [str(cpus[-1])])
    assert os.sched_getaffinity(0) == {cpus[-1]}
    started = []
    t = threading.Thread(target=lambda: started.append(os.sched_getaffinity(0)))
    t.start()
    t.join()
    assert started == [{cpus[-1]}]  # threads started later inherit the main thread's CPUs
    with pytest.raises(RuntimeError, match="cannot be set repeatedly"):
        ms.set_cpu_affinity(True)


def test_set_cpu_affinity_modules_and_unavailable_cpu(restore_affinity):
    cpus = restore_affinity
    with pytest.raises(RuntimeError, match=r"CPU id:100000 set in affinity_cpu_list:\['100000'\] is not available"):
        ms.set_cpu_affinity(True, ["100000"])
    others = {int(t) for t in os.listdir("/proc/self/task")} - {threading.get_native_id()}
    ms.set_cpu_affinity(True, [",".join(map(str, cpus))], {"main": [0], "runtime": [len(cpus) - 1]})
    assert os.sched_getaffinity(0) == {cpus[0]}
    for tid in others:  # the threads running when it was called (a thread started later inherits the caller's)
        try:
            assert os.sched_getaffinity(tid) == {cpus[-1]}
        except ProcessLookupError:  # ended since
            pass


def test_set_cpu_affinity_bind_file(tmp_path, restore_affinity):
    cpus = restore_affinity
    path = tmp_path / "bind.json"
    path.write_text(json.dumps({"bind_config": {"bind_cpu_mode": "cpu"},
                                "bind_cpu": {"device0": {"main": str(cpus[0])}}}))
    ms.set_cpu_affinity(True, bind_file=str(path))
    assert os.sched_getaffinity(0) == {cpus[0]}
