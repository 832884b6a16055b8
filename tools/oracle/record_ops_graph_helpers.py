"""Record real MindSpore 2.10 running the graph-syntax helpers of ``mindspore.ops`` into
tests/fixtures/oracle/ops_graph_helpers.npz.

Run with the oracle interpreter (real MindSpore installed), from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_ops_graph_helpers.py

The cases below are plain functions of one Tensor ``x`` (``[1, 2, 3]``, Float32) over the module globals ``ms``
and ``ops``, which :func:`bind` sets: to real MindSpore here, to mindspore_hl in tests/ops/test_graph_helpers.py,
which imports this file by path and replays every case. Each case ran in PYNATIVE_MODE where MindSpore's
PyNative runs it, else in GRAPH_MODE (``ms.jit``): MindSpore's PyNative has no kernel for most syntax helpers
(``bool_and``, ``string_concat``, ``make_dict``...) or returns None for the composite ones (``tail``,
``zip_operation``, ``ms_next``); ``meta["mode"]`` says which. Outputs are flattened by :func:`flatten`: arrays
in ``outputs``, the structure (tuples, dicts, slices, Python scalars, strings) in ``meta["spec"]``.
"""
import os
import pathlib
import sys
import tempfile

import numpy as np

ms = ops = None  # bound by bind()


def bind(ms_module, ops_module):
    """Point the cases at a framework (real MindSpore or mindspore_hl)."""
    global ms, ops
    ms, ops = ms_module, ops_module


# ---- cases: PYNATIVE ------------------------------------------------------------------------------------
def c_is_not(x):
    return ops.is_not(x, None), ops.is_not(1, 1)


def c_in_dict(x):
    return ops.in_dict("a", {"a": 1}), ops.in_dict("b", {"a": 1})


def c_not_in_dict(x):
    return ops.not_in_dict("a", {"a": 1}), ops.not_in_dict("b", {"a": 1})


def c_dict_getitem(x):
    return ops.dict_getitem({"a": x, "b": 2}, "a")


def c_make_list(x):
    return ops.make_list(1, x, "s")


def c_make_tuple(x):
    return ops.make_tuple(1, x, (2, 3))


def c_make_slice(x):
    return ops.make_slice(1, 5, 2)


def c_make_range(x):
    return ops.make_range(1, 7, 2), ops.make_range(4), ops.make_range(5, 1, -2)


def c_isconstant(x):
    return ops.isconstant(x), ops.isconstant(3)


def c_partial(x):
    return ops.partial(ops.add, x)(x * 2)


def c_switch(x):
    return ops.switch(True, x, -x), ops.switch(False, 1, 2)


def c_reduced_shape(x):
    return ops.reduced_shape((2, 3, 4), (1,)), ops.reduced_shape((2, 3, 4), (0, -1)), ops.reduced_shape((2, 3), ())


def c_broadcast_gradient_args(x):
    return (ops.broadcast_gradient_args((2, 3), (3,)), ops.broadcast_gradient_args((4, 1, 3), (2, 1)),
            ops.broadcast_gradient_args((5, 2), (5, 2)))


def c_augassign_add(x):
    y = x * 1
    r = ops.augassign_add(y, x)
    return r, y, ops.augassign_add(3, 4), ops.augassign_add((1,), (2,)), ops.augassign_add("a", "b")


def c_augassign_sub(x):
    y = x * 1
    return ops.augassign_sub(y, 0.5), y, ops.augassign_sub(3, 5)


def c_augassign_mul(x):
    y = x * 1
    return ops.augassign_mul(y, x), y, ops.augassign_mul(3, 4), ops.augassign_mul((1, 2), 2)


def c_augassign_div(x):
    y = x * 1
    return ops.augassign_div(y, 2.0), y, ops.augassign_div(3, 2)


def c_augassign_floordiv(x):
    y = x * 3
    return ops.augassign_floordiv(y, 2.0), y, ops.augassign_floordiv(7, 2), ops.augassign_floordiv(-7, 2)


