"""MobileNetV2 (ModelZoo official/cv/MobileNetV2)."""
from .mobilenetV2 import (
                          ConvBNReLU,
                          GlobalAvgPooling,
                          InvertedResidual,
                          MobileNetV2Backbone,
                          MobileNetV2Combine,
                          MobileNetV2Head,
                          mobilenet_v2,
)

__all__ = ["ConvBNReLU", "GlobalAvgPooling", "InvertedResidual", "MobileNetV2Backbone", "MobileNetV2Combine",
           "MobileNetV2Head", "mobilenet_v2"]
