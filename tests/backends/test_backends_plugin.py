"""The backend plug-in seam: a real distribution registering a target under ``mindspore_hl.backends``."""
import sys
import textwrap

import jax
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor, backends, ops

PLUGIN = '''
"""A test plug-in: target 'TestNPU' on the CPU platform, with an override of the 'add' op."""
import jax.numpy as jnp
from mindspore_hl.backends import Backend

CALLS = []


def _add(input, other, *, alpha=1):
    CALLS.append("add")
    return jnp.add(input, other if alpha == 1 else other * alpha)


def make_backend():
    return Backend("TestNPU", platform="cpu", ops={"add": _add})
'''


def _install(tmp_path, name, module_src, entry_points):
    """Write a minimal installed distribution (module + *.dist-info) into ``tmp_path``."""
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(module_src))
    info = tmp_path / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[mindspore_hl.backends]\n" + entry_points)
    (info / "RECORD").write_text("")


@pytest.fixture
def plugin_path(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("ms_hl_test_plugin", None)
    sys.modules.pop("ms_hl_broken_plugin", None)
    monkeypatch.undo()
    backends.refresh()
    ms.set_device("CPU", 0)


def test_builtin_targets():
    assert {"CPU", "GPU"} <= set(backends.available_backends())
    cpu = backends.get_backend("cpu")
    assert cpu.name == "CPU" and cpu.platform == "cpu" and cpu.devices() == jax.devices("cpu")


def test_plugin_registers_a_new_target(plugin_path):
    with pytest.raises(ValueError, match=r"'TestNPU' is not available.*Installed targets: \['CPU', 'GPU'\]"):
        ms.set_device("TestNPU")
    _install(plugin_path, "ms_hl_test_plugin", PLUGIN, "TestNPU = ms_hl_test_plugin:make_backend\n")
    backends.refresh()
    assert "TestNPU" in backends.available_backends()
    ms.set_device("TestNPU", 2)
    assert ms.get_context("device_target") == "TestNPU" and ms.get_context("device_id") == 2
    plugin = sys.modules["ms_hl_test_plugin"]
    out = ops.add(Tensor([1.0, 2.0]), Tensor([3.0, 4.0]))
    assert out.tolist() == [4.0, 6.0] and plugin.CALLS == ["add"]  # the plug-in's kernel ran
    assert out._value.devices() == {jax.devices("cpu")[2]}
    ms.set_device("CPU")
    ops.add(Tensor([1.0]), Tensor([1.0]))
    assert plugin.CALLS == ["add"]  # overrides leave with their target


def test_broken_plugin_is_reported_not_fatal(plugin_path):
    _install(plugin_path, "ms_hl_broken_plugin", "raise ImportError('missing driver libascend.so')\n",
             "Ascend = ms_hl_broken_plugin:backend\n")
    backends.refresh()
    assert "CPU" in backends.available_backends() and "Ascend" not in backends.available_backends()
    with pytest.raises(ValueError, match="'Ascend' is not available.*missing driver libascend.so"):
        ms.set_device("Ascend")


def test_register_backend_at_run_time():
    try:
        backends.register_backend(backends.Backend("Mirror", "cpu"))
        ms.set_device("Mirror")
        assert ms.get_context("device_target") == "Mirror"
        np.testing.assert_array_equal((Tensor([1]) + 1).asnumpy(), [2])
    finally:
        backends.refresh()
        ms.set_device("CPU")
    with pytest.raises(TypeError, match="expects a Backend"):
        backends.register_backend("NPU")


def test_platform_without_devices_gives_install_hint():
    with pytest.raises(RuntimeError, match="found no 'nosuchplatform' devices"):
        backends.Backend("X", "nosuchplatform").devices()
