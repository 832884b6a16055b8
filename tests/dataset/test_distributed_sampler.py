"""DistributedSampler's shards replayed against real MindSpore 2.10 (tools/oracle/record_distributed_sampler.py):
equal shard sizes with the order wrapping around, and exact partitions with ``offset`` (row 0 to shard
``offset``)."""
import numpy as np
import pytest

import mindspore_hl.dataset as ds
from tests.oracle import assert_outputs, case_params


@pytest.mark.parametrize("case", case_params("distributed_sampler.npz"))
def test_shards_match_mindspore(case):
    kw = dict(case.kwargs)
    rows = kw.pop("rows")
    d = ds.NumpySlicesDataset(np.arange(rows), "x", sampler=ds.DistributedSampler(shuffle=False, **kw))
    got = np.array([int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)], np.int64)
    assert_outputs([got, np.int64(d.get_dataset_size())], case)
