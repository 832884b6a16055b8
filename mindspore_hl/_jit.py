"""``ms.jit`` / ``ms.jit_class`` / ``ms.flops_collection`` and ``CompiledFunction``: defined in the engine
(``mindspore_hl._engine``).

Kept as the import path that ``mindspore.common.api``-style code and the optimizers use.
"""
from ._engine._compiled import CompiledFunction, jit, jit_class
from ._engine._flops import flops_collection
from ._engine._options import compiler_options
from ._engine._step import make_pure, signature, split_args

__all__ = ["jit", "jit_class", "flops_collection", "CompiledFunction", "compiler_options", "make_pure", "signature",
           "split_args"]
