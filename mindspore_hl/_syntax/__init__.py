"""MindSpore's static-graph syntax on JAX: a source transformation of ``construct`` and ``@jit`` functions.

``convert(fn)`` rewrites Python ``if``/``elif``/``else``, ``while``, ``for``, ``break``/``continue``, ``return``
inside blocks, ``and``/``or``/``not`` and conditional expressions so that, while the function is traced for
GRAPH_MODE, conditions on Tensor values become ``lax.cond`` / ``lax.while_loop`` / ``lax.scan`` (conditions on
Python values still run as Python). Parameters assigned inside converted blocks (``param.set_data``) and random
keys are threaded through the active StatelessScope. Reverse-mode gradients work through ``if`` and through loops
with a static trip count; a ``while`` (or ``for`` over ``range(Tensor)``) on a traced condition runs forward only,
and differentiating it raises an error naming its line.
"""
from ._analysis import GraphSyntaxError
from ._convert import convert, is_converted

__all__ = ["convert", "is_converted", "GraphSyntaxError"]
