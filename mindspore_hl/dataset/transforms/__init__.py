"""``mindspore_hl.dataset.transforms``: general transforms (type casts, composition, one-hot, slicing)."""
from ._base import TensorOperation
from ._ops import TypeCast, Compose, OneHot, RandomApply, RandomChoice, Fill, Slice

__all__ = ["TensorOperation", "TypeCast", "Compose", "OneHot", "RandomApply", "RandomChoice", "Fill", "Slice"]
