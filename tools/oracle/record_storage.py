"""Record real MindSpore 2.10's ``Tensor.untyped_storage()`` and ``UntypedStorage`` into a fixture.

    ../ms-oracle/bin/python tools/oracle/record_storage.py
    # -> tests/fixtures/oracle/storage.npz

Each case is one of the small programs below, written against a framework module ``ms``: this script runs them
with real MindSpore, ``tests/common/test_storage.py`` loads this file and runs the very same functions with
mindspore_hl. A program returns a list of results (Tensors are recorded with ``asnumpy()``, shapes as int64
arrays, Python values with ``np.asarray``); an exception is recorded as its type and first line (``meta["msg"]``,
compared by the test where ``same_msg`` is set). Every Tensor a program builds stays alive until its results are
read: MindSpore 2.10 runs ``copy_`` asynchronously without keeping the source alive, so a source freed before
the copy runs leaves freed memory (garbage) in the destination.

Cases with ``differs`` set are where views differ: MindSpore's views share their base's storage, while a view here
is a Tensor of its own (see ``mindspore_hl/common/_storage.py``). They are recorded to show what MindSpore does;
the test checks that this project gives ``here`` (its own outputs, or the error type ``here_error``) instead.

Not recorded, because MindSpore 2.10's result is a crash or undefined memory (the test checks this project's clear
errors instead): ``copy_`` from a Tensor, array or number (segmentation fault), the Tensor's values after
``resize_`` (MindSpore reallocates without copying), reading a Tensor after shrinking its storage, a negative or
unallocatable ``resize_`` (MindSpore stores -1 as the size, or ignores the call), bytes other than 0 and 1 copied
into a Bool Tensor.
"""
from __future__ import annotations

import copy
import pathlib
import pickle
import sys
from typing import Any, Callable

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "oracle" / "storage.npz"


# Every Tensor a program builds stays alive until its results are read (``run``): MindSpore 2.10 runs ``copy_``
# asynchronously without keeping the source alive, so a source freed before the read leaves freed memory behind.
_KEEP: list[Any] = []


def T(ms: Any, a: Any, dtype: Any = None) -> Any:
    _KEEP.append(ms.Tensor(np.array(a, dtype)))
    return _KEEP[-1]


def arange(ms: Any, n: int, dtype: Any = np.float32) -> Any:
    return T(ms, np.arange(n), dtype)


def keep(t: Any) -> Any:
    """``t`` (a computed Tensor) kept alive until the results are read, like the Tensors ``T`` builds."""
    _KEEP.append(t)
    return t


def raw(t: Any) -> np.ndarray:
    """The Tensor's bytes, to compare reinterpreted values bit for bit."""
    return np.frombuffer(t.asnumpy().tobytes(), np.uint8)


def convert(value: Any) -> np.ndarray:
    """One program result as the array that is recorded and compared."""
    if hasattr(value, "asnumpy"):
        return value.asnumpy()
    if isinstance(value, tuple):
        return np.asarray(value, np.int64)
    return np.asarray(value)


# ---- Tensor.untyped_storage ------------------------------------------------------------------------------------
def props_f32(ms):
    t = arange(ms, 6)
    s = t.untyped_storage()
    # The device is compared with the Tensor's (MindSpore's recording ran on CPU; the tests may run on a GPU).
    return [s.size(), s.nbytes(), len(s), s.element_size(), str(s.dtype), s.dtype == ms.float32,
            s.device == t.device, isinstance(s.device, str), s.is_shared(), s.data_ptr() == t.data_ptr(),
            t.untyped_storage() is s, isinstance(s, ms.UntypedStorage), isinstance(t, ms.UntypedStorage),
            type(s).__name__]


def storage_alias(ms):
    t = arange(ms, 6)
    s = t.storage()
    return [t.storage() is t.untyped_storage(), type(s).__name__, s.nbytes(), str(s.dtype)]


def props_dtype(np_dtype):
    def program(ms):
        t = T(ms, np.ones((2, 3)), np_dtype)
        s = t.untyped_storage()
        return [s.size(), s.nbytes(), s.element_size(), str(s.dtype)]
    return program


def props_bf16(ms):
    s = T(ms, np.ones((2, 3)), np.float32).astype(ms.bfloat16).untyped_storage()
    return [s.size(), s.nbytes(), s.element_size(), str(s.dtype)]


