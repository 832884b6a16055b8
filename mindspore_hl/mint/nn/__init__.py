"""``mindspore.mint.nn``: layers and the functional API ``mint.nn.functional``."""
from . import functional  # noqa: F401
from ._fold_unpool import *  # noqa: F401,F403
from ._fold_unpool import __all__ as _fold_unpool_all
from ._layers import *  # noqa: F401,F403
from ._layers import __all__ as _layers_all
from ._norm_pool_loss import *  # noqa: F401,F403
from ._norm_pool_loss import __all__ as _npl_all

__all__ = ["functional"] + _layers_all + _npl_all + _fold_unpool_all
