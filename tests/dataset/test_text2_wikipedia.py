"""FilterWikipediaXML replayed against real MindSpore (tests/fixtures/oracle/text2.npz, recorded by
tools/oracle/record_text2.py)."""
import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import text
from tests.oracle import case_params

CASES = [c for c in case_params("text2.npz") if c.values[0].name == "FilterWikipediaXML"]


@pytest.mark.parametrize("case", CASES)
def test_replay(case):
    assert text.FilterWikipediaXML()(np.array(case.meta["text"])).item() == case.meta["out"]


def test_in_pipeline():
    d = ds.NumpySlicesDataset(np.array(["Hello World 42!", "#redirect x"]), "t", shuffle=False)
    d = d.map(text.FilterWikipediaXML())
    assert [r[0].item() for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)] == \
        ["hello world four two", ""]
