"""The CPU device context: ``is_available`` and ``device_count``, as ``mindspore.device_context.cpu``."""
from ._device import device_count, is_available

__all__ = ["device_count", "is_available"]
