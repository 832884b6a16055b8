"""Record real MindSpore 2.10's sampler chaining (``add_sampler`` / ``use_sampler``), ``copy_batch_size``,
``recv`` on this process's rank and ``GeneratorDataset(batch_sampler=, collate_fn=)`` into
tests/fixtures/oracle/dataset_methods.npz.

Run with the oracle interpreter (see README.md). Each case stores Python statements (``ds`` = mindspore.dataset,
``np`` = numpy) that leave the dataset in ``d``; the replay runs the same text with mindspore_hl.dataset and
compares the rows of one epoch, ``get_dataset_size()``, ``get_batch_size()`` and the extra values ``probe`` lists.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset as ds  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "dataset_methods.npz")

TEN = 'ds.NumpySlicesDataset(np.arange(10, dtype=np.int32), "x", shuffle=False)'
GEN = 'ds.GeneratorDataset([np.array([i, 2 * i], np.int32) for i in range(6)], "x", shuffle=False)'
ROWS = '[np.array([i, i], np.int32) for i in range(6)]'

CASES = {
    # sampler chains: the new sampler picks among the ids the current one picked
    "add_sampler/distributed": (f"d = {TEN}\nd.add_sampler(ds.DistributedSampler(2, 1, shuffle=False))", []),
    "add_sampler/subset_of_sequential": (
        'd = ds.NumpySlicesDataset(np.arange(10, dtype=np.int32), "x", sampler=ds.SequentialSampler(2, 6))\n'
        "d.add_sampler(ds.SubsetSampler([0, 2, 4]))", ["type(d.sampler.get_child()).__name__"]),
    "add_sampler/twice": (f"d = {TEN}\nd.add_sampler(ds.SequentialSampler(1, 7))\n"
                          "d.add_sampler(ds.DistributedSampler(3, 0, shuffle=False))", []),
    "add_sampler/generator": (f"d = {GEN}\nd.add_sampler(ds.SubsetSampler([5, 0, 3]))", []),
    "add_sampler/shard_after_size": (f"d = {TEN}\nd.get_dataset_size()\n"
                                     "d.add_sampler(ds.DistributedSampler(5, 3, shuffle=False))", []),
    "use_sampler/keeps_child": (
        'd = ds.NumpySlicesDataset(np.arange(10, dtype=np.int32), "x", sampler=ds.SequentialSampler(2, 6))\n'
        "d.add_sampler(ds.SubsetSampler([0, 2, 4]))\nd.use_sampler(ds.SequentialSampler(1, 2))",
        ["type(d.sampler).__name__", "type(d.sampler.get_child()).__name__"]),
    "use_sampler/plain": (f"d = {GEN}\nd.use_sampler(ds.SequentialSampler(3, 2))",
                          ["d.sampler.get_child() is None"]),
    "use_sampler/none": (f"d = {TEN}\nd.use_sampler(None)", []),
    "use_sampler/not_sampler": (f"d = {TEN}\nd.use_sampler([1, 2])", []),
    "add_sampler/child_taken": (f"d = {TEN}\ns = ds.SequentialSampler()\ns.add_child(ds.SequentialSampler())\n"
                                "d.add_sampler(s)", []),
    "add_sampler/then_split": (
        f"d = {TEN}\nd.add_sampler(ds.SubsetSampler([1, 3, 5, 7, 9]))\nd.add_sampler(ds.SequentialSampler(1))",
        ["[[int(r[0]) for r in p.create_tuple_iterator(output_numpy=True, num_epochs=1)] "
         "for p in d.split([1, 3], randomize=False)]"]),
    # copy_batch_size: get_batch_size answers the copied value
    "copy_batch_size/source": (f"d = {TEN}\nd.copy_batch_size(5)", ["d.batch(2).get_batch_size()"]),
    "copy_batch_size/batch": (f"d = {TEN}.batch(3)\nd.copy_batch_size(7)", []),
    "copy_batch_size/zip": (f"d = ds.zip(({TEN}, {TEN}.rename('x', 'y')))\nd.copy_batch_size(4)", []),
    # recv from this process's own rank: its next rows, into the next epoch
    "recv/one_column": ('d = ds.NumpySlicesDataset(np.arange(3, dtype=np.int32), "x", shuffle=False)',
                        ["[int(d.recv().asnumpy()) for _ in range(5)]"]),
    "recv/two_columns": ('d = ds.NumpySlicesDataset((np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32) * 2),'
                         ' ["a", "b"], shuffle=False)',
                         ["[t.asnumpy().tolist() for t in d.recv()]",
                          "[[t.asnumpy().tolist() for t in r] for r in d.recv([0, 0])]"]),
    "recv/bad_src": (f"d = {TEN}\nd.recv('0')", []),
    # batch_sampler / collate_fn
    "batch_sampler/stack": (f'd = ds.GeneratorDataset({ROWS}, "x", batch_sampler=[[0, 1], [2, 3, 4], [5]])',
                            ["d.has_batch_sampler", "d.collate_fn is None"]),
    "batch_sampler/collate": (f'd = ds.GeneratorDataset({ROWS}, "x", batch_sampler=[[4, 1], [2, 3]], '
                              'collate_fn=lambda x: (np.stack(x) * 10,))',
                              ["d.has_batch_sampler", "callable(d.collate_fn)"]),
    "batch_sampler/two_columns": (
        'd = ds.GeneratorDataset([(np.int32(i), np.array([i, -i], np.int32)) for i in range(5)], ["a", "b"], '
        'batch_sampler=[[0, 1], [2, 3]], collate_fn=lambda a, b: (np.array(a).sum(keepdims=True), np.stack(b)))',
        []),
    "batch_sampler/then_map": (f'd = ds.GeneratorDataset({ROWS}, "x", batch_sampler=[[0, 1], [2, 3]])'
                               '.map(lambda x: x + 1)', []),
    "batch_sampler/with_shuffle": (f'd = ds.GeneratorDataset({ROWS}, "x", batch_sampler=[[0]], shuffle=False)', []),
    "batch_sampler/collate_alone": (f'd = ds.GeneratorDataset({ROWS}, "x", collate_fn=lambda x: x)', []),
    "batch_sampler/collate_not_callable": (f'd = ds.GeneratorDataset({ROWS}, "x", batch_sampler=[[0]], '
                                           'collate_fn=3)', []),
    "attrs/plain_generator": (f"d = {GEN}", ["d.has_batch_sampler", "d.collate_fn is None"]),
    "attrs/slices": (f"d = {TEN}", ["d.has_batch_sampler", "d.collate_fn is None"]),
    "attrs/batch_node": (f"d = {TEN}.batch(2)", ["hasattr(d, 'add_sampler')", "hasattr(d, 'use_sampler')",
                                                 "hasattr(d, 'collate_fn')", "hasattr(d, 'has_batch_sampler')"]),
}


def run(code, probes):
    """Rows (as nested lists), size, batch size and probe values of the pipeline ``code`` builds."""
    scope = {"ds": ds, "np": np}
    exec(code, scope)  # noqa: S102 - our own fixed statements
    d = scope["d"]
    values = [eval(p, scope) for p in probes]  # noqa: S307
    rows = [[c.tolist() for c in r] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    return {"rows": rows, "size": d.get_dataset_size(), "batch_size": d.get_batch_size(), "probes": values}


def main():
    with FixtureWriter(OUT) as w:
        for key, (code, probes) in CASES.items():
            try:
                got = run(code, probes)
            except Exception as e:  # noqa: BLE001 - the error type is the recorded result
                w.add(f"Dataset.{key}", code=code, probe_code=probes, error=type(e).__name__)
                continue
            w.add(f"Dataset.{key}", code=code, probe_code=probes, **got)
        print(json.dumps(sorted(w._ids)))


if __name__ == "__main__":
    main()
