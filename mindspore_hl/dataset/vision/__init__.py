"""``mindspore_hl.dataset.vision``: image transforms, callable on NumPy images or usable in ``Dataset.map``."""
from ._affine import Affine, RandomAffine
from ._augment import RandAugment, TrivialAugmentWide
from ._auto_augment import AutoAugment, AutoAugmentPolicy
from ._bbox import RandomHorizontalFlipWithBBox, RandomResizeWithBBox, RandomVerticalFlipWithBBox, ResizeWithBBox
from ._bbox_crop import BoundingBoxAugment, RandomCropWithBBox, RandomResizedCropWithBBox
from ._color import (
                     AdjustBrightness,
                     AdjustContrast,
                     AdjustGamma,
                     AdjustSaturation,
                     AdjustSharpness,
                     AutoContrast,
                     ConvertColor,
                     ConvertMode,
                     Equalize,
                     HorizontalFlip,
                     Invert,
                     Posterize,
                     Solarize,
                     VerticalFlip,
)
from ._geometry import Crop, Erase, GaussianBlur, PadToSize, ResizedCrop, Rotate, SliceMode, SlicePatches
from ._hue import AdjustHue
from ._misc import (
                     HsvToRgb,
                     ImageReadMode,
                     LinearTransformation,
                     NormalizePad,
                     RgbToHsv,
                     ToNumpy,
                     ToPIL,
                     ToType,
                     encode_jpeg,
                     encode_png,
                     get_image_num_channels,
                     get_image_size,
                     read_file,
                     read_image,
                     write_file,
                     write_jpeg,
                     write_png,
)
from ._more2 import FiveCrop, Grayscale, MixUp, TenCrop
from ._ops import HWC2CHW, CenterCrop, Decode, Normalize, Pad, Rescale, Resize, ToTensor
from ._perspective import Perspective, RandomPerspective
from ._random_color import (
                     CutMixBatch,
                     CutOut,
                     MixUpBatch,
                     RandomAdjustSharpness,
                     RandomAutoContrast,
                     RandomColor,
                     RandomColorAdjust,
                     RandomEqualize,
                     RandomErasing,
                     RandomGrayscale,
                     RandomInvert,
                     RandomLighting,
                     RandomPosterize,
                     RandomResize,
                     RandomSelectSubpolicy,
                     RandomSharpness,
                     RandomSolarize,
                     UniformAugment,
)
from ._random_ops import (
                     RandomCrop,
                     RandomCropDecodeResize,
                     RandomHorizontalFlip,
                     RandomResizedCrop,
                     RandomRotation,
                     RandomVerticalFlip,
)
from ._utils import Border, ImageBatchFormat, Inter

__all__ = ["FiveCrop", "TenCrop", "Grayscale", "MixUp", "RandomCropWithBBox", "RandomResizedCropWithBBox",
           "BoundingBoxAugment",
           "Inter", "Border", "ImageBatchFormat", "Decode", "Resize", "Rescale", "Normalize", "HWC2CHW",
           "CenterCrop", "ToTensor", "Pad", "RandomCrop", "RandomHorizontalFlip", "RandomVerticalFlip",
           "RandomResizedCrop", "RandomCropDecodeResize", "RandomRotation",
           "HorizontalFlip", "VerticalFlip", "Invert", "Posterize", "Solarize", "Equalize", "AutoContrast",
           "AdjustBrightness", "AdjustContrast", "AdjustSaturation", "AdjustGamma", "AdjustSharpness",
           "ConvertColor", "ConvertMode", "Crop", "Erase", "ResizedCrop", "PadToSize", "SlicePatches", "SliceMode",
           "Rotate", "GaussianBlur", "RandomColorAdjust", "RandomInvert", "RandomEqualize", "RandomAutoContrast",
           "RandomAdjustSharpness", "RandomPosterize", "RandomSolarize", "RandomSharpness", "RandomColor",
           "RandomGrayscale", "RandomErasing", "CutOut", "MixUpBatch", "CutMixBatch", "RandomLighting",
           "RandomResize", "UniformAugment", "RandomSelectSubpolicy", "ToType", "ToNumpy", "NormalizePad",
           "LinearTransformation", "ImageReadMode", "get_image_num_channels", "get_image_size", "read_file",
           "write_file", "read_image", "encode_png", "encode_jpeg", "write_png", "write_jpeg", "RgbToHsv", "HsvToRgb",
           "ToPIL", "RandomHorizontalFlipWithBBox", "RandomVerticalFlipWithBBox", "ResizeWithBBox",
           "RandomResizeWithBBox", "Affine", "RandomAffine", "RandAugment", "TrivialAugmentWide",
           "AdjustHue", "Perspective", "RandomPerspective", "AutoAugment", "AutoAugmentPolicy"]
