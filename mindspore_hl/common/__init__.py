"""Low level: Tensor, Parameter, dtypes, initializers and the global seed (``mindspore.common``)."""
from . import dtype, initializer
from ._storage import UntypedStorage
from .dtype import *  # noqa: F401,F403  (ms.float32 & co)
from .mutable import mutable
from .parameter import Parameter, ParameterTuple
from .seed import get_seed, set_seed
from .tensor import Tensor, is_tensor

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple", "set_seed", "get_seed", "initializer", "mutable",
           "is_tensor", "UntypedStorage"] + dtype.__all__
