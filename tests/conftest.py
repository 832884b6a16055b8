"""Shared test setup: 8 virtual CPU devices (set before JAX is imported) and a clean context per test."""
import os
import pathlib

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

import jax  # noqa: E402
import pytest  # noqa: E402

pytest_plugins = ["training_fixtures"]  # batches / model_factory / batch_factory for Model and callback tests

import mindspore_hl as ms  # noqa: E402
from mindspore_hl._engine import _state  # noqa: E402
from mindspore_hl.device_context.gpu import op_precision  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent
# Files written by real MindSpore 2.10 (tests/fixtures/mindspore/README.md says how each was made).
FIXTURES = HERE / "fixtures" / "mindspore"
# The real MNIST files the package bundles for its main job.
DATASETS = HERE.parent / "model_zoo" / "data"


@pytest.fixture(autouse=True)
def _reset_context():
    """Every test starts from the default global state (PYNATIVE_MODE, STAND_ALONE, no device overrides...) with
    seed 0, and leaves it so: ``_state.reset()`` restores every global setting at once."""
    _state.reset()
    if _ON_GPU:  # the oracle fixtures hold MindSpore's CPU results, whose convolutions are full float32
        op_precision.conv_allow_tf32(False)
    ms.set_seed(0)
    yield
    _state.reset()


_ON_GPU = jax.default_backend() == "gpu"


@pytest.fixture(params=[ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def mode(request):
    """Run a test in both execution modes."""
    ms.set_context(mode=request.param)
    return request.param


@pytest.fixture(scope="session")
def fixtures_dir():
    if not FIXTURES.exists():
        pytest.skip(f"real-MindSpore fixtures not found at {FIXTURES}")
    return FIXTURES


@pytest.fixture
def datasets_dir():
    if not DATASETS.exists():
        pytest.skip(f"datasets not found at {DATASETS}")
    return DATASETS


_SLOW_LIST = pathlib.Path(__file__).parent / "slow_tests.txt"
_SLOW_IDS = frozenset(line.strip() for line in _SLOW_LIST.read_text().splitlines()
                      if line.strip() and not line.startswith("#"))


@pytest.hookimpl(tryfirst=True)  # before -m deselects by mark
def pytest_collection_modifyitems(config, items):
    """Mark the measured-slow tests of ``tests/slow_tests.txt`` ``slow`` (parametrized cases included), and skip
    the tests marked ``devices(n)`` where JAX has fewer devices (one GPU instead of 8 virtual CPU devices), and
    those marked ``host_cpu`` where JAX computes on another platform."""
    available = jax.device_count()
    backend = jax.default_backend()
    on_cpu = backend == "cpu"
    for item in items:
        if item.nodeid in _SLOW_IDS:
            item.add_marker(pytest.mark.slow)
        needed = item.get_closest_marker("devices")
        if needed is not None and available < needed.args[0]:
            item.add_marker(pytest.mark.skip(reason=f"needs {needed.args[0]} devices, JAX has {available}"))
        if not on_cpu and item.get_closest_marker("host_cpu") is not None:
            item.add_marker(pytest.mark.skip(reason=f"checks the CPU platform; JAX computes on {backend}"))
