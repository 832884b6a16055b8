"""Top-level names of MindSpore 2.10 added in mindspore_hl: memory / stream utilities (on JAX's device API),
type objects, float8 dtypes, Generator, frombuffer, swap_tensors, run_check, data sinking and recompute.
Values real MindSpore returns on its CPU build are replayed from ``toplevel.npz``."""
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn, ops
from tests.oracle import assert_close, load_cases

CASES = load_cases("toplevel.npz")
ROOT = pathlib.Path(__file__).resolve().parents[1]


# ---- memory and streams -------------------------------------------------------------------------------------
def test_memory_numbers_follow_xla_stats():
    import jax
    raw = jax.devices()[0].memory_stats()
    x = ms.Tensor(np.ones((256, 256), np.float32)) + 1
    ms.synchronize()
    if raw is None:  # XLA's CPU client keeps no allocator stats: 0, as real MindSpore reports on CPU
        assert ms.memory_allocated() == ms.max_memory_allocated() == ms.memory_reserved() == 0
    else:
        assert ms.memory_allocated() >= x.nbytes
        assert ms.max_memory_allocated() >= ms.memory_allocated()
    stats = ms.memory_stats()
    assert stats["total_allocated_memory"] == ms.memory_allocated()
    assert {"total_reserved_memory", "max_allocated_memory", "common_mem_pool_stats"} <= set(stats)
    assert "Memory summary" in ms.memory_summary() and "Allocated memory" in ms.memory_summary()
    ms.reset_peak_memory_stats()
    assert ms.max_memory_allocated() >= ms.memory_allocated()
    ms.reset_max_memory_allocated()
    ms.reset_max_memory_reserved()
    ms.empty_cache()


def test_streams_and_events():
    s = ms.Stream()
    assert ms.current_stream() == ms.default_stream() == ms.communication_stream()
    with ms.StreamCtx(s):
        assert ms.current_stream() == s
        y = ops.matmul(ms.Tensor(np.ones((64, 64), np.float32)), ms.Tensor(np.ones((64, 64), np.float32)))
        start, end = ms.Event(enable_timing=True), ms.Event(enable_timing=True)
        start.record()
        y = y * 2
        end.record()
        end.synchronize()
        assert end.query() and s.query()
        assert start.elapsed_time(end) >= 0.0
    assert ms.current_stream() == ms.default_stream()
    assert float(y.asnumpy()[0, 0]) == 128.0
    with pytest.raises(RuntimeError, match="enable_timing"):
        ms.Event().elapsed_time(ms.Event())
    with pytest.raises(TypeError, match="Stream"):
        ms.set_cur_stream("s")
    assert tuple(ms.get_current_device()) == (ms.get_context("device_target"), 0)


# ---- types, dtypes, Generator, frombuffer -------------------------------------------------------------------
def test_get_py_obj_dtype_matches_mindspore():
    case = CASES["get_py_obj_dtype"]
    objs = {"int": 1, "float": 1.0, "bool": True, "none": None, "list": [1], "tuple": (1,), "str": "a"}
    assert {k: str(ms.get_py_obj_dtype(v)) for k, v in objs.items()} == case.meta["strs"]
    assert str(ms.get_py_obj_dtype(ms.Tensor([1], ms.float32))) == case.meta["tensor"]


def test_type_objects():
    assert ms.Int(8) == ms.int8 and isinstance(ms.int32, ms.Int) and not isinstance(ms.float32, ms.Int)
    assert str(ms.TensorType(ms.float32)) == "Tensor[Float32]" and str(ms.tensor_type) == "Tensor"
    assert str(ms.type_none) == "None" and repr(ms.type_none) == "mindspore.type_none"
    assert ms.QuantDtype.INT8.value() == 7 and ms.QuantDtype.UINT4.num_bits() == 4


def test_float8_dtypes():
    import ml_dtypes
    t = ms.Tensor(np.array([0.5, 448.0, 1000.0], np.float32), ms.float8_e4m3fn)
    assert t.dtype == ms.float8_e4m3fn and str(t.dtype) == "Float8E4M3FN"
    np.testing.assert_array_equal(t.asnumpy().astype(np.float32),
                                  np.array([0.5, 448.0, 1000.0], np.float32).astype(ml_dtypes.float8_e4m3fn)
                                  .astype(np.float32))
    assert ops.cast(t, ms.float32).dtype == ms.float32
    assert str(ms.float8_e5m2) == "Float8E5M2" and repr(ms.float8_e4m3fn) == "mindspore.float8_e4m3fn"


def test_frombuffer_matches_mindspore():
    case = CASES["frombuffer/f32"]
    out = ms.frombuffer(case.inputs["buf"].tobytes(), ms.float32)
    assert_close(out, case.outputs[0])
    with pytest.raises(ValueError, match="frombuffer"):
        ms.frombuffer(b"\x00\x01\x02", ms.float32)


def test_generator_state_matches_mindspore():
    g = ms.Generator().manual_seed(300)
    assert_close(g.get_state(), CASES["Generator/state"].outputs[0])
    k1 = g.next_key()
    assert not np.array_equal(np.asarray(k1), np.asarray(g.next_key()))
    state = g.get_state()
    assert state.asnumpy()[8] == 2  # the offset counts the draws
    h = ms.Generator().set_state(state)
    np.testing.assert_array_equal(np.asarray(h.next_key()), np.asarray(g.next_key()))
    ms.manual_seed(7)
    assert ms.default_generator.initial_seed() == 7
    ms.default_generator.manual_seed(9)
    assert ms.get_seed() == 9


