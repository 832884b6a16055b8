"""Parameter and ParameterTuple."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Parameter, ParameterTuple, Tensor
from mindspore_hl.common.initializer import initializer


def test_parameter_basics_and_repr():
    w = Parameter(Tensor(np.ones((2, 2)), ms.float32), name="w")
    assert isinstance(w, Tensor) and w.name == "w" and w.requires_grad
    assert repr(w) == "Parameter (name=w, shape=(2, 2), dtype=Float32, requires_grad=True)"
    b = Parameter(Tensor([0.5]), requires_grad=False)
    assert not b.requires_grad and b.name == "Parameter"
    w.requires_grad = False
    assert not w.requires_grad
    w.name = "layer.weight"
    assert w.name == "layer.weight" and w.data is w


def test_parameter_from_number_array_and_initializer():
    assert Parameter(1.0, name="s").dtype == ms.float32
    assert Parameter(np.zeros(3, np.int32), name="i").dtype == ms.int32
    p = Parameter(initializer("ones", (2, 3), ms.float16), name="h")
    assert p.dtype == ms.float16 and p.asnumpy().tolist() == [[1, 1, 1], [1, 1, 1]]


def test_set_data_casts_and_checks_shape():
    w = Parameter(Tensor(np.zeros((2, 2), np.float32)), name="w")
    w.set_data(Tensor(np.ones((2, 2), np.float64)))
    assert w.dtype == ms.float32 and w.asnumpy().sum() == 4
    with pytest.raises(ValueError, match=r"Parameter 'w'.*\(3,\).*\(2, 2\)"):
        w.set_data(Tensor(np.ones(3, np.float32)))
    assert w.value().tolist() == [[1, 1], [1, 1]] and type(w.value()) is Tensor


def test_parameter_arithmetic_returns_tensors():
    w = Parameter(Tensor([1.0, 2.0]), name="w")
    out = w * 2 + 1
    assert type(out) is Tensor and out.tolist() == [3.0, 5.0]


def test_parameter_does_not_share_buffer_with_source():
    t = Tensor([1.0, 2.0])
    p = Parameter(t, name="p")
    p.set_data(Tensor([5.0, 5.0]))
    assert t.tolist() == [1.0, 2.0]


def test_clone_and_parameter_tuple():
    a = Parameter(Tensor([1.0]), name="a")
    b = Parameter(Tensor([2.0]), name="b", requires_grad=False)
    pt = ParameterTuple([a, b])
    assert isinstance(pt, tuple) and len(pt) == 2 and pt[0] is a
    c = pt.clone("copy")
    assert [p.name for p in c] == ["copy.a", "copy.b"] and c[0] is not a and c[1].requires_grad is False
    assert c[0].asnumpy().tolist() == [1.0]
    with pytest.raises(TypeError, match="Parameter"):
        ParameterTuple([a, Tensor([1.0])])
