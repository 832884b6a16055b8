"""IDX files (MNIST, Fashion-MNIST), raw or gzipped, and the datasets that read them."""
from __future__ import annotations

import os
import struct
import threading
import zlib
from collections.abc import Iterable
from typing import Any

import numpy as np

from ._samplers import Sampler
from ._sources import DatasetFormatError, MappableSource, check_dir, check_usage

__all__ = ["parse_idx", "read_idx_file", "MnistDataset", "FashionMnistDataset", "KMnistDataset"]

# type code -> dtype (big-endian on disk)
_IDX_TYPES: dict[int, np.dtype] = {
    0x08: np.dtype(np.uint8), 0x09: np.dtype(np.int8), 0x0B: np.dtype(">i2"), 0x0C: np.dtype(">i4"),
    0x0D: np.dtype(">f4"), 0x0E: np.dtype(">f8")}


def parse_idx(data: bytes, name: str, expected_magic: int | None = None) -> np.ndarray:
    """Parse the bytes of an IDX file into an ndarray (read-only view of ``data`` for uint8).

    Args: data (bytes), name (str): the file, for messages, expected_magic (int | None): e.g. 0x803 for images.
    Raises DatasetFormatError naming ``name`` for a wrong magic number, a short header or data, or trailing
    bytes."""
    if len(data) < 4:
        raise DatasetFormatError(f"{name}: not an IDX file: {len(data)} bytes, shorter than the 4-byte magic number")
    z0, z1, code, ndim = data[0], data[1], data[2], data[3]
    if expected_magic is not None and struct.unpack(">I", bytes(data[:4]))[0] != expected_magic:
        raise DatasetFormatError(f"{name}: wrong magic number 0x{struct.unpack('>I', bytes(data[:4]))[0]:08x} "
                                 f"(expected 0x{expected_magic:08x} for an IDX "
                                 f"{'image' if expected_magic == 0x803 else 'label'} file)")
    if z0 or z1 or code not in _IDX_TYPES or ndim == 0:
        magic = struct.unpack(">I", bytes(data[:4]))[0]
        raise DatasetFormatError(f"{name}: wrong magic number 0x{magic:08x} for an IDX file (expected "
                                 f"0x0000TTNN with type TT in 08/09/0B/0C/0D/0E and NN >= 1 dimensions, e.g. "
                                 f"0x00000803 for images, 0x00000801 for labels)")
    header = 4 + 4 * ndim
    if len(data) < header:
        raise DatasetFormatError(f"{name}: truncated IDX file: {len(data)} bytes, shorter than its "
                                 f"{header}-byte header")
    dims = struct.unpack(f">{ndim}I", bytes(data[4:header]))
    dtype = _IDX_TYPES[code]
    count = 1
    for d in dims:
        count *= d
    expected = header + count * dtype.itemsize
    shape = str(dims) if ndim <= 8 else f"({', '.join(map(str, dims[:8]))}, ... {ndim} dims)"
    if len(data) < expected:
        raise DatasetFormatError(f"{name}: truncated IDX file: the header announces shape {shape} "
                                 f"({expected} bytes in all) but the file has {len(data)} bytes")
    if len(data) > expected:
        raise DatasetFormatError(f"{name}: {len(data) - expected} unexpected bytes after the IDX data of shape "
                                 f"{shape} ({expected} bytes expected)")
    arr = np.frombuffer(data, dtype=dtype, count=count, offset=header).reshape(dims)
    return arr if dtype.byteorder in "=|" else arr.astype(dtype.newbyteorder("="))


def _gunzip_bounded(path, f, limit):
    """Inflate the gzip stream ``f`` but at most ``limit(out_so_far)`` bytes: the IDX header, once inflated,
    says how many bytes the file should hold, so a file declaring little but inflating to a lot stops early.
    Concatenated gzip members (valid .gz files) are read one after the other."""
    out = bytearray()
    d = zlib.decompressobj(31)
    pending = b""
    while True:
        cap = limit(out)
        if len(out) >= cap:
            return bytes(out)
        if d.eof:
            pending = d.unused_data or f.read(1 << 16)
            if not pending:
                return bytes(out)
            d = zlib.decompressobj(31)
        chunk = d.unconsumed_tail or pending or f.read(1 << 16)
        pending = b""
        if not chunk:
            raise DatasetFormatError(f"{path}: corrupt gzip data: the stream ends early (truncated file)")
        try:
            out += d.decompress(chunk, cap - len(out))
        except zlib.error as e:
            raise DatasetFormatError(f"{path}: corrupt gzip data: {e}") from e


def _declared_size(head):
    """Bytes an IDX file with header ``head`` should hold (None while the header is incomplete)."""
    if len(head) < 4:
        return None
    ndim = head[3]
    if head[0] or head[1] or head[2] not in _IDX_TYPES or ndim == 0:
        return 4   # parse_idx names what is wrong with the magic number
    header = 4 + 4 * ndim
    if len(head) < header:
        return None
    count = 1
    for dim in struct.unpack(f">{ndim}I", bytes(head[4:header])):
        count *= dim
    return header + count * _IDX_TYPES[head[2]].itemsize


def read_idx_file(path: str, expected_magic: int | None = None) -> np.ndarray:
    """Read an IDX file, gunzipping it when it is gzip data. Raises DatasetFormatError for bad files.

    A gzipped file is inflated only as far as its header's declared size (plus one byte, to detect extra
    data), never to the end of an arbitrarily large stream."""
    try:
        with open(path, "rb") as f:
            magic = f.read(2)
            f.seek(0)
            if magic != b"\x1f\x8b":
                raw = f.read()
            else:
                def limit(out):
                    size = _declared_size(out)
                    return 1 << 20 if size is None else size + 1
                raw = _gunzip_bounded(path, f, limit)
    except OSError as e:
        raise DatasetFormatError(f"{path}: cannot read the file: {e}") from e
    return parse_idx(raw, path, expected_magic)


