"""Losses (``mindspore.nn`` losses): ``LossBase`` and the common losses, all subclassable."""
from ._base import LossBase
from ._losses import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
    SoftmaxCrossEntropyWithLogits,
)
from ._losses_distance import TripletMarginWithDistanceLoss
from ._losses_more import *  # noqa: F401,F403
from ._losses_more import __all__ as _more_all
from ._sampled_softmax import SampledSoftmaxLoss

__all__ = ["LossBase", "SoftmaxCrossEntropyWithLogits", "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss",
           "SmoothL1Loss", "HuberLoss", "BCELoss", "BCEWithLogitsLoss", "KLDivLoss"]
__all__ += _more_all + ["TripletMarginWithDistanceLoss", "SampledSoftmaxLoss"]
