"""``mindspore_hl.dataset.transforms``: general transforms (type casts, composition, one-hot, slicing)."""
from ._base import TensorOperation
from ._ops import TypeCast, Compose, OneHot, RandomApply, RandomChoice, Fill, Slice
from ._more import Concatenate, Duplicate, Mask, Relational, PadEnd, RandomOrder, Unique

__all__ = ["TensorOperation", "TypeCast", "Compose", "OneHot", "RandomApply", "RandomChoice", "Fill", "Slice",
           "Concatenate", "Duplicate", "Mask", "Relational", "PadEnd", "RandomOrder", "Unique"]
