"""Dataset attributes, ``to_json``, ``set_init_step`` and ``sync_wait`` replayed against real MindSpore
(tests/fixtures/oracle/dataset_attrs.npz, recorded by tools/oracle/record_dataset_attrs.py)."""
import json

import numpy as np
import pytest

import mindspore_hl.dataset as ds
from tests.oracle import case_params

FIXTURE = "dataset_attrs.npz"


def f(x):
    return x


def g(x):
    return x, x


def build(code):
    return eval(code, {"ds": ds, "np": np, "f": f, "g": g})  # noqa: S307 - the recorder's fixed expressions


def _value(v):
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    return v


@pytest.fixture(autouse=True)
def _workers():
    old = ds.config.get_num_parallel_workers()
    yield
    ds.config.set_num_parallel_workers(old)


@pytest.mark.parametrize("case", case_params(FIXTURE))
def test_replay(case, tmp_path):
    kind = case.id.split("/")[0]
    if kind == "Dataset.to_json":
        ds.config.set_num_parallel_workers(case.meta["workers"])
        d = build(case.meta["code"])
        assert d.to_json() == case.meta["json"]
        path = tmp_path / "pipe.json"
        ds.serialize(d, str(path))
        assert json.loads(path.read_text()) == case.meta["json"]
        assert ds.compare(d, build(case.meta["code"]))
    elif kind == "Dataset.attributes":
        d = build(case.meta["code"])
        for name, want in case.meta["before"].items():
            assert _value(getattr(d, name)) == want, name
        d.get_dataset_size()
        d.output_shapes()
        after = {a: _value(getattr(d, a)) for a in ("dataset_size", "saved_output_shapes", "estimated_output_shapes")}
        d.output_shapes(estimate=True)
        after["estimated_output_shapes"] = _value(d.estimated_output_shapes)
        assert after == case.meta["after"]
    elif kind == "Dataset.set_init_step":
        d = build(case.meta["code"])
        d.set_init_step(case.meta["step"])
        runs = [[r[0].tolist() for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)] for _ in range(2)]
        assert runs == case.meta["runs"]
        assert d.get_init_step() == case.meta["init"]
        assert d.get_dataset_size() == case.meta["size"]
    elif kind == "Dataset.sync_wait":
        log = []
        d = build(case.meta["code"]).sync_wait("policy", num_batch=case.meta["num_batch"], callback=log.append)
        if case.meta["batch"]:
            d = d.batch(case.meta["batch"])
        seen = []
        for i, row in enumerate(d.create_tuple_iterator(num_epochs=1, output_numpy=True)):
            seen.append(row[0].tolist())
            d.sync_update("policy", data=i)
        assert (seen, log) == (case.meta["seen"], case.meta["log"])
        assert d.is_sync() == case.meta["is_sync"]
        assert sorted(d.get_sync_notifiers()) == case.meta["notifiers"]
    else:
        raise AssertionError(f"unknown case {case.id}")


def test_waited_callback_waits_for_training_steps():
    class Log(ds.WaitedDSCallback):
        def __init__(self):
            super().__init__(step_size=1)
            self.seen = []

        def sync_step_begin(self, train_run_context, ds_run_context):
            self.seen.append((train_run_context, ds_run_context.cur_step_num))

    cb = Log()
    it = ds.NumpySlicesDataset([1, 2, 3], "x", shuffle=False).map(lambda x: x * 2, callbacks=cb)
    it = it.create_tuple_iterator(num_epochs=1, output_numpy=True)
    first = next(it)
    assert cb.seen == []                 # row 2 waits for the training's first step_end
    cb.step_end("after step 1")
    second = next(it)
    cb.end("done")
    third = next(it)
    assert [int(r[0]) for r in (first, second, third)] == [2, 4, 6]
    assert cb.seen == [("after step 1", 2), ("done", 3)]


def test_source_attributes_and_errors(tmp_path):
    gen = ds.GeneratorDataset(lambda: iter([(np.array(1),)]), ["x"])
    assert gen.source_len == -1 and ds.GeneratorDataset([1, 2, 3], ["x"]).source_len == 3
    d = ds.NumpySlicesDataset([1, 2], "x", shuffle=False)
    d.input_indexs = (1, 0)
    assert d.batch(1).input_indexs == (1, 0)
    d.reset()   # no-op: every iterator starts from the first row
    assert [int(r[0]) for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)] == [1, 2]
    with pytest.raises(TypeError, match="to_json: .*cannot be serialised"):
        ds.NumpySlicesDataset([1, 2], "x").concat(ds.NumpySlicesDataset([3], "x")).to_json()
    synced = ds.NumpySlicesDataset([1, 2], "x", shuffle=False).sync_wait("c")
    with pytest.raises(RuntimeError, match="already in use"):
        synced.sync_wait("c")
    with pytest.raises(RuntimeError, match="no shuffle after sync"):
        synced.shuffle(2)
    with pytest.raises(RuntimeError, match="Condition name not found"):
        synced.sync_update("other")
    with pytest.raises(RuntimeError, match="positive integer"):
        synced.sync_update("c", num_batch=0)
    assert not ds.compare(ds.NumpySlicesDataset([1], "x").repeat(2), ds.NumpySlicesDataset([1], "x").repeat(3))
