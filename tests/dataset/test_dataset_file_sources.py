"""TFRecord, CSV and text sources against real MindSpore 2.10 reading the same files
(tests/fixtures/oracle/dataset_files and dataset.npz, from tools/oracle/record_dataset.py), plus the in-memory
sources and the weighted / PK samplers."""
import json
import os

import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import DatasetFormatError
from tests.oracle import FIXTURE_ROOT, assert_close, load_cases

FILES = FIXTURE_ROOT / "dataset_files"
_CASES = {k: c for k, c in load_cases("dataset.npz").items() if k.split("/")[0] in ("tfrecord", "csv", "text")}


def _make(case_id, meta):
    f = lambda n: str(FILES / n)  # noqa: E731
    if case_id == "tfrecord/plain":
        return ds.TFRecordDataset(f("sample.tfrecord"), shuffle=False)
    if case_id == "tfrecord/schema":
        schema = ds.Schema()
        schema.from_json(meta["schema"])
        return ds.TFRecordDataset(f("sample.tfrecord"), schema=schema, shuffle=False)
    if case_id == "tfrecord/columns":
        return ds.TFRecordDataset(f("sample.tfrecord"), columns_list=["ids", "label"], shuffle=False)
    if case_id == "csv/header":
        return ds.CSVDataset(f("a.csv"), shuffle=False)
    if case_id == "csv/defaults":
        return ds.CSVDataset(f("c.csv"), column_defaults=[0, "", 0.0], shuffle=False)
    if case_id == "csv/names":
        return ds.CSVDataset([f("b.csv")], field_delim=";", column_defaults=[0, "", 0.0],
                             column_names=["id", "name", "score"], shuffle=False)
    if case_id == "csv/two_files":
        return ds.CSVDataset([f("c.csv"), f("a.csv")], shuffle=False)
    if case_id == "text/two":
        return ds.TextFileDataset([f("a.txt"), f("b.txt")], shuffle=False)
    if case_id == "text/one_worker":
        return ds.TextFileDataset([f("a.txt"), f("b.txt")], shuffle=False, num_parallel_workers=1)
    raise KeyError(case_id)


@pytest.mark.parametrize("case", [pytest.param(c, id=k) for k, c in _CASES.items()])
def test_file_sources_match_mindspore(case):
    assert case.error is None
    data = _make(case.id, case.meta)
    assert data.get_col_names() == case.meta["columns"]
    assert data.get_dataset_size() == case.meta["size"]
    got = [np.asarray(v) for row in data.create_tuple_iterator(output_numpy=True) for v in row]
    assert len(got) == len(case.outputs)
    for i, (g, want) in enumerate(zip(got, case.outputs)):
        if want.dtype.kind == "U":
            assert g.dtype.kind == "U" and str(g) == str(want), f"value {i}"
        else:
            assert_close(g, want, what=f"value {i}")


def test_tfrecord_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.tfrecord"
    bad.write_bytes(b"not a tfrecord file at all")
    with pytest.raises(DatasetFormatError, match=r"bad\.tfrecord: bad length checksum"):
        ds.TFRecordDataset(str(bad))
    good = (FILES / "sample.tfrecord").read_bytes()
    cut = tmp_path / "cut.tfrecord"
    cut.write_bytes(good[:-10])
    with pytest.raises(DatasetFormatError, match=r"cut\.tfrecord"):
        ds.TFRecordDataset(str(cut))


def test_tfrecord_gzip_and_schema_file(tmp_path):
    import gzip
    gz = tmp_path / "s.tfrecord.gz"
    gz.write_bytes(gzip.compress((FILES / "sample.tfrecord").read_bytes()))
    schema_file = tmp_path / "schema.json"
    schema_file.write_text(json.dumps({"columns": {"label": {"type": "int32", "rank": 1, "shape": [1]}}}))
    data = ds.TFRecordDataset(str(gz), schema=str(schema_file), shuffle=False, compression_type="GZIP")
    got = [r[0] for r in data.create_tuple_iterator(output_numpy=True)]
    assert [g.tolist() for g in got] == [[0], [1], [2], [3]] and got[0].dtype == np.int32


def test_csv_errors_name_the_file(tmp_path):
    short = tmp_path / "short.csv"
    short.write_text("a,b\n1,2\n3\n")
    with pytest.raises(DatasetFormatError, match=r"short\.csv line 3 has 1 fields"):
        ds.CSVDataset(str(short))
    typed = tmp_path / "typed.csv"
    typed.write_text("a,b\n1,x\n")
    with pytest.raises(DatasetFormatError, match=r"typed\.csv line 2: field 1 'x' is not a float"):
        ds.CSVDataset(str(typed), column_defaults=[0, 0.5])


