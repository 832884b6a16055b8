"""``mindspore.numpy``: MindSpore's NumPy-style API over Tensors, with its dtype rules.

Python ints become Int32 and floats Float32; a float operand wins over an integer one and keeps its width
(``int32 + float16 -> float16``). Functions with a MindSpore op call it; NumPy-only helpers work on the arrays.

>>> import mindspore_hl.numpy as mnp
>>> mnp.add(mnp.arange(3), 1.5).asnumpy().tolist()
[1.5, 2.5, 3.5]
"""
from ..common.dtype import bool_, float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64
from . import _array, _index, _math, _misc, _reduce
from ._array import *  # noqa: F401,F403
from ._grids import mgrid, ogrid
from ._index import *  # noqa: F401,F403
from ._math import *  # noqa: F401,F403
from ._misc import *  # noqa: F401,F403
from ._reduce import *  # noqa: F401,F403

float_ = float64
int_ = int64

__all__ = (_math.__all__ + _array.__all__ + _index.__all__ + _reduce.__all__ + _misc.__all__
           + ["bool_", "float16", "float32", "float64", "float_", "int8", "int16", "int32", "int64", "int_", "uint8",
              "uint16", "uint32", "uint64", "mgrid", "ogrid"])
