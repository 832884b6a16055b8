"""``dataset.audio`` replayed against real MindSpore 2.10 (tests/fixtures/oracle/audio.npz, written by
tools/oracle/record_audio.py): the same expression on the same inputs. MindSpore computes in float32 and this
module in float64 rounded to float32, so values agree to float32 rounding (relative 1e-4 where sums are long)."""
import numpy as np
import pytest

from mindspore_hl.dataset import audio as A
from tests.oracle import load_cases

_CASES = load_cases("audio.npz")
_INPUTS = _CASES.pop("inputs").inputs


@pytest.mark.parametrize("case", [pytest.param(c, id=c.meta["expr"][:70]) for c in _CASES.values()])
def test_audio_matches_mindspore(case):
    value = eval(case.meta["expr"], {"A": A})  # noqa: S307
    key = case.meta["input"]
    if case.error:
        with pytest.raises(Exception):  # noqa: B017 - MindSpore's error types differ; the refusal is checked
            value(_INPUTS[key])
        return
    out = value(_INPUTS[key]) if key is not None else value
    outs = list(out) if isinstance(out, tuple) else [out]
    assert len(outs) == len(case.outputs)
    for got, want in zip(outs, case.outputs):
        got = np.asarray(got)
        assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
        if want.dtype.kind == "f":
            scale = max(1.0, float(np.abs(want).max()))
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * scale)
        else:
            np.testing.assert_array_equal(got, want)


def test_random_masks_cover_a_band_within_their_parameter():
    import mindspore_hl.dataset as ds
    ds.config.set_seed(4)
    spec = np.ones((1, 20, 30), np.float32)
    widths = set()
    for _ in range(60):
        out = A.TimeMasking(time_mask_param=6, mask_start=3, mask_value=0.0)(spec)
        cols = np.flatnonzero((out[0] == 0).all(axis=0))
        assert len(cols) <= 6 and (len(cols) == 0 or (cols[0] == 3 and np.all(np.diff(cols) == 1)))
        widths.add(len(cols))
        rows = np.flatnonzero((A.FrequencyMasking(True, 5)(spec)[0] == 0).all(axis=1))
        assert len(rows) <= 5 and (len(rows) == 0 or np.all(np.diff(rows) == 1))
    assert len(widths) > 3   # the width is drawn, not fixed
