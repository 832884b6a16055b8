"""Gathers the ops beyond the core modules (activations, scatter family, array helpers, more Primitives ...)."""
from ._array_ext import *  # noqa: F401,F403
from ._array_ext import __all__ as _array_ext_all
from ._index_ext import *  # noqa: F401,F403
from ._index_ext import __all__ as _index_ext_all
from ._math_ext import *  # noqa: F401,F403
from ._math_ext import __all__ as _math_ext_all
from ._nn_act import *  # noqa: F401,F403
from ._nn_act import __all__ as _nn_act_all
from ._nn_ext import *  # noqa: F401,F403
from ._nn_ext import __all__ as _nn_ext_all
from ._ops_misc import *  # noqa: F401,F403
from ._ops_misc import __all__ as _ops_misc_all
from ._primitives_more import *  # noqa: F401,F403
from ._primitives_more import __all__ as _prim_more_all
from ._reduce_ext import *  # noqa: F401,F403
from ._reduce_ext import __all__ as _reduce_ext_all

__all__ = (_array_ext_all + _index_ext_all + _math_ext_all + _nn_act_all + _nn_ext_all + _reduce_ext_all
           + _ops_misc_all + _prim_more_all)
