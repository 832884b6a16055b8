"""Dataset methods beyond map/batch: filter, flat_map, apply, padded_batch, bucket_batch_by_length, save.

The expected batches are what real MindSpore 2.10 returns for the same calls (checked with the oracle)."""
import numpy as np
import pytest

import mindspore_hl.dataset as ds


def _ragged(n=6):
    return ds.GeneratorDataset([(np.arange(i + 1, dtype=np.int32), np.array(i, np.int64)) for i in range(n)],
                               ["seq", "idx"], shuffle=False)


def test_filter_keeps_matching_rows():
    data = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=False).filter(lambda x: x % 3 == 0, ["x"])
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == [0, 3, 6, 9]
    assert data.get_dataset_size() == 4
    with pytest.raises(RuntimeError, match="predicate"):
        list(ds.NumpySlicesDataset([1, 2], shuffle=False).filter(lambda x: 1 / 0))


def test_flat_map_and_apply():
    base = ds.NumpySlicesDataset([[1, 2], [3, 4]], shuffle=False)
    flat = base.flat_map(lambda row: ds.NumpySlicesDataset(row, shuffle=False))
    assert [int(r[0]) for r in flat.create_tuple_iterator(output_numpy=True)] == [1, 2, 3, 4]
    assert base.apply(lambda d: d.repeat(2)).get_dataset_size() == 4
    with pytest.raises(TypeError, match="must return a Dataset"):
        base.apply(lambda d: 3)


def test_padded_batch_pads_to_longest_and_to_given_shape():
    rows = list(_ragged(5).padded_batch(2, pad_info={}).create_tuple_iterator(output_numpy=True))
    assert [r[0].shape for r in rows] == [(2, 2), (2, 4), (1, 5)]
    np.testing.assert_array_equal(rows[1][0], [[0, 1, 2, 0], [0, 1, 2, 3]])
    shaped = next(iter(_ragged(3).padded_batch(3, pad_info={"seq": ([6], -1)}).create_tuple_iterator(
        output_numpy=True)))
    np.testing.assert_array_equal(shaped[0], [[0, -1, -1, -1, -1, -1], [0, 1, -1, -1, -1, -1],
                                              [0, 1, 2, -1, -1, -1]])
    with pytest.raises(RuntimeError, match="different shapes"):
        list(_ragged(3).padded_batch(3))   # pad_info=None pads nothing


def test_bucket_batch_by_length():
    data = _ragged(8).bucket_batch_by_length(["seq"], [3, 6], [2, 3, 2], pad_info={"seq": (None, 0)})
    batches = [(r[0].shape, r[1].tolist()) for r in data.create_tuple_iterator(output_numpy=True)]
    # lengths 1..8: bucket [0,3): 1,2; [3,6): 3,4,5; [6,inf): 6,7 then 8 left over
    assert batches == [((2, 2), [0, 1]), ((3, 5), [2, 3, 4]), ((2, 7), [5, 6]), ((1, 8), [7])]
    padded = _ragged(5).bucket_batch_by_length(["seq"], [3, 6], [2, 3, 2], pad_info={"seq": (None, 0)},
                                               pad_to_bucket_boundary=True, drop_remainder=True)
    assert [r[0].shape for r in padded.create_tuple_iterator(output_numpy=True)] == [(2, 2), (3, 5)]


def test_save_round_trips_through_minddataset(tmp_path):
    imgs = np.random.default_rng(0).integers(0, 255, (5, 4, 4, 3), dtype=np.uint8)
    data = ds.NumpySlicesDataset({"img": imgs, "label": np.arange(5, dtype=np.int32),
                                  "w": np.linspace(0, 1, 5).astype(np.float32)}, shuffle=False)
    path = str(tmp_path / "saved.mindrecord")
    data.save(path)
    back = ds.MindDataset(path, shuffle=False)
    assert back.get_col_names() == ["img", "label", "w"]
    got = list(back.create_tuple_iterator(output_numpy=True))
    np.testing.assert_array_equal(np.stack([g[0] for g in got]), imgs.astype(np.int32))
    assert [int(g[1]) for g in got] == list(range(5)) and got[0][1].dtype == np.int32
    np.testing.assert_allclose([float(g[2]) for g in got], np.linspace(0, 1, 5).astype(np.float32))


def test_shuffle_and_shard_flags():
    assert ds.NumpySlicesDataset([1, 2]).is_shuffled()
    assert not ds.NumpySlicesDataset([1, 2], shuffle=False).is_shuffled()
    assert ds.NumpySlicesDataset([1, 2], shuffle=False).shuffle(4).is_shuffled()
    assert ds.NumpySlicesDataset([1, 2], num_shards=2, shard_id=0).map(lambda x: x).is_sharded()


def test_ds_callback_hooks_follow_mindspore():
    class Log(ds.DSCallback):
        def __init__(self):
            super().__init__(2)
            self.log = []

        def ds_begin(self, c):
            self.log.append(("b",))

        def ds_epoch_begin(self, c):
            self.log.append(("eb", c.cur_epoch_num))

        def ds_epoch_end(self, c):
            self.log.append(("ee", c.cur_epoch_num, c.cur_step_num))

        def ds_step_begin(self, c):
            self.log.append(("sb", c.cur_step_num))

    cb = Log()
    it = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).map(lambda x: x, callbacks=[cb]).create_tuple_iterator(
        num_epochs=2)
    for _ in range(2):
        for _ in it:
            pass
    assert cb.log == [("b",), ("eb", 1), ("sb", 1), ("sb", 3), ("ee", 1, 3), ("eb", 2), ("sb", 4), ("sb", 6),
                      ("ee", 2, 6)]


def test_source_attributes_and_build_vocab():
    data = ds.NumpySlicesDataset({"w": np.array(["a", "b", "a"])}, shuffle=False, num_shards=2, shard_id=1)
    assert (data.num_shards, data.shard_id, data.num_samples) == (2, 1, 0)   # as MindSpore 2.10 reports them
    words = ds.NumpySlicesDataset({"w": np.array(["a", "b", "a", "c", "b", "b"])}, shuffle=False)
    assert words.build_vocab(["w"], None, None, ["<pad>"], True).vocab() == {"<pad>": 0, "b": 1, "a": 2, "c": 3}
