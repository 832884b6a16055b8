"""Record real MindSpore 2.10's pipeline-building internals that a user can observe into
tests/fixtures/oracle/dataset_internals.npz: ``device_que`` / TransferDataset (attributes, argument checks, what
works before and after ``send``), GeneratorDataset's ``prepare_multiprocessing`` (``prepared_source`` rows,
``sample_fn``), ``pre_parse`` and ``iterator_bootstrap``.

Run with the oracle interpreter (see README.md). Each case stores the Python expression that builds its pipeline
(``ds`` = mindspore.dataset, ``np`` = numpy); the replay evaluates the same text with mindspore_hl.dataset.
MindSpore's CPU build cannot read a device queue from Python (``ops.GetNext`` has no CPU kernel and
``get_data_info`` waits for ever there), so the batches a queue delivers are not recorded here.
"""
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import mindspore.dataset as ds  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = os.path.join(HERE, "..", "..", "tests", "fixtures", "oracle", "dataset_internals.npz")

SOURCES = {
    "gen_tuples": ('ds.GeneratorDataset([(np.array([i], np.int32), np.array([i * 10.0], np.float32)) '
                   'for i in range(5)], ["a", "b"], shuffle=False)', [3, 1]),
    "gen_scalars": ('ds.GeneratorDataset([1, 2, 3], "x", shuffle=True)', [2, 0]),
    "gen_strings": ('ds.GeneratorDataset(["ab", "c"], "s", shuffle=False)', [1]),
    "slices": ('ds.NumpySlicesDataset({"x": np.arange(6).reshape(3, 2), "y": np.array([1.5, 2.5, 3.5])}, '
               'shuffle=False)', [2, 0]),
    "batch_sampler": ('ds.GeneratorDataset([1, 2, 3, 4], ["a"], batch_sampler=[[0, 1], [2, 3]])', [3]),
    "callable": ('ds.GeneratorDataset(lambda: iter([(np.array([i]),) for i in range(4)]), ["a"], '
                 'num_samples=3)', None),
    "iterable": ('ds.GeneratorDataset(Rows(), ["a", "b"])', None),
    "two_workers": ('ds.GeneratorDataset([1, 2, 3, 4], ["a"], shuffle=False, num_parallel_workers=2, '
                    'python_multiprocessing=False)', None),
}

PIPES = {
    "map": 'ds.NumpySlicesDataset([1, 2], "x", shuffle=False).map(lambda x: x, num_parallel_workers=2, '
           'python_multiprocessing=True)',
    "batch": 'ds.NumpySlicesDataset([1, 2], "x", shuffle=False).batch(1, num_parallel_workers=2)',
    "repeat": 'ds.NumpySlicesDataset([1, 2], "x", shuffle=False).repeat(2)',
    "generator": 'ds.GeneratorDataset([1, 2], "x", num_parallel_workers=2)',
}

TRANSFER = ('ds.NumpySlicesDataset({"x": np.arange(12, dtype=np.float32).reshape(6, 2), '
            '"y": np.arange(6, dtype=np.int32)}, shuffle=False).batch(2)')


class Rows:
    """An iterable-only source (no __getitem__)."""

    def __iter__(self):
        return iter([(np.array(i), np.array([i, i])) for i in range(3)])


def build(code):
    return eval(code, {"ds": ds, "np": np, "Rows": Rows})  # noqa: S307 - our own fixed expressions


def _error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the type is what is recorded
        return type(e).__name__, str(e).splitlines()[0]
    return None, None