def c_augassign_mod(x):
    y = x * 3
    return ops.augassign_mod(y, 2.0), y, ops.augassign_mod(7, 3), ops.augassign_mod(-7, 3)


def c_hyper_add(x):
    return ops.hyper_add((x, 1, [2.5, x]), (x, 2, [0.5, x * 2]))


def c_get_grad(x):
    grads = ms.grad(ops.mul, (0, 1), return_ids=True)(x, x * 3)
    return ops.get_grad(grads, 0), ops.get_grad(grads, 1)


def c_derivative(x):
    out1 = ops.derivative(ops.sin, x, 1)
    out3 = ops.derivative(ops.exp, x, 3)
    return out1, out3


def c_jet(x):
    series = ms.Tensor(np.array([[1, 0.5, 2], [0.5, 1, 1], [1, 1, 0]], np.float32))
    return ops.jet(ops.sin, x, series)


def c_linearize(x):
    out, jvp_fn = ops.linearize(ops.mul, (x, x * 2))
    v = (ms.Tensor(np.ones(3, np.float32)), ms.Tensor(np.array([1, 0, 2], np.float32)))
    return out, jvp_fn(v)


def c_reshard(x):
    return ops.reshard(x, None)


def c_hastype(x):
    return (ops.hastype(x, ms.tensor_type), ops.hastype(x, ms.TensorType(ms.float32)),
            ops.hastype(x, ms.TensorType(ms.int32)), ops.hastype(x, ms.number), ops.hastype(1, ms.int_),
            ops.hastype(1, ms.int64), ops.hastype(1, ms.int32), ops.hastype(1.0, ms.float_),
            ops.hastype(1.0, ms.float32), ops.hastype(1.0, ms.float64), ops.hastype(1, ms.number),
            ops.hastype(True, ms.number), ops.hastype(True, ms.bool_), ops.hastype(True, ms.int64),
            ops.hastype(1, ms.tensor_type))  # (MindSpore rejects ms.string and ms.type_none as the type)


def c_add_flags(x):
    def fn(v):
        return v
    first = ops.add_flags(fn, a=True)
    second = ops.add_flags(b=1)(fn)
    return first is fn, second is fn, sorted(fn._func_graph_flags.items())


PYNATIVE = [c_is_not, c_in_dict, c_not_in_dict, c_dict_getitem, c_make_slice, c_make_range,
            c_isconstant, c_partial, c_reduced_shape, c_broadcast_gradient_args, c_augassign_add,
            c_augassign_sub, c_augassign_mul, c_augassign_div, c_augassign_floordiv, c_augassign_mod, c_hyper_add,
            c_get_grad, c_derivative, c_jet, c_linearize, c_reshard, c_hastype, c_add_flags]


# ---- cases: GRAPH_MODE ----------------------------------------------------------------------------------
def g_bool_and(x):
    return ops.bool_and(True, False), ops.bool_and(True, True)


def g_bool_or(x):
    return ops.bool_or(True, False), ops.bool_or(False, False)


def g_bool_not(x):
    return ops.bool_not(True), ops.bool_not(False)


def g_bool_eq(x):
    return ops.bool_eq(True, True), ops.bool_eq(True, False)


def g_string_concat(x):
    return ops.string_concat("ab", "cd")


def g_string_eq(x):
    return ops.string_eq("ab", "ab"), ops.string_eq("ab", "a")


def g_dict_setitem(x):
    return ops.dict_setitem({"a": x}, "b", x * 2)


def g_make_dict(x):
    return ops.make_dict(("a", "b"), (x, x * 2))


def g_tail(x):
    return ops.tail((x, 2, 3))


def g_zip_operation(x):
    return ops.zip_operation((1, 2), (3, 4))


def g_ms_next(x):
    return ops.ms_next((1, 2, 3))


def g_ms_hasnext(x):
    return ops.ms_hasnext((1, 2)), ops.ms_hasnext(())


