"""DATA_PARALLEL on 8 virtual CPU devices: one SPMD step whose gradient all-reduce XLA inserts."""
import jax
import numpy as np
import pytest
from parallel_nets import batches, lenet5, mlp, train

import mindspore_hl as ms
import mindspore_hl.dataset as ds
from mindspore_hl import nn, parallel
from mindspore_hl.model import Model
from mindspore_hl.parallel import DistributedGradReducer, ParallelMode

pytestmark = pytest.mark.usefixtures("graph")


def _dp(n=8, mean=True):
    parallel.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, gradients_mean=mean, device_num=n)


def _close(a, b, rtol=1e-4, atol=1e-6):
    for k in a:
        np.testing.assert_allclose(b[k], a[k], rtol=rtol, atol=atol, err_msg=k)


@pytest.mark.devices(8)
def test_mlp_data_parallel_matches_single_device(mlp_reference):
    data, params0 = mlp_reference
    _dp()
    _, params1, train_net = train(mlp(hidden=64), data, reducer=DistributedGradReducer)
    _close(params0, params1)
    # The parameters live replicated on the 8-device mesh, and the compiled step reduces the gradients.
    w = train_net.network.backbone_network.fc1.weight._data
    assert len(w.sharding.device_set) == 8 and w.sharding.is_fully_replicated
    x, y = data[0]
    # (the step's own CompiledFunction: lowering it again reuses the executable the training ran)
    hlo = train_net._compiled.lower(True, ms.Tensor(x), ms.Tensor(y)).compile().as_text()
    assert "all-reduce(" in hlo
    # A real training run: the parameters moved.
    assert not np.allclose(params1["fc1.weight"], mlp(hidden=64).fc1.weight.asnumpy())
    (entry,) = train_net._compiled._cache.values()
    assert entry.jitted._cache_size() == 1  # one compile for all the steps
    # Without any reducer the step's gradient is already the global-batch mean: the all-reduce is inside it.
    _, no_reducer, _ = train(mlp(hidden=64), data)
    _close(params0, no_reducer)


def _model_train(data, lr=0.01):
    """ModelZoo-style LeNet5 training with Model.train (the same code in every parallel mode)."""
    net = lenet5()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Momentum(net.trainable_params(), lr, 0.9))
    x = np.concatenate([b[0] for b in data])
    y = np.concatenate([b[1] for b in data])
    dataset = ds.NumpySlicesDataset((x, y), column_names=["image", "label"], shuffle=False).batch(len(data[0][0]))
    model.train(1, dataset)
    return {p.name: p.asnumpy() for p in net.trainable_params()}, model


@pytest.mark.slow
def test_lenet5_model_train_20_steps_matches_single_device_and_step_all_reduces():
    assert len(jax.devices()) == 8
    data = batches(20, 16)
    params0, _ = _model_train(data)
    _dp()
    params1, model = _model_train(data)
    _close(params0, params1)
    assert not np.allclose(params1["fc1.weight"], lenet5().fc1.weight.asnumpy())  # it trained
    train_net = model.train_network
    w = train_net.network.backbone_network.fc1.weight._data
    assert len(w.sharding.device_set) == 8 and w.sharding.is_fully_replicated
    (runner,) = model._runners.values()  # Model's compiled step, on the mesh
    (entry,) = runner._cache.values()
    assert entry.jitted._cache_size() == 1  # one compile for the 20 steps
    runner.pull()
    hlo = entry.lower(runner.state, runner.rng, list(data[0])).compile().as_text()
    runner.push()
    assert "all-reduce(" in hlo


@pytest.mark.devices(8)
def test_sum_mode_reducer_scales_by_degree():
    # gradients_mean=False: MindSpore sums the 8 per-device gradients of per-device mean losses, which is
    # 8x the mean gradient: the same run as single-device training with 8x the learning rate (momentum SGD).
    data = batches(3, 16, shape=(64,), classes=16)
    _, ref8, _ = train(mlp(hidden=32), data, lr=0.05 * 8)
    _dp(mean=False)
    _, summed, _ = train(mlp(hidden=32), data, lr=0.05, reducer=DistributedGradReducer)
    _close(ref8, summed)