def test_swap_tensors_and_run_check(capsys):
    a, b = ms.Tensor([1.0, 2.0]), ms.Tensor([3, 4, 5])
    ms.swap_tensors(a, b)
    assert a.asnumpy().tolist() == [3, 4, 5] and b.asnumpy().tolist() == [1.0, 2.0]
    ms.run_check()
    target = ms.get_context("device_target")
    assert f"installed on platform [{target}] successfully!" in capsys.readouterr().out


# ---- data sinking and recompute -----------------------------------------------------------------------------
def _dataset():
    data = {"x": np.arange(4, dtype=np.float32).reshape(4, 1), "y": np.ones((4, 1), np.float32)}
    return ms.dataset.NumpySlicesDataset(data, shuffle=False)


def test_data_sink_runs_sink_size_batches_per_call():
    seen = []

    def step(x, y):
        seen.append(float(x.asnumpy()[0]))
        return x + y

    sink = ms.data_sink(step, _dataset(), sink_size=3)
    assert float(sink().asnumpy()[0]) == 3.0
    assert float(sink().asnumpy()[0]) == 2.0  # batches 3, 0, 1: the dataset repeats; the last is 1 + 1
    assert seen == [0.0, 1.0, 2.0, 3.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="sink_size"):
        ms.data_sink(step, _dataset(), sink_size=0)


def test_dataset_helper_and_connect_network():
    net = nn.Dense(1, 1)
    helper = ms.DatasetHelper(_dataset(), dataset_sink_mode=False, epoch_num=2)
    batches = list(helper)
    assert len(batches) == len(helper) == 8 and isinstance(batches[0][0], ms.Tensor)
    assert ms.connect_network_with_dataset(net, helper) is net
    sink = ms.DatasetHelper(_dataset(), sink_size=2)
    assert len(sink) == 2 and list(sink) == [(), ()]
    loss_net = nn.WithLossCell(net, nn.MSELoss())
    fed = ms.connect_network_with_dataset(loss_net, sink)
    out = fed()  # two steps, on batches 0 and 1: the output is batch 1's loss
    want = loss_net(ms.Tensor([[1.0]]), ms.Tensor([[1.0]]))
    np.testing.assert_allclose(out.asnumpy(), want.asnumpy(), rtol=1e-6)


def test_recompute_gives_same_gradients():
    net = nn.Dense(3, 2)
    x = ms.Tensor(np.ones((2, 3), np.float32))

    def plain(x):
        return ops.tanh(net(x)).sum()

    def recomputed(x):
        return ms.recompute(lambda t: ops.tanh(net(t)), x).sum()

    g1 = ms.grad(plain, None, net.trainable_params())(x)
    g2 = ms.grad(recomputed, None, net.trainable_params())(x)
    for a, b in zip(g1, g2):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-6)


def test_log_level_and_recursion_limit(monkeypatch):
    import logging
    import sys
    logger = logging.getLogger("mindspore_hl")
    monkeypatch.setattr(logger, "level", logging.NOTSET)
    assert ms.get_level() == "2" and ms.get_log_config() == {"GLOG_v": "2", "GLOG_logtostderr": "1"}  # MindSpore's
    logger.setLevel(logging.INFO)
    assert ms.get_level() == "1"
    old = sys.getrecursionlimit()
    try:
        ms.set_recursion_limit(old + 500)
        assert sys.getrecursionlimit() == old + 500 and ms.get_context("max_call_depth") == old + 500
    finally:
        sys.setrecursionlimit(old)
    with pytest.raises(ValueError, match="recursion_limit"):
        ms.set_recursion_limit(0)


def test_shard_is_the_parallel_shard():
    assert ms.shard is ms.parallel.shard


_RECYCLE_PROBE = """
import numpy as np, jax
import mindspore_hl as ms
traces = []

@jax.jit
def f(x):
    traces.append(1)  # runs only when jit traces (and compiles) f again
    return x * 2

f(np.ones(2, np.float32))
f(np.ones(2, np.float32))
assert len(traces) == 1, traces
ms.ms_memory_recycle()
f(np.ones(2, np.float32))
assert len(traces) == 2, traces
print("recompiled after recycle")
"""


def test_ms_memory_recycle_drops_compiled_executables():
    # In a fresh interpreter: ms_memory_recycle() clears every JAX cache of the process, which took ~10 s late in
    # the test run (thousands of cached executables) and made the tests after it compile again what they share.
    out = subprocess.run([sys.executable, "-c", _RECYCLE_PROBE], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "recompiled after recycle"


def test_row_tensor():
    r = ms.RowTensor(ms.Tensor([0, 2]), ms.Tensor(np.ones((2, 3), np.float32)), (5, 3))
    copy = ms.RowTensor(row_tensor=r)
    assert copy.dense_shape == (5, 3) and copy.values.shape == (2, 3)
    with pytest.raises(ValueError, match="RowTensor"):
        ms.RowTensor(ms.Tensor([0, 2]), ms.Tensor(np.ones((2, 4), np.float32)), (5, 3))
