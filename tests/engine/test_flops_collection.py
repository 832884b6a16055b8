"""``flops_collection`` and Cell phases, replayed from real MindSpore (tools/oracle/record_flops_collection.py).

Model FLOPs and phase names are compared with the oracle. Hardware FLOPs are XLA's count of the compiled
executable (MindSpore's is its own device count), so they are checked against ``cost_analysis()`` of the same
step's executable, not against the oracle.
"""
import gc
import re

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from tests.engine.flops_collection_nets import NETS, call, model_cell
from tests.oracle import case_params, load_cases

FIXTURE = "flops_collection.npz"
CASES = load_cases(FIXTURE)


@pytest.mark.parametrize("case", [p for p in case_params(FIXTURE)
                                  if p.values[0].name == "flops_collection" and not p.values[0].error])
def test_model_flops_and_phase_match_mindspore(case):
    ms.set_context(mode=ms.GRAPH_MODE)
    label = case.id.split("/")[1]
    cell = call(ms, nn, label) if label in NETS else model_cell(ms, nn, label == "model_eval")
    full_model, full_hw, shard_model, shard_hw, dynamic = ms.flops_collection(cell.current_phase)
    np.testing.assert_array_equal([full_model, shard_model], case.outputs[0])
    assert cell.current_phase.split(".")[0] == case.meta["prefix"]
    assert (cell.compiled, dynamic) == (case.meta["compiled"], case.meta["dynamic"])
    assert full_hw == shard_hw > 0  # one device: XLA's count of the one executable


def test_hardware_flops_are_xlas_count_of_the_executable():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(10, 5)
    x = ms.Tensor(np.ones((32, 10), np.float32))
    net(x)
    cost = net._compiled.lower(net.training, x).compile().cost_analysis()
    cost = cost[0] if isinstance(cost, (list, tuple)) else cost
    assert ms.flops_collection(net.current_phase)[3] == cost["flops"]


def test_phase_defaults_and_errors_match_mindspore():
    meta = CASES["Cell.phase/default"].meta
    fresh = nn.Dense(2, 2)
    assert (fresh.phase, fresh.compiled) == (meta["phase"], meta["compiled"])
    assert fresh.set_train(False).phase == meta["predict"]
    assert fresh.set_train(True).phase == meta["train"]
    with pytest.raises(TypeError, match=re.escape(CASES["Cell.phase/error"].meta["message"])):
        fresh.phase = 3
    with pytest.raises(RuntimeError):
        ms.flops_collection("train.0.0.0")
    with pytest.raises(TypeError, match="'phase' must be a str"):
        ms.flops_collection(3)
    assert CASES["flops_collection/error_unknown"].error == "RuntimeError"
    assert CASES["flops_collection/error_number"].error == "TypeError"


def test_phases_are_per_signature_and_forget_dead_cells():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(10, 5)
    net(ms.Tensor(np.ones((4, 10), np.float32)))
    first = net.current_phase
    net(ms.Tensor(np.ones((8, 10), np.float32)))
    assert net.current_phase != first and net.current_phase.endswith(".1")
    assert ms.flops_collection(first)[0] == 2 * 4 * 10 * 5
    assert ms.flops_collection(net.current_phase)[0] == 2 * 8 * 10 * 5
    net(ms.Tensor(np.ones((4, 10), np.float32)))
    assert net.current_phase == first
    del net
    gc.collect()
    with pytest.raises(RuntimeError, match="no longer exists"):
        ms.flops_collection(first)


def test_pynative_calls_compile_no_phase():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = nn.Dense(10, 5)
    net(ms.Tensor(np.ones((4, 10), np.float32)))
    assert not net.compiled and not hasattr(net, "current_phase")


def test_a_cell_called_and_trained_by_model_keeps_both_phases():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(10, 5)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params()))
    step(ms.Tensor(np.ones((2, 10), np.float32)), ms.Tensor(np.ones((2, 5), np.float32)))
    called = step.current_phase
    data = {"x": np.ones((8, 10), np.float32), "y": np.ones((8, 5), np.float32)}
    ms.train.Model(step).train(1, ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(4))
    assert step.current_phase != called
    # forward and weight gradient of the Dense (no input gradient), batches of 2 and of 4
    assert ms.flops_collection(called)[0] == 2 * 2 * 2 * 10 * 5
    assert ms.flops_collection(step.current_phase)[0] == 2 * 2 * 4 * 10 * 5