def g_iter_converter(x):
    return ops.iter_converter([1, 2]), ops.iter_converter((3, 4))


def g_switch(x):
    return ops.switch(x[0] > 0, x, -x), ops.switch(x[0] > 5, x, -x)


def _branch_sin(v):
    return ops.sin(v)


def _branch_cos(v):
    return ops.cos(v)


def g_switch_layer(x):
    return ops.switch_layer(ms.Tensor(1, ms.int32), (_branch_sin, _branch_cos))(x)


def g_augassign_add(x):
    y = x * 1
    r = ops.augassign_add(y, x)  # in place in GRAPH_MODE (PyNative: a new Tensor, y unchanged)
    return r, y


def g_isconstant(x):
    return ops.isconstant(x), ops.isconstant(3)


GRAPH = [g_bool_and, g_bool_or, g_bool_not, g_bool_eq, g_string_concat, g_string_eq, g_dict_setitem, g_make_dict,
         g_tail, g_zip_operation, g_ms_next, g_ms_hasnext, g_iter_converter, g_switch, g_switch_layer, g_isconstant,
         g_augassign_add,
         c_make_list, c_switch, c_make_tuple]  # (MindSpore's PyNative has no kernel for these with Tensors, or
         # turns a make_tuple's Python elements into Tensors)


def case_name(fn):
    """The fixture case name: ``ops.<helper>`` (the coverage test counts it as replayed)."""
    return "ops." + fn.__name__[2:]


def make_input():
    return ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))


# ---- flattening -----------------------------------------------------------------------------------------
def flatten(value, arrays):
    """A JSON spec of ``value``; its Tensors are appended to ``arrays`` (as NumPy)."""
    if hasattr(value, "asnumpy"):
        arrays.append(value.asnumpy())
        return {"t": len(arrays) - 1}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return {"v": value, "type": type(value).__name__}
    if isinstance(value, slice):
        return {"slice": [value.start, value.stop, value.step]}
    if isinstance(value, dict):
        return {"dict": [[k, flatten(v, arrays)] for k, v in value.items()]}
    if isinstance(value, (tuple, list)):
        return {type(value).__name__: [flatten(v, arrays) for v in value]}
    raise TypeError(f"cannot record a {type(value).__name__}")


def main():
    root = pathlib.Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "tests"))
    import mindspore
    from oracle import FixtureWriter
    bind(mindspore, mindspore.ops)
    out = root / "tests" / "fixtures" / "oracle" / "ops_graph_helpers.npz"
    with FixtureWriter(out) as w:
        for mode, cases in (("pynative", PYNATIVE), ("graph", GRAPH)):
            mindspore.set_context(mode=mindspore.PYNATIVE_MODE if mode == "pynative" else mindspore.GRAPH_MODE)
            for fn in cases:
                run = fn if mode == "pynative" else mindspore.jit(fn)
                case_id, arrays = f"{case_name(fn)}/{mode}/{fn.__name__}", []
                try:
                    spec = flatten(run(make_input()), arrays)
                except Exception as e:  # recorded: what real MindSpore raised
                    print(fn.__name__, "raised", type(e).__name__, str(e)[:200])
                    w.add(case_id, name=case_name(fn), error=type(e).__name__, mode=mode, case=fn.__name__)
                    continue
                w.add(case_id, outputs=arrays, name=case_name(fn), mode=mode, case=fn.__name__, spec=spec)
        # tensordump: the file MindSpore writes (name pattern and content)
        mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
        with tempfile.TemporaryDirectory() as d:
            mindspore.ops.tensordump(os.path.join(d, "dump.npy"), make_input())
            mindspore.ops.tensordump(os.path.join(d, "other"), ms.Tensor(np.array([4, 5], np.int32)))
            names = sorted(os.listdir(d))
            w.add("ops.tensordump/pynative", outputs=[np.load(os.path.join(d, n)) for n in names],
                  name="ops.tensordump", mode="pynative", files=names)
    print("wrote", out)


if __name__ == "__main__":
    main()
