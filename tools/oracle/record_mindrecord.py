"""Write small MindRecord files with real MindSpore 2.10 (tests/fixtures/oracle/mindrecord/), and check that
real MindSpore reads files written by mindspore_hl.

Run with the oracle interpreter (see README.md):

    ../ms-oracle/bin/python tools/oracle/record_mindrecord.py            # writes the fixtures
    ../ms-oracle/bin/python tools/oracle/record_mindrecord.py --check DIR  # reads DIR/*.mindrecord written here

The fixtures use the smallest header (16 KB) and page (32 KB) sizes, so each shard is a few tens of KB.
"""
import hashlib
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "mindrecord")

import mindspore.dataset as ds  # noqa: E402
from mindspore.mindrecord import FileReader, FileWriter  # noqa: E402

SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int32"}, "score": {"type": "float64"},
          "data": {"type": "bytes"}, "vec": {"type": "float32", "shape": [2, 3]},
          "ids": {"type": "int64", "shape": [-1]}, "big": {"type": "int64"}}


def rows(n):
    out = []
    for i in range(n):
        out.append({"file_name": f"img_{i}.jpg", "label": i % 4, "score": i / 3, "data": bytes([i]) * (5 + 3 * i),
                    "vec": (np.arange(6, dtype=np.float32).reshape(2, 3) + i),
                    "ids": np.array([i, -300 * i, 70000 * i, -(2 ** 40) * i][: 1 + i % 4], np.int64),
                    "big": -(2 ** 33) + i})
    return out


def write(name, shard_num, n, page_size=1 << 15, schema=SCHEMA, index=None, data=None):
    os.makedirs(OUT, exist_ok=True)
    w = FileWriter(os.path.join(OUT, name), shard_num=shard_num, overwrite=True)
    w.set_header_size(1 << 14)
    w.set_page_size(page_size)
    w.add_schema(schema, "oracle fixture")
    if index:
        w.add_index(index)
    w.write_raw_data(data if data is not None else rows(n))
    w.commit()


def dump(path):
    """Every row MindDataset reads (shuffle off) as JSON-able lists, for the test to compare with."""
    data = ds.MindDataset(path, shuffle=False)
    out = []
    for row in data.create_dict_iterator(output_numpy=True):
        entry = {}
        for k, v in row.items():
            if v.dtype.kind == "S":   # bytes fields: a (1,) array of dtype S<n>; keep a digest, not the bytes
                entry[k] = {"dtype": v.dtype.str, "shape": list(v.shape),
                            "sha256": hashlib.sha256(v.tobytes()).hexdigest()}
            else:
                entry[k] = {"dtype": v.dtype.str, "shape": list(v.shape),
                            "value": str(v) if v.dtype.kind == "U" else v.tolist()}
        out.append(entry)
    return out


def main():
    write("mixed.mindrecord", 1, 6, index=["file_name", "label"])
    write("sharded.mindrecord", 2, 5)
    big = [{"label": i, "img": bytes([i]) * 12000} for i in range(7)]
    write("paged.mindrecord", 1, 7, schema={"label": {"type": "int64"}, "img": {"type": "bytes"}}, data=big)
    scalars = [{"label": -i * 1000, "s": i / 3, "n": "x" * i} for i in range(3)]
    write("scalars.mindrecord", 1, 3, schema={"label": {"type": "int64"}, "s": {"type": "float32"},
                                              "n": {"type": "string"}}, index=["s", "n"], data=scalars)
    expected = {name: dump(os.path.join(OUT, name)) for name in
                ("mixed.mindrecord", "sharded.mindrecord0", "paged.mindrecord", "scalars.mindrecord")}
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        json.dump(expected, f, sort_keys=True)
    print("wrote", OUT)


def check(folder):
    """Read every .mindrecord written by mindspore_hl in ``folder`` with real MindSpore; print the rows."""
    for name in sorted(os.listdir(folder)):
        if name.endswith(".db") or ".mindrecord" not in name:
            continue
        path = os.path.join(folder, name)
        reader = FileReader(path)
        n = sum(1 for _ in reader.get_next())
        reader.close()
        print(name, "FileReader rows:", n, "MindDataset:", json.dumps(dump(path))[:300])


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--check":
        check(sys.argv[2])
    else:
        main()