def props_scalar(ms):
    t = T(ms, 3.0, np.float32)
    s = t.untyped_storage()
    return [s.size(), s.nbytes(), str(s.dtype), s.data_ptr() == t.data_ptr()]


def props_empty(ms):
    t = T(ms, np.zeros((0, 3)), np.float32)
    s = t.untyped_storage()
    return [s.size(), s.nbytes(), str(s.dtype)]


def props_parameter(ms):
    p = ms.Parameter(arange(ms, 4), name="w")
    s = p.untyped_storage()
    return [type(s).__name__, s.nbytes(), s.data_ptr() == p.data_ptr(), str(s.dtype), p.untyped_storage() is s]


def view_storage(make):
    def program(ms):
        v = make(arange(ms, 6))
        s = v.untyped_storage()
        return [v.shape, s.nbytes(), str(s.dtype)]
    return program


def lazy(ms):
    t = ms.Tensor(shape=(2, 3), dtype=ms.float32, init=ms.common.initializer.One())
    return [t.untyped_storage().nbytes()]


# ---- UntypedStorage itself -------------------------------------------------------------------------------------
def new_plain(ms):
    return [ms.UntypedStorage()]


def new_args(ms):
    return [ms.UntypedStorage(24)]


def new_subclass(ms):
    class Sub(ms.UntypedStorage):
        pass
    return [Sub()]


def pickled(ms):
    return [len(pickle.dumps(arange(ms, 6).untyped_storage()))]


def copied(ms):
    return [copy.copy(arange(ms, 6).untyped_storage()).nbytes()]


def device_readonly(ms):
    s = arange(ms, 6).untyped_storage()
    s.device = "GPU"
    return [s.device]


def size_arg(ms):
    return [arange(ms, 6).untyped_storage().size(1)]


# ---- UntypedStorage.copy_ --------------------------------------------------------------------------------------
def copy_between(dst, src, read=lambda ms, t: [t, raw(t)]):
    """``dst(ms).untyped_storage().copy_(src(ms).untyped_storage())``, then ``read(ms, dst)``."""
    def program(ms):
        t, o = dst(ms), src(ms)
        s = t.untyped_storage()
        r = s.copy_(o.untyped_storage())
        return [r is s] + read(ms, t)
    return program


def copy_f32(ms):
    t, o = arange(ms, 6), T(ms, np.full(6, 9), np.float32)
    s = t.untyped_storage()
    r = s.copy_(o.untyped_storage())
    return [t, o, r is s, s.data_ptr() == t.data_ptr(), t.untyped_storage() is s, s.nbytes()]


def copy_call(call):
    def program(ms):
        t, o = arange(ms, 6), T(ms, np.full(6, 9), np.float32)
        call(t.untyped_storage(), o.untyped_storage())
        return [t]
    return program


def copy_self(ms):
    t = arange(ms, 6)
    s = t.untyped_storage()
    r = s.copy_(s)
    return [t, r is s]


def copy_then_compute(ms):
    t, o = arange(ms, 6), T(ms, np.full(6, 2), np.float32)
    before = t + 1
    t.untyped_storage().copy_(o.untyped_storage())
    return [before, t + 1, t.sum(), t * t]


def copy_parameter(ms):
    p, o = ms.Parameter(arange(ms, 4), name="w"), T(ms, np.full(4, 3), np.float32)
    p.untyped_storage().copy_(o.untyped_storage())
    return [p, p.value(), p + 1]


def copy_from_reshaped(ms):
    t, o = arange(ms, 6), keep(arange(ms, 6).reshape(2, 3) + 10)
    t.untyped_storage().copy_(o.untyped_storage())
    return [t]


def copy_from_view(ms):
    t, base = T(ms, np.zeros(6), np.float32), arange(ms, 6)
    w = keep(base.view(2, 3).transpose(1, 0))
    t.untyped_storage().copy_(w.untyped_storage())
    return [t]


def copy_into_view(make):
    def program(ms):
        t, o = arange(ms, 6), keep(T(ms, np.full(6, 7), np.float32) + arange(ms, 6))
        v = make(t)
        v.untyped_storage().copy_(o.untyped_storage())
        return [t, v]
    return program


