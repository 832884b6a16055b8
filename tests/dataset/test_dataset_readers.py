"""Readers of published dataset layouts against real MindSpore 2.10 reading the same tiny files
(tests/dataset/_layouts.py writes them; tests/fixtures/oracle/dataset_readers.npz holds what MindSpore read,
from tools/oracle/record_dataset_readers.py): column names, dataset size, and every value with its dtype."""
import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import DatasetFormatError
from tests.dataset import _layouts
from tests.oracle import load_cases

_CASES = load_cases("dataset_readers.npz")
#: folder scans whose row order real MindSpore takes from the directory listing (not sorted): compared as sets
_LISTING_ORDER = {"yes_no"}
#: real MindSpore 2.10's get_dataset_size() differs from the rows it iterates here: Speech Commands counts every
#: usage's files, CoNLL-2000 and UDPOS count token lines instead of sentences, LSUN's test usage says 0; the size
#: here is the rows iterated
_MS_SIZE_WRONG = {"speech_commands/train", "speech_commands/valid", "conll2000/all", "conll2000/train",
                  "udpos/all", "udpos/valid", "lsun/test"}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("layouts")
    made = {}

    def get(layout):
        if layout not in made:
            made[layout] = str(root / layout)
            _layouts.LAYOUTS[layout](made[layout])
        return made[layout]
    return get


def _key(row):
    return tuple(v.tobytes() if v.dtype.kind != "U" else str(v).encode() for v in row)


@pytest.fixture
def recorded_workers():
    """The reader threads of the recording (line readers interleave files by worker, so the order depends on it)."""
    saved = ds.config.get_num_parallel_workers()
    ds.config.set_num_parallel_workers(_layouts.WORKERS)
    yield
    ds.config.set_num_parallel_workers(saved)


@pytest.mark.parametrize("case", [pytest.param(c, id=k) for k, c in _CASES.items()])
def test_reader_matches_mindspore(case, folders, recorded_workers):
    layout, expr = _layouts.CASES[case.id]
    assert case.error is None and case.meta["expr"] == expr
    data = eval(expr, {"ds": ds, "d": folders(layout)})  # noqa: S307 - the recorded expression
    assert data.get_col_names() == case.meta["columns"]
    ncol = len(case.meta["columns"])
    rows_recorded = len(case.outputs) // ncol
    assert data.get_dataset_size() == (rows_recorded if case.id in _MS_SIZE_WRONG else case.meta["size"])
    got = [[np.asarray(v) for v in row] for row in data.create_tuple_iterator(output_numpy=True)]
    want = [case.outputs[i:i + ncol] for i in range(0, len(case.outputs), ncol)]
    if layout in _LISTING_ORDER:
        got, want = sorted(got, key=_key), sorted(want, key=_key)
    assert len(got) == len(want)
    for r, (g_row, w_row) in enumerate(zip(got, want)):
        for name, g, w in zip(case.meta["columns"], g_row, w_row):
            where = f"row {r} column {name}"
            if w.dtype.kind == "U":
                assert g.dtype.kind == "U" and str(g) == str(w), where
                continue
            assert g.dtype == w.dtype and g.shape == w.shape, (where, g.dtype, g.shape, w.dtype, w.shape)
            if w.dtype.kind == "f":
                np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7, err_msg=where)
            else:
                np.testing.assert_array_equal(g, w, err_msg=where)


def test_reader_errors_name_the_file(tmp_path):
    _layouts.usps(str(tmp_path))
    (tmp_path / "usps.t").write_text("3 1:0.5 2:0.1\n")
    with pytest.raises(DatasetFormatError, match=r"usps\.t line 1 has 2 pixels, expected 256"):
        ds.USPSDataset(str(tmp_path), usage="test")
    (tmp_path / "train_X.bin").write_bytes(b"\x00" * 100)
    with pytest.raises(DatasetFormatError, match=r"train_X\.bin holds 100 bytes"):
        ds.STL10Dataset(str(tmp_path), usage="train")
    with pytest.raises(ValueError, match="EMnistDataset: name must be one of"):
        ds.EMnistDataset(str(tmp_path), "letter")
    with pytest.raises(DatasetFormatError, match="metadata.csv does not exist"):
        ds.LJSpeechDataset(str(tmp_path))
    (tmp_path / "bad.wav").write_bytes(b"RIFF0000WAVEjunk")
    (tmp_path / "metadata.csv").write_text("bad|a|a\n")
    (tmp_path / "wavs").mkdir()
    (tmp_path / "wavs" / "bad.wav").write_bytes(b"RIFF0000WAVEjunk")
    with pytest.raises(DatasetFormatError, match=r"wavs/bad\.wav is not a readable PCM WAV file"):
        list(ds.LJSpeechDataset(str(tmp_path)).create_tuple_iterator())
