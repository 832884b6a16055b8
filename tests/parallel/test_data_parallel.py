"""DATA_PARALLEL on 8 virtual CPU devices: one SPMD step whose gradient all-reduce XLA inserts."""
import jax
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn, parallel
from mindspore_hl.parallel import ParallelMode, DistributedGradReducer

from parallel_nets import LeNet5, MLP, SoftmaxCE, SGDMomentum, batches, train

pytestmark = pytest.mark.usefixtures("graph")


def _dp(n=8, mean=True):
    parallel.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, gradients_mean=mean, device_num=n)


def _close(a, b, rtol=1e-4, atol=1e-6):
    for k in a:
        np.testing.assert_allclose(b[k], a[k], rtol=rtol, atol=atol, err_msg=k)


def test_lenet5_20_steps_match_single_device_and_step_all_reduces():
    assert len(jax.devices()) == 8
    data = batches(20, 16)
    losses0, params0, _ = train(LeNet5(), data)
    _dp()
    losses1, params1, train_net = train(LeNet5(), data, reducer=DistributedGradReducer)
    np.testing.assert_allclose(losses1, losses0, rtol=1e-5)
    _close(params0, params1)
    # The parameters live replicated on the 8-device mesh, and the compiled step reduces gradients.
    w = train_net.network.backbone_network.fc1.weight._data
    assert len(w.sharding.device_set) == 8 and w.sharding.is_fully_replicated
    x, y = data[0]
    hlo = train_net.lower(ms.Tensor(x), ms.Tensor(y)).compile().as_text()
    assert "all-reduce(" in hlo
    # Parameters changed: a training run, not a no-op.
    assert not np.allclose(params1["fc1.weight"], LeNet5().fc1.weight.asnumpy())


def test_reducer_is_not_double_counting_and_sum_mode_scales_by_degree():
    data = batches(3, 16, shape=(64,), classes=16)
    _, ref, _ = train(MLP(hidden=32), data, lr=0.05)
    _, ref8, _ = train(MLP(hidden=32), data, lr=0.05 * 8)
    _dp(mean=True)
    _, no_reducer, _ = train(MLP(hidden=32), data, lr=0.05)
    _, mean_reducer, _ = train(MLP(hidden=32), data, lr=0.05, reducer=DistributedGradReducer)
    _close(ref, no_reducer)
    _close(ref, mean_reducer)
    # gradients_mean=False: MindSpore sums the 8 per-device gradients of per-device mean losses.
    _dp(mean=False)
    _, summed, _ = train(MLP(hidden=32), data, lr=0.05, reducer=DistributedGradReducer)
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


def test_stand_alone_builds_no_plan_and_changing_mode_recompiles():
    net = MLP(hidden=8)
    x = ms.Tensor(np.ones((8, 64), np.float32))
    out0 = net(x).asnumpy()
    (entry,) = net._compiled._cache.values()
    assert entry.plan is None and entry.place is None
    _dp()
    out1 = net(x)
    (entry,) = net._compiled._cache.values()
    assert entry.plan is not None and entry.plan.data == 8
    assert len(out1._value.sharding.device_set) == 8
    np.testing.assert_allclose(out1.asnumpy(), out0, rtol=1e-6)
    parallel.reset_auto_parallel_context()
    assert not net._compiled._cache


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


def test_indivisible_batch_is_replicated_with_a_warning():
    _dp()
    net = MLP(hidden=8)
    x = np.ones((6, 64), np.float32)
    with pytest.warns(UserWarning, match="not split over the 8 data-parallel devices"):
        out = net(ms.Tensor(x))
    parallel.reset_auto_parallel_context()
    np.testing.assert_allclose(out.asnumpy(), net(ms.Tensor(x)).asnumpy(), rtol=1e-6)


def test_device_num_subset_and_too_many_devices():
    _dp(n=4)
    data = batches(2, 8, shape=(64,), classes=16)
    _, params, train_net = train(MLP(hidden=16), data)
    assert len(train_net.network.backbone_network.fc1.weight._data.sharding.device_set) == 4
    parallel.set_auto_parallel_context(device_num=16)
    with pytest.raises(ValueError, match="device_num=16, but only 8 device"):
        MLP(hidden=8)(ms.Tensor(np.ones((8, 64), np.float32)))
