"""``mindspore.scipy``: SciPy-style functions over Tensors (``mindspore.scipy.linalg``)."""
from . import linalg

__all__ = ["linalg"]
