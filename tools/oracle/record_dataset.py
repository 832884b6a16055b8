"""Record real MindSpore 2.10's dataset-pipeline behaviour into tests/fixtures/oracle/dataset.npz.

Run with the oracle interpreter (see README.md). Cases: ``Dataset.split`` of a 10-row generator (sizes and rows
of each part with ``randomize=False``), and the rows real MindSpore reads from small files this script writes
into tests/fixtures/oracle/dataset_files/: a TFRecord file (``tf.train.Example`` records encoded by hand, no
TensorFlow), CSV files and text files.
"""
import json
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset as ds  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "dataset.npz")
FILES = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "dataset_files")


# ------------------------------------------------------------------ tf.train.Example by hand
def _varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(num, payload):
    return _varint((num << 3) | 2) + _varint(len(payload)) + payload


def _feature(v):
    if isinstance(v, list) and v and isinstance(v[0], bytes):
        return _field(1, b"".join(_field(1, x) for x in v))
    arr = np.asarray(v)
    if arr.dtype.kind == "f":
        return _field(2, _field(1, arr.astype("<f4").tobytes()))
    return _field(3, _field(1, b"".join(_varint(int(x)) for x in arr.reshape(-1))))


def example(features):
    """Serialized tf.train.Example of ``{name: [bytes...] | [float...] | [int...]}``."""
    return _field(1, b"".join(_field(1, _field(1, k.encode()) + _field(2, _feature(v)))
                              for k, v in features.items()))


_CRC = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ (0x82F63B78 if _c & 1 else 0)
    _CRC.append(_c)


def _masked_crc(data):
    c = 0xFFFFFFFF
    for x in data:
        c = _CRC[(c ^ x) & 0xFF] ^ (c >> 8)
    c ^= 0xFFFFFFFF
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def write_tfrecord(path, records):
    with open(path, "wb") as f:
        for data in records:
            head = struct.pack("<Q", len(data))
            f.write(head + struct.pack("<I", _masked_crc(head)) + data + struct.pack("<I", _masked_crc(data)))


def write_files():
    os.makedirs(FILES, exist_ok=True)
    rows = [{"image": [bytes([i]) * (3 + i)], "label": [i], "vals": [0.5 * i, -1.25, 3.0], "ids": [i, -i, 2 ** 40]}
            for i in range(4)]
    write_tfrecord(os.path.join(FILES, "sample.tfrecord"), [example(r) for r in rows])
    with open(os.path.join(FILES, "a.csv"), "w") as f:
        f.write("id,name,score\n1,alpha,0.5\n2,\"be,ta\",1.25\n3,gamma,\n")
    with open(os.path.join(FILES, "c.csv"), "w") as f:
        f.write("id,name,score\n1,alpha,0.5\n2,beta,2\n3,gamma,-4.75\n")
    with open(os.path.join(FILES, "b.csv"), "w") as f:
        f.write("4;delta;2.0\n5;eps;-1\n")
    with open(os.path.join(FILES, "a.txt"), "w") as f:
        f.write("first line\nsecond line\n\nfourth\n")
    with open(os.path.join(FILES, "b.txt"), "w") as f:
        f.write("b one\nb two")


def rows_of(dataset):
    """Every row (shuffle off) as one flat list of arrays, with the column names."""
    out = []
    for row in dataset.create_tuple_iterator(output_numpy=True):
        out.extend(np.asarray(v) for v in row)
    return out


def gen10():
    for i in range(10):
        yield (np.array(i, np.int64),)


def column(dataset, k=0):
    return np.asarray([np.asarray(row[k]) for row in dataset.create_tuple_iterator(output_numpy=True)])


def main():
    with FixtureWriter(OUT) as w:
        for sizes in ([0.8, 0.2], [3, 7], [0.25, 0.75], [0.33, 0.33, 0.34], [0.35, 0.35, 0.3],
                      [0.15, 0.45, 0.4], [0.05, 0.95], [4, 4]):
            case_id = "split/" + "_".join(map(str, sizes))
            try:
                parts = ds.GeneratorDataset(gen10, ["a"]).split(sizes, randomize=False)
            except Exception as e:  # noqa: BLE001
                w.add(case_id, name="split", sizes=sizes, error=type(e).__name__)
                continue
            w.add(case_id, outputs=[column(p) for p in parts], name="split", sizes=sizes)
        write_files()
        tf = os.path.join(FILES, "sample.tfrecord")
        schema = ds.Schema()
        schema.add_column("label", de_type="int64", shape=[1])
        schema.add_column("vals", de_type="float32", shape=[3])
        schema.add_column("image", de_type="uint8")
        readers = {
            "tfrecord/plain": (lambda: ds.TFRecordDataset(tf, shuffle=False), {}),
            "tfrecord/schema": (lambda: ds.TFRecordDataset(tf, schema=schema, shuffle=False),
                                {"schema": json.loads(schema.to_json())}),
            "tfrecord/columns": (lambda: ds.TFRecordDataset(tf, columns_list=["ids", "label"], shuffle=False), {}),
            "csv/header": (lambda: ds.CSVDataset(os.path.join(FILES, "a.csv"), shuffle=False), {}),
            "csv/defaults": (lambda: ds.CSVDataset(
                os.path.join(FILES, "c.csv"), column_defaults=[0, "", 0.0], shuffle=False), {}),
            "csv/names": (lambda: ds.CSVDataset(
                [os.path.join(FILES, "b.csv")], field_delim=";", column_defaults=[0, "", 0.0],
                column_names=["id", "name", "score"], shuffle=False), {}),
            "text/two": (lambda: ds.TextFileDataset([os.path.join(FILES, "a.txt"), os.path.join(FILES, "b.txt")],
                                                    shuffle=False), {}),
            "text/one_worker": (lambda: ds.TextFileDataset(
                [os.path.join(FILES, "a.txt"), os.path.join(FILES, "b.txt")], shuffle=False,
                num_parallel_workers=1), {}),
            "csv/two_files": (lambda: ds.CSVDataset(
                [os.path.join(FILES, "c.csv"), os.path.join(FILES, "a.csv")], shuffle=False), {}),
        }
        for case_id, (make, extra) in readers.items():
            try:
                data = make()
                outs = rows_of(data)
                w.add(case_id, outputs=outs, name=case_id.split("/")[0], columns=data.get_col_names(),
                      size=data.get_dataset_size(), **extra)
            except Exception as e:  # noqa: BLE001 - the error type is the recorded outcome
                w.add(case_id, name=case_id.split("/")[0], error=type(e).__name__, message=str(e)[:300], **extra)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
