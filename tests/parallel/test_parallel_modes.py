"""DATA_PARALLEL in both execution modes: Model.train (sink and not), TrainOneStepCell and a custom
value_and_grad loop on 8 virtual CPU devices give the single-device parameters (1e-5), without warnings.

Only a top-level step's batch is split; parameters and optimizer state stay replicated on the mesh; the
optimizer's own ``@jit`` update, called inside an eager (PYNATIVE) step, splits nothing."""
import warnings

import numpy as np
import pytest
from parallel_nets import MLP, batches, build, loss_fn, train

import mindspore_hl as ms
import mindspore_hl.dataset as ds
from mindspore_hl import nn, parallel
from mindspore_hl.model import Model
from mindspore_hl.parallel import ParallelMode

MODES = [pytest.param(ms.PYNATIVE_MODE, id="pynative"), pytest.param(ms.GRAPH_MODE, id="graph")]


def _net():
    return build(lambda: MLP(cin=12, hidden=24, cout=10))  # a bias of 10: not a multiple of 8


def _data():
    return batches(3, 16, shape=(12,), classes=10)


def _params(net):
    return {p.name: p.asnumpy() for p in net.trainable_params()}


def _close(ref, got):
    assert ref.keys() == got.keys()
    for k in ref:
        np.testing.assert_allclose(got[k], ref[k], rtol=1e-5, atol=1e-5, err_msg=k)


def _dp():
    parallel.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, gradients_mean=True, device_num=8)


def _model_train(mode, sink):
    ms.set_context(mode=mode)
    net = _net()
    model = Model(net, loss_fn(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    data = _data()
    x = np.concatenate([b[0] for b in data])
    y = np.concatenate([b[1] for b in data])
    dataset = ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(16)
    model.train(1, dataset, dataset_sink_mode=sink)
    return net


def _train_one_step(mode):
    ms.set_context(mode=mode)
    net = _net()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    step.set_train()
    for x, y in _data():
        step(ms.Tensor(x), ms.Tensor(y))
    return net


def _custom_loop(mode):
    ms.set_context(mode=mode)
    net = _net()
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    loss = loss_fn()

    def forward(x, y):
        return loss(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    for x, y in _data():
        _, grads = grad_fn(ms.Tensor(x), ms.Tensor(y))
        opt(grads)
    return net


def _run_both(run):
    reference = _params(run())
    _dp()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "not split" warning, nothing else either
        net = run()
    w = net.fc1.weight._data
    assert len(w.sharding.device_set) == 8 and w.sharding.is_fully_replicated
    return reference, _params(net)


@pytest.mark.devices(8)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sink", [False, True], ids=["steps", "sink"])
def test_model_train_data_parallel_equals_single_device(mode, sink):
    ref, got = _run_both(lambda: _model_train(mode, sink))
    _close(ref, got)
    assert not np.allclose(got["fc1.weight"], _params(_net())["fc1.weight"])  # it trained


@pytest.mark.devices(8)
@pytest.mark.parametrize("mode", MODES)
def test_train_one_step_cell_data_parallel_equals_single_device(mode):
    _close(*_run_both(lambda: _train_one_step(mode)))


@pytest.mark.devices(8)
@pytest.mark.parametrize("mode", MODES)
def test_custom_value_and_grad_loop_data_parallel_equals_single_device(mode):
    _close(*_run_both(lambda: _custom_loop(mode)))


@pytest.mark.devices(8)
def test_graph_mode_model_train_sinks_one_sharded_scan_per_epoch():
    _dp()
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _net()
    model = Model(net, loss_fn(), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    x, y = _data()[0]
    model.train(1, ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(8),
                dataset_sink_mode=True)
    (runner,) = model._runners.values()
    (key, entry), = runner._cache.items()
    assert key[0] is True and entry.plan is not None and entry.plan.data == 8  # a sink scan, on the mesh
    assert entry.plan.input_shardings[0].spec == ms.parallel._plan.P(None, "data")  # batches split on axis 1
    assert all(len(p._data.sharding.device_set) == 8 for p in net.trainable_params())


@pytest.mark.devices(8)
def test_eager_step_splits_the_batch_over_the_mesh():
    _dp()
    net = _net()
    out = net(ms.Tensor(np.ones((16, 12), np.float32)))
    assert len(out._value.sharding.device_set) == 8 and not out._value.sharding.is_fully_replicated


@pytest.mark.parametrize("mode", [ParallelMode.SEMI_AUTO_PARALLEL,
                                  pytest.param(ParallelMode.HYBRID_PARALLEL, marks=pytest.mark.slow)])
def test_pynative_semi_auto_and_hybrid_shard_the_weight_and_match_single_device(mode):
    data = batches(2, 16, shape=(64,), classes=16)
    _, ref, _ = train(build(lambda: MLP(hidden=32)), data)
    parallel.set_auto_parallel_context(parallel_mode=mode, device_num=8, gradients_mean=True)
    net = build(lambda: MLP(hidden=32))
    net.fc2.shard(in_strategy=((4, 1),), parameter_plan={"self.weight": (2, 1)})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, got, train_net = train(net, data)  # PYNATIVE: eager steps on the 4 x 2 mesh
    _close(ref, got)
    w = net.fc2.weight._data
    assert dict(w.sharding.mesh.shape) == {"data": 4, "model": 2}
    assert {s.data.shape for s in w.addressable_shards} == {(16, 32)}  # each device holds half the rows
    slot = next(p for p in train_net.optimizer.moments if p.name == "moments.fc2.weight")
    assert {s.data.shape for s in slot._data.addressable_shards} == {(16, 32)}  # the slot follows its weight
