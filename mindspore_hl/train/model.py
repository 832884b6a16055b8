"""Legacy path ``mindspore.train.model``."""
from ..model import Model

__all__ = ["Model"]
