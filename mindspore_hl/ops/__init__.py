"""``mindspore_hl.ops``: functional ops, Primitive classes and autodiff.

Functional ops take and return Tensors; each is a pure function over JAX arrays underneath, so the same
op runs eagerly (PYNATIVE) and inside compiled steps (GRAPH_MODE, ``ms.jit``, grad).
"""
from ._autodiff import GradOperation, grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap
from ._creation import *  # noqa: F401,F403
from ._creation import __all__ as _creation_all
from ._math import *  # noqa: F401,F403
from ._math import __all__ as _math_all
from ._nn import *  # noqa: F401,F403
from ._nn import __all__ as _nn_all

__all__ = ["GradOperation", "grad", "jacfwd", "jacrev", "jvp", "value_and_grad", "vjp", "vmap"] + \
    _creation_all + _math_all + _nn_all
