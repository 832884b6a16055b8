"""``Tensor.untyped_storage()`` and ``UntypedStorage``: the programs of tools/oracle/record_storage.py replayed
against real MindSpore 2.10's outputs, plus this project's clear errors where MindSpore crashes or leaves memory
undefined (these have no oracle: each test says what MindSpore does instead)."""
import builtins
import importlib.util
import pathlib

import jax
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Tensor
from tests.oracle import Case, assert_close, case_params

FIXTURE = "storage.npz"
_RECORDER = pathlib.Path(__file__).resolve().parents[2] / "tools" / "oracle" / "record_storage.py"
_spec = importlib.util.spec_from_file_location("record_storage", _RECORDER)
assert _spec is not None and _spec.loader is not None
recorder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(recorder)
PROGRAMS = {case_id: program for case_id, program, _ in recorder.CASES}

_CASES = case_params(FIXTURE)
_SAME = [p for p in _CASES if not p.values[0].meta.get("differs")]
_DIFFERS = [p for p in _CASES if p.values[0].meta.get("differs")]


def _error_type(name: str) -> type[BaseException]:
    return getattr(builtins, name)


def test_every_recorded_case_has_its_program():
    assert {p.values[0].id for p in _CASES} == set(PROGRAMS)


@pytest.mark.parametrize("case", _SAME)
def test_replay(case: Case):
    program = PROGRAMS[case.id]
    if case.error:
        with pytest.raises(_error_type(case.error)) as info:
            recorder.run(program, ms)
        if case.meta.get("same_msg"):
            assert case.meta["msg"] in str(info.value)
        return
    outputs = recorder.run(program, ms)
    assert len(outputs) == len(case.outputs)
    for i, (got, want) in enumerate(zip(outputs, case.outputs)):
        # Bit-exact: a storage copies bytes, and the recorded values include denormals and reinterpreted bits.
        assert got.dtype == want.dtype and got.shape == want.shape, f"{case.id} output {i}: {got!r} vs {want!r}"
        np.testing.assert_array_equal(got, want, err_msg=f"{case.id} output {i}")


@pytest.mark.parametrize("case", _DIFFERS)
def test_views_have_storages_of_their_own(case: Case):
    """MindSpore's views share their base's storage; a view here is a Tensor with its own bytes (recorded MindSpore
    outputs differ from these, which the test checks too, so the list of documented differences stays true)."""
    program = PROGRAMS[case.id]
    if case.meta.get("here_error"):
        assert not case.error
        with pytest.raises(_error_type(case.meta["here_error"]), match="Size does not match"):
            recorder.run(program, ms)
        return
    outputs = recorder.run(program, ms)
    here = case.meta["here"]
    assert len(outputs) == len(here) == len(case.outputs)
    for got, want in zip(outputs, here):
        assert_close(got, np.asarray(want, got.dtype))
    assert any(got.shape != rec.shape or not np.array_equal(got, rec) for got, rec in zip(outputs, case.outputs))


# ---- no oracle: what MindSpore 2.10 crashes on or leaves undefined ---------------------------------------------
@pytest.mark.parametrize("src", [Tensor(np.zeros(6, np.float32)), np.zeros(6, np.float32), 3])
def test_copy_needs_a_storage(src):
    # MindSpore 2.10 dies with a segmentation fault here.
    t = Tensor(np.arange(6, dtype=np.float32))
    with pytest.raises(TypeError, match="'src' must be an UntypedStorage"):
        t.untyped_storage().copy_(src)
    np.testing.assert_array_equal(t.asnumpy(), np.arange(6, dtype=np.float32))


def test_resize_cannot_shrink_below_the_tensor():
    # MindSpore 2.10 shrinks, and the Tensor then reads memory it no longer owns (undefined values).
    t = Tensor(np.arange(6, dtype=np.float32))
    s = t.untyped_storage()
    for size in (0, 8, 23):
        with pytest.raises(RuntimeError, match="cannot shrink the storage .* 24 bytes"):
            s.resize_(size)
    assert s.nbytes() == 24
    s.resize_(32)
    s.resize_(24)  # back down to the Tensor's own bytes is fine
    assert s.nbytes() == 24
    np.testing.assert_array_equal(t.asnumpy(), np.arange(6, dtype=np.float32))


def test_resize_negative_or_unallocatable():
    # MindSpore 2.10 stores -1 as the size, and silently ignores a size it cannot allocate.
    s = Tensor(np.arange(6, dtype=np.float32)).untyped_storage()
    with pytest.raises(RuntimeError, match=">= 0, but got -1"):
        s.resize_(-1)
    with pytest.raises(RuntimeError, match="cannot allocate"):
        s.resize_(1 << 62)
    assert s.nbytes() == 24


def test_resize_keeps_the_tensor_and_zero_fills():
    # MindSpore 2.10 reallocates without copying (its values after resize_ are undefined); here the Tensor keeps
    # its values and the added bytes are zeros, which a copy_ out of the storage shows.
    t = Tensor(np.array([1.5, -2.0], np.float32))
    s = t.untyped_storage()
    assert s.resize_(16) is s
    np.testing.assert_array_equal(t.asnumpy(), [1.5, -2.0])
    out = Tensor(np.full(4, 9, np.float32))
    out.untyped_storage().copy_(s)
    np.testing.assert_array_equal(out.asnumpy(), [1.5, -2.0, 0.0, 0.0])


def test_bool_takes_only_0_and_1():
    # MindSpore 2.10 stores other bytes as they are: asnumpy() shows True while arithmetic sees 2 or 255.
    t = Tensor(np.zeros(4, np.bool_))
    src = Tensor(np.array([0, 1, 2, 255], np.uint8))
    with pytest.raises(ValueError, match=r"must be 0 or 1, but the source holds \[2, 255\]"):
        t.untyped_storage().copy_(src.untyped_storage())
    np.testing.assert_array_equal(t.asnumpy(), [False] * 4)


def test_lazy_tensor_after_init_data():
    t = Tensor(shape=(2, 3), dtype=ms.float32, init=ms.common.initializer.One())
    with pytest.raises(RuntimeError, match="Current Tensor has no device"):
        t.untyped_storage()
    assert t.init_data().untyped_storage().nbytes() == 24


def test_copy_inside_jit_is_a_clear_error():
    t = Tensor(np.arange(6, dtype=np.float32))

    @jax.jit
    def f(x):
        u = Tensor(x)
        u.untyped_storage().copy_(t.untyped_storage())
        return x

    with pytest.raises(RuntimeError, match="being compiled"):
        f(np.zeros(6, np.float32))


def test_copy_into_a_compiled_parameter_stays_concrete_outside():
    # A storage copy replaces the array like any in-place method: a later read sees the new bytes, and data_ptr
    # names the new buffer.
    p = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="w")
    src = Tensor(np.array([1, 2, 3], np.int32))
    s = p.untyped_storage()
    s.copy_(src.untyped_storage())
    np.testing.assert_array_equal(p.asnumpy().view(np.int32), [1, 2, 3])
    assert s.data_ptr() == p.data_ptr()
    assert p.untyped_storage() is s


def test_device_names_the_backend():
    s = Tensor(np.ones(2, np.float32)).untyped_storage()
    assert s.device == {"cpu": "CPU", "gpu": "GPU"}.get(jax.default_backend(), jax.default_backend().upper())
    with pytest.raises(AttributeError):
        s.device = "GPU"  # type: ignore[misc]


def test_exported_names():
    assert ms.UntypedStorage is ms.common.UntypedStorage
    assert isinstance(Tensor(np.ones(2, np.float32)).untyped_storage(), ms.UntypedStorage)
