"""device_context: the GPU TF32 switches (what each compiles to, on any backend) and the device queries.

On a CPU the two switches change no value (XLA:CPU computes float32 in full whatever the precision), so these
tests check the precision each op is compiled with; a GPU run of the oracle replays checks the values."""
import jax
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import ops
from mindspore_hl._engine import _state
from mindspore_hl.device_context import cpu, gpu
from mindspore_hl.device_context.gpu import op_precision


@pytest.fixture(autouse=True)
def _mindspore_defaults():
    """The defaults themselves (conftest keeps GPU convolutions in full float32 for the oracle replays)."""
    _state.reset()


def _hlo(fn, *arrays):
    return jax.jit(lambda *a: fn(*[ms.Tensor(x) for x in a])._value).lower(*arrays).as_text()


def _precisions(text, op):
    """The precisions the program's ``op`` instructions (convolution / dot_general) are compiled with."""
    lines = [line for line in text.splitlines() if f"stablehlo.{op}" in line]
    assert lines, f"no {op} in the program"
    return {p for line in lines for p in ("DEFAULT", "HIGHEST") if p in line}


A, B = np.ones((4, 8), np.float32), np.ones((8, 2), np.float32)
X, W3 = np.ones((2, 16, 8, 8), np.float32), np.ones((4, 16, 3, 3), np.float32)  # XLA's convolution
W1 = np.ones((4, 16, 1, 1), np.float32)  # a 1x1 convolution: a matrix product on the CPU, XLA's on a GPU
W1_OP = "dot_general" if jax.default_backend() == "cpu" else "convolution"


def _conv(x, w):
    return ops.conv2d(x, w)


def test_defaults_are_mindspores_full_float32_products_and_tf32_convolutions():
    assert _precisions(_hlo(ops.matmul, A, B), "dot_general") == {"HIGHEST"}
    assert _precisions(_hlo(_conv, X, W3), "convolution") == {"DEFAULT"}
    assert _precisions(_hlo(_conv, X, W1), W1_OP) == {"DEFAULT"}


def test_switches_change_what_is_compiled_and_reset_restores_them():
    op_precision.matmul_allow_tf32(True)
    op_precision.conv_allow_tf32(False)
    assert _precisions(_hlo(ops.matmul, A, B), "dot_general") == {"DEFAULT"}
    assert _precisions(_hlo(_conv, X, W3), "convolution") == {"HIGHEST"}
    assert _precisions(_hlo(_conv, X, W1), W1_OP) == {"HIGHEST"}
    layer = ms.nn.Conv3d(16, 4, 3, has_bias=False, weight_init="ones")
    assert _precisions(_hlo(layer, np.ones((1, 16, 4, 4, 4), np.float32)), "convolution") == {"HIGHEST"}
    _state.reset()
    assert _precisions(_hlo(ops.matmul, A, B), "dot_general") == {"HIGHEST"}


def test_a_change_recompiles_programs_compiled_before_it():
    traced = []

    @ms.jit
    def f(a, b):
        traced.append(1)
        return ops.matmul(a, b)

    a, b = ms.Tensor(A), ms.Tensor(B)
    f(a, b)
    first = len(traced)
    f(a, b)
    assert len(traced) == first  # cached
    op_precision.matmul_allow_tf32(True)
    np.testing.assert_allclose(f(a, b).asnumpy(), A @ B)
    assert len(traced) > first  # traced again under the new precision


@pytest.mark.parametrize("fn", [op_precision.matmul_allow_tf32, op_precision.conv_allow_tf32, gpu.matmul_allow_tf32])
def test_value_must_be_a_bool_with_mindspores_message(fn):
    # real MindSpore 2.10: TypeError "The parameter 'value' must be <class 'bool'>, but got <class 'int'>"
    with pytest.raises(TypeError, match=r"The parameter 'value' must be <class 'bool'>, but got <class 'int'>"):
        fn(1)


def test_device_queries():
    assert cpu.is_available() and cpu.device_count() == 1  # MindSpore counts the host as one CPU device
    has_gpu = any(d.platform == "gpu" for d in jax.devices())
    assert gpu.is_available() == has_gpu
    if has_gpu:
        assert gpu.device_count() == len(jax.devices("gpu"))
    else:  # real MindSpore's CPU build: RuntimeError "Device_target GPU not exist."
        with pytest.raises(RuntimeError, match="Device_target GPU not exist"):
            gpu.device_count()
