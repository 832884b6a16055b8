"""``Model``: the high-level train / eval / predict / fit API (``mindspore.train.Model``)."""
from ._model import Model

__all__ = ["Model"]
