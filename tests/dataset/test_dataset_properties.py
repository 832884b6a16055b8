"""Hypothesis properties of the pipeline, and a fuzz test of the IDX and CIFAR readers."""
import gzip
import struct

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import DatasetFormatError
from mindspore_hl.dataset._cifar import parse_cifar
from mindspore_hl.dataset._idx import parse_idx, read_idx_file

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def ids_of(d, **kw):
    return [int(np.asarray(r[0]).ravel()[0]) for r in d.create_tuple_iterator(output_numpy=True, **kw)]


def source(n, **kw):
    return ds.NumpySlicesDataset({"id": np.arange(n, dtype=np.int64)}, **kw)


@SETTINGS
@given(n=st.integers(1, 700), buffer=st.integers(2, 1000), seed=st.integers(0, 2 ** 31))
def test_shuffle_is_a_permutation(n, buffer, seed):
    ds.config.set_seed(seed)
    out = ids_of(source(n, shuffle=False).shuffle(buffer))
    assert sorted(out) == list(range(n))
    assert sorted(ids_of(source(n, shuffle=True))) == list(range(n))


@SETTINGS
@given(n=st.integers(0, 500), shards=st.integers(1, 9), shuffle=st.booleans(), seed=st.integers(0, 1000),
       epoch=st.integers(0, 2))
def test_shards_are_equal_and_cover(n, shards, shuffle, seed, epoch):
    # As MindSpore's: every shard gets ceil(n / shards) rows, the epoch order wrapping around to its start, so
    # the processes of a data-parallel job run the same number of steps.
    ds.config.set_seed(seed)
    seen = []
    per_shard = -(-n // shards)
    for k in range(shards):
        d = source(n, shuffle=shuffle, num_shards=shards, shard_id=k)
        it = d.create_tuple_iterator(num_epochs=epoch + 1, output_numpy=True)
        for _ in range(epoch):
            list(it)
        part = [int(r[0]) for r in it]
        assert len(part) == d.get_dataset_size() == per_shard
        seen.extend(part)
    assert sorted(set(seen)) == list(range(n))     # covering
    assert len(seen) - len(set(seen)) == per_shard * shards - n   # only the padding repeats rows


@SETTINGS
@given(n=st.integers(0, 600), bs=st.integers(1, 70), drop=st.booleans(), via_map=st.booleans())
def test_batch_sizes_are_exact(n, bs, drop, via_map):
    d = source(n, shuffle=False)
    if via_map:
        d = d.map(lambda x: x, "id")      # python map: blocks re-stacked row by row
    d = d.batch(bs, drop_remainder=drop)
    sizes = [len(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]
    full, rest = divmod(n, bs)
    assert sizes == [bs] * full + ([] if drop or rest == 0 else [rest])
    assert d.get_dataset_size() == len(sizes)
    flat = [v for b in d.create_tuple_iterator(output_numpy=True) for v in b[0].tolist()]
    assert flat == list(range(full * bs if drop else n))


@SETTINGS
@given(n=st.integers(1, 300), epochs=st.integers(1, 4), bs=st.integers(1, 50), seed=st.integers(0, 99))
def test_iterators_are_reentrant_across_epochs(n, epochs, bs, seed):
    ds.config.set_seed(seed)
    d = source(n, shuffle=True).batch(bs)
    it = d.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    runs = []
    for _ in range(epochs):
        batches = list(it)
        assert len(batches) == d.get_dataset_size()
        runs.append(np.concatenate([b[0] for b in batches]).tolist())
        assert sorted(runs[-1]) == list(range(n))
    assert list(it) == []
    ds.config.set_seed(seed)
    again = d.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    assert [np.concatenate([b[0] for b in again]).tolist() for _ in range(epochs)] == runs   # reproducible


def _idx_bytes(dims, code=0x08, payload=None):
    head = bytes([0, 0, code, len(dims)]) + struct.pack(f">{len(dims)}I", *dims)
    size = int(np.prod(dims)) if dims else 0
    return head + (payload if payload is not None else bytes(size))


@settings(max_examples=300, deadline=None)
@given(data=st.one_of(
    st.binary(max_size=64),
    st.builds(lambda dims, cut, extra: _idx_bytes(dims)[:cut] + extra,
              st.lists(st.integers(0, 6), min_size=1, max_size=4), st.integers(0, 200), st.binary(max_size=3)),
    st.builds(lambda code, nd, rest: bytes([0, 0, code, nd]) + rest, st.integers(0, 255), st.integers(0, 255),
              st.binary(max_size=80))))
def test_fuzz_idx_reader_only_named_errors(data):
    try:
        arr = parse_idx(data, "fuzz.idx")
    except DatasetFormatError as e:
        assert "fuzz.idx" in str(e)
        return
    assert arr.size * arr.dtype.itemsize + 4 + 4 * arr.ndim == len(data)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200), gz=st.booleans(), corrupt=st.integers(0, 40))
