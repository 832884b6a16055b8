"""Record real MindSpore 2.10's Dataset attributes, ``to_json`` and sync/resume behaviour into
tests/fixtures/oracle/dataset_attrs.npz.

Run with the oracle interpreter (see README.md). Each case stores the Python expression that builds its pipeline
(``ds`` = mindspore.dataset, ``np`` = numpy); the replay evaluates the same text with mindspore_hl.dataset.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset as ds  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "dataset_attrs.npz")
WORKERS = 2   # ds.config.set_num_parallel_workers on both sides: to_json writes the effective worker count

PIPES = {
    "slices": 'ds.NumpySlicesDataset({"a": np.arange(6, dtype=np.float32), "b": np.arange(6, dtype=np.int32)}, '
              'shuffle=False)',
    "map_batch": 'ds.NumpySlicesDataset({"a": np.arange(6, dtype=np.float32)}, shuffle=False)'
                 '.map(f, input_columns="a").batch(2, drop_remainder=True)',
    "map_out": 'ds.NumpySlicesDataset([[1, 2]], ["x"], shuffle=False).map(g, output_columns=["x", "y"])',
    "map_plain": 'ds.NumpySlicesDataset([1, 2, 3], ["x"], shuffle=False).map(f).map(f, num_parallel_workers=1)',
    "chain": 'ds.NumpySlicesDataset({"a": np.arange(6, dtype=np.float32), "b": np.arange(6, dtype=np.int32)}, '
             'shuffle=False).shuffle(4).repeat(2).take(5).skip(1).project(["b", "a"]).rename(["a"], ["c"])',
    "zip": 'ds.zip((ds.NumpySlicesDataset([1, 2], "x", shuffle=False), '
           'ds.NumpySlicesDataset([1, 2], "y", shuffle=False))).repeat()',
    "generator": 'ds.GeneratorDataset([1, 2, 3], ["x"], shuffle=True, num_samples=2)',
}


def f(x):
    return x


def g(x):
    return x, x


ATTRS = ["num_parallel_workers", "column_names", "column_types", "cache", "schema", "num_samples",
         "python_multiprocessing", "max_rowsize", "input_indexs", "dataset_size", "saved_output_shapes",
         "estimated_output_shapes"]


def _value(v):
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    return v


def build(code):
    return eval(code, {"ds": ds, "np": np, "f": f, "g": g})  # noqa: S307 - our own fixed expressions


def main():
    ds.config.set_num_parallel_workers(WORKERS)
    with FixtureWriter(OUT) as w:
        for key, code in PIPES.items():
            w.add(f"Dataset.to_json/{key}", code=code, json=build(code).to_json(), workers=WORKERS)
        for key in ("slices", "map_batch"):
            d = build(PIPES[key])
            before = {a: _value(getattr(d, a)) for a in ATTRS if hasattr(d, a)}
            d.get_dataset_size()
            d.output_shapes()
            after = {a: _value(getattr(d, a)) for a in ("dataset_size", "saved_output_shapes",
                                                         "estimated_output_shapes")}
            d.output_shapes(estimate=True)
            after["estimated_output_shapes"] = _value(d.estimated_output_shapes)
            w.add(f"Dataset.attributes/{key}", code=PIPES[key], before=before, after=after)
        # resuming: set_init_step skips the first steps of each new iterator's first epoch
        for key, code, step in (("rows", 'ds.NumpySlicesDataset([1, 2, 3, 4, 5], "x", shuffle=False)', 2),
                                ("batches", 'ds.NumpySlicesDataset([1, 2, 3, 4, 5, 6], "x", shuffle=False).batch(2)',
                                 1)):
            d = build(code)
            d.set_init_step(step)
            runs = [[r[0].tolist() for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
                    for _ in range(2)]
            w.add(f"Dataset.set_init_step/{key}", code=code, step=step, runs=runs, init=d.get_init_step(),
                  size=d.get_dataset_size())
        # sync_wait / sync_update: rows seen by a map after the barrier, and the callback's data
        for key, num_batch, batch in (("b1", 1, 2), ("b2", 2, 2), ("rows", 1, None)):
            log = []
            code = 'ds.NumpySlicesDataset(list(range(8)), "x", shuffle=False)'
            d = build(code).sync_wait("policy", num_batch=num_batch, callback=log.append)
            if batch:
                d = d.batch(batch)
            seen = []
            for i, row in enumerate(d.create_tuple_iterator(num_epochs=1, output_numpy=True)):
                seen.append(row[0].tolist())
                d.sync_update("policy", data=i)
            w.add(f"Dataset.sync_wait/{key}", code=code, num_batch=num_batch, batch=batch, seen=seen, log=log,
                  is_sync=d.is_sync(), notifiers=sorted(d.get_sync_notifiers()))
        print(json.dumps(sorted(w._ids)))


if __name__ == "__main__":
    main()