def test_padded_and_random_datasets():
    padded = ds.PaddedDataset([{"label": np.array(1), "image": np.zeros(2, np.uint8)},
                               {"label": np.array(2), "image": np.ones(2, np.uint8)}])
    assert padded.get_col_names() == ["label", "image"] and padded.get_dataset_size() == 2
    assert [int(r[0]) for r in padded.create_tuple_iterator(output_numpy=True)] == [1, 2]
    schema = ds.Schema()
    schema.add_column("a", de_type="int32", shape=[2, 3])
    schema.add_column("b", de_type="float32")
    data = ds.RandomDataset(total_rows=5, schema=schema)
    rows = list(data.create_tuple_iterator(output_numpy=True))
    assert len(rows) == 5 and data.get_col_names() == ["a", "b"]
    assert rows[0][0].dtype == np.int32 and rows[0][0].shape == (2, 3) and rows[0][1].shape == ()
    assert all(0 <= r[0].min() and r[0].max() <= 255 and 0 <= r[1] < 1 for r in rows)


def test_weighted_random_sampler_follows_the_weights():
    ds.config.set_seed(3)
    data = ds.NumpySlicesDataset(np.arange(3), sampler=ds.WeightedRandomSampler([0.1, 0.0, 0.9],
                                                                                 num_samples=2000))
    counts = np.bincount([int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)], minlength=3)
    assert counts[1] == 0 and counts.sum() == 2000
    assert abs(counts[2] / 2000 - 0.9) < 0.03   # 0.9 +- ~5 standard deviations of 2000 draws
    with pytest.raises(ValueError, match="not all zero"):
        ds.WeightedRandomSampler([0, 0])


def test_pk_sampler_takes_k_rows_per_class():
    labels = np.array([0, 0, 0, 1, 2, 2], np.int32)
    data = ds.NumpySlicesDataset({"x": np.arange(6), "label": labels}, sampler=ds.PKSampler(2))
    got = [(int(r[0]), int(r[1])) for r in data.create_tuple_iterator(output_numpy=True)]
    assert [lab for _, lab in got] == [0, 0, 1, 1, 2, 2]
    assert all(labels[x] == lab for x, lab in got)
    assert data.get_dataset_size() == 6


def test_zip_function_and_config_tuning():
    a = ds.NumpySlicesDataset({"a": [1, 2, 3]}, shuffle=False)
    b = ds.NumpySlicesDataset({"b": [4, 5]}, shuffle=False)
    assert [tuple(int(v) for v in r) for r in ds.zip((a, b)).create_tuple_iterator(output_numpy=True)] == \
        [(1, 4), (2, 5)]
    saved = ds.config.get_callback_timeout()
    ds.config.set_callback_timeout(5)
    assert ds.config.get_callback_timeout() == 5
    ds.config.set_callback_timeout(saved)
    with pytest.raises(ValueError):
        ds.config.set_monitor_sampling_interval(0)


def test_kmnist_reads_mnist_layout_and_fake_images(tmp_path):
    import struct
    n = 3
    (tmp_path / "train-images-idx3-ubyte").write_bytes(struct.pack(">IIII", 0x803, n, 28, 28) + bytes(range(n)) * 784)
    (tmp_path / "train-labels-idx1-ubyte").write_bytes(struct.pack(">II", 0x801, n) + bytes([4, 0, 9]))
    data = ds.KMnistDataset(str(tmp_path), usage="train", shuffle=False)
    assert [int(r[1]) for r in data.create_tuple_iterator(output_numpy=True)] == [4, 0, 9]
    fake = ds.FakeImageDataset(num_images=5, image_size=(4, 6, 3), num_classes=3, base_seed=2, shuffle=False)
    rows = list(fake.create_tuple_iterator(output_numpy=True))
    assert fake.get_col_names() == ["image", "label"] and fake.num_classes() == 3
    assert rows[0][0].shape == (4, 6, 3) and rows[0][0].dtype == np.uint8 and rows[0][1].dtype == np.uint32
    again = list(ds.FakeImageDataset(5, (4, 6, 3), 3, 2, shuffle=False).create_tuple_iterator(output_numpy=True))
    assert all(np.array_equal(a[0], b[0]) and int(a[1]) == int(b[1]) < 3 for a, b in zip(rows, again))