def copy_into_base_from_its_slice(ms):
    t = arange(ms, 6)
    v = t[1:3]
    t.untyped_storage().copy_(v.untyped_storage())
    return [t]


# ---- UntypedStorage.resize_ ------------------------------------------------------------------------------------
def resize_grow(ms):
    t = arange(ms, 6)
    s = t.untyped_storage()
    r = s.resize_(40)
    return [r is s, s.nbytes(), s.size(), len(s), t.shape, t.untyped_storage() is s]


def resize_grow_copy(ms):
    t, o, d = arange(ms, 2), T(ms, [1, 2, 3], np.float32), T(ms, np.zeros(3), np.float32)
    s = t.untyped_storage()
    s.resize_(12)
    s.copy_(o.untyped_storage())
    d.untyped_storage().copy_(s)
    return [t, d, s.nbytes(), t.shape]


def resize_same_copy(ms):
    t, o = arange(ms, 6), T(ms, np.full(6, 4), np.float32)
    s = t.untyped_storage()
    s.resize_(24)
    n = s.nbytes()
    s.copy_(o.untyped_storage())
    return [n, t, t * 2]


def resize_grow_back(ms):
    t, o = arange(ms, 6), T(ms, np.full(6, 5), np.float32)
    s = t.untyped_storage()
    s.resize_(40)
    s.resize_(28)
    s.resize_(24)
    n = s.nbytes()
    s.copy_(o.untyped_storage())
    return [n, t]


def resize_empty(ms):
    e, o = T(ms, np.zeros(0), np.float32), T(ms, [1.5, 2.5], np.float32)
    s = e.untyped_storage()
    s.resize_(8)
    s.copy_(o.untyped_storage())
    return [s.nbytes(), e.shape, e]


def resize_mismatch_after_grow(ms):
    t, o = arange(ms, 6), arange(ms, 6)
    s = t.untyped_storage()
    s.resize_(40)
    s.copy_(o.untyped_storage())
    return [t]


def resize_call(arg_fn):
    def program(ms):
        s = arange(ms, 6).untyped_storage()
        arg_fn(ms, s)
        return [s.nbytes()]
    return program


def _i8(ms): return arange(ms, 8, np.int8)  # noqa: E704
def _f32_6(ms): return arange(ms, 6)  # noqa: E704


