"""The GPU device context, as ``mindspore.device_context.gpu``: ``is_available`` / ``device_count`` and, in
``op_precision``, whether float32 matrix products and convolutions may use TF32."""
from . import op_precision
from ._device import device_count, is_available
from .op_precision import conv_allow_tf32, matmul_allow_tf32

__all__ = ["device_count", "is_available", "op_precision", "matmul_allow_tf32", "conv_allow_tf32"]
