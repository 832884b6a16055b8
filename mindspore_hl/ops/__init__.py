"""``mindspore_hl.ops``: functional ops, Primitive classes, control flow and autodiff.

Functional ops take and return Tensors; each is a pure function over JAX arrays underneath, so the same
op runs eagerly (PYNATIVE) and inside compiled steps (GRAPH_MODE, ``ms.jit``, grad). The MindSpore module
paths ``ops.operations`` (P), ``ops.functional`` (F) and ``ops.composite`` (C) are registered in
``mindspore_hl._compat``.
"""
from ._autodiff import GradOperation, grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap
from ._array import *  # noqa: F401,F403
from ._array import __all__ as _array_all
from ._composite import HyperMap, Map, MultitypeFuncGraph, clip_by_global_norm
from ._control_flow import *  # noqa: F401,F403
from ._control_flow import __all__ as _cf_all
from ._creation import *  # noqa: F401,F403
from ._creation import __all__ as _creation_all
from ._custom import custom_bprop
from ._debug import print_, add_summary_listener, remove_summary_listener
from ._index import *  # noqa: F401,F403
from ._index import __all__ as _index_all
from ._linalg import *  # noqa: F401,F403
from ._linalg import __all__ as _linalg_all
from ._math import *  # noqa: F401,F403
from ._math import __all__ as _math_all
from ._nn import *  # noqa: F401,F403
from ._nn import __all__ as _nn_all
from ._reduce import *  # noqa: F401,F403
from ._reduce import __all__ as _reduce_all
from ._state import *  # noqa: F401,F403
from ._state import __all__ as _state_all
from ._primitives import *  # noqa: F401,F403
from ._primitives import __all__ as _prim_all
from ._primitives_nn import *  # noqa: F401,F403
from ._primitives_nn import __all__ as _prim_nn_all
from ._primitives_misc import *  # noqa: F401,F403
from ._primitives_misc import __all__ as _prim_misc_all

__all__ = (["GradOperation", "grad", "jacfwd", "jacrev", "jvp", "value_and_grad", "vjp", "vmap", "HyperMap", "Map",
            "MultitypeFuncGraph", "clip_by_global_norm", "custom_bprop", "print_", "add_summary_listener",
            "remove_summary_listener"]
           + _array_all + _index_all + _cf_all + _creation_all + _linalg_all + _math_all + _nn_all + _reduce_all + _state_all
           + _prim_all + _prim_nn_all + _prim_misc_all)