# (case id, program, meta): meta may hold same_msg (the error's first line is compared) or differs / here / here_error
CASES: list[tuple[str, Callable[[Any], list[Any]], dict[str, Any]]] = [
    ("Tensor.untyped_storage/float32", props_f32, {}),
    *[(f"Tensor.untyped_storage/{np.dtype(d).name}", props_dtype(d), {}) for d in
      (np.float16, np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
       np.float64, np.complex64)],
    ("Tensor.untyped_storage/bfloat16", props_bf16, {}),
    ("Tensor.untyped_storage/scalar", props_scalar, {}),
    ("Tensor.storage/same_as_untyped", storage_alias, {}),
    ("Tensor.untyped_storage/empty", props_empty, {}),
    ("Tensor.untyped_storage/parameter", props_parameter, {}),
    ("Tensor.untyped_storage/view", view_storage(lambda t: t.view(2, 3)), {}),
    ("Tensor.untyped_storage/reshape", view_storage(lambda t: t.reshape(3, 2)), {}),
    ("Tensor.untyped_storage/transpose", view_storage(lambda t: t.view(2, 3).transpose(1, 0)), {}),
    ("Tensor.untyped_storage/flatten", view_storage(lambda t: t.view(2, 3).flatten()), {}),
    ("Tensor.untyped_storage/unsqueeze", view_storage(lambda t: t.unsqueeze(0)), {}),
    ("Tensor.untyped_storage/lazy", lazy, {"same_msg": True}),
    ("Tensor.untyped_storage/slice", view_storage(lambda t: t[2:4]), {"differs": True, "here": [[2], 8, "Float32"]}),
    ("Tensor.untyped_storage/step", view_storage(lambda t: t[::2]), {"differs": True, "here": [[3], 12, "Float32"]}),
    ("Tensor.untyped_storage/index", view_storage(lambda t: t[1]), {"differs": True, "here": [[], 4, "Float32"]}),
    ("Tensor.untyped_storage/narrow", view_storage(lambda t: t.narrow(0, 1, 2)),
     {"differs": True, "here": [[2], 8, "Float32"]}),
    ("Tensor.untyped_storage/expand", view_storage(lambda t: t.reshape(6, 1).expand((6, 2))),
     {"differs": True, "here": [[6, 2], 48, "Float32"]}),
    ("UntypedStorage/new", new_plain, {"same_msg": True}),
    ("UntypedStorage/new_args", new_args, {"same_msg": True}),
    ("UntypedStorage/new_subclass", new_subclass, {"same_msg": True}),
    ("UntypedStorage/pickle", pickled, {"same_msg": True}),
    ("UntypedStorage/copy_module", copied, {"same_msg": True}),
    ("UntypedStorage/device_readonly", device_readonly, {}),
    ("UntypedStorage/size_arg", size_arg, {}),
    ("UntypedStorage.copy_/float32", copy_f32, {}),
    ("UntypedStorage.copy_/int64_into_float32", copy_between(_f32_6, lambda ms: arange(ms, 3, np.int64)), {}),
    ("UntypedStorage.copy_/float64_into_float32", copy_between(
        _f32_6, lambda ms: T(ms, [1.5, -2.0, 3e300], np.float64)), {}),
    ("UntypedStorage.copy_/int8_into_float16", copy_between(lambda ms: T(ms, np.zeros(4), np.float16), _i8), {}),
    ("UntypedStorage.copy_/uint8_into_bool", copy_between(
        lambda ms: T(ms, np.zeros(4), np.bool_), lambda ms: T(ms, [0, 1, 1, 0], np.uint8),
        lambda ms, t: [t, t.astype(ms.int32), t.sum()]), {}),
    ("UntypedStorage.copy_/bool_into_int8", copy_between(
        lambda ms: T(ms, np.zeros(4), np.int8), lambda ms: T(ms, [True, False, True, True], np.bool_)), {}),
    ("UntypedStorage.copy_/float32_into_int8", copy_between(
        lambda ms: T(ms, np.zeros(4), np.int8), lambda ms: T(ms, [1.5], np.float32)), {}),
    ("UntypedStorage.copy_/int32_into_scalar", copy_between(
        lambda ms: T(ms, 3.0, np.float32), lambda ms: T(ms, 7, np.int32), lambda ms, t: [t.shape, raw(t)]), {}),
    ("UntypedStorage.copy_/float16_into_bfloat16", copy_between(
        lambda ms: T(ms, np.zeros(2), np.float32).astype(ms.bfloat16),
        lambda ms: T(ms, [1.0, 2.0], np.float16), lambda ms, t: [raw(t), t.astype(ms.float32)]), {}),
    ("UntypedStorage.copy_/float32_into_complex64", copy_between(
        lambda ms: T(ms, np.zeros(2), np.complex64), lambda ms: T(ms, [1, 2, 3, 4], np.float32)), {}),
    ("UntypedStorage.copy_/int64_into_uint8", copy_between(
        lambda ms: T(ms, np.zeros(8), np.uint8), lambda ms: T(ms, [258 + (7 << 56)], np.int64)), {}),
    ("UntypedStorage.copy_/empty", copy_between(
        lambda ms: T(ms, np.zeros(0), np.float32), lambda ms: T(ms, np.zeros((0, 2)), np.int8),
        lambda ms, t: [t.shape]), {}),
    ("UntypedStorage.copy_/smaller", copy_between(_f32_6, lambda ms: T(ms, [9, 9], np.float32)), {"same_msg": True}),
    ("UntypedStorage.copy_/larger", copy_between(_f32_6, lambda ms: arange(ms, 8)), {"same_msg": True}),
    ("UntypedStorage.copy_/into_empty", copy_between(
        lambda ms: T(ms, np.zeros(0), np.float32), lambda ms: arange(ms, 2)), {"same_msg": True}),
    ("UntypedStorage.copy_/from_empty", copy_between(
        lambda ms: arange(ms, 3), lambda ms: T(ms, np.zeros(0), np.float32)), {"same_msg": True}),
    ("UntypedStorage.copy_/keyword_src", copy_call(lambda s, o: s.copy_(src=o)), {}),
    ("UntypedStorage.copy_/non_blocking", copy_call(lambda s, o: s.copy_(o, True)), {}),
    ("UntypedStorage.copy_/non_blocking_kw", copy_call(lambda s, o: s.copy_(o, non_blocking=True)), {}),
    ("UntypedStorage.copy_/non_blocking_int", copy_call(lambda s, o: s.copy_(o, 1)), {}),
    ("UntypedStorage.copy_/no_src", copy_call(lambda s, o: s.copy_()), {}),
    ("UntypedStorage.copy_/three_args", copy_call(lambda s, o: s.copy_(o, False, 1)), {}),
    ("UntypedStorage.copy_/bad_keyword", copy_call(lambda s, o: s.copy_(other=o)), {}),
    ("UntypedStorage.copy_/self", copy_self, {}),
    ("UntypedStorage.copy_/then_compute", copy_then_compute, {}),
    ("UntypedStorage.copy_/parameter", copy_parameter, {}),
    ("UntypedStorage.copy_/from_reshaped", copy_from_reshaped, {}),
    ("UntypedStorage.copy_/from_transposed", copy_from_view,
     {"differs": True, "here": [[0, 3, 1, 4, 2, 5]]}),
    ("UntypedStorage.copy_/into_reshaped", copy_into_view(lambda t: t.reshape(2, 3)),
     {"differs": True, "here": [[0, 1, 2, 3, 4, 5], [[7, 8, 9], [10, 11, 12]]]}),
    ("UntypedStorage.copy_/into_transposed", copy_into_view(lambda t: t.view(2, 3).transpose(1, 0)),
     {"differs": True, "here": [[0, 1, 2, 3, 4, 5], [[7, 8], [9, 10], [11, 12]]]}),
    ("UntypedStorage.copy_/into_slice", copy_into_view(lambda t: t[2:4]),
     {"differs": True, "here_error": "RuntimeError"}),
    ("UntypedStorage.copy_/base_from_its_slice", copy_into_base_from_its_slice,
     {"differs": True, "here_error": "RuntimeError"}),
    ("UntypedStorage.resize_/grow", resize_grow, {}),
    ("UntypedStorage.resize_/grow_copy", resize_grow_copy, {}),
    ("UntypedStorage.resize_/same_copy", resize_same_copy, {}),
    ("UntypedStorage.resize_/grow_back", resize_grow_back, {}),
    ("UntypedStorage.resize_/empty", resize_empty, {}),
    ("UntypedStorage.resize_/mismatch_after_grow", resize_mismatch_after_grow, {"same_msg": True}),
    ("UntypedStorage.resize_/float", resize_call(lambda ms, s: s.resize_(8.0)), {"same_msg": True}),
    ("UntypedStorage.resize_/bool", resize_call(lambda ms, s: s.resize_(True)), {"same_msg": True}),
    ("UntypedStorage.resize_/numpy_int", resize_call(lambda ms, s: s.resize_(np.int64(8))), {"same_msg": True}),
    ("UntypedStorage.resize_/tensor", resize_call(lambda ms, s: s.resize_(ms.Tensor(8))), {"same_msg": True}),
    ("UntypedStorage.resize_/no_size", resize_call(lambda ms, s: s.resize_()), {}),
    ("UntypedStorage.resize_/keyword", resize_call(lambda ms, s: s.resize_(size=8)), {}),
]


def run(program: Callable[[Any], list[Any]], ms: Any) -> list[np.ndarray]:
    """The program's results with framework ``ms``, as the arrays that are recorded."""
    try:
        return [convert(v) for v in program(ms)]
    finally:
        _KEEP.clear()


def main() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    import mindspore as ms  # only here: the tests import this file for its programs
    from oracle import FixtureWriter

    with FixtureWriter(OUT) as writer:
        for case_id, program, meta in CASES:
            name = case_id.split("/")[0]
            try:
                outputs = run(program, ms)
            except Exception as e:  # noqa: BLE001  (every error is recorded by type)
                msg = str(e).split("\n")[0]
                writer.add(case_id, name=name, error=type(e).__name__, msg=msg, **meta)
                print(f"{case_id}: {type(e).__name__}: {msg}")
                continue
            writer.add(case_id, name=name, outputs=outputs, **meta)
            print(f"{case_id}: {[o.tolist() for o in outputs]}")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
