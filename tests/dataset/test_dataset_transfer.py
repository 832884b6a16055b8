"""``device_que`` / TransferDataset, GeneratorDataset's ``prepare_multiprocessing`` (``prepared_source``,
``sample_fn``), ``pre_parse`` and ``iterator_bootstrap``, replayed against real MindSpore 2.10
(tools/oracle/record_dataset_internals.py).

MindSpore's CPU build cannot read a device queue from Python (``ops.GetNext`` has no CPU kernel and
``get_data_info`` never returns there), so what ``send`` delivers is checked against a second implementation: the
same pipeline's own iterator.
"""
import threading

import jax
import numpy as np
import pytest

import mindspore_hl.dataset as ds
from benchmarks import api_coverage
from mindspore_hl.dataset import _dataset_transfer as transfer
from tests.oracle import case_params

FIXTURE = "dataset_internals.npz"


class Rows:
    """An iterable-only source (no __getitem__), as in the recorder."""

    def __iter__(self):
        return iter([(np.array(i), np.array([i, i])) for i in range(3)])


def build(code):
    return eval(code, {"ds": ds, "np": np, "Rows": Rows})  # noqa: S307 - the recorder's fixed expressions


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - compared with the recorded type
        return type(e).__name__, str(e).splitlines()[0]
    return None, None


def _replay_prepared(case):
    meta = case.meta
    d = build(meta["code"])
    if case.error:   # bad sample ids
        d.prepare_multiprocessing()
        ids = eval(meta["ids"], {"np": np})  # noqa: S307
        assert _error(lambda: list(d.prepared_source(ids))) == (case.error, meta["message"])
        return
    assert [d.prepared_source is None, d.sample_fn is None] == meta["before"]
    d.prepare_multiprocessing()
    assert callable(d.prepared_source) == meta["callable"]
    sf = d.sample_fn
    got = None if sf is None else {"num_worker": sf.num_worker, "multi_process": sf.multi_process,
                                   "max_rowsize": sf.max_rowsize}
    assert got == meta["sample_fn"]
    if "widths" not in meta:
        return
    rows = list(d.prepared_source() if meta["ids"] is None else d.prepared_source(np.array(meta["ids"])))
    assert [len(r) for r in rows] == meta["widths"]
    flat = [v for r in rows for v in r]
    for value, expected in zip(flat, case.outputs):
        assert value.dtype == expected.dtype and value.shape == expected.shape
        np.testing.assert_array_equal(value, expected)


def _replay_device_que(case):
    meta = case.meta
    if "kwargs" in meta:
        assert _error(lambda: build(meta["code"]).device_que(**meta["kwargs"])) == (case.error, meta["message"])
        return
    if "call" in meta:
        t = build(meta["code"]).device_que()
        assert _error(lambda: eval("t." + meta["call"], {"t": t})) == (case.error, meta["message"])  # noqa: S307
        return
    t = build(meta["code"]).device_que(queue_name="q1")
    assert type(t).__name__ == meta["type"] and t.queue_name == meta["queue_name"]
    assert t.column_name == meta["column_name"] and t.get_col_names() == meta["col_names"]
    assert t.get_dataset_size() == meta["size"] and t.get_batch_size() == meta["batch_size"]
    assert (t._send_epoch_end, t._create_data_info_queue) == (meta["send_epoch_end"], meta["create_data_info_queue"])
    assert len(build(meta["code"]).device_que().queue_name) == meta["generated_name_len"]


def _replay_send(case):
    meta = case.meta
    t = build(meta["code"]).device_que()
    if "num_epochs" in meta:
        etype, msg = _error(lambda: t.send(meta["num_epochs"]))
        assert etype == case.error
        if case.error == "ValueError":   # MindSpore's Python check (its TypeErrors differ only in list/tuple)
            assert msg == meta["message"]
        return
    t.send(1)   # no data-info queue: get_data_info fails
    try:
        assert _error(t.get_data_info)[0] == case.error
    finally:
        t.release()


@pytest.mark.parametrize("case", case_params(FIXTURE))
def test_replay(case):
    meta = case.meta
    if case.name == "Dataset.prepared_source":
        _replay_prepared(case)
    elif case.name == "Dataset.pre_parse":
        d = build(meta["code"])
        d.pre_parse(meta["getter_mode"])
        assert d.num_parallel_workers == meta["num_parallel_workers"]
        if meta["python_multiprocessing"] is not None:   # MindSpore's node has the attribute
            assert d.python_multiprocessing == meta["python_multiprocessing"]
    elif case.name == "Dataset.iterator_bootstrap":
        d = build(meta["code"])
        if "row_counts" in meta:
            counts = [d._pair.row_count]
            d.sync_update("c", 3)
            counts.append(d._pair.row_count)
            assert d.iterator_bootstrap() is meta["result"]
            counts.append(d._pair.row_count)
            assert counts == meta["row_counts"]
        else:
            assert d.iterator_bootstrap() is meta["result"]
    elif case.name == "Dataset.device_que":
        _replay_device_que(case)
    elif case.name == "Dataset.send":
        _replay_send(case)
    else:
        raise AssertionError(f"no replay for {case.name}")


