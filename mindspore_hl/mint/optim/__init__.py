"""``mindspore.mint.optim``: PyTorch-style ``Adam``, ``AdamW``, ``FusedAdamW`` and ``SGD``."""
from ._optimizers import SGD, Adam, AdamW, FusedAdamW

__all__ = ["Adam", "AdamW", "FusedAdamW", "SGD"]
