"""Legacy path ``mindspore.train.loss_scale_manager``."""
from ..amp import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager

__all__ = ["LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager"]
