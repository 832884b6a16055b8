"""Phaser, PitchShift and InverseMelScale of ``dataset.audio`` replayed against real MindSpore 2.10
(tests/fixtures/oracle/audio_more2.npz, written by tools/oracle/record_audio_more2.py): the same expression on the
same inputs. Phaser is compared to float32 rounding. PitchShift matches to 5e-8 without a pitch
change (n_steps=0: STFT, inverse STFT and resampling filter), but MindSpore accumulates the phase vocoder's phases in
float32, so shifted cases differ by up to ~1.5e-4: they are compared to 2.5e-4 of the signal's scale. Constructor
errors compare the type and MindSpore's message; errors raised by the call compare the type. InverseMelScale starts
from random values (MindSpore's own generator), so it is compared loosely: shape, dtype, non-negative, and its mel
projection must match the input about as well as MindSpore's answer does."""
import numpy as np
import pytest

import mindspore_hl.dataset as ds
from mindspore_hl.dataset import audio as A
from tests.oracle import load_cases

_CASES = load_cases("audio_more2.npz")
_INPUTS = _CASES.pop("inputs").inputs
_TOL = {"Phaser": (1e-5, 1e-6), "PitchShift": (1e-3, 2.5e-4)}


def _ids(c):
    return c.meta["expr"][:70]


def _op(expr):
    return eval(expr, {"A": A})  # noqa: S307 - the recorder's fixed expressions


@pytest.mark.parametrize("case", [pytest.param(c, id=_ids(c)) for c in _CASES.values()])
def test_audio_more2_matches_mindspore(case):
    x = _INPUTS[case.meta["input"]]
    if case.error:
        with pytest.raises(Exception) as info:  # noqa: B017 - the type is compared with MindSpore's below
            _op(case.meta["expr"])(x)
        assert type(info.value).__name__ == case.error
        if case.meta["stage"] == "init":
            assert str(info.value) == case.meta["message"]
        return
    op = _op(case.meta["expr"])
    if isinstance(op, A.InverseMelScale):
        ds.config.set_seed(0)  # its random start comes from the pipeline's seed: the same start in every run
    got = np.asarray(op(x))
    want = case.outputs[0]
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape, got.dtype, want.dtype)
    if isinstance(op, A.InverseMelScale):
        mel = A.MelScale(op.n_mels, op.sample_rate, op.f_min, op.f_max, op.n_stft, op.norm, op.mel_type)
        ours, theirs = (float(np.abs(mel(y) - x).max() / np.abs(x).max()) for y in (got, want))
        assert got.min() >= 0 and ours <= 3 * theirs + 0.02, (ours, theirs)   # a random start alone: ~0.5
        return
    rtol, atol = _TOL[case.meta["expr"][2:].split("(")[0]]
    scale = max(1.0, float(np.abs(want).max()))
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol * scale)


def test_in_pipeline_matches_eager():
    rows = np.stack([_INPUTS["tone"], _INPUTS["tone"][::-1]])
    for op in (A.Phaser(8000, sinusoidal=False), A.PitchShift(8000, 3, n_fft=64)):
        d = ds.NumpySlicesDataset({"w": rows}, shuffle=False).map(op)
        out = [r[0] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)]
        for row, got in zip(rows, out):
            np.testing.assert_array_equal(got, op(row))


def test_inverse_mel_scale_in_pipeline_follows_the_seed():
    mel = _INPUTS["mel"]
    op = A.InverseMelScale(33, 16, 8000, max_iter=300)
    runs = []
    for _ in range(2):
        ds.config.set_seed(5)
        d = ds.NumpySlicesDataset({"m": np.stack([mel, mel])}, shuffle=False).map(op)
        runs.append([r[0] for r in d.create_tuple_iterator(num_epochs=1, output_numpy=True)])
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    back = A.MelScale(16, 8000, n_stft=33)(runs[0][0])
    assert runs[0][0].shape == (1, 33, 6) and np.abs(back - mel).max() < 0.2 * np.abs(mel).max()


def test_waveform_errors_name_the_op():
    with pytest.raises(RuntimeError, match=r"Phaser: .*\(\.\.\., time\)"):
        A.Phaser(8000)(np.array("abc"))
    with pytest.raises(RuntimeError, match="Phaser: .*delay line of 0 samples"):
        A.Phaser(100, delay_ms=1.0)(_INPUTS["wave"])   # MindSpore itself dies of SIGFPE here
    with pytest.raises(RuntimeError, match="PitchShift: .*reflect padding"):
        A.PitchShift(8000, 2)(_INPUTS["wave"][:100])
