"""AUTO_PARALLEL: a layout per layer chosen from XLA's compiled memory / cost analyses under a memory budget."""
import numpy as np
import pytest
from mindspore_hl.parallel._auto import communication_bytes
from parallel_nets import batches, mlp, train

import mindspore_hl as ms
from mindspore_hl import parallel
from mindspore_hl.parallel import ParallelMode

pytestmark = pytest.mark.usefixtures("graph")


def _auto(budget=None):
    parallel.set_auto_parallel_context(parallel_mode=ParallelMode.AUTO_PARALLEL, device_num=8)
    if budget is not None:
        ms.set_context(max_device_memory=budget)


def _close(a, b):
    for k in a:
        np.testing.assert_allclose(b[k], a[k], rtol=1e-4, atol=1e-6, err_msg=k)


@pytest.mark.slow
def test_model_over_the_budget_gets_a_sharded_strategy_that_trains_like_the_unsharded_one(capsys):
    data = batches(5, 64, shape=(64,), classes=16)
    _, ref, _ = train(mlp(hidden=1024), data)
    _auto("12MB")
    net = mlp(hidden=1024)
    _, params, _ = train(net, data)
    _close(ref, params)
    report = parallel.last_strategy()
    budget = 12 * 2 ** 20
    assert report.replicated_memory > budget  # data parallel alone does not fit one device's budget
    assert report.memory <= budget and report.mesh[1] > 1
    assert report.communication > 0 and report.flops > 0
    sharded = {name for name, spec in report.layouts.items() if "model" in spec}
    assert "fc2.weight" in sharded and "moments.fc2.weight" in sharded
    # The weight really lives split over the model axis: each device holds 1/model of it.
    w = net.fc2.weight._data
    assert {s.data.nbytes for s in w.addressable_shards} == {w.nbytes // report.mesh[1]}
    printed = capsys.readouterr().out
    assert "[mindspore_hl AUTO_PARALLEL]" in printed and "over budget" in printed
    assert f"chosen: mesh data={report.mesh[0]} x model={report.mesh[1]}" in printed
    assert "estimated per device and step: memory" in printed


@pytest.mark.devices(8)
def test_without_a_budget_data_parallel_is_chosen(capsys, mlp_reference):
    data, ref = mlp_reference
    _auto()
    net = mlp(hidden=64)
    _, params, _ = train(net, data)
    _close(ref, params)
    report = parallel.last_strategy()
    assert report.mesh == (8, 1) and report.layouts == {} and report.budget is None
    assert "chosen: data parallel (mesh data=8 x model=1)" in capsys.readouterr().out
    assert net.fc2.weight._data.sharding.is_fully_replicated


@pytest.mark.slow
def test_impossible_budget_is_a_clear_error():
    _auto("1KB")
    with pytest.raises(MemoryError, match=r"(?s)could not fit 'MLP' into the memory budget.*no candidate fits"):
        mlp(hidden=16)(ms.Tensor(np.ones((8, 64), np.float32)))


def test_communication_bytes_counts_collective_results():
    hlo = "\n".join([
        "  %all-reduce = f32[120,400]{1,0} all-reduce(f32[120,400]{1,0} %p), channel_id=1, to_apply=%add",
        "  %ag = (f32[8,16]{1,0}, bf16[4]{0}) all-gather(%a, %b), dimensions={0}",
        "  %ars = f32[2]{0} all-reduce-start(%c), to_apply=%add",
        "  %ard = f32[2]{0} all-reduce-done(%ars)",
        "  %add = f32[120,400]{1,0} add(%x, %y)",
        "  %cp = s32[] collective-permute(%i), source_target_pairs={{0,1}}",
    ])
    assert communication_bytes(hlo) == 120 * 400 * 4 + 8 * 16 * 4 + 4 * 2 + 2 * 4 + 4
