"""Record real MindSpore 2.10's DistributedSampler shards (run with the MindSpore interpreter).

    python tools/oracle/record_distributed_sampler.py   ->  tests/fixtures/oracle/distributed_sampler.npz

Without ``offset`` every shard gets ceil(rows / shards) rows (the order wraps around); with one, the shards
partition the rows and row 0 goes to shard ``offset``.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore.dataset as ds  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "distributed_sampler.npz") as w:
    for rows, shards, kw in [(10, 4, {}), (10, 3, {}), (7, 2, {}), (3, 4, {}), (12, 4, {}), (10, 4, {"offset": 1}),
                             (10, 4, {"offset": 2}), (10, 4, {"num_samples": 2})]:
        for shard in range(shards):
            sampler = ds.DistributedSampler(shards, shard, shuffle=False, **kw)
            d = ds.NumpySlicesDataset(np.arange(rows), "x", sampler=sampler)
            got = np.array([int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)], np.int64)
            w.add(f"DistributedSampler/rows{rows}_shards{shards}_{shard}" + "".join(f"_{k}{v}" for k, v in kw.items()),
                  outputs=[got, np.int64(d.get_dataset_size())], name="DistributedSampler",
                  kwargs={"rows": rows, "num_shards": shards, "shard_id": shard, **kw})
