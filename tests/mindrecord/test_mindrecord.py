"""MindRecord files: real MindSpore's files (tests/fixtures/oracle/mindrecord, written by
tools/oracle/record_mindrecord.py) are read here, and files written here are byte-identical to MindSpore's for
the same rows and settings (so MindSpore reads them; also checked by hand with ``record_mindrecord.py --check``)."""
import hashlib
import json
import os
import sqlite3

import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import DatasetFormatError, vision
from mindspore_hl.mindrecord import FileReader, FileWriter, FormatError
from mindspore_hl.mindrecord._format import compress_int, pack, uncompress_int, unpack
from tests.oracle import FIXTURE_ROOT

FIX = FIXTURE_ROOT / "mindrecord"
EXPECTED = json.loads((FIX / "expected.json").read_text())

SCHEMA = {"file_name": {"type": "string"}, "label": {"type": "int32"}, "score": {"type": "float64"},
          "data": {"type": "bytes"}, "vec": {"type": "float32", "shape": [2, 3]},
          "ids": {"type": "int64", "shape": [-1]}, "big": {"type": "int64"}}


def oracle_rows(n):
    """The rows tools/oracle/record_mindrecord.py gave real MindSpore."""
    out = []
    for i in range(n):
        out.append({"file_name": f"img_{i}.jpg", "label": i % 4, "score": i / 3, "data": bytes([i]) * (5 + 3 * i),
                    "vec": (np.arange(6, dtype=np.float32).reshape(2, 3) + i),
                    "ids": np.array([i, -300 * i, 70000 * i, -(2 ** 40) * i][: 1 + i % 4], np.int64),
                    "big": -(2 ** 33) + i})
    return out


PAGED = ({"label": {"type": "int64"}, "img": {"type": "bytes"}},
         [{"label": i, "img": bytes([i]) * 12000} for i in range(7)], None)
SCALARS = ({"label": {"type": "int64"}, "s": {"type": "float32"}, "n": {"type": "string"}},
           [{"label": -i * 1000, "s": i / 3, "n": "x" * i} for i in range(3)], ["s", "n"])
MIXED = (SCHEMA, oracle_rows(6), ["file_name", "label"])


def _check_row(row, want, where):
    for name, spec in want.items():
        got = row[name]
        if "sha256" in spec:
            assert got.dtype.str == spec["dtype"] and list(got.shape) == spec["shape"], where
            assert hashlib.sha256(got.tobytes()).hexdigest() == spec["sha256"], f"{where}: {name}"
        else:
            assert got.dtype.str == spec["dtype"] and list(got.shape) == spec["shape"], f"{where}: {name}"
            value = str(got) if got.dtype.kind == "U" else got.tolist()
            assert value == spec["value"], f"{where}: {name}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_mindspore_written_files_read_by_minddataset(name):
    data = ds.MindDataset(str(FIX / name), shuffle=False)
    rows = list(data.create_dict_iterator(output_numpy=True))
    assert len(rows) == len(EXPECTED[name]) == data.get_dataset_size()
    assert data.get_col_names() == sorted(EXPECTED[name][0])
    for i, (row, want) in enumerate(zip(rows, EXPECTED[name])):
        _check_row(row, want, f"{name} row {i}")


def test_file_reader_on_mindspore_file():
    rows = list(FileReader(str(FIX / "mixed.mindrecord")).get_next())
    want = oracle_rows(6)
    assert len(rows) == 6
    for got, exp in zip(rows, want):
        assert got["file_name"] == exp["file_name"] and got["label"] == exp["label"] and got["big"] == exp["big"]
        assert got["data"] == exp["data"] and got["score"] == pytest.approx(exp["score"])
        np.testing.assert_array_equal(got["ids"], exp["ids"])
        np.testing.assert_array_equal(got["vec"], exp["vec"])


@pytest.mark.parametrize("fixture,spec", [("mixed.mindrecord", MIXED), ("paged.mindrecord", PAGED),
                                          ("scalars.mindrecord", SCALARS)])
def test_written_files_are_byte_identical_to_mindspore(tmp_path, fixture, spec):
    schema, rows, index = spec
    path = str(tmp_path / fixture)
    w = FileWriter(path)
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)
    w.add_schema(schema, "oracle fixture")
    if index:
        w.add_index(index)
    w.write_raw_data(rows)
    w.commit()
    assert open(path, "rb").read() == (FIX / fixture).read_bytes()

    def table(p):
        db = sqlite3.connect(p)
        try:
            return db.execute("SELECT * FROM INDEXES ORDER BY ROW_ID").fetchall(), \
                db.execute("SELECT sql FROM sqlite_master WHERE name='INDEXES'").fetchall()
        finally:
            db.close()
    assert table(path + ".db") == table(str(FIX / fixture) + ".db")


