"""``mindspore_hl.nn``: Cell, layers, losses, optimizers, learning-rate schedules and training wrappers."""
from .cell import Cell

__all__ = ["Cell"]
