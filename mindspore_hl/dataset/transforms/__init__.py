"""``mindspore_hl.dataset.transforms``: general transforms (type casts, composition, one-hot, slicing)."""
from ._base import TensorOperation
from ._more import Concatenate, Duplicate, Mask, PadEnd, RandomOrder, Relational, Unique
from ._ops import Compose, Fill, OneHot, RandomApply, RandomChoice, Slice, TypeCast

__all__ = ["TensorOperation", "TypeCast", "Compose", "OneHot", "RandomApply", "RandomChoice", "Fill", "Slice",
           "Concatenate", "Duplicate", "Mask", "Relational", "PadEnd", "RandomOrder", "Unique"]
