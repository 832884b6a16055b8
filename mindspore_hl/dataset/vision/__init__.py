"""``mindspore_hl.dataset.vision``: image transforms, callable on NumPy images or usable in ``Dataset.map``."""
from ._utils import Inter, Border, ImageBatchFormat
from ._ops import Decode, Resize, Rescale, Normalize, HWC2CHW, CenterCrop, ToTensor, Pad
from ._random_ops import (RandomCrop, RandomHorizontalFlip, RandomVerticalFlip, RandomResizedCrop,
                          RandomCropDecodeResize, RandomRotation)

__all__ = ["Inter", "Border", "ImageBatchFormat", "Decode", "Resize", "Rescale", "Normalize", "HWC2CHW",
           "CenterCrop", "ToTensor", "Pad", "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip",
           "RandomResizedCrop", "RandomCropDecodeResize", "RandomRotation"]
