"""Model's compiled step loop (``StepRunner``): defined in ``mindspore_hl._engine._runner``."""
from .._engine._runner import StepRunner

__all__ = ["StepRunner"]
