"""Pipeline operations, iterators, sizes, seeds and error propagation."""
import threading

import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import transforms, vision


def numbers(n, **kw):
    kw.setdefault("shuffle", False)
    return ds.NumpySlicesDataset({"x": np.arange(n, dtype=np.int64), "y": np.arange(n, dtype=np.int64) * 10}, **kw)


def col(d, i=0, **kw):
    return [np.asarray(r[i]).tolist() for r in d.create_tuple_iterator(output_numpy=True, **kw)]


def test_map_callables_columns_and_order():
    d = numbers(5).map(lambda x: x * 2, input_columns=["x"])
    assert col(d) == [0, 2, 4, 6, 8] and col(d, 1) == [0, 10, 20, 30, 40]
    two = numbers(3).map(lambda x, y: (x + y, x - y), input_columns=["x", "y"], output_columns=["s", "t"])
    assert two.get_col_names() == ["s", "t"] and col(two) == [0, 11, 22] and col(two, 1) == [0, -9, -18]
    split = numbers(3).map(lambda y: (y, y + 1), input_columns="y", output_columns=["a", "b"])
    assert split.get_col_names() == ["x", "a", "b"] and col(split, 2) == [1, 11, 21]
    seen_types = []
    numbers(2).map(lambda x: seen_types.append(type(x)) or x, "x").get_dataset_size()
    for _ in numbers(2).map(lambda x: seen_types.append(type(x)) or x, "x"):
        pass
    assert set(seen_types) == {np.ndarray}     # callables receive numpy arrays
    with pytest.raises(ValueError, match=r"map: input column\(s\) \['z'\] do not exist"):
        numbers(2).map(lambda z: z, "z")


def test_map_parallel_keeps_order():
    d = numbers(1000).map(lambda x: x + 1, "x", num_parallel_workers=4).batch(7)
    flat = [v for b in col(d) for v in b]
    assert flat == list(range(1, 1001))


def test_batch_exact_and_per_batch_map():
    d = numbers(10).batch(4)
    assert [len(b) for b in col(d)] == [4, 4, 2] and d.get_dataset_size() == 3
    assert [len(b) for b in col(numbers(10).batch(4, drop_remainder=True))] == [4, 4]
    assert numbers(10).batch(4, drop_remainder=True).get_dataset_size() == 2
    assert numbers(10).batch(4).get_batch_size() == 4

    def add_epoch(xs, info):
        return ([x + 1000 * info.get_batch_num() for x in xs],)

    out = col(numbers(6).batch(3, per_batch_map=add_epoch, input_columns=["x"]))
    assert out == [[0, 1, 2], [1003, 1004, 1005]]
    ragged = ds.GeneratorDataset([np.zeros(2), np.zeros(3)], ["v"], shuffle=False).batch(2)
    with pytest.raises(RuntimeError, match="batch: cannot batch column 'v'.*different shapes"):
        col(ragged)


def test_batch_views_share_the_block():
    # batches cut from an aligned block are views of one buffer: no per-batch copy
    d = numbers(512).map(lambda x: x, "x").batch(32)   # the python map restacks into one block of 256 rows
    it = d.create_tuple_iterator(output_numpy=True)
    a, b = next(it)[0], next(it)[0]
    assert a.base is not None and a.base is b.base


def test_repeat_take_skip_project_rename():
    assert col(numbers(3).repeat(2)) == [0, 1, 2, 0, 1, 2] and numbers(3).repeat(2).get_dataset_size() == 6
    assert col(numbers(10).take(4)) == [0, 1, 2, 3] and numbers(10).take(4).get_dataset_size() == 4
    assert col(numbers(10).skip(7)) == [7, 8, 9] and numbers(10).skip(7).get_dataset_size() == 3
    assert col(numbers(600).skip(300).take(2)) == [300, 301]
    p = numbers(3).project(["y", "x"])
    assert p.get_col_names() == ["y", "x"] and col(p) == [0, 10, 20]
    r = numbers(3).rename(["x"], ["z"])
    assert r.get_col_names() == ["z", "y"]
    with pytest.raises(ValueError, match="project"):
        numbers(3).project(["nope"])


