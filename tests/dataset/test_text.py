"""``dataset.text`` replayed against real MindSpore 2.10 (tests/fixtures/oracle/text.npz, written by
tools/oracle/record_text.py): the same constructor expression, the same inputs, equal outputs."""
import numpy as np
import pytest

from mindspore_hl.common import dtype as ms  # noqa: F401  (ms.int32 in the recorded expressions)
from mindspore_hl.dataset import text as T
from tests.oracle import load_cases

_CASES = load_cases("text.npz")
VOCAB_WORDS = ["[UNK]", "[CLS]", "hel", "##lo", "world", ",", "!", "a", "b", "c"]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.meta["expr"]) for c in _CASES.values()])
def test_text_matches_mindspore(case):
    op = eval(case.meta["expr"], {"T": T, "V": T.Vocab.from_list(VOCAB_WORDS), "ms": ms})  # noqa: S307
    args = [case.inputs[f"x{i}"] for i in range(len(case.inputs))]
    if case.error:
        with pytest.raises(Exception):  # noqa: B017 - MindSpore's error types differ; the refusal is checked
            op(*args)
        return
    out = op(*args)
    outs = list(out) if isinstance(out, tuple) else [out]
    assert len(outs) == len(case.outputs)
    for got, want in zip(outs, case.outputs):
        got = np.asarray(got)
        assert got.shape == want.shape and got.tolist() == want.tolist(), (got, want)
        if want.dtype.kind not in "US":
            assert got.dtype == want.dtype


def test_vocab_builders(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("the 10\nof 5\nthe 3\nand 1\n")
    v = T.Vocab.from_file(str(path), delimiter=" ", vocab_size=2, special_tokens=["<pad>"])
    assert v.vocab() == {"<pad>": 0, "the": 1, "of": 2}
    assert v.tokens_to_ids(["of", "zz"]) == [2, -1] and v.ids_to_tokens([1]) == ["the"]
    import mindspore_hl.dataset as ds
    data = ds.NumpySlicesDataset({"w": np.array(["a", "b", "a", "c", "a", "b"])}, shuffle=False)
    assert T.Vocab.from_dataset(data, ["w"], top_k=2).vocab() == {"a": 0, "b": 1}
    assert T.to_str(np.array([b"ab"])).tolist() == ["ab"] and T.to_bytes(np.array(["ab"])).tolist() == [b"ab"]


def test_vectors_and_to_vectors_match_mindspore(tmp_path):
    # expected vectors: what real MindSpore 2.10 returns for the same files and calls (checked with the oracle)
    plain = tmp_path / "vec.txt"
    plain.write_text("the 0.1 0.2 0.3\nof 1 2 3\nAnd 4 5 6\n")
    v = T.Vectors.from_file(str(plain))
    np.testing.assert_allclose(T.ToVectors(v)(np.array(["the", "zz", "and"])), [[0.1, 0.2, 0.3], [0, 0, 0], [0, 0, 0]],
                               rtol=1e-6)
    np.testing.assert_allclose(T.ToVectors(v, [9, 9, 9], True)(np.array(["zz"])), [[9, 9, 9]])
    np.testing.assert_allclose(T.ToVectors(v)(np.array("of")), [1, 2, 3])
    vec = tmp_path / "x.vec"
    vec.write_text("2 3\nthe 0.1 0.2 0.3\nof 1 2 3\n")
    np.testing.assert_allclose(T.ToVectors(T.FastText.from_file(str(vec)))(np.array(["of"])), [[1, 2, 3]])
    glove = tmp_path / "glove.6B.3d.txt"
    glove.write_text("the 0.1 0.2 0.3\n")
    np.testing.assert_allclose(T.ToVectors(T.GloVe.from_file(str(glove)))(np.array(["the"])), [[0.1, 0.2, 0.3]],
                               rtol=1e-6)
    with pytest.raises(ValueError, match=r"\.vec"):
        T.FastText.from_file(str(plain))