_cache: dict[Any, np.ndarray] = {}
_cache_lock = threading.Lock()


def _cached_idx(path, expected_magic):
    """Parsed files stay in memory keyed by (path, size, mtime): building many datasets reads a file once."""
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns)
    with _cache_lock:
        hit = _cache.get(key)
    if hit is None:
        hit = read_idx_file(path, expected_magic)
        with _cache_lock:
            if len(_cache) >= 8:
                _cache.pop(next(iter(_cache)))
            _cache[key] = hit
    return hit


def find_idx(dataset_dir: str, stem: str) -> str | None:
    """Path of ``stem`` (raw) or ``stem.gz`` in ``dataset_dir``, or None."""
    for name in (stem, stem + ".gz", stem.replace("-idx", ".idx"), stem.replace("-idx", ".idx") + ".gz"):
        path = os.path.join(dataset_dir, name)
        if os.path.isfile(path):
            return path
    return None


_PREFIX = {"train": ["train"], "test": ["t10k"], "all": ["train", "t10k"]}


def load_idx_pair(op: str, dataset_dir: str, usage: str) -> tuple[np.ndarray, np.ndarray]:
    """(images uint8 (N, H, W, 1), labels uint32 (N,)) of MNIST-layout files for ``usage``."""
    images, labels = [], []
    for prefix in _PREFIX[usage]:
        img_stem, lbl_stem = f"{prefix}-images-idx3-ubyte", f"{prefix}-labels-idx1-ubyte"
        img_path, lbl_path = find_idx(dataset_dir, img_stem), find_idx(dataset_dir, lbl_stem)
        for stem, path in ((img_stem, img_path), (lbl_stem, lbl_path)):
            if path is None:
                raise DatasetFormatError(f"{op}: {os.path.join(dataset_dir, stem)} (or {stem}.gz) not found; "
                                         f"usage={usage!r} needs {img_stem} and {lbl_stem}")
        img, lbl = _cached_idx(img_path, 0x803), _cached_idx(lbl_path, 0x801)
        if img.ndim != 3 or img.dtype != np.uint8:
            raise DatasetFormatError(f"{op}: {img_path}: expected uint8 images of shape (N, rows, cols), got "
                                     f"{img.dtype} of shape {img.shape}")
        if lbl.ndim != 1 or lbl.dtype != np.uint8:
            raise DatasetFormatError(f"{op}: {lbl_path}: expected uint8 labels of shape (N,), got {lbl.dtype} "
                                     f"of shape {lbl.shape}")
        if lbl.size and int(lbl.max()) >= 10:
            bad = int(np.argmax(lbl >= 10))
            raise DatasetFormatError(f"{op}: {lbl_path}: label {bad} is {int(lbl[bad])}, outside [0, 10) "
                                     f"(a corrupt or non-{op[:-7]} label file)")
        if len(img) != len(lbl):
            raise DatasetFormatError(f"{op}: {img_path} holds {len(img)} images but {lbl_path} holds {len(lbl)} "
                                     f"labels")
        images.append(img[..., None])
        labels.append(lbl.astype(np.uint32))
    if len(images) == 1:
        return images[0], labels[0]
    return np.concatenate(images), np.concatenate(labels)


class MnistDataset(MappableSource):
    """MNIST from IDX files (``train-images-idx3-ubyte`` & co, gzipped or not).

    Columns: image (28, 28, 1) uint8, label () uint32.
    Args: dataset_dir (str), usage ('train' | 'test' | 'all', default all), num_samples, num_parallel_workers,
        shuffle (default True), sampler, num_shards, shard_id, cache (unused), download (bool): fetch missing
        files from the canonical mirrors and verify their MD5 and SHA-256 first."""

    _name = "MnistDataset"
    _kind = "mnist"

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None, download: bool = False):
        self.usage = check_usage(usage)
        if download:
            from ._download import download_idx
            download_idx(self._kind, dataset_dir, self.usage)
        self.dataset_dir = check_dir(dataset_dir)
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.column_names = ["image", "label"]
        self._data: tuple[np.ndarray, np.ndarray] | None = None

    def _load(self):
        if self._data is None:
            self._data = load_idx_pair(self._name, self.dataset_dir, self.usage)
        return self._data

    def _length(self):
        return len(self._load()[1])

    def _read(self, ids):
        images, labels = self._load()
        return [images[ids], labels[ids]]

    def num_classes(self) -> int:
        return 10


class FashionMnistDataset(MnistDataset):
    """Fashion-MNIST (same IDX layout and columns as ``MnistDataset``, same arguments)."""
    _name = "FashionMnistDataset"
    _kind = "fashion_mnist"


class KMnistDataset(MnistDataset):
    """Kuzushiji-MNIST (same IDX layout, file names and columns as ``MnistDataset``).

    Args: dataset_dir, usage ('train' | 'test' | 'all'), num_samples, num_parallel_workers, shuffle, sampler,
        num_shards, shard_id, cache (unused)."""
    _name = "KMnistDataset"
    _kind = "kmnist"

    def __init__(self, dataset_dir: str, usage: str | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, shuffle: bool | None = None,
                 sampler: Sampler | Iterable[int] | None = None, num_shards: int | None = None,
                 shard_id: int | None = None, cache: Any = None):
        super().__init__(dataset_dir, usage, num_samples, num_parallel_workers, shuffle, sampler, num_shards,
                         shard_id, cache)
