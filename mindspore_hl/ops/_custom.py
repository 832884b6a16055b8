"""Custom backward passes (``ops.custom_bprop``): defined in ``mindspore_hl._engine._custom``."""
from .._engine._custom import custom_bprop

__all__ = ["custom_bprop"]
