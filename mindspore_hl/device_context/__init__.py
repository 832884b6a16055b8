"""Per-device settings and queries, as ``mindspore.device_context``: ``gpu`` (availability, device count, TF32
precision of float32 matrix products and convolutions) and ``cpu`` (availability, device count).

>>> import mindspore_hl as ms
>>> ms.device_context.cpu.is_available(), ms.device_context.cpu.device_count()
(True, 1)
"""
from . import cpu, gpu

__all__ = ["cpu", "gpu"]
