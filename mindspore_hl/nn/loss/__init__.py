"""Losses (``mindspore.nn`` losses): ``LossBase`` and the common losses, all subclassable."""
from ._base import LossBase
from ._losses import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss, MSELoss, NLLLoss,
                      SmoothL1Loss, SoftmaxCrossEntropyWithLogits)

__all__ = ["LossBase", "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss",
           "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss"]
