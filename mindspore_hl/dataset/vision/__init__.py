"""``mindspore_hl.dataset.vision``: image transforms, callable on NumPy images or usable in ``Dataset.map``."""
from ._utils import Inter, Border, ImageBatchFormat
from ._ops import Decode, Resize, Rescale, Normalize, HWC2CHW, CenterCrop, ToTensor, Pad
from ._color import (HorizontalFlip, VerticalFlip, Invert, Posterize, Solarize, Equalize, AutoContrast,
                     AdjustBrightness, AdjustContrast, AdjustSaturation, AdjustGamma, AdjustSharpness,
                     ConvertColor, ConvertMode)
from ._geometry import Crop, Erase, ResizedCrop, PadToSize, SlicePatches, SliceMode, Rotate, GaussianBlur
from ._random_color import (RandomColorAdjust, RandomInvert, RandomEqualize, RandomAutoContrast,
                            RandomAdjustSharpness, RandomPosterize, RandomSolarize, RandomSharpness, RandomColor,
                            RandomGrayscale, RandomErasing, CutOut, MixUpBatch, CutMixBatch, RandomLighting,
                            RandomResize, UniformAugment, RandomSelectSubpolicy)
from ._misc import (ToType, ToNumpy, NormalizePad, LinearTransformation, ImageReadMode, get_image_num_channels,
                    get_image_size, read_file, write_file, read_image, encode_png, encode_jpeg, write_png,
                    write_jpeg, RgbToHsv, HsvToRgb, ToPIL)
from ._affine import Affine, RandomAffine
from ._augment import RandAugment, TrivialAugmentWide
from ._bbox import RandomHorizontalFlipWithBBox, RandomVerticalFlipWithBBox, ResizeWithBBox, RandomResizeWithBBox
from ._random_ops import (RandomCrop, RandomHorizontalFlip, RandomVerticalFlip, RandomResizedCrop,
                          RandomCropDecodeResize, RandomRotation)

__all__ = ["Inter", "Border", "ImageBatchFormat", "Decode", "Resize", "Rescale", "Normalize", "HWC2CHW",
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
           "RandomResizeWithBBox", "Affine", "RandomAffine", "RandAugment", "TrivialAugmentWide"]