def test_coco_detection_matches_mindspore(tmp_path):
    # expected rows: what real MindSpore 2.10 reads from the same files (checked with the oracle)
    from PIL import Image
    os.makedirs(tmp_path / "img")
    for i, n in enumerate(["b.jpg", "a.jpg", "c.jpg"]):
        Image.fromarray(np.full((4 + i, 5, 3), 40 * i, np.uint8)).save(tmp_path / "img" / n)
    ann = {"images": [{"id": 7, "file_name": "b.jpg"}, {"id": 3, "file_name": "a.jpg"},
                      {"id": 9, "file_name": "c.jpg"}],
           "annotations": [{"id": 1, "image_id": 7, "bbox": [1, 1, 2, 2], "category_id": 2, "iscrowd": 0},
                           {"id": 2, "image_id": 7, "bbox": [0, 0, 1, 3], "category_id": 1, "iscrowd": 1},
                           {"id": 3, "image_id": 3, "bbox": [2, 2, 1, 1], "category_id": 1, "iscrowd": 0}],
           "categories": [{"id": 1, "name": "cat"}, {"id": 2, "name": "dog"}]}
    (tmp_path / "ann.json").write_text(json.dumps(ann))
    data = ds.CocoDataset(str(tmp_path / "img"), str(tmp_path / "ann.json"), shuffle=False)
    assert data.get_col_names() == ["image", "bbox", "category_id", "iscrowd"] and data.get_dataset_size() == 2
    assert data.get_class_indexing() == {"cat": [1], "dog": [2]}
    rows = list(data.create_dict_iterator(output_numpy=True))
    assert rows[0]["bbox"].tolist() == [[1, 1, 2, 2], [0, 0, 1, 3]] and rows[0]["bbox"].dtype == np.float32
    assert rows[0]["category_id"].tolist() == [[2], [1]] and rows[0]["iscrowd"].tolist() == [[0], [1]]
    assert rows[1]["category_id"].dtype == np.uint32 and rows[1]["bbox"].tolist() == [[2, 2, 1, 1]]
    decoded = ds.CocoDataset(str(tmp_path / "img"), str(tmp_path / "ann.json"), shuffle=False, decode=True,
                             extra_metadata=True)
    first = next(iter(decoded.create_dict_iterator(output_numpy=True)))
    assert first["image"].shape == (4, 5, 3) and str(first["_meta-filename"]) == "b.jpg"


def test_voc_detection_and_segmentation_match_mindspore(tmp_path):
    # expected rows: what real MindSpore 2.10 reads from the same files (checked with the oracle)
    from PIL import Image
    for sub in ("Annotations", "JPEGImages", "ImageSets/Main", "ImageSets/Segmentation", "SegmentationClass"):
        os.makedirs(tmp_path / sub)
    objs = {"x1": [("dog", 1, 2, 4, 5, 0, 1), ("cat", 1, 1, 3, 3, 1, 0)], "x2": [("cat", 2, 1, 5, 4, 0, 0)]}
    for k, v in objs.items():
        Image.fromarray(np.full((6, 7, 3), 50, np.uint8)).save(tmp_path / "JPEGImages" / f"{k}.jpg")
        Image.fromarray(np.full((6, 7), 1, np.uint8)).save(tmp_path / "SegmentationClass" / f"{k}.png")
        body = "".join(f"<object><name>{n}</name><difficult>{d}</difficult><truncated>{t}</truncated><bndbox>"
                       f"<xmin>{a}</xmin><ymin>{b}</ymin><xmax>{c}</xmax><ymax>{e}</ymax></bndbox></object>"
                       for n, a, b, c, e, d, t in v)
        (tmp_path / "Annotations" / f"{k}.xml").write_text(f"<annotation>{body}</annotation>")
    (tmp_path / "ImageSets/Main/train.txt").write_text("x2\nx1\n")
    (tmp_path / "ImageSets/Segmentation/train.txt").write_text("x1\n")
    det = ds.VOCDataset(str(tmp_path), task="Detection", usage="train", shuffle=False)
    assert det.get_col_names() == ["image", "bbox", "label", "difficult", "truncate"]
    assert det.get_class_indexing() == {"cat": 0, "dog": 1}
    rows = list(det.create_dict_iterator(output_numpy=True))
    assert rows[0]["bbox"].tolist() == [[2, 1, 3, 3]] and rows[0]["label"].tolist() == [[0]]
    assert rows[1]["bbox"].tolist() == [[1, 2, 3, 3], [1, 1, 2, 2]] and rows[1]["label"].tolist() == [[1], [0]]
    assert rows[1]["difficult"].tolist() == [[0], [1]] and rows[1]["truncate"].tolist() == [[1], [0]]
    assert rows[1]["label"].dtype == np.uint32 and rows[1]["bbox"].dtype == np.float32
    custom = ds.VOCDataset(str(tmp_path), task="Detection", usage="train", shuffle=False,
                           class_indexing={"cat": 5, "dog": 2})
    assert [r["label"].tolist() for r in custom.create_dict_iterator(output_numpy=True)] == [[[5]], [[2], [5]]]
    seg = ds.VOCDataset(str(tmp_path), task="Segmentation", usage="train", shuffle=False, decode=True)
    img, target = next(iter(seg.create_tuple_iterator(output_numpy=True)))
    assert seg.get_col_names() == ["image", "target"] and img.shape == (6, 7, 3) and target.shape[:2] == (6, 7)
    (tmp_path / "Annotations" / "x2.xml").write_text(
        "<annotation><object><name>cat</name><bndbox><xmin>0</xmin><ymin>1</ymin><xmax>3</xmax><ymax>4</ymax>"
        "</bndbox></object></annotation>")
    with pytest.raises(DatasetFormatError, match=r"x2\.xml"):
        ds.VOCDataset(str(tmp_path), task="Detection", usage="train")


