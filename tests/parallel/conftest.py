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
