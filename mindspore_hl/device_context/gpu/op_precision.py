"""Whether float32 matrix products and convolutions on GPUs may use TF32, as
``mindspore.device_context.gpu.op_precision``.

MindSpore's defaults, which are PyTorch's too: matrix products in full float32, convolutions allowed TF32 (about
1e-3 relative error, several times the speed on tensor cores). The CPU computes float32 in full either way.
Programs compiled before a change are recompiled at their next call.

>>> from mindspore_hl.device_context.gpu import op_precision
>>> op_precision.matmul_allow_tf32(True)   # faster float32 products on GPUs, as JAX's own default
>>> op_precision.matmul_allow_tf32(False)
"""
from __future__ import annotations

from ..._engine import _precision

__all__ = ["matmul_allow_tf32", "conv_allow_tf32"]


def _check(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"The parameter 'value' must be {bool}, but got {type(value)}")
    return value


def matmul_allow_tf32(value: bool) -> None:
    """Let float32 matrix products (MatMul, BatchMatMul, Dense, attention...) run in TF32 on GPUs.

    Args:
        value: True allows TF32; False (the default) keeps full float32.

    Raises:
        TypeError: ``value`` is not a bool.
    """
    _precision.set_matmul_allow_tf32(_check(value))


def conv_allow_tf32(value: bool) -> None:
    """Let float32 convolutions (and their gradients) run in TF32 on GPUs.

    Args:
        value: True (the default) allows TF32; False keeps full float32.

    Raises:
        TypeError: ``value`` is not a bool.
    """
    _precision.set_conv_allow_tf32(_check(value))
