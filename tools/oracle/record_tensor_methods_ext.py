"""Record real MindSpore 2.10's Tensor methods added by ``common/_tensor_methods_ext.py`` (choose, index_put, ...).

    ../ms-oracle/bin/python tools/oracle/record_tensor_methods_ext.py
    # -> tests/fixtures/oracle/tensor_methods_ext.npz

A case is named ``Tensor.<name>``; ``meta["on"]`` is the encoded Tensor the method is called on (``None`` for a
static method called on the class), ``args`` / ``kwargs`` use ``_sweep``'s encoding, and ``meta["how"]`` is
``call`` (``t.name(*args)``), ``attr`` (the property ``t.name``) or ``dlpack``
(``Tensor.from_dlpack(t.to_dlpack())``). ``meta["then"]`` names what is recorded after
the result: ``"self"`` (the Tensor after the call: out-of-place methods leave it unchanged) or an attribute.
Tensor results are the outputs; a Python result (str, int, list, bool, bytes, None) is ``meta["py"]`` with its
type in ``meta["pytype"]``.

Not recorded, because this CPU build cannot run them (the tests compare with NumPy / SciPy instead): the Ascend-only
``kthvalue``, ``fill_diagonal_``, ``uniform``, ``uniform_``, ``normal_``, ``bernoulli`` (kernels missing) and
``triangular_solve`` (its Tensor method fails with AttributeError in 2.10). Random methods record only shapes,
dtypes and errors (values depend on the generator). ``Tensor.register_hook`` / ``Tensor.hooks`` cases record
``ms.grad`` / ``ms.value_and_grad`` of the ``hook_*`` functions below (``meta["fn"]``, ``meta["transform"]``).
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import mindspore as ms  # noqa: E402
from _sweep import D, T, _flush, decode_ms, encode, flatten_outputs  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "oracle" / "tensor_methods_ext.npz"


def f32(*shape):
    return T(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape))


def i32(v):
    return T(np.asarray(v, np.int32))


def i64(v):
    return T(np.asarray(v, np.int64))


def fl(v):
    return T(np.asarray(v, np.float32))


CHOICES = [[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]]
X = f32(3, 4)
IMG = f32(2, 2, 4, 4)
COLS = f32(1, 8, 9)
Z3 = T(np.zeros((3, 3), np.float32))

# (case id suffix, method, self, args, kwargs, how, then)
CASES = [
    ("basic", "choose", i32([2, 3, 1, 0]), [CHOICES], {}, "call", None),
    ("wrap", "choose", i32([2, 4, 1, -1]), [CHOICES], {"mode": "wrap"}, "call", None),
    ("clip", "choose", i32([2, 4, 1, -1]), [CHOICES], {"mode": "clip"}, "call", None),
    ("raise", "choose", i32([2, 4, 1, -1]), [CHOICES], {"mode": "raise"}, "call", None),
    ("tensors", "choose", i64([[1, 0], [0, 1]]),
     [(fl(np.ones((2, 2))), fl(np.zeros((2, 2))))], {}, "call", None),
    ("broadcast", "choose", i64([[1], [0]]), [(fl(np.ones(3)), fl(np.zeros((2, 3))))], {}, "call", None),
    ("float_index", "choose", fl([1., 0.]), [[[1, 2], [3, 4]]], {}, "call", None),
    ("tensor_float", "choose", fl([[1.5, -2.4, 0.], [-2.9, 0.7, 1.]]),
     [fl([[-2.1, -2.6, 2.7], [-3.0, 0.6, -0.6]])], {}, "call", None),
    ("tensor_rows", "choose", i32([1, 0, 2]), [fl([[1.5, 2.5, 3.5], [-1.5, -2.5, -3.5], [7., 8., 9.]])], {},
     "call", None),
    ("scalar", "choose", T(np.int32(1)), [[[1, 2], [3, 4]]], {}, "call", None),
    ("square", "fill_diagonal", X, [5.0], {}, "call", "self"),
    ("tall_wrap", "fill_diagonal", T(np.zeros((7, 3), np.float32)), [5.0], {"wrap": True}, "call", None),
    ("tall", "fill_diagonal", T(np.zeros((7, 3), np.float32)), [5.0], {}, "call", None),
    ("cube", "fill_diagonal", T(np.zeros((2, 2, 2), np.float32)), [5.0], {}, "call", None),
    ("int32", "fill_diagonal", T(np.zeros((3, 3), np.int32)), [5.7], {}, "call", None),
    ("bad_cube", "fill_diagonal", T(np.zeros((2, 3, 2), np.float32)), [5.0], {}, "call", None),
    ("one_d", "fill_diagonal", T(np.zeros(3, np.float32)), [5.0], {}, "call", None),
    ("int_value", "fill_diagonal", T(np.zeros((3, 3), np.int32)), [5], {}, "call", None),
    ("pairs", "index_put", Z3, [(i32([0, 2]), i32([1, 2])), fl([1., 2.])], {}, "call", "self"),
    ("accumulate", "index_put", T(np.ones((3, 3), np.float32)), [(i32([0, 0]), i32([1, 1])), fl([1., 2.])],
     {"accumulate": True}, "call", None),
    ("rows", "index_put", Z3, [[i64([0, 2])], fl([1.])], {}, "call", None),
    ("rows_vector", "index_put", Z3, [(i64([0, 2]),), fl([1., 2., 3.])], {}, "call", None),
    ("dtype_mismatch", "index_put", Z3, [(i64([0, 2]),), T(np.array([1.]))], {}, "call", None),
    ("float_index", "index_put", Z3, [(fl([0., 2.]),), fl([1.])], {}, "call", None),
    ("bool_index", "index_put", Z3, [(T(np.array([True, False, True])),), fl([1.])], {}, "call", None),
    ("int_accumulate", "index_put", Z3, [(i64([0, 2]),), fl([1.])], {"accumulate": 1}, "call", None),
    ("basic", "masked_scatter", fl([1., 2., 3., 4.]), [T(np.array([True, True, False, True])), fl([5., 6., 7.])],
     {}, "call", "self"),
    ("broadcast", "masked_scatter", X, [T(np.array([True, False, False, True])), fl(-np.arange(20))], {}, "call",
     None),
    ("short_source", "masked_scatter", X, [T(np.array([True, False, False, True])), fl(np.arange(3))], {}, "call",
     None),
    ("int_mask", "masked_scatter", X, [i32([1, 0, 0, 1]), fl(np.arange(13))], {}, "call", None),
    ("source_dtype", "masked_scatter", X, [T(np.array([True, False, False, True])), i32(np.arange(13))], {},
     "call", None),
    ("rows", "sum_to_size", X, [1, 4], {}, "call", None),
    ("tuple", "sum_to_size", X, [(3, 1)], {}, "call", None),
    ("lead", "sum_to_size", X, [4], {}, "call", None),
    ("all", "sum_to_size", X, [], {}, "call", None),
    ("one", "sum_to_size", X, [1], {}, "call", None),
    ("three_d", "sum_to_size", T(np.ones((2, 3, 4), np.float32)), [3, 1], {}, "call", None),
    ("int32", "sum_to_size", T(np.ones((2, 3), np.int32)), [1, 3], {}, "call", None),
    ("bad", "sum_to_size", X, [2, 4], {}, "call", None),
    ("int32", "unique_with_pad", i32([1, 1, 2, 2, 3, 3, 4, 5]), [0], {}, "call", None),
    ("order", "unique_with_pad", i64([5, 1, 5, 3, 1, 9]), [-1], {}, "call", None),
    ("float", "unique_with_pad", fl([5., 1., 5.]), [0], {}, "call", None),
    ("two_d", "unique_with_pad", i32([[5, 1], [5, 3]]), [0], {}, "call", None),
    ("k2", "unfold", IMG, [2], {}, "call", None),
    ("keywords", "unfold", IMG, [], {"kernel_size": (2, 3), "dilation": 1, "padding": 1, "stride": 2}, "call",
     None),
    ("int32", "unfold", T(np.ones((1, 1, 4, 4), np.int32)), [2], {}, "call", None),
    ("k2", "fold", COLS, [i32([4, 4]), 2], {}, "call", None),
    ("k2", "col2im", T(np.arange(72, dtype=np.float32).reshape(1, 2, 4, 9)), [i32([4, 4]), 2, 1, 0, 1], {},
     "call", None),
    ("shrink", "resize", X, [2, 3], {}, "call", "self"),
    ("grow", "resize", X, [(4, 5)], {}, "call", None),
    ("none", "resize", X, [], {}, "call", None),
    ("minus_one", "resize", X, [-1], {}, "call", None),
    ("flat", "itemset", i32([[0, 1, 2], [3, 4, 5]]), [4, 100], {}, "call", "self"),
    ("tuple", "itemset", i32([[0, 1, 2], [3, 4, 5]]), [(1, 0), 100], {}, "call", None),
    ("float_value", "itemset", i32([[0, 1, 2], [3, 4, 5]]), [1, 2.7], {}, "call", None),
    ("one_arg", "itemset", i32([[0, 1, 2], [3, 4, 5]]), [5], {}, "call", None),
    ("one_arg_size1", "itemset", fl([3.]), [5.0], {}, "call", None),
    ("no_args", "itemset", i32([[0, 1, 2], [3, 4, 5]]), [], {}, "call", None),
    ("out_of_range", "itemset", i32([[0, 1, 2], [3, 4, 5]]), [10, 1], {}, "call", None),
    ("name", "type", X, [], {}, "call", None),
    ("int64_name", "type", i64([1, 2]), [], {}, "call", None),
    ("cast", "type", X, [D("int32")], {}, "call", None),
    ("cast_str", "type", X, [], {"dtype": "int32"}, "call", None),
    ("all", "stride", X, [], {}, "call", None),
    ("dim", "stride", X, [0], {}, "call", None),
    ("last", "stride", X, [-1], {}, "call", None),
    ("three_d", "stride", T(np.ones((2, 3, 4), np.int64)), [], {}, "call", None),
    ("scalar", "stride", T(np.float32(1)), [], {}, "call", None),
    ("out_of_range", "stride", X, [3], {}, "call", None),
    ("fresh", "storage_offset", X, [], {}, "call", None),
    ("fresh", "is_meta", X, [], {}, "attr", None),
    ("fresh", "is_pinned", X, [], {}, "call", None),
    ("fresh", "is_shared", X, [], {}, "call", None),
    ("cpu", "device", X, [], {}, "attr", None),
    ("cpu", "move_to", X, ["CPU"], {}, "call", None),
    ("async", "move_to", X, ["CPU"], {"blocking": False}, "call", None),
    ("lower_case", "move_to", X, ["cpu"], {}, "call", None),
    ("other_device", "move_to", X, ["Ascend"], {}, "call", None),
    ("unknown", "move_to", X, ["foo"], {}, "call", None),
    ("blocking_int", "move_to", X, ["CPU"], {"blocking": 1}, "call", None),
    ("self", "value", X, [], {}, "call", None),
    ("self", "data", X, [], {}, "attr", None),
    ("eager", "init", X, [], {}, "attr", None),
    ("default", "const_arg", X, [], {}, "attr", None),
    ("set", "set_const_arg", X, [], {}, "call", "const_arg"),
    ("unset", "set_const_arg", X, [False], {}, "call", "const_arg"),
    ("int", "set_const_arg", X, [1], {}, "call", None),
    ("roundtrip", "to_dlpack", X, [], {}, "dlpack", None),
    ("roundtrip", "from_dlpack", T(np.array([[1, -2]], np.int64)), [], {}, "dlpack", None),
    ("int16", "get_bytes", T(np.array([1, 2], np.int16)), [], {}, "call", None),
    ("float32", "get_bytes", fl([1.5, -2.]), [], {}, "call", None),
    ("exact", "convert_bytes_to_tensor", None, [b"\x01\x00\x02\x00", (2,), D("int16")], {}, "call", None),
    ("float32", "convert_bytes_to_tensor", None, [np.array([1.5, 2], np.float32).tobytes(), (1, 2), D("float32")],
     {}, "call", None),
    ("short", "convert_bytes_to_tensor", None, [b"\x01\x00\x02", (3,), D("int16")], {}, "call", None),
    ("float32", "log_normal", T(np.zeros((2, 3), np.float32)), [], {}, "call", "shape"),
    ("float16", "log_normal", T(np.zeros((4,), np.float16)), [0.0, 0.5], {}, "call", "shape"),
    ("int32", "log_normal", T(np.zeros((4,), np.int32)), [], {}, "call", None),
    ("float32", "cauchy", T(np.zeros((2, 3), np.float32)), [], {}, "call", "shape"),
    ("float16", "cauchy", T(np.zeros((4,), np.float16)), [1.0, 2.0], {}, "call", "shape"),
    ("int32", "cauchy", T(np.zeros((4,), np.int32)), [], {}, "call", "shape"),
    ("rows", "multinomial", fl([[0., 1., 0.], [0.5, 0., 0.5]]), [6], {}, "call", "shape"),
    ("no_replacement", "multinomial", fl([0.1, 1., 0.2, 0.3]), [3, False], {}, "call", "shape"),
    ("int64", "random_categorical", T(np.zeros((2, 3), np.float32)), [5, 2], {}, "call", "shape"),
    ("int32", "random_categorical", T(np.zeros((2, 3), np.float32)), [4, 0, D("int32")], {}, "call", "shape"),
    ("float_count", "random_categorical", T(np.zeros((2, 3), np.float32)), [4.0], {}, "call", None),
    ("one_d", "random_categorical", T(np.zeros((3,), np.float32)), [4], {}, "call", None),
    ("integer", "bernoulli", T(np.full((4,), 1, np.int32)), [], {}, "call", None),
]


# Gradient hooks: ``ms.grad`` / ``ms.value_and_grad`` of these functions (the test defines the same ones).
def hook_double(x, y):
    z = x * y
    z.register_hook(lambda g: g * 2)
    return z * y


def hook_removed(x, y):
    z = x * y
    handle = z.register_hook(lambda g: g * 2)
    z = z * y
    handle.remove()
    return z


def hook_chain(x, y):
    z = x * y
    z.register_hook(lambda g: g * 10)
    z.register_hook(lambda g: g + 1)
    z.register_hook(lambda g: None)  # None keeps the gradient
    return (z * z).sum()


def hook_count(x, y):
    z = x * y
    z.register_hook(lambda g: g)
    z.register_hook(lambda g: g)
    return z * 0 + len(z.hooks())


HOOK_CASES = [("Tensor.register_hook/double", "grad", hook_double),
              ("Tensor.register_hook/removed", "grad", hook_removed),
              ("Tensor.register_hook/chain", "grad", hook_chain),
              ("Tensor.register_hook/value_and_grad", "value_and_grad", hook_chain),
              ("Tensor.hooks/count", "value_and_grad", hook_count)]
CASES.append(("none", "hooks", X, [], {}, "call", None))

# Random methods: only the result's shape and dtype are recorded (as meta), not the values.
RANDOM = {"log_normal", "cauchy", "multinomial", "random_categorical"}


def _python(value):
    """(JSON value, type name) of a Python result."""
    if isinstance(value, bytes):
        return value.hex(), "bytes"
    return value, type(value).__name__


def _record(w, suffix, name, inputs, meta, then):
    """Call one case; add it to ``w`` when it returns (True), else note the error in ``meta`` (False)."""
    enc_self, enc_args, enc_kwargs, how = meta["on"], meta["args"], meta["kwargs"], meta["how"]
    try:
        target = ms.Tensor if enc_self is None else decode_ms(enc_self, inputs, ms)
        call_args = [bytes.fromhex(a) if i in meta["bytes_args"] else decode_ms(a, inputs, ms)
                     for i, a in enumerate(enc_args)]
        res = getattr(target, name)
        if how == "call":
            res = res(*call_args, **{k: decode_ms(v, inputs, ms) for k, v in enc_kwargs.items()})
        elif how == "dlpack":
            res = ms.Tensor.from_dlpack(target.to_dlpack())
        if name == "convert_bytes_to_tensor":
            res = ms.Tensor(res)  # MindSpore returns its C++ TensorPy: wrap it to read it
        outs, extra = [], {}
        if name in RANDOM:
            extra = dict(shape=list(res.shape), dtype=str(res.dtype))
        elif hasattr(res, "asnumpy") or isinstance(res, (tuple, list)) and res and hasattr(res[0], "asnumpy"):
            outs = flatten_outputs(res)
        else:
            extra["py"], extra["pytype"] = _python(res)
        if then == "self":
            outs.append(target.asnumpy())
        elif then not in (None, "shape"):
            extra["then_value"] = getattr(target, then)
    except Exception as e:  # noqa: BLE001  (the error type is the recorded truth)
        meta.update(error=type(e).__name__, message=" ".join(str(e).split())[:160])
        return False
    meta.pop("error", None)  # an earlier attempt's (stale) error
    meta.pop("message", None)
    w.add(f"Tensor.{name}/{suffix}", inputs=inputs, outputs=outs, name=f"Tensor.{name}", **meta, **extra)
    return True


def main():
    with FixtureWriter(OUT) as w:
        for suffix, name, self_t, args, kwargs, how, then in CASES:
            inputs = {}
            enc_self = encode(self_t, inputs) if self_t is not None else None
            enc_args = [encode(a.hex() if isinstance(a, bytes) else a, inputs) for a in args]
            enc_kwargs = {k: encode(v, inputs) for k, v in kwargs.items()}
            meta = dict(on=enc_self, args=enc_args, kwargs=enc_kwargs, how=how, then=then,
                        bytes_args=[i for i, a in enumerate(args) if isinstance(a, bytes)])
            for _attempt in range(3):  # the CPU runtime can report an earlier call's kernel error on the next call
                _flush(ms)
                ok = _record(w, suffix, name, inputs, meta, then)
                if ok:
                    break
            if not ok:
                print(f"Tensor.{name}/{suffix}: {meta['error']}: {meta['message'][:100]}")
                w.add(f"Tensor.{name}/{suffix}", inputs=inputs, name=f"Tensor.{name}", **meta)
        ms.set_context(mode=ms.PYNATIVE_MODE)
        x, y = np.array([1.0, -0.5], np.float32), np.array([2.0, 3.0], np.float32)
        for case_id, how, fn in HOOK_CASES:
            transform = getattr(ms, how)
            out = transform(fn, grad_position=(0, 1))(ms.Tensor(x), ms.Tensor(y))
            w.add(case_id, inputs={"x": x, "y": y}, outputs=flatten_outputs(out), name=case_id.split("/")[0],
                  fn=fn.__name__, transform=how)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
