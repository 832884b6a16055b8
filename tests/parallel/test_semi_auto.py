"""SEMI_AUTO_PARALLEL: Cell.shard / Parameter.sharding strategies as JAX shardings over a data x model mesh."""
import jax
import numpy as np
import pytest
from parallel_nets import mlp, train

import mindspore_hl as ms
from mindspore_hl import parallel
from mindspore_hl.parallel import ParallelMode

pytestmark = pytest.mark.usefixtures("graph")


def _spec(param):
    """The PartitionSpec of a parameter's array, padded to its rank (XLA drops trailing Nones)."""
    spec = tuple(param._data.sharding.spec)
    return spec + (None,) * (param._data.ndim - len(spec))


def _semi(mode=ParallelMode.SEMI_AUTO_PARALLEL, **kwargs):
    parallel.set_auto_parallel_context(parallel_mode=mode, device_num=8, **kwargs)


@pytest.mark.devices(8)
def test_cell_shard_splits_the_weight_over_the_model_axis_and_matches_single_device(mlp_reference):
    data, ref = mlp_reference
    _semi()
    net = mlp(hidden=64)
    assert net.fc2.shard(in_strategy=((4, 1),), parameter_plan={"self.weight": (2, 1)}) is net.fc2
    net.fc1.shard(in_strategy=((4, 1),), out_strategy=((4, 2),))
    _, params, train_net = train(net, data)
    for k in ref:
        np.testing.assert_allclose(params[k], ref[k], rtol=1e-4, atol=1e-6, err_msg=k)
    w = net.fc2.weight._data
    assert dict(w.sharding.mesh.shape) == {"data": 4, "model": 2}
    assert _spec(net.fc2.weight) == ("model", None)
    assert {s.data.shape for s in w.addressable_shards} == {(32, 64)}  # each device holds half the rows
    slot = next(p for p in train_net.optimizer.moments if p.name == "moments.fc2.weight")
    assert _spec(slot) == ("model", None)  # the optimizer slot follows its weight
    assert net.fc1.weight._data.sharding.is_fully_replicated
    assert len(train_net._compiled._cache) == 1
    # Another step on the sharded state compiles nothing (XLA reports each backend compile to jax.monitoring).
    compiles = []
    counting = [True]
    jax.monitoring.register_event_duration_secs_listener(
        lambda event, _secs, **_kw: counting[0] and event.endswith("backend_compile_duration") and
        compiles.append(event))
    x, y = data[0]
    train_net(ms.Tensor(x), ms.Tensor(y)).asnumpy()
    counting[0] = False
    assert compiles == []


@pytest.mark.devices(8)
def test_parameter_sharding_hint_and_hybrid_mode(mlp_reference):
    data, ref = mlp_reference
    # HYBRID installs MindSpore's gradient reducer: with gradients_mean=True it matches one device's mean loss.
    _semi(ParallelMode.HYBRID_PARALLEL, gradients_mean=True)
    net = mlp(hidden=64)
    net.fc2.weight.sharding = (1, 4)  # split the input dimension in 4: mesh 2 x 4
    _, params, _ = train(net, data)
    assert dict(net.fc2.weight._data.sharding.mesh.shape) == {"data": 2, "model": 4}
    assert _spec(net.fc2.weight) == (None, "model")
    for k in ref:
        np.testing.assert_allclose(params[k], ref[k], rtol=1e-4, atol=1e-6, err_msg=k)


@pytest.mark.devices(8)
def test_data_parallel_ignores_strategies():
    parallel.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, device_num=8)
    net = mlp(hidden=16)
    net.fc2.shard(in_strategy=((8, 1),), parameter_plan={"weight": (2, 1)})
    net(ms.Tensor(np.ones((8, 64), np.float32)))
    assert net.fc2.weight._data.sharding.is_fully_replicated


def test_shard_argument_errors():
    net = mlp(hidden=16)
    with pytest.raises(TypeError, match="in_strategy must be a tuple"):
        net.fc2.shard(in_strategy=[(2, 1)])
    with pytest.raises(TypeError, match="tuple of positive ints"):
        net.fc2.shard(in_strategy=((2, 0),))
    with pytest.raises(ValueError, match=r"not a parameter of this Cell.*\['bias', 'weight'\]"):
        net.fc2.shard(in_strategy=((2, 1),), parameter_plan={"wieght": (2, 1)})
    with pytest.raises(ValueError, match=r"has 1 entries, but the parameter has shape \(16, 16\)"):
        net.fc2.shard(in_strategy=((2, 1),), parameter_plan={"weight": (2,)})
    with pytest.raises(TypeError, match="fn must be a Cell"):
        parallel.shard(lambda x: x, ((2, 1),))


@pytest.mark.devices(8)
def test_strategy_that_does_not_fit_the_mesh_is_a_clear_error():
    _semi()
    net = mlp(hidden=48)
    net.fc2.shard(in_strategy=((1, 1),), parameter_plan={"weight": (3, 1)})
    with pytest.raises(ValueError, match="3 parts, which does not divide the 8 devices"):
        net(ms.Tensor(np.ones((8, 64), np.float32)))
    net2 = mlp(hidden=5)
    net2.fc2.weight.sharding = (2, 1)
    with pytest.raises(ValueError, match=r"Parameter 'fc2.weight': dimension of size 5 cannot be split in 2"):
        net2(ms.Tensor(np.ones((8, 64), np.float32)))


@pytest.mark.devices(8)
def test_in_strategy_mismatch_names_the_cell():
    _semi()
    net = mlp(hidden=16)
    net.fc2.weight.sharding = (2, 1)
    net.fc1.shard(in_strategy=((4, 1), (4, 1)))
    with pytest.raises(ValueError, match=r"Dense.shard in_strategy has 2 entries, but the Cell got 1"):
        net(ms.Tensor(np.ones((8, 64), np.float32)))