def _pipeline():
    cols = {"x": np.arange(12, dtype=np.float32).reshape(6, 2), "y": np.arange(6, dtype=np.int32)}
    return ds.NumpySlicesDataset(cols, shuffle=False).batch(2)


def _drain(t, limit=100):
    out = []
    for _ in range(limit):
        try:
            item = transfer.next_batch(t.queue_name, timeout=10)
        except StopIteration:
            return out
        out.append(item)
    raise AssertionError("the queue did not end")


def test_send_delivers_the_pipeline_batches_on_the_device():
    expected = [[np.asarray(c) for c in row] for row in _pipeline().create_tuple_iterator(output_numpy=True,
                                                                                         num_epochs=1)]
    t = _pipeline().device_que(create_data_info_queue=True)
    t.send(2)
    try:
        assert t.get_data_info() == ([np.dtype(np.float32), np.dtype(np.int32)], [[2, 2], [2]])
        items = _drain(t)
    finally:
        t.release()
    marks = [i for i, item in enumerate(items) if isinstance(item, transfer.EndOfEpoch)]
    assert marks == [3, 7]   # one end-of-epoch mark after each epoch's 3 batches
    batches = [item for item in items if not isinstance(item, transfer.EndOfEpoch)]
    assert len(batches) == 6
    for got, want in zip(batches, expected + expected):
        assert all(isinstance(a, jax.Array) for a in got)
        for a, w in zip(got, want):
            assert a.dtype == w.dtype
            np.testing.assert_array_equal(np.asarray(a), w)
    assert t.get_send_info()[0] == 6


def test_send_without_epoch_marks_and_resuming_at_init_step():
    d = _pipeline()
    d.set_init_step(2)   # resume at the third batch, as the iterators do
    t = d.device_que(send_epoch_end=False)
    t.send(1)
    try:
        items = _drain(t)
    finally:
        t.release()
    assert [np.asarray(b[1]).tolist() for b in items] == [[4, 5]]


def test_stop_send_holds_the_sender_and_continue_send_lets_it_go():
    cols = {"x": np.arange(8, dtype=np.int32)}
    t = ds.NumpySlicesDataset(cols, shuffle=False).batch(1).device_que(send_epoch_end=False)
    t.stop_send()   # before send: nothing to hold (as MindSpore)
    size = ds.config.get_prefetch_size()
    ds.config.set_prefetch_size(1)   # a one-batch device queue
    try:
        t.send(1)
        first = transfer.next_batch(t.queue_name, timeout=10)
        t.stop_send()
        held = []   # the queued batch and the one the sender had in hand pass; then it waits
        while True:
            try:
                held.append(transfer.next_batch(t.queue_name, timeout=0.3))
            except TimeoutError:
                break
        assert len(held) <= 2 and t.get_mbuf_queue_size() == 0
        t.continue_send()
        rest = _drain(t)
    finally:
        ds.config.set_prefetch_size(size)
        t.release()
    assert [int(np.asarray(b[0])[0]) for b in [first] + held + rest] == list(range(8))


def test_queue_fills_ahead_of_use_and_release_ends_it():
    t = _pipeline().device_que(send_epoch_end=False)
    t.send(1)
    filled = threading.Event()
    for _ in range(200):
        if t.get_mbuf_queue_size() == 3:
            filled.set()
            break
        threading.Event().wait(0.01)
    assert filled.is_set(), "the sender did not put the 3 batches ahead of use"
    t.release()
    assert t.get_mbuf_queue_size() == 0
    with pytest.raises(RuntimeError, match="released"):
        transfer.next_batch(t.queue_name, timeout=1)
    t.send(1)   # a new send starts over
    try:
        assert len(_drain(t)) == 3
    finally:
        t.release()


def test_pipeline_errors_reach_the_reader():
    def bad(x):
        raise ValueError("broken row")

    t = ds.NumpySlicesDataset([1, 2], "x", shuffle=False).map(bad).device_que()
    t.send(1)
    try:
        with pytest.raises(RuntimeError, match="broken row"):
            transfer.next_batch(t.queue_name, timeout=10)
    finally:
        t.release()
    with pytest.raises(RuntimeError, match="no queue named 'nothing'"):
        transfer.next_batch("nothing")


def test_sample_fn_reads_rows_in_order_with_its_workers():
    d = ds.GeneratorDataset([np.array([i]) for i in range(6)], "x", shuffle=False, num_parallel_workers=3)
    d.prepare_multiprocessing()
    rows = list(d.prepared_source(np.array([5, 0, 3])))
    assert [r[0].tolist() for r in rows] == [[5], [0], [3]]
    d.sample_fn.terminate()


def test_new_names_are_counted():
    for name in ("device_que", "send", "pre_parse", "iterator_bootstrap", "prepare_multiprocessing",
                 "prepared_source", "sample_fn"):
        assert api_coverage.present("mindspore.dataset.Dataset methods", name), name