def test_celeba_matches_mindspore(tmp_path):
    # expected rows: what real MindSpore 2.10 reads from the same files (checked with the oracle)
    from PIL import Image
    for n in ("1.jpg", "2.jpg", "3.jpg"):
        Image.fromarray(np.full((4, 4, 3), 9, np.uint8)).save(tmp_path / n)
    (tmp_path / "list_attr_celeba.txt").write_text(
        "3\nSmiling Young Male\n1.jpg  1 -1  1\n2.jpg -1 -1 1\n3.jpg  1  1 -1\n")
    (tmp_path / "list_eval_partition.txt").write_text("1.jpg 0\n2.jpg 1\n3.jpg 0\n")
    expect = {"all": [[1, 0, 1], [0, 0, 1], [1, 1, 0]], "train": [[1, 0, 1], [1, 1, 0]], "valid": [[0, 0, 1]]}
    for usage, attrs in expect.items():
        data = ds.CelebADataset(str(tmp_path), usage=usage, shuffle=False)
        rows = list(data.create_dict_iterator(output_numpy=True))
        assert data.get_col_names() == ["image", "attr"] and [r["attr"].tolist() for r in rows] == attrs
        assert rows[0]["attr"].dtype == np.uint32
    decoded = ds.CelebADataset(str(tmp_path), shuffle=False, decode=True)
    assert next(iter(decoded.create_dict_iterator(output_numpy=True)))["image"].shape == (4, 4, 3)


def test_text_corpora_match_mindspore(tmp_path):
    # expected rows: what real MindSpore 2.10 reads from the same files (checked with the oracle)
    rows = '"3","Wall St. Bears","Reuters - Short-sellers"\n"4","Title two","desc, two"\n'
    (tmp_path / "train.csv").write_text(rows)
    (tmp_path / "test.csv").write_text(rows)
    for cls, cols in ((ds.AGNewsDataset, ["index", "title", "description"]),
                      (ds.AmazonReviewDataset, ["label", "title", "content"]),
                      (ds.DBpediaDataset, ["class", "title", "content"]),
                      (ds.SogouNewsDataset, ["index", "title", "content"])):
        data = cls(str(tmp_path), usage="train", shuffle=False)
        assert data.get_col_names() == cols
        assert [[str(x) for x in r] for r in data.create_tuple_iterator(output_numpy=True)] == \
            [["3", "Wall St. Bears", "Reuters - Short-sellers"], ["4", "Title two", "desc, two"]]
    for name in ("ptb.train.txt", "wiki.train.tokens", "enwik9"):
        (tmp_path / name).write_text(" aer banknote \n berlitz calloway \n")
    for data in (ds.PennTreebankDataset(str(tmp_path), usage="train", shuffle=False),
                 ds.WikiTextDataset(str(tmp_path), usage="train", shuffle=False),
                 ds.EnWik9Dataset(str(tmp_path), shuffle=False)):
        assert data.get_col_names() == ["text"]
        assert [str(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] == \
            [" aer banknote ", " berlitz calloway "]
    with pytest.raises(ValueError, match="valid"):
        ds.PennTreebankDataset(str(tmp_path), usage="valid")
