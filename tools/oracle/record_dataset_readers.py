"""Record what real MindSpore 2.10's dataset readers return from tiny files in each published layout into
tests/fixtures/oracle/dataset_readers.npz.

Run with the oracle interpreter (see README.md). The files come from tests/dataset/_layouts.py, which the test
uses too, so both read byte-identical files. Per case: the column names, the dataset size, and every value of
every row in order (shuffle off), or the error type when MindSpore refuses the files.
"""
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "dataset"))
import _layouts  # noqa: E402
import mindspore.dataset as ds  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "dataset_readers.npz")


def main():
    ds.config.set_num_parallel_workers(_layouts.WORKERS)
    with tempfile.TemporaryDirectory() as root, FixtureWriter(OUT) as w:
        for case_id, (layout, expr) in _layouts.CASES.items():
            d = os.path.join(root, layout)
            if not os.path.isdir(d):
                _layouts.LAYOUTS[layout](d)
            try:
                data = eval(expr, {"ds": ds, "d": d})  # noqa: S307
                columns = data.get_col_names()
                size = data.get_dataset_size()
                values = [np.asarray(v) for row in data.create_tuple_iterator(output_numpy=True) for v in row]
            except Exception as e:  # noqa: BLE001 - the type is what is recorded
                print(case_id, "->", type(e).__name__, str(e)[:300])
                w.add(case_id, name=layout, error=type(e).__name__, expr=expr)
                continue
            print(case_id, columns, size, [(v.dtype.str, v.shape) for v in values[:len(columns)]])
            w.add(case_id, outputs=values, name=layout, expr=expr, columns=columns, size=size)


if __name__ == "__main__":
    main()
