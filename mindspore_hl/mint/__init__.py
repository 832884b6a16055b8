"""``mindspore.mint``: the PyTorch-style functional API (``mint.sum(x, dim=1, keepdim=True)``).

Each name adapts its arguments (PyTorch keyword names, MindSpore 2.10 defaults) and calls the one functional op
in ``mindspore_hl.ops``. A name is exported only when the ops it needs exist.

>>> import numpy as np
>>> import mindspore_hl as ms
>>> from mindspore_hl import mint
>>> mint.sum(ms.Tensor(np.ones((2, 3), np.float32)), dim=1).asnumpy().tolist()
[3.0, 3.0]
"""
import builtins as _builtins

from .. import ops as _ops
from . import _creation, _functions, _reduce_shape, _shape
from ._functions import TARGETS as _TARGETS

__all__ = []
for _module in (_functions, _reduce_shape, _shape, _creation):
    for _name, _targets in list(_TARGETS.items()):
        if hasattr(_module, _name) and _builtins.all(hasattr(_ops, t) for t in _targets) and _name not in __all__:
            globals()[_name] = getattr(_module, _name)
            __all__.append(_name)
del _module, _name, _targets

from . import nn, optim  # noqa: E402,F401

__all__.append("nn")
