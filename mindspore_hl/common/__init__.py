"""Low level: Tensor, Parameter, dtypes, initializers and the global seed (``mindspore.common``)."""
from . import dtype
from .dtype import *  # noqa: F401,F403  (ms.float32 & co)
from .tensor import Tensor, is_tensor
from .parameter import Parameter, ParameterTuple
from .seed import set_seed, get_seed
from .mutable import mutable
from . import initializer

__all__ = ["dtype", "Tensor", "Parameter", "ParameterTuple", "set_seed", "get_seed", "initializer", "mutable",
           "is_tensor"] + dtype.__all__
