"""``mindspore_hl.ops``: functional ops, Primitive classes, control flow and autodiff.

Functional ops take and return Tensors; each is a pure function over JAX arrays underneath, so the same
op runs eagerly (PYNATIVE) and inside compiled steps (GRAPH_MODE, ``ms.jit``, grad). The MindSpore module
paths ``ops.operations`` (P), ``ops.functional`` (F) and ``ops.composite`` (C) are registered in
``mindspore_hl._compat``.
"""
from ..common.tensor import register as _register_tensor_impl
from . import _registry, _tensor_ops_ext  # noqa: F401  (_tensor_ops_ext: op-table entries of Tensor-only methods)
from ._array import *  # noqa: F401,F403
from ._array import __all__ as _array_all
from ._autodiff import GradOperation, grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap
from ._comm_primitives import *  # noqa: F401,F403
from ._comm_primitives import __all__ as _comm_all
from ._composite import HyperMap, Map, MultitypeFuncGraph, clip_by_global_norm
from ._control_flow import *  # noqa: F401,F403
from ._control_flow import __all__ as _cf_all
from ._creation import *  # noqa: F401,F403
from ._creation import __all__ as _creation_all
from ._custom import custom_bprop
from ._debug import add_summary_listener, print_, remove_summary_listener
from ._extra_math import *  # noqa: F401,F403
from ._extra_math import __all__ as _extra_math_all
from ._fft import *  # noqa: F401,F403
from ._fft import __all__ as _fft_all
from ._graph_helpers import *  # noqa: F401,F403
from ._graph_helpers import __all__ as _graph_helpers_all
from ._index import *  # noqa: F401,F403
from ._index import __all__ as _index_all
from ._linalg import *  # noqa: F401,F403
from ._linalg import __all__ as _linalg_all
from ._linalg import check_matmul as _check_matmul
from ._linalg_decomp import *  # noqa: F401,F403
from ._linalg_decomp import __all__ as _linalg_decomp_all
from ._math import *  # noqa: F401,F403
from ._math import __all__ as _math_all
from ._math_more import *  # noqa: F401,F403
from ._math_more import __all__ as _math_more_all
from ._nn import *  # noqa: F401,F403
from ._nn import __all__ as _nn_all
from ._nn_deformable import *  # noqa: F401,F403
from ._nn_deformable import __all__ as _nn_deformable_all
from ._nn_fractional import *  # noqa: F401,F403
from ._nn_fractional import __all__ as _nn_fractional_all
from ._nn_image import *  # noqa: F401,F403
from ._nn_image import __all__ as _nn_image_all
from ._nn_volume import *  # noqa: F401,F403
from ._nn_volume import __all__ as _nn_volume_all
from ._ops_more import *  # noqa: F401,F403  (the functions and Primitives beyond the core modules)
from ._ops_more import __all__ as _more_all
from ._optim_updates import *  # noqa: F401,F403
from ._optim_updates import __all__ as _optim_updates_all
from ._primitives import *  # noqa: F401,F403
from ._primitives import __all__ as _prim_all
from ._primitives_detect import CombinedNonMaxSuppression  # noqa: F401
from ._primitives_ext3 import *  # noqa: F401,F403
from ._primitives_ext3 import __all__ as _prim_ext3_all
from ._primitives_glimpse import ExtractGlimpse  # noqa: F401
from ._primitives_linalg import *  # noqa: F401,F403
from ._primitives_linalg import __all__ as _prim_linalg_all
from ._primitives_math import *  # noqa: F401,F403
from ._primitives_math import __all__ as _prim_math_all
from ._primitives_misc import *  # noqa: F401,F403
from ._primitives_misc import __all__ as _prim_misc_all
from ._primitives_more2 import *  # noqa: F401,F403
from ._primitives_more2 import __all__ as _prim_more2_all
from ._primitives_nn import *  # noqa: F401,F403
from ._primitives_nn import __all__ as _prim_nn_all
from ._primitives_nn2 import *  # noqa: F401,F403
from ._primitives_nn2 import __all__ as _prim_nn2_all
from ._primitives_random import *  # noqa: F401,F403
from ._primitives_random import __all__ as _prim_random_all
from ._primitives_resample import ScaleAndTranslate  # noqa: F401
from ._random_more import *  # noqa: F401,F403
from ._random_more import __all__ as _random_more_all
from ._reduce import *  # noqa: F401,F403
from ._reduce import __all__ as _reduce_all
from ._special import *  # noqa: F401,F403
from ._special import __all__ as _special_all
from ._state import *  # noqa: F401,F403
from ._state import __all__ as _state_all

__all__ = (["GradOperation", "grad", "jacfwd", "jacrev", "jvp", "value_and_grad", "vjp", "vmap", "HyperMap", "Map",
            "MultitypeFuncGraph", "clip_by_global_norm", "custom_bprop", "print_", "add_summary_listener",
            "remove_summary_listener"]
           + _array_all + _index_all + _cf_all + _creation_all + _linalg_all + _math_all + _nn_all + _reduce_all
           + _state_all           + _prim_all + _prim_nn_all + _prim_misc_all
           + _linalg_decomp_all + _fft_all + _special_all + _more_all + _extra_math_all
           + _optim_updates_all + _math_more_all + _prim_math_all + _prim_linalg_all + _random_more_all
           + _prim_random_all + _prim_ext3_all
           + _comm_all + _graph_helpers_all
           + _nn_volume_all + _nn_image_all + _prim_nn2_all + _nn_fractional_all + _nn_deformable_all
           + _prim_more2_all + ["CombinedNonMaxSuppression", "ExtractGlimpse", "ScaleAndTranslate"])
_registry.register_namespace(globals(), __all__)  # the op table Tensor methods, mint and numpy look up
_register_tensor_impl("matmul_check", _check_matmul)  # ``Tensor @ Tensor`` validates as ops.matmul does
