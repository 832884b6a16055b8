"""Legacy path ``mindspore.dataset.vision.utils`` (``from mindspore.dataset.vision.utils import Inter``)."""
from ._utils import Border, ImageBatchFormat, Inter

__all__ = ["Inter", "Border", "ImageBatchFormat"]