def test_zip_and_concat():
    a = numbers(5)
    b = ds.NumpySlicesDataset({"z": np.arange(3) + 100}, shuffle=False)
    z = a.zip(b)
    assert z.get_col_names() == ["x", "y", "z"] and z.get_dataset_size() == 3 and col(z, 2) == [100, 101, 102]
    c = numbers(2) + numbers(3)
    assert col(c) == [0, 1, 0, 1, 2] and c.get_dataset_size() == 5
    with pytest.raises(ValueError, match="zip: column names"):
        a.zip(numbers(2))
    with pytest.raises(ValueError, match="concat"):
        a.concat(b)


def test_split():
    ds.config.set_seed(0)
    parts = numbers(10).split([0.6, 0.4])
    rows = [sorted(col(p)) for p in parts]
    assert [len(r) for r in rows] == [6, 4] and sorted(rows[0] + rows[1]) == list(range(10))
    seq = numbers(10).map(lambda x: x, "x").split([3, 7], randomize=False)
    assert col(seq[0]) == [0, 1, 2] and col(seq[1]) == list(range(3, 10))


def test_shuffle_buffer_and_reshuffle_per_epoch():
    ds.config.set_seed(5)
    d = numbers(100).shuffle(10)
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    e1 = [int(r[0]) for r in it]
    e2 = [int(r[0]) for r in it]
    assert sorted(e1) == sorted(e2) == list(range(100))
    assert e1 != list(range(100)) and e1 != e2
    ds.config.set_seed(5)
    it2 = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [int(r[0]) for r in it2] == e1 and [int(r[0]) for r in it2] == e2   # reproducible


def test_top_level_seed_drives_datasets():
    import mindspore_hl.common.seed as top
    top.set_seed(7)
    a = col(numbers(50, shuffle=True))
    top.set_seed(7)
    assert col(numbers(50, shuffle=True)) == a
    top.set_seed(8)
    assert col(numbers(50, shuffle=True)) != a
    ds.config.set_seed(7)        # called last: the dataset seed wins
    b = col(numbers(50, shuffle=True))
    ds.config.set_seed(7)
    assert col(numbers(50, shuffle=True)) == b
    assert ds.config.get_seed() == 7


def test_random_map_is_deterministic_across_workers():
    def run(workers):
        ds.config.set_seed(11)
        d = numbers(600).map(lambda x: np.zeros((4, 4), np.uint8) + x.astype(np.uint8), "x")
        d = d.map(vision.RandomHorizontalFlip(0.5), "x").map(vision.RandomCrop(3, padding=1), "x",
                                                              num_parallel_workers=workers)
        return np.stack(col(d))
    np.testing.assert_array_equal(run(1), run(3))


def test_iterators_tensor_dict_and_epochs():
    from mindspore_hl.common.tensor import Tensor
    d = numbers(4).batch(2)
    rows = list(d.create_tuple_iterator())
    assert isinstance(rows[0], list) and isinstance(rows[0][0], Tensor) and rows[0][0].shape == (2,)
    dicts = list(d.create_dict_iterator(output_numpy=True))
    assert set(dicts[0]) == {"x", "y"} and dicts[1]["y"].tolist() == [20, 30]
    dt = list(d.create_dict_iterator())
    assert isinstance(dt[0]["x"], Tensor)
    only = list(d.create_tuple_iterator(columns=["y"], output_numpy=True))
    assert len(only[0]) == 1 and only[0][0].tolist() == [0, 10]
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert len(list(it)) == 2 and len(list(it)) == 2 and list(it) == []
    assert [r[0].tolist() for r in numbers(3)] == [0, 1, 2]


def test_info_methods():
    d = numbers(10).map(lambda x: np.zeros((3, 2), np.float32) + x.astype(np.float32), "x").map(
        transforms.TypeCast(np.int32), "y").batch(4)
    assert d.output_shapes() == [[4, 3, 2], [4]]
    assert d.output_types() == [np.dtype("float32"), np.dtype("int32")]
    assert d.get_dataset_size() == 3 and d.get_col_names() == ["x", "y"]
    assert d.repeat(3).get_repeat_count() == 3


