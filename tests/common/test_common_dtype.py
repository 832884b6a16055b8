"""MindSpore dtypes: names, str/repr, conversions."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl.common import dtype as mstype


@pytest.mark.parametrize("t, s, r, npt", [
    (ms.float32, "Float32", "mindspore.float32", np.float32), (ms.float16, "Float16", "mindspore.float16", np.float16),
    (ms.float64, "Float64", "mindspore.float64", np.float64), (ms.int8, "Int8", "mindspore.int8", np.int8),
    (ms.int32, "Int32", "mindspore.int32", np.int32), (ms.int64, "Int64", "mindspore.int64", np.int64),
    (ms.uint8, "UInt8", "mindspore.uint8", np.uint8), (ms.bool_, "Bool", "mindspore.bool_", np.bool_),
    (ms.complex64, "Complex64", "mindspore.complex64", np.complex64),
])
def test_str_repr_and_numpy(t, s, r, npt):
    assert str(t) == s and repr(t) == r
    assert ms.dtype_to_nptype(t) is npt
    assert mstype.from_numpy(np.dtype(npt)) == t


def test_bfloat16_and_aliases():
    assert str(ms.bfloat16) == "BFloat16" and ms.bfloat16.is_floating
    assert ms.half == ms.float16 and ms.single == ms.float32 and ms.double == ms.float64
    assert ms.dtype.float32 is ms.float32 and mstype.bool is ms.bool_


def test_pytype_conversions():
    assert ms.pytype_to_dtype(int) == ms.int64 and ms.pytype_to_dtype(float) == ms.float32
    assert ms.pytype_to_dtype(bool) == ms.bool_
    assert ms.dtype_to_pytype(ms.float16) is float and ms.dtype_to_pytype(ms.int8) is int
    assert ms.dtype_to_pytype(ms.bool_) is bool
    assert mstype.to_ms_dtype("float32") == ms.float32 and mstype.to_ms_dtype(np.int16) == ms.int16


def test_dtype_equality_and_hash():
    assert ms.float32 == mstype.to_ms_dtype("Float32") and ms.float32 != ms.float16
    assert len({ms.float32, mstype.to_ms_dtype(np.float32), ms.int32}) == 2
    assert ms.float32 in mstype.float_type and ms.int64 in mstype.number_type


def test_bad_dtype_names_the_value():
    with pytest.raises(TypeError, match="floaty"):
        mstype.to_ms_dtype("floaty")
    with pytest.raises(TypeError, match="ms.float32"):
        mstype.to_ms_dtype(object())
