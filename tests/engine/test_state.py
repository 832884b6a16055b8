"""The engine's global state (one module, ``reset()``), its one compile rule, and one-way step placement."""
import threading
import warnings

import jax
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn, parallel
from mindspore_hl._engine import _mode, _scope, _state
from mindspore_hl.parallel import ParallelMode


@pytest.mark.devices(4)
def test_reset_restores_every_setting():
    ms.set_context(mode=ms.GRAPH_MODE, max_call_depth=77)
    ms.set_seed(5)
    parallel.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, device_num=4, gradients_mean=True)
    parallel._context.mesh()
    _state.op_overrides["relu"] = lambda x: x
    net = nn.Dense(2, 2)
    net(ms.Tensor(np.ones((4, 2), np.float32)))
    assert net._compiled._cache and _state.meshes
    _state.reset()
    assert ms.get_context("mode") == ms.PYNATIVE_MODE and ms.get_context("max_call_depth") == 1000
    assert ms.get_seed() is None
    assert parallel.get_auto_parallel_context("parallel_mode") == ParallelMode.STAND_ALONE
    assert parallel.get_auto_parallel_context("device_num") == 1 and not parallel._context._device_num_set[0]
    assert not _state.op_overrides and not _state.meshes
    assert not net._compiled._cache  # compiled steps built under the old settings are dropped


def test_scope_stack_is_per_thread():
    seen = []
    with _scope.StatelessScope():
        assert _mode.tracing()
        t = threading.Thread(target=lambda: seen.append((_mode.tracing(), _scope.current())))
        t.start()
        t.join()
    assert seen == [(False, None)] and not _mode.tracing()


def test_should_compile_is_the_one_rule():
    x = ms.Tensor(np.ones((2,), np.float32))
    assert not _mode.should_compile((x,))  # PYNATIVE
    ms.set_context(mode=ms.GRAPH_MODE)
    assert _mode.should_compile((x,))
    with _scope.StatelessScope():
        assert not _mode.should_compile((x,))  # inside a trace: traced through
    seen = []
    jax.jit(lambda a: (seen.append(_mode.should_compile((ms.Tensor(a),))), a)[1])(np.float32(1))
    assert seen == [False]  # a foreign tracer: never compiled (nor written back) by the engine


@pytest.mark.devices(8)
def test_inner_jit_call_of_an_eager_parallel_step_splits_nothing():
    parallel.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, device_num=8)
    w = ms.Parameter(ms.Tensor(np.zeros((3,), np.float32)), name="w")  # 3: not a multiple of 8

    @ms.jit
    def update(g):
        w.set_data(w - g)
        return w + 0

    class Step(nn.Cell):
        def construct(self, x):
            return update(x.mean(0))  # an inner call: its (3,) input is not a batch

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Step()(ms.Tensor(np.ones((8, 3), np.float32)))
    np.testing.assert_allclose(w.asnumpy(), -np.ones(3, np.float32))
    assert w._data.sharding.is_fully_replicated and len(w._data.sharding.device_set) == 8