def record_prepared(w):
    for key, (code, ids) in SOURCES.items():
        d = build(code)
        before = [d.prepared_source is None, d.sample_fn is None]
        d.prepare_multiprocessing()
        sf = d.sample_fn
        sample_fn = None if sf is None else {"num_worker": sf.num_worker, "multi_process": sf.multi_process,
                                             "max_rowsize": sf.max_rowsize}
        if sf is not None:   # MindSpore's pool reads only once an iterator has launched its workers
            w.add(f"Dataset.prepared_source/{key}", code=code, ids=ids, before=before, sample_fn=sample_fn,
                  callable=callable(d.prepared_source))
            continue
        rows = list(d.prepared_source() if ids is None else d.prepared_source(np.array(ids)))
        w.add(f"Dataset.prepared_source/{key}", code=code, ids=ids, before=before, sample_fn=sample_fn,
              callable=callable(d.prepared_source), widths=[len(r) for r in rows],
              outputs=[np.asarray(v) for r in rows for v in r])
    d = build(SOURCES["gen_tuples"][0])
    d.prepare_multiprocessing()
    for key, ids in (("empty", "np.array([], np.int64)"), ("list", "[1]")):
        etype, msg = _error(lambda ids=ids: list(d.prepared_source(eval(ids))))  # noqa: S307
        w.add(f"Dataset.prepared_source/bad_ids_{key}", code=SOURCES["gen_tuples"][0], ids=ids, error=etype,
              message=msg)


def record_pre_parse(w):
    for key, code in PIPES.items():
        for mode in (False, True):
            d = build(code)
            d.pre_parse(mode)
            w.add(f"Dataset.pre_parse/{key}_{mode}", code=code, getter_mode=mode,
                  num_parallel_workers=d.num_parallel_workers,
                  python_multiprocessing=getattr(d, "python_multiprocessing", None))


def record_bootstrap(w):
    code = 'ds.NumpySlicesDataset([1, 2, 3, 4], "x", shuffle=False).sync_wait("c", num_batch=2)'
    d = build(code)
    counts = [d._pair.row_count]
    d.sync_update("c", 3)
    counts.append(d._pair.row_count)
    result = d.iterator_bootstrap()
    counts.append(d._pair.row_count)
    w.add("Dataset.iterator_bootstrap/sync_wait", code=code, row_counts=counts, result=result)
    plain = build(PIPES["repeat"])
    w.add("Dataset.iterator_bootstrap/plain", code=PIPES["repeat"], result=plain.iterator_bootstrap())


def record_transfer(w):
    t = build(TRANSFER).device_que(queue_name="q1")
    w.add("Dataset.device_que/attrs", code=TRANSFER, type=type(t).__name__, queue_name=t.queue_name,
          column_name=t.column_name, size=t.get_dataset_size(), batch_size=t.get_batch_size(),
          col_names=t.get_col_names(), send_epoch_end=t._send_epoch_end,
          create_data_info_queue=t._create_data_info_queue,
          generated_name_len=len(build(TRANSFER).device_que().queue_name))
    for key, kwargs in (("epoch_end", {"send_epoch_end": 1}), ("info", {"create_data_info_queue": "a"}),
                        ("name", {"queue_name": 3})):
        etype, msg = _error(lambda kwargs=kwargs: build(TRANSFER).device_que(**kwargs))
        w.add(f"Dataset.device_que/bad_{key}", code=TRANSFER, kwargs=kwargs, error=etype, message=msg)
    t = build(TRANSFER).device_que()
    for call in ("create_dict_iterator()", "create_tuple_iterator()", "__iter__()", "output_shapes()",
                 "output_types()", "get_data_info()", "get_mbuf_queue_size()", "get_send_info()",
                 "stop_send()", "continue_send()", "release()"):
        etype, msg = _error(lambda call=call: eval("t." + call, {"t": t}))  # noqa: S307
        w.add(f"Dataset.device_que/before_send_{call.split('(')[0]}", code=TRANSFER, call=call, error=etype,
              message=msg)
    for key, value in (("zero", 0), ("minus2", -2), ("float", 1.5), ("bool", True), ("none", None)):
        etype, msg = _error(lambda value=value: build(TRANSFER).device_que().send(value))
        w.add(f"Dataset.send/num_epochs_{key}", code=TRANSFER, num_epochs=value, error=etype, message=msg)
    t = build(TRANSFER).device_que()
    t.send(1)
    time.sleep(0.5)
    etype, msg = _error(t.get_data_info)
    w.add("Dataset.send/get_data_info_without_info_queue", code=TRANSFER, error=etype, message=msg)
    t.stop_send()
    t.continue_send()
    t.release()


def main():
    with FixtureWriter(OUT) as w:
        record_prepared(w)
        record_pre_parse(w)
        record_bootstrap(w)
        record_transfer(w)


if __name__ == "__main__":
    main()
