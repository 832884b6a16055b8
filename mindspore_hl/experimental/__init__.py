"""``mindspore.experimental``: PyTorch-style optimizers (``experimental.optim``)."""
from . import optim  # noqa: F401

__all__ = ["optim"]
