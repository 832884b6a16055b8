"""AlexNet (ModelZoo official/cv/AlexNet)."""
from .alexnet import AlexNet, DataNormTranspose, conv, fc_with_initialize

__all__ = ["AlexNet", "DataNormTranspose", "conv", "fc_with_initialize"]
