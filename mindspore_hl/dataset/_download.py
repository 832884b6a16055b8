"""``download=True`` for the MNIST family: fetch the original gz files from the canonical mirrors, keep a file
only when both its MD5 (the published checksum) and its SHA-256 match."""
from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request

from ._sources import DatasetFormatError

__all__ = ["MIRRORS", "CHECKSUMS", "download_idx"]

# Tried in order. Tests point these at a local server.
MIRRORS = {
    "mnist": ["https://ossci-datasets.s3.amazonaws.com/mnist/",
              "https://storage.googleapis.com/cvdf-datasets/mnist/",
              "http://yann.lecun.com/exdb/mnist/"],
    "fashion_mnist": ["http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"],
}

# file -> (md5, sha256) of the published .gz files
CHECKSUMS = {
    "mnist": {
        "train-images-idx3-ubyte.gz": ("f68b3c2dcbeaaa9fbdd348bbdeb94873",
                                       "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609"),
        "train-labels-idx1-ubyte.gz": ("d53e105ee54ea40749a09fcbcd1e9432",
                                       "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c"),
        "t10k-images-idx3-ubyte.gz": ("9fb629c4189551a2d022fa330f9573f3",
                                      "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6"),
        "t10k-labels-idx1-ubyte.gz": ("ec29112dd5afa0611ce80d1b7f02629c",
                                      "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6"),
    },
    "fashion_mnist": {
        "train-images-idx3-ubyte.gz": ("8d4fb7e6c68d591d4c3dfef9ec88bf0d",
                                       "3aede38d61863908ad78613f6a32ed271626dd12800ba2636569512369268a84"),
        "train-labels-idx1-ubyte.gz": ("25c81989df183df01b3e8a0aad5dffbe",
                                       "a04f17134ac03560a47e3764e11b92fc97de4d1bfaf8ba1a3aa29af54cc90845"),
        "t10k-images-idx3-ubyte.gz": ("bef4ecab320f06d8554ea6380940ec79",
                                      "346e55b948d973a97e58d2351dde16a484bd415d4595297633bb08f03db6a073"),
        "t10k-labels-idx1-ubyte.gz": ("bb300cfdad3c16e7a12a480ee83cd310",
                                      "67da17c76eaffca5446c3361aaab5c3cd6d1c2608764d35dfb1850b086bf8dd5"),
    },
}

_PREFIX = {"train": ["train"], "test": ["t10k"], "all": ["train", "t10k"]}


def _fetch(url, timeout):
    with urllib.request.urlopen(url, timeout=timeout) as resp:
        return resp.read()


def _download_one(kind, dataset_dir, name, timeout):
    md5, sha256 = CHECKSUMS[kind][name]
    errors = []
    for mirror in MIRRORS[kind]:
        url = mirror + name
        try:
            data = _fetch(url, timeout)
        except (urllib.error.URLError, OSError, ValueError) as e:
            errors.append(f"{url}: {e}")
            continue
        got_md5, got_sha = hashlib.md5(data).hexdigest(), hashlib.sha256(data).hexdigest()
        if got_md5 != md5 or got_sha != sha256:
            errors.append(f"{url}: checksum mismatch (md5 {got_md5}, expected {md5}; sha256 {got_sha}, "
                          f"expected {sha256})")
            continue
        fd, tmp = tempfile.mkstemp(dir=dataset_dir, prefix=f".{name}.", suffix=".part")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, os.path.join(dataset_dir, name))   # atomic: never a half-written dataset file
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        return
    raise DatasetFormatError(f"download of {name} failed from every mirror:\n  " + "\n  ".join(errors))


def download_idx(kind: str, dataset_dir: str, usage: str, timeout: float = 60) -> None:
    """Make sure ``dataset_dir`` holds the files ``usage`` needs, downloading the missing ones."""
    from ._idx import find_idx
    os.makedirs(dataset_dir, exist_ok=True)
    for prefix in _PREFIX[usage]:
        for stem in (f"{prefix}-images-idx3-ubyte", f"{prefix}-labels-idx1-ubyte"):
            if find_idx(dataset_dir, stem) is None:
                _download_one(kind, dataset_dir, stem + ".gz", timeout)
