"""Every parallel test starts and ends in STAND_ALONE mode with no memory budget."""
import pytest

import mindspore_hl as ms
from mindspore_hl import context, parallel


@pytest.fixture(autouse=True)
def _reset_parallel():
    parallel.reset_auto_parallel_context()
    context._ctx.pop("max_device_memory", None)
    yield
    parallel.reset_auto_parallel_context()
    context._ctx.pop("max_device_memory", None)


@pytest.fixture
def graph():
    ms.set_context(mode=ms.GRAPH_MODE)


@pytest.fixture(scope="session")
def mlp_reference():
    """(data, {name: parameter}) of single-device GRAPH_MODE training of ``mlp(hidden=64)``: the truth the
    parallel runs of the same network on the same global batches are compared with."""
    from parallel_nets import batches, mlp, train
    previous = ms.get_context("mode")
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        data = batches(3, 16, shape=(64,), classes=16)
        _, params, _ = train(mlp(hidden=64), data)
    finally:
        ms.set_context(mode=previous)
    return data, params