def test_config_values():
    ds.config.set_num_parallel_workers(3)
    assert ds.config.get_num_parallel_workers() == 3
    ds.config.set_prefetch_size(4)
    assert ds.config.get_prefetch_size() == 4
    with pytest.raises(ValueError):
        ds.config.set_seed(-1)
    assert ds.config.get_seed() == 5489     # MindSpore's value while no seed is set


@pytest.mark.timeout(30)
def test_errors_in_workers_surface_and_do_not_hang():
    def bad(x):
        if int(x) == 123:
            raise ZeroDivisionError("row 123 is bad")
        return x

    d = numbers(1000).map(bad, "x", num_parallel_workers=4).batch(10)
    with pytest.raises(RuntimeError, match=r"map: operation .*bad failed on column 'x'.*Python function.*"
                                           r"ZeroDivisionError: row 123 is bad"):
        for _ in d:
            pass
    img = ds.NumpySlicesDataset(np.zeros((40, 8, 8), np.uint8), ["image"]).map(vision.HWC2CHW(), "image",
                                                                                 num_parallel_workers=2)
    with pytest.raises(RuntimeError, match=r"map: operation HWC2CHW failed on column 'image'.*<H,W,C>.*\(8, 8\)"):
        list(img)
    norm = ds.NumpySlicesDataset(np.zeros((4, 8, 8, 3), np.uint8), ["image"]).map(
        vision.Normalize([1, 2], [1, 1]), "image")
    with pytest.raises(RuntimeError, match="Normalize: number of channels does not match"):
        list(norm)
    # a wrong output_columns count is named too
    with pytest.raises(RuntimeError, match=r"returned 2 column\(s\), but output_columns names 1"):
        list(numbers(3).map(lambda x: (x, x), "x"))


@pytest.mark.timeout(30)
def test_abandoned_iterators_stop_their_threads():
    before = threading.active_count()
    for _ in range(5):
        it = numbers(100000).map(lambda x: x, "x", num_parallel_workers=2).create_tuple_iterator()
        next(it)
        it.stop()
        del it
    import time
    for _ in range(100):
        if threading.active_count() <= before + 1:
            break
        time.sleep(0.05)
    assert threading.active_count() <= before + 1


def test_resnet_style_image_folder_pipeline(tmp_path):
    """ImageFolder -> RandomCropDecodeResize -> flip -> Normalize -> HWC2CHW; TypeCast; batch (ModelZoo ResNet)."""
    from PIL import Image
    rng = np.random.default_rng(0)
    for cls in ("a", "b"):
        (tmp_path / cls).mkdir()
        for i in range(5):
            img = rng.integers(0, 256, size=(40 + i, 50, 3), dtype=np.uint8)
            Image.fromarray(img).save(tmp_path / cls / f"{i}.jpg", quality=90)
    from mindspore_hl.common import dtype as mstype
    from mindspore_hl.dataset.vision import Inter

    def build():
        ds.config.set_seed(1)
        d = ds.ImageFolderDataset(str(tmp_path), num_parallel_workers=2)
        mean, std = [0.485 * 255, 0.456 * 255, 0.406 * 255], [0.229 * 255, 0.224 * 255, 0.225 * 255]
        d = d.map([vision.RandomCropDecodeResize(24, scale=(0.08, 1.0), ratio=(0.75, 1.333),
                                                 interpolation=Inter.BILINEAR),
                   vision.RandomHorizontalFlip(prob=0.5), vision.Normalize(mean=mean, std=std), vision.HWC2CHW()],
                  "image", num_parallel_workers=2)
        d = d.map(transforms.TypeCast(mstype.int32), "label")
        return d.batch(4, drop_remainder=True)

    a = list(build().create_tuple_iterator(output_numpy=True))
    b = list(build().create_tuple_iterator(output_numpy=True))
    assert len(a) == 2 and a[0][0].shape == (4, 3, 24, 24) and a[0][0].dtype == np.float32
    assert a[0][1].dtype == np.int32
    for (x, y), (u, v) in zip(a, b):
        np.testing.assert_array_equal(x, u)
        np.testing.assert_array_equal(y, v)