def test_shards_round_trip_and_sharded_reading(tmp_path):
    path = str(tmp_path / "s.mindrecord")
    w = FileWriter(path, shard_num=3)
    w.set_header_size(1 << 14)
    w.set_page_size(1 << 15)
    w.add_schema(SCHEMA)
    w.write_raw_data(oracle_rows(7))
    w.commit()
    assert sorted(os.listdir(tmp_path)) == sorted(f"s.mindrecord{i}{e}" for i in range(3) for e in ("", ".db"))
    every = ds.MindDataset(path + "1", shuffle=False)
    assert [str(r[0]) for r in every.create_tuple_iterator(columns=["file_name"], output_numpy=True)] == \
        [f"img_{i}.jpg" for i in range(7)]
    one = ds.MindDataset([path + "2"], shuffle=False)
    assert one.get_dataset_size() == 2
    parts = [sorted(int(r[0]) for r in ds.MindDataset(path + "0", columns_list=["big"], num_shards=2, shard_id=k,
                                                       shuffle=False).create_tuple_iterator(output_numpy=True))
             for k in range(2)]
    # Real MindSpore 2.10 gives shards [0, 2, 4, 6] and [1, 3, 5, 0] (equal sizes, wrapping to the start).
    assert parts == [sorted(-(2 ** 33) + i for i in (0, 2, 4, 6)), sorted(-(2 ** 33) + i for i in (1, 3, 5, 0))]


def test_bytes_field_decodes_in_a_pipeline(tmp_path):
    import io

    from PIL import Image
    images = [np.full((4, 5, 3), 40 * i, np.uint8) for i in range(3)]
    rows = []
    for i, img in enumerate(images):
        buf = io.BytesIO()
        Image.fromarray(img).save(buf, format="PNG")
        rows.append({"image": buf.getvalue(), "label": i})
    path = str(tmp_path / "img.mindrecord")
    w = FileWriter(path)
    w.add_schema({"image": {"type": "bytes"}, "label": {"type": "int32"}})
    w.write_raw_data(rows)
    w.commit()
    data = ds.MindDataset(path, shuffle=False).map(vision.Decode(), "image")
    for (img, _label), want in zip(data.create_tuple_iterator(output_numpy=True), images):
        np.testing.assert_array_equal(img, want)


def test_padded_sample_evens_out_shards(tmp_path):
    path = str(tmp_path / "p.mindrecord")
    w = FileWriter(path)
    w.add_schema({"label": {"type": "int32"}})
    w.write_raw_data([{"label": i} for i in range(3)])
    w.commit()
    data = ds.MindDataset(path, shuffle=False, padded_sample={"label": -1}, num_padded=1)
    assert [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == [0, 1, 2, -1]


def test_errors_name_the_file(tmp_path):
    path = str(tmp_path / "e.mindrecord")
    w = FileWriter(path)
    w.add_schema({"label": {"type": "int32"}})
    with pytest.raises(TypeError, match="row 1, field 'label'"):
        w.write_raw_data([{"label": 1}, {"label": "x"}])
    with pytest.raises(RuntimeError, match="already exists"):
        FileWriter(str(FIX / "mixed.mindrecord"))
    with pytest.raises(ValueError, match="should be composed of"):
        FileWriter(str(tmp_path / "f.mindrecord")).add_schema({"bad-name": {"type": "int32"}})
    bad = tmp_path / "bad.mindrecord"
    bad.write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00{nope")
    with pytest.raises(DatasetFormatError, match="bad.mindrecord"):
        ds.MindDataset(str(bad))
    copy = tmp_path / "nodb.mindrecord"
    copy.write_bytes((FIX / "scalars.mindrecord").read_bytes())
    with pytest.raises(FormatError, match=r"nodb\.mindrecord\.db is missing"):
        FileReader([str(copy)])


def test_msgpack_and_integer_codecs():
    for v in (0, 127, 128, -1, -33, 70000, -(2 ** 40), 2 ** 63 - 1, 0.5, 1 / 3, "", "x" * 40, {"a": [1, None]}):
        assert unpack(pack(v)) == v
    assert pack(0.5) == b"\xca\x3f\x00\x00\x00"   # float32 when exact, as nlohmann::json writes
    values = np.array([0, 300, -70000, 2 ** 40, -5], np.int64)
    blob = compress_int(values)
    assert blob[:4] == b"\x00\x00\x00\x05" and blob[4:6] == bytes([0b00011011, 0b00000000])
    np.testing.assert_array_equal(uncompress_int(blob, np.int64), values)
