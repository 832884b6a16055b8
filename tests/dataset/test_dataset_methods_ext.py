"""Sampler chains (``add_sampler`` / ``use_sampler``), ``copy_batch_size``, ``recv`` and
``GeneratorDataset(batch_sampler=, collate_fn=)`` replayed against real MindSpore
(tests/fixtures/oracle/dataset_methods.npz, recorded by tools/oracle/record_dataset_methods.py)."""
import warnings

import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import text
from tests.oracle import case_params

FIXTURE = "dataset_methods.npz"


def run(code, probes):
    scope = {"ds": ds, "np": np}
    exec(code, scope)  # noqa: S102 - the recorder's fixed statements
    d = scope["d"]
    values = [eval(p, scope) for p in probes]  # noqa: S307
    rows = [[c.tolist() for c in r] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    return {"rows": rows, "size": d.get_dataset_size(), "batch_size": d.get_batch_size(), "probes": values}


@pytest.mark.parametrize("case", case_params(FIXTURE))
def test_replay(case):
    if case.error:
        with pytest.raises(getattr(__builtins__, case.error, None) or Exception) as info:
            run(case.meta["code"], case.meta["probe_code"])
        assert type(info.value).__name__ == case.error
        return
    got = run(case.meta["code"], case.meta["probe_code"])
    for key in ("rows", "size", "batch_size", "probes"):
        assert got[key] == case.meta[key], key


def test_chain_with_random_sampler_keeps_the_child_ids():
    # a random parent over a chained child: the order is seeded differently from MindSpore's, the set is not
    d = ds.NumpySlicesDataset(np.arange(10, dtype=np.int32), "x", sampler=ds.SubsetSampler([7, 2, 5, 9]))
    d.add_sampler(ds.RandomSampler(num_samples=3))
    got = [int(r[0]) for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
    assert len(got) == 3 == d.get_dataset_size() and set(got) <= {7, 2, 5, 9} and len(set(got)) == 3
    assert d.is_shuffled()


def test_subclass_only_names_are_absent_elsewhere():
    node = ds.NumpySlicesDataset([1, 2], "x").batch(1)
    for name in ("add_sampler", "use_sampler", "collate_fn", "has_batch_sampler"):
        assert not hasattr(node, name) and not hasattr(ds.Dataset, name)   # as MindSpore's base class
    with pytest.raises(AttributeError, match="add_sampler"):
        node.add_sampler(ds.SequentialSampler())


def test_batch_sampler_errors_name_the_problem():
    rows = [np.zeros(i + 1, np.float32) for i in range(3)]
    d = ds.GeneratorDataset(rows, "x", batch_sampler=[[0, 1]])
    with pytest.raises(RuntimeError, match="column 'x'.*collate_fn"):
        list(d.create_tuple_iterator(num_epochs=1))
    d = ds.GeneratorDataset(rows, "x", batch_sampler=[[0, 5]])
    with pytest.raises(ValueError, match=r"batch 0 .*outside \[0, 3\)"):
        list(d.create_tuple_iterator(num_epochs=1))
    d = ds.GeneratorDataset(rows, "x", batch_sampler=[[0]], collate_fn=lambda x: (x[0], x[0]))
    with pytest.raises(RuntimeError, match="collate_fn must return a tuple of 1"):
        list(d.create_tuple_iterator(num_epochs=1))
    with pytest.raises(ValueError, match="__getitem__"):
        ds.GeneratorDataset(lambda: iter(rows), "x", batch_sampler=[[0]])


def test_recv_from_another_rank_is_refused():
    d = ds.NumpySlicesDataset([1, 2], "x")
    with pytest.raises(RuntimeError, match="src rank 3"):
        d.recv(3)


def test_build_sentencepiece_vocab_warns_and_trains():
    pytest.importorskip("sentencepiece")
    d = ds.GeneratorDataset(["a b c", "b c d", "c d e"] * 10, "text", shuffle=False)
    with pytest.warns(DeprecationWarning, match="SentencePieceVocab.from_dataset"):
        vocab = d.build_sentencepiece_vocab(["text"], 8, 1.0, text.SentencePieceModel.WORD, {})
    direct = text.SentencePieceVocab.from_dataset(d, ["text"], 8, 1.0, text.SentencePieceModel.WORD, {})
    tok = text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.STRING)
    tok2 = text.SentencePieceTokenizer(direct, text.SPieceTokenizerOutType.STRING)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert tok("b c d").tolist() == tok2("b c d").tolist()
