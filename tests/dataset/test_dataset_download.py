"""``download=True`` against a local HTTP server serving copies of the real files (never the internet)."""
import functools
import http.server
import os
import shutil
import threading

import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import DatasetFormatError, _download
from tests.dataset._data import FASHION_DIR, MNIST_DIR


@pytest.fixture
def serve(tmp_path):
    """serve(folder) -> base URL of a 127.0.0.1 HTTP server for that folder (stopped after the test)."""
    servers = []

    def start(folder):
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
        handler.log_message = lambda *a, **k: None
        srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        servers.append(srv)
        return f"http://127.0.0.1:{srv.server_address[1]}/"

    yield start
    for srv in servers:
        srv.shutdown()
        srv.server_close()


def _copy(src, dst, names):
    os.makedirs(dst, exist_ok=True)
    for n in names:
        shutil.copy(os.path.join(src, n), os.path.join(dst, n))


TEST_FILES = ["t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"]


@pytest.mark.timeout(60)
def test_download_mnist_from_mirror(tmp_path, serve, monkeypatch):
    good = tmp_path / "good"
    _copy(MNIST_DIR, good, TEST_FILES)
    bad = tmp_path / "bad"
    os.makedirs(bad)
    for n in TEST_FILES:
        (bad / n).write_bytes(b"corrupted copy")
    # the first mirror serves corrupt files, the second is missing them, the third is right
    monkeypatch.setitem(_download.MIRRORS, "mnist", [serve(bad), serve(tmp_path / "empty"), serve(good)])
    target = tmp_path / "MNIST_Data" / "test"
    d = ds.MnistDataset(str(target), usage="test", download=True)
    assert d.get_dataset_size() == 10000
    assert sorted(os.listdir(target)) == sorted(TEST_FILES)      # no partial files left behind
    again = ds.MnistDataset(str(target), usage="test", download=True)   # present: nothing fetched
    assert again.get_dataset_size() == 10000


@pytest.mark.timeout(60)
def test_download_rejects_bad_checksums(tmp_path, serve, monkeypatch):
    bad = tmp_path / "bad"
    os.makedirs(bad)
    # the Fashion-MNIST files are valid IDX files, but not the MNIST ones: the checksums catch it
    for n in TEST_FILES:
        shutil.copy(os.path.join(FASHION_DIR, n), bad / n)
    monkeypatch.setitem(_download.MIRRORS, "mnist", [serve(bad)])
    target = tmp_path / "out"
    with pytest.raises(DatasetFormatError, match="(?s)t10k-images-idx3-ubyte.gz failed.*checksum mismatch"):
        ds.MnistDataset(str(target), usage="test", download=True)
    assert os.listdir(target) == []


@pytest.mark.timeout(60)
def test_download_fashion(tmp_path, serve, monkeypatch):
    good = tmp_path / "good"
    _copy(FASHION_DIR, good, TEST_FILES)
    monkeypatch.setitem(_download.MIRRORS, "fashion_mnist", [serve(good)])
    d = ds.FashionMnistDataset(str(tmp_path / "fm"), usage="test", download=True)
    assert d.get_dataset_size() == 10000