def test_fuzz_idx_files_gzip(tmp_path, data, gz, corrupt):
    blob = gzip.compress(data) if gz else data
    if gz and corrupt:
        blob = blob[:corrupt] + bytes([blob[corrupt % len(blob)] ^ 0xFF]) + blob[corrupt + 1:]
    path = tmp_path / "f-idx3-ubyte"
    path.write_bytes(blob)
    try:
        read_idx_file(str(path))
    except DatasetFormatError as e:
        assert str(path) in str(e)


@settings(max_examples=200, deadline=None)
@given(n_labels=st.sampled_from([1, 2]), records=st.integers(0, 3), cut=st.integers(-5, 5),
       labels=st.lists(st.integers(0, 255), min_size=6, max_size=6), seed=st.integers(0, 10))
def test_fuzz_cifar_reader_only_named_errors(n_labels, records, cut, labels, seed):
    rec = n_labels + 3072
    rng = np.random.default_rng(seed)
    body = bytearray(rng.integers(0, 256, size=records * rec, dtype=np.uint8).tobytes())
    for r in range(records):
        body[r * rec:r * rec + n_labels] = bytes(labels[r * n_labels:(r + 1) * n_labels])
    data = bytes(body[:max(0, len(body) + cut)]) if cut < 0 else bytes(body) + bytes(cut)
    limits = (10,) if n_labels == 1 else (20, 100)
    try:
        images, labs = parse_cifar(data, "fuzz.bin", n_labels, limits)
    except DatasetFormatError as e:
        assert "fuzz.bin" in str(e)
        return
    assert images.shape == (len(data) // rec, 32, 32, 3) and len(labs) == n_labels
    for lab, limit in zip(labs, limits):
        assert lab.dtype == np.uint32 and (lab < limit).all()


@settings(max_examples=60, deadline=None)
@given(img_dims=st.lists(st.integers(0, 4), min_size=1, max_size=4), lbl_dims=st.lists(st.integers(0, 4),
       min_size=1, max_size=2), img_code=st.sampled_from([0x08, 0x08, 0x0C]), cut=st.integers(0, 3),
       cifar=st.binary(max_size=40), cifar_records=st.integers(0, 2))
def test_fuzz_dataset_readers_end_to_end(img_dims, lbl_dims, img_code, cut, cifar, cifar_records):
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        img = _idx_bytes(img_dims, img_code, bytes(int(np.prod(img_dims)) * (4 if img_code == 0x0C else 1)))
        with open(f"{root}/train-images-idx3-ubyte", "wb") as f:
            f.write(img[:len(img) - cut])
        with open(f"{root}/train-labels-idx1-ubyte", "wb") as f:
            f.write(_idx_bytes(lbl_dims))
        with open(f"{root}/data_batch_1.bin", "wb") as f:
            f.write(bytes(cifar_records * 3073) + cifar)
        for make in (lambda: ds.MnistDataset(root, usage="train"), lambda: ds.Cifar10Dataset(root, usage="train")):
            try:
                d = make()
                n = d.get_dataset_size()
                assert sum(1 for _ in d.create_tuple_iterator(output_numpy=True, num_epochs=1)) == n
            except DatasetFormatError as e:
                assert root in str(e)
