"""The graph-syntax helpers of ``mindspore.ops`` against real MindSpore 2.10.

The cases live in tools/oracle/record_ops_graph_helpers.py (recorded there with real MindSpore, PYNATIVE where
its PyNative runs them, else GRAPH_MODE) and are replayed here eagerly: our helpers are their Python meaning, the
same in both modes. ``isconstant`` (a Tensor traced in a compiled step is not constant) and ``augassign_add`` (in
place only in a compiled step) differ by mode, so their GRAPH_MODE cases run compiled. ``move_to`` has no CPU
kernel in MindSpore: checked against NumPy.
"""
import importlib.util
import math
import os
import pathlib
import re

import jax
import numpy as np
import pytest
from oracle import assert_close, case_params

import mindspore_hl as ms
from mindspore_hl import ops, parallel

_PATH = pathlib.Path(__file__).resolve().parents[2] / "tools" / "oracle" / "record_ops_graph_helpers.py"
_spec = importlib.util.spec_from_file_location("record_ops_graph_helpers", _PATH)
corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)
corpus.bind(ms, ops)
FIXTURE = "ops_graph_helpers.npz"
CASES = [p for p in case_params(FIXTURE) if p.values[0].meta.get("case")]


def _same(got_spec, want_spec, got_arrays, want_arrays, where):
    assert got_spec.keys() == want_spec.keys(), f"{where}: {got_spec} != {want_spec}"
    if "t" in want_spec:
        assert_close(got_arrays[got_spec["t"]], want_arrays[want_spec["t"]], what=where)
    elif "v" in want_spec:
        assert got_spec["type"] == want_spec["type"], f"{where}: {got_spec} != {want_spec}"
        if isinstance(want_spec["v"], float):
            assert math.isclose(got_spec["v"], want_spec["v"], rel_tol=1e-6), where
        else:
            assert got_spec["v"] == want_spec["v"], f"{where}: {got_spec} != {want_spec}"
    elif "dict" in want_spec:
        assert [k for k, _ in got_spec["dict"]] == [k for k, _ in want_spec["dict"]], where
        for (k, g), (_, w) in zip(got_spec["dict"], want_spec["dict"]):
            _same(g, w, got_arrays, want_arrays, f"{where}[{k!r}]")
    elif "slice" in want_spec:
        assert got_spec == want_spec, where
    else:
        kind = next(iter(want_spec))
        assert len(got_spec[kind]) == len(want_spec[kind]), f"{where}: {got_spec} != {want_spec}"
        for i, (g, w) in enumerate(zip(got_spec[kind], want_spec[kind])):
            _same(g, w, got_arrays, want_arrays, f"{where}[{i}]")


@pytest.mark.parametrize("case", CASES)
def test_replay(case):
    fn = getattr(corpus, case.meta["case"])
    if case.meta["case"] == "g_isconstant":  # a traced Tensor is not constant: run it compiled
        ms.set_context(mode=ms.GRAPH_MODE)
        got = ms.jit(lambda x: ops.switch(ops.isconstant(x), x, -x))(corpus.make_input())
        np.testing.assert_array_equal(got.asnumpy(), -corpus.make_input().asnumpy())
        got = (ops.isconstant(corpus.make_input()), ops.isconstant(3))
        assert got == (True, True)  # eagerly, as MindSpore's PYNATIVE case records
        return
    if case.meta["case"] == "g_augassign_add":  # in place in a compiled step, not eagerly: run it compiled
        ms.set_context(mode=ms.GRAPH_MODE)
        fn = ms.jit(fn)
    arrays = []
    spec = corpus.flatten(fn(corpus.make_input()), arrays)
    _same(spec, case.meta["spec"], arrays, case.outputs, case.id)


def test_tensordump_writes_mindspore_file_names(tmp_path):
    case = next(p.values[0] for p in case_params(FIXTURE) if p.values[0].name == "ops.tensordump")
    ops.tensordump(str(tmp_path / "dump.npy"), corpus.make_input())
    ops.tensordump(str(tmp_path / "other"), ms.Tensor(np.array([4, 5], np.int32)))
    names = sorted(os.listdir(tmp_path))

    def pattern(name):
        return re.sub(r"_\d+\.npy$", "", name)
    assert [pattern(n) for n in names] == [pattern(n) for n in case.meta["files"]]
    for name, want in zip(names, case.outputs):
        assert_close(np.load(tmp_path / name), want)


def test_helpers_inside_a_compiled_step(tmp_path):
    ms.set_context(mode=ms.GRAPH_MODE)
    x = np.array([1.0, -2.0, 3.0], np.float32)

    @ms.jit
    def step(v, i):
        d = ops.make_dict(("a", "b"), (v, v * 2))
        first, rest = ops.ms_next(ops.tail((0, d["a"], d["b"])))
        w = v * 1
        ops.augassign_add(w, 1.0)              # in place on a traced Tensor
        chosen = ops.switch(v[0] > 0, first, rest[0])
        layer = ops.switch_layer(i, (ops.sin, ops.cos))(v)
        ops.tensordump(str(tmp_path / "in_graph"), v)
        return chosen, w, layer, ops.array_to_scalar(v[2])

    chosen, w, layer, scalar = step(ms.Tensor(x), ms.Tensor(1, ms.int32))
    np.testing.assert_array_equal(chosen.asnumpy(), x)
    np.testing.assert_array_equal(w.asnumpy(), x + 1)
    np.testing.assert_allclose(layer.asnumpy(), np.cos(x), rtol=1e-6)
    assert float(scalar.asnumpy()) == 3.0
    jax.effects_barrier()
    (dumped,) = os.listdir(tmp_path)
    assert re.fullmatch(r"in_graph_float32_\d+\.npy", dumped)
    np.testing.assert_array_equal(np.load(tmp_path / dumped), x)


@pytest.mark.devices(8)
def test_move_to_and_reshard():
    t = corpus.make_input()
    assert ops.array_to_scalar(ms.Tensor(np.float32(2.5))) == 2.5  # NumPy's .item(): no CPU kernel in MindSpore
    moved = ops.move_to(t, "CPU")
    assert moved is not t and list(moved._value.devices())[0].platform == "cpu"
    np.testing.assert_array_equal(moved.asnumpy(), t.asnumpy())  # NumPy truth: MindSpore has no CPU MoveTo
    with pytest.raises(ValueError, match="move_to.*'CPU' or 'Ascend'"):
        ops.move_to(t, "GPU")
    parallel.set_auto_parallel_context(parallel_mode=parallel.ParallelMode.SEMI_AUTO_PARALLEL, device_num=8)
    ms.set_context(mode=ms.GRAPH_MODE)
    x = np.arange(16, dtype=np.float32).reshape(8, 2)
    got = ms.jit(lambda v: ops.reshard(v * 2, (8, 1)) + 1)(ms.Tensor(x))
    np.testing.assert_array_equal(got.asnumpy(), x * 2 + 1)


def test_errors():
    with pytest.raises(TypeError, match="bool_and"):
        ops.bool_and(1.5, True)
    with pytest.raises(KeyError, match="dict_getitem"):
        ops.dict_getitem({"a": 1}, "b")
    with pytest.raises(ValueError, match="make_dict"):
        ops.make_dict(("a",), (1, 2))
    with pytest.raises(RuntimeError, match="get_grad"):
        ops.get_grad((0, ms.Tensor(1.0)), 3)
    with pytest.raises(TypeError, match="hastype"):
        ops.hastype(None, ms.type_none)
    with pytest.raises(ValueError, match="jet.*series"):
        ops.jet(ops.sin, corpus.make_input(), corpus.make_input())
