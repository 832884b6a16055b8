"""Mixed precision (``mindspore.amp``): amp levels, loss-scale managers and scalers, ``all_finite``."""
from ._amp import auto_mixed_precision, build_train_network, get_black_list, get_white_list
from ._custom import custom_mixed_precision
from ._loss_scale import (
    DynamicLossScaleManager,
    DynamicLossScaler,
    FixedLossScaleManager,
    LossScaleManager,
    LossScaler,
    StaticLossScaler,
    all_finite,
)

__all__ = ["auto_mixed_precision", "custom_mixed_precision", "build_train_network", "get_white_list",
           "get_black_list", "LossScaleManager",
           "FixedLossScaleManager", "DynamicLossScaleManager", "LossScaler", "StaticLossScaler",
           "DynamicLossScaler", "all_finite"]