def test_reducer_degree_and_arguments():
    g = (ms.Tensor(np.ones((2,), np.float32)),)
    p = [ms.Parameter(ms.Tensor(np.zeros((2,), np.float32)), name="p")]
    assert DistributedGradReducer(p, mean=False, degree=4)(g)[0].asnumpy().tolist() == [4.0, 4.0]
    assert DistributedGradReducer(p, mean=True, degree=4)(g)[0].asnumpy().tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="degree must be a positive int"):
        DistributedGradReducer(p, degree=0)
    with pytest.raises(ValueError, match="expected 1 gradients"):
        DistributedGradReducer(p, mean=True)(g + g)


@pytest.mark.devices(8)
def test_stand_alone_builds_no_plan_and_changing_mode_recompiles():
    net = mlp(hidden=8)
    x = ms.Tensor(np.ones((8, 64), np.float32))
    out0 = net(x).asnumpy()
    (entry,) = net._compiled._cache.values()
    assert entry.plan is None
    _dp()
    out1 = net(x)
    (entry,) = net._compiled._cache.values()
    assert entry.plan is not None and entry.plan.data == 8
    assert len(out1._value.sharding.device_set) == 8
    np.testing.assert_allclose(out1.asnumpy(), out0, rtol=1e-5, atol=1e-6)
    parallel.reset_auto_parallel_context()
    assert not net._compiled._cache


@pytest.mark.devices(8)
def test_ms_jit_function_runs_data_parallel():
    w = ms.Parameter(ms.Tensor(np.arange(4, dtype=np.float32)), name="w")

    @ms.jit
    def step(x):
        loss = (x * w).sum() / x.shape[0]
        w.set_data(w - 0.1 * x.mean(0))
        return loss

    x = np.arange(32, dtype=np.float32).reshape(8, 4)
    _dp()
    loss = step(ms.Tensor(x))
    np.testing.assert_allclose(float(loss.asnumpy()), (x * np.arange(4)).sum() / 8, rtol=1e-6)
    np.testing.assert_allclose(w.asnumpy(), np.arange(4) - 0.1 * x.mean(0), rtol=1e-6)


@pytest.mark.devices(8)
def test_indivisible_batch_is_replicated_with_a_warning():
    _dp()
    net = mlp(hidden=8)
    x = np.ones((6, 64), np.float32)
    with pytest.warns(UserWarning, match="not split over the 8 data-parallel devices"):
        out = net(ms.Tensor(x))
    parallel.reset_auto_parallel_context()
    np.testing.assert_allclose(out.asnumpy(), net(ms.Tensor(x)).asnumpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.devices(8)
def test_device_num_subset_and_too_many_devices():
    _dp(n=4)
    data = batches(2, 8, shape=(64,), classes=16)
    _, params, train_net = train(mlp(hidden=16), data)
    assert len(train_net.network.backbone_network.fc1.weight._data.sharding.device_set) == 4
    parallel.set_auto_parallel_context(device_num=16)
    with pytest.raises(ValueError, match="device_num=16, but only 8 device"):
        mlp(hidden=8)(ms.Tensor(np.ones((8, 64), np.float32)))


def test_default_grad_reducer_follows_the_mode():
    from mindspore_hl.parallel._grad_reducer import default_grad_reducer
    p = [ms.Parameter(ms.Tensor(np.zeros((2,), np.float32)), name="p")]
    assert default_grad_reducer(p) is None
    _dp(mean=False)
    reducer = default_grad_reducer(p)
    assert isinstance(reducer, DistributedGradReducer) and reducer.mean is False
    parallel.set_auto_parallel_context(parallel_mode=ParallelMode.SEMI_AUTO_PARALLEL)
    assert default_grad_reducer(p) is None
