"""General transforms: TypeCast, Compose, OneHot, RandomApply, RandomChoice, Fill, Slice."""
import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.common import dtype as mstype
from mindspore_hl.dataset import transforms, vision


def test_typecast_accepts_ms_and_numpy_dtypes():
    x = np.array([1.7, -2.2, 3.0])
    assert transforms.TypeCast(mstype.int32)(x).dtype == np.int32
    np.testing.assert_array_equal(transforms.TypeCast(np.int32)(x), [1, -2, 3])
    assert transforms.TypeCast("float16")(x).dtype == np.float16
    with pytest.raises(TypeError, match="TypeCast: data_type"):
        transforms.TypeCast(object())


def test_compose_runs_in_order_and_in_map():
    comp = transforms.Compose([vision.Rescale(2.0, 1.0), lambda x: x * 10, transforms.TypeCast(np.int64)])
    np.testing.assert_array_equal(comp(np.array([1, 2], np.uint8)), [30, 50])
    d = ds.NumpySlicesDataset(np.array([[1, 2], [3, 4]], np.uint8), shuffle=False).map(comp)
    rows = [r[0] for r in d.create_tuple_iterator(output_numpy=True)]
    np.testing.assert_array_equal(rows, [[30, 50], [70, 90]])


def test_one_hot():
    np.testing.assert_array_equal(transforms.OneHot(4)(np.array(2)), [0, 0, 1, 0])
    out = transforms.OneHot(4, smoothing_rate=0.2)(np.array([0, 3]))
    np.testing.assert_allclose(out, [[0.85, 0.05, 0.05, 0.05], [0.05, 0.05, 0.05, 0.85]], rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"OneHot: label 7 is out of range \[0, 4\)"):
        transforms.OneHot(4)(np.array(7))


def test_random_apply_and_choice_are_seeded():
    ds.config.set_seed(3)
    x = np.arange(4, dtype=np.float32)
    outs = {transforms.RandomApply([lambda v: v + 100], prob=0.5)(x)[0] for _ in range(50)}
    assert outs == {0.0, 100.0}
    choice = transforms.RandomChoice([lambda v: v + 1, lambda v: v - 1])
    assert {choice(x)[0] for _ in range(50)} == {1.0, -1.0}
    ds.config.set_seed(3)
    a = [transforms.RandomChoice([lambda v: v + 1, lambda v: v - 1])(x)[0] for _ in range(20)]
    ds.config.set_seed(3)
    b = [transforms.RandomChoice([lambda v: v + 1, lambda v: v - 1])(x)[0] for _ in range(20)]
    assert a == b


def test_fill_and_slice():
    x = np.arange(12, dtype=np.int16).reshape(3, 4)
    f = transforms.Fill(7)(x)
    assert f.dtype == np.int16 and (f == 7).all() and f.shape == x.shape
    np.testing.assert_array_equal(transforms.Slice(slice(0, 2), [1, 3])(x), x[0:2][:, [1, 3]])
    np.testing.assert_array_equal(transforms.Slice(1)(x), x[[1]])
    np.testing.assert_array_equal(transforms.Slice(Ellipsis, slice(1, 3))(x), x[:, 1:3])
    np.testing.assert_array_equal(transforms.Slice(None, -1)(x), x[:, [-1]])
    with pytest.raises(RuntimeError, match="Slice: index"):
        transforms.Slice([5])(x)


def test_more_general_transforms_match_mindspore():
    # expected values: what real MindSpore 2.10 returns for the same calls (checked with the oracle)
    from mindspore_hl.dataset.transforms import Concatenate, Duplicate, Mask, PadEnd, RandomOrder, Relational, Unique
    np.testing.assert_array_equal(Concatenate(0, np.array([1, 2]), np.array([9]))(np.array([5, 6, 7])),
                                  [1, 2, 5, 6, 7, 9])
    a, b = Duplicate()(np.array([1, 2]))
    assert a.tolist() == b.tolist() == [1, 2]
    assert Mask(Relational.GE, 3)(np.array([1, 3, 5])).tolist() == [False, True, True]
    m = Mask(Relational.EQ, 3, np.int32)(np.array([1, 3, 5]))
    assert m.tolist() == [0, 1, 0] and m.dtype == np.int32
    assert PadEnd([5], 0)(np.array([1, 2, 3])).tolist() == [1, 2, 3, 0, 0]
    assert PadEnd([2, 3], -1)(np.array([[1], [2]])).tolist() == [[1, -1, -1], [2, -1, -1]]
    assert PadEnd([2])(np.array([1, 2, 3])).tolist() == [1, 2]
    assert PadEnd([4], "x")(np.array(["a", "b"])).tolist() == ["a", "b", "x", "x"]
    vals, idx, cnt = Unique()(np.array([5, 3, 5, 1, 3]))
    assert vals.tolist() == [5, 3, 1] and idx.tolist() == [0, 1, 0, 2, 1] and cnt.tolist() == [2, 2, 1]
    order = RandomOrder([lambda x: x * 2, lambda x: x + 1])
    assert {int(order(np.array(1))) for _ in range(40)} == {3, 4}
