"""Legacy path ``mindspore.dataset.vision.utils`` (``from mindspore.dataset.vision.utils import Inter``)."""
from ._utils import Inter, Border, ImageBatchFormat

__all__ = ["Inter", "Border", "ImageBatchFormat"]
