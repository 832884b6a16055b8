"""Record real MindSpore for ``mindspore_hl/_runtime_ext.py``, ``common/_symbol.py`` and ``parallel/_layout_api.py``:
``Symbol`` (constructor errors, ``to_dict``), the checks of inputs declared with ``Cell.set_inputs`` (GRAPH_MODE)
and ``enable_dynamic`` (a ``jit`` function), ``Layout`` (``to_dict``, split counts, errors) and the argument checks
of ``set_cpu_affinity`` (run with the MindSpore 2.10 interpreter).

    python tools/oracle/record_toplevel_runtime.py   ->  tests/fixtures/oracle/toplevel_runtime.npz

Everything recorded is structure (dicts, shapes, error types and messages), kept in each case's meta.
Shape descriptions are written as JSON: ``{"symbols": {name: Symbol kwargs}, "inputs": [{"shape": [2, "s", null],
"dtype": "float32"}]}`` (a string names a Symbol, so two dimensions can share one ``unique`` Symbol).
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore as ms  # noqa: E402
from mindspore import Symbol, Tensor, enable_dynamic, jit, nn  # noqa: E402
from mindspore.parallel import Layout  # noqa: E402
from mindspore.parallel.shard import _DistributedTensorInfo  # noqa: E402
from oracle import FixtureWriter  # noqa: E402


def attempt(w, case_id, fn, **meta):
    """Record fn()'s JSON-able result (meta ``returned``), or the error type and message it raised."""
    try:
        res = fn()
    except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
        w.add(case_id, outputs=[], error=type(e).__name__, message=str(e).splitlines()[0].rstrip(), **meta)
        return
    w.add(case_id, outputs=[], returned=res, **meta)


def build(desc):
    """The Tensors a JSON description stands for (Symbols built once per name)."""
    symbols = {name: Symbol(**kw) for name, kw in desc["symbols"].items()}

    def one(spec):
        if isinstance(spec, list):
            return tuple(one(s) for s in spec)
        if "value" in spec:
            return spec["value"]
        shape = spec["shape"]
        shape = None if shape is None else [symbols[d] if isinstance(d, str) else d for d in shape]
        return Tensor(shape=shape, dtype=getattr(ms, spec["dtype"]))
    return [one(s) for s in desc["inputs"]]


def actual(spec):
    if isinstance(spec, list) and spec and isinstance(spec[0], dict):
        return tuple(actual(s) for s in spec)
    if isinstance(spec, dict) and "value" in spec:
        return spec["value"]
    return Tensor(np.ones(spec["shape"], dtype=spec["dtype"]))


class Net1(nn.Cell):
    def construct(self, x):
        return x


class Net2(nn.Cell):
    def construct(self, x, y):
        return x


T = "float32"
with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "toplevel_runtime.npz") as w:
    # --- Symbol: constructor checks and to_dict (the 'id' of a unique Symbol is its id(): recorded as present)
    for i, kw in enumerate([{}, {"max": 32}, {"max": 2, "min": 3}, {"min": 5, "divisor": 2}, {"min": 3, "divisor": 2},
                            {"divisor": 8, "remainder": 1}, {"unique": True}, {"max": 16, "min": 4, "divisor": 4,
                                                                                "remainder": 3, "unique": True},
                            {"max": 1.5}, {"min": "1"}, {"divisor": None}, {"remainder": 0.0}, {"unique": 1},
                            {"min": 0}, {"min": -2}, {"divisor": 0}, {"remainder": -1}, {"divisor": 3, "remainder": 3},
                            {"max": True}]):
        def sym(kw=kw):
            d = Symbol(**kw).to_dict()
            if "id" in d:
                d["id"] = "<id>"
            return d
        attempt(w, f"Symbol/{i}", sym, name="Symbol", kwargs=kw)
    attempt(w, "Symbol/str", lambda: str(Symbol(max=8, divisor=2)), name="Symbol.__str__",
            kwargs={"max": 8, "divisor": 2})

    # --- Tensor(shape=...) descriptions
    for i, (shape, dtype) in enumerate([([None, 3], T), ([-1, 3], T), ([{"max": 8}, 3], T), (None, T),
                                        ([None, 3], None)]):
        def shp(shape=shape, dtype=dtype):
            s = None if shape is None else [Symbol(**d) if isinstance(d, dict) else d for d in shape]
            return list(Tensor(shape=s, dtype=None if dtype is None else getattr(ms, dtype)).shape)
        attempt(w, f"Tensor.shape/dynamic/{i}", shp, name="Tensor", shape_arg=shape, dtype=dtype)

    # --- Cell.set_inputs in GRAPH_MODE: each call's inputs checked against the description
    ms.set_context(mode=ms.GRAPH_MODE)
    S2 = {"s": {"max": 8, "min": 3}, "u": {"unique": True}, "r": {"divisor": 4, "remainder": 1}}
    two = {"symbols": S2, "inputs": [{"shape": [2, "s"], "dtype": T}, {"shape": ["u", "u", "r"], "dtype": T}]}
    calls2 = [([2, 3], [2, 2, 5], T), ([2, 2], [2, 2, 5], T), ([2, 9], [2, 2, 5], T), ([2, 4], [2, 3, 5], T),
              ([2, 4], [2, 2, 6], T), ([2, 4], [2, 2, 1], T), ([2, 4], [2, 2], T), ([2, 4, 1], [2, 2, 5], T),
              ([2, 4], [3, 3, 9], T), ([2, 4], [2, 2, 5], "int32"), ([3, 4], [2, 2, 5], T)]
    for i, (a, b, dt) in enumerate(calls2):
        args = [{"shape": a, "dtype": dt}, {"shape": b, "dtype": T}]

        def call(args=args):
            net = Net2()
            net.set_inputs(*build(two))
            return [list(o.shape) for o in (net(*[actual(s) for s in args]),)]
        attempt(w, f"Cell.set_inputs/two/{i}", call, name="Cell.set_inputs", declared=two, args=args)

    singles = [
        ({"s": {"min": 5, "divisor": 2}}, ["s"], [3]), ({"s": {"max": 4, "divisor": 3}}, ["s"], [5]),
        ({"s": {"min": 3, "max": 2}}, ["s"], [100]), ({"s": {"divisor": 2, "remainder": 1}}, ["s"], [1]),
        ({"s": {"divisor": 2, "remainder": 1}}, ["s"], [3]), ({"s": {"max": 8, "divisor": 2}}, ["s", 3], [4, 3]),
        ({"s": {"max": 8, "divisor": 2}}, ["s", 3], [3, 3]), ({"s": {"max": 8, "divisor": 2}}, ["s", 3], [4, 4]),
        ({}, [2, None], [2, 2, 2]), ({}, [2, None], [3]), ({}, None, [3, 2, 1]), ({}, [2, 3], [2, 4]),
    ]
    for i, (syms, shape, got) in enumerate(singles):
        desc = {"symbols": syms, "inputs": [{"shape": shape, "dtype": T}]}
        args = [{"shape": got, "dtype": T}]

        def call1(desc=desc, args=args):
            net = Net1()
            net.set_inputs(*build(desc))
            return list(net(*[actual(s) for s in args]).shape)
        attempt(w, f"Cell.set_inputs/one/{i}", call1, name="Cell.set_inputs", declared=desc, args=args)
    uniq = {"symbols": {"u": {"unique": True}},
            "inputs": [{"shape": ["u", 2], "dtype": T}, {"shape": ["u"], "dtype": T}]}
    for i, args in enumerate([[{"shape": [3, 2], "dtype": T}, {"shape": [4], "dtype": T}],
                              [{"shape": [3, 2], "dtype": T}, {"shape": [3], "dtype": T}]]):
        def callu(args=args):
            net = Net2()
            net.set_inputs(*build(uniq))
            return list(net(*[actual(s) for s in args]).shape)
        attempt(w, f"Cell.set_inputs/unique/{i}", callu, name="Cell.set_inputs", declared=uniq, args=args)
    mixed = {"symbols": {}, "inputs": [{"shape": [2, None], "dtype": T}, {"value": 3}]}
    mixed_t = {"symbols": {}, "inputs": [{"shape": [2, None], "dtype": T}, {"shape": [1], "dtype": T}]}
    for i, (desc, args) in enumerate([(mixed, [{"shape": [2, 5], "dtype": T}, {"shape": [4], "dtype": T}]),
                                      (mixed_t, [{"shape": [2, 5], "dtype": T}, {"value": 4}]),
                                      (mixed, [{"shape": [2, 5], "dtype": T}, {"value": 3}])]):
        def callm(desc=desc, args=args):
            net = Net2()
            net.set_inputs(*build(desc))
            return list(net(*[actual(s) for s in args]).shape)
        attempt(w, f"Cell.set_inputs/static/{i}", callm, name="Cell.set_inputs", declared=desc, args=args)

    # --- enable_dynamic on a jit function (checked in both modes: jit compiles in both)
    for mode in ("GRAPH_MODE", "PYNATIVE_MODE"):
        ms.set_context(mode=getattr(ms, mode))

        @enable_dynamic(y=Tensor(shape=[Symbol(max=4), 3], dtype=ms.float32))
        @jit
        def f(x, y):
            return y + 1
        for i, (shape, dt) in enumerate([([4, 3], T), ([5, 3], T), ([4, 4], T), ([4, 3], "int32"), ([2, 3], T)]):
            attempt(w, f"enable_dynamic/call/{mode}/{i}",
                    lambda shape=shape, dt=dt: list(f(Tensor(np.ones((2, 3), np.float32)),
                                                      Tensor(np.ones(shape, dt))).shape),
                    name="enable_dynamic", declared={"y": {"shape": [{"max": 4}, 3], "dtype": T}},
                    args=[{"shape": [2, 3], "dtype": T}, {"shape": shape, "dtype": dt}], mode=mode)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    bad = [("empty", lambda: enable_dynamic()),
           ("static", lambda: enable_dynamic(y=Tensor(shape=[2, 3], dtype=ms.float32))),
           ("int", lambda: enable_dynamic(y=3)),
           ("zero", lambda: enable_dynamic(y=Tensor(shape=[None, 0], dtype=ms.float32))),
           ("not_function", lambda: enable_dynamic(y=Tensor(shape=[None], dtype=ms.float32))(3)),
           ("too_many", lambda: enable_dynamic(y=Tensor(shape=[None], dtype=ms.float32),
                                               z=Tensor(shape=[None], dtype=ms.float32))(lambda x: x)),
           ("unknown_name", lambda: enable_dynamic(q=Tensor(shape=[None], dtype=ms.float32))(lambda x: x)),
           ("tuple", lambda: enable_dynamic(y=(Tensor(shape=[None, 2], dtype=ms.float32),
                                               Tensor(shape=[2], dtype=ms.float32)))(lambda x, y: x) is not None)]
    for tag, fn in bad:
        attempt(w, f"enable_dynamic/args/{tag}", fn, name="enable_dynamic")

    # --- Layout: to_dict, the split counts MindSpore derives, errors
    layouts = [((2, 2, 2), ("dp", "sp", "mp"), None, ["dp", "mp"]),
               ((2, 2, 2), ("dp", "sp", "mp"), None, [["dp", "sp"], "None"]),
               ((2, 4), ("dp", "mp"), None, ["None", "mp"]),
               ((2, 4), ("dp", "mp"), [7, 6, 5, 4, 3, 2, 1, 0], ["dp", "mp"]),
               ((2, 2, 2), ("dp", "sp", "interleaved_parallel"), None, [["dp", "interleaved_parallel"], "sp"]),
               ((2, 2), ("dp", "mp"), None, ["dp", "dp"]),
               ((2, 2), ("dp", "mp"), None, ["xp"]),
               ((2, 2), ("dp", "mp"), None, [["mp", "dp"], "mp"]),
               ([2, 2], ("dp", "mp"), None, ["dp"]),
               ((2, 2), ["dp", "mp"], None, ["dp"]),
               ((2, 2), ("dp",), None, ["dp"]),
               ((2, 2.0), ("dp", "mp"), None, ["dp"]),
               ((2, 2), ("dp", 1), None, ["dp"]),
               ((2, 2), ("dp", ""), None, ["dp"]),
               ((2, 2), ("dp", "None"), None, ["dp"]),
               ((2, 2), ("dp", "dp"), None, ["dp"]),
               ((2, 2), ("interleaved_parallel", "mp"), None, ["mp"]),
               ((2, 2), ("dp", "mp"), (0, 1, 2, 3), ["dp"]),
               ((2, 2), ("dp", "mp"), [0, 1, 2, 3.0], ["dp"]),
               ((2, 2), ("dp", "mp"), [0, 1, 2], ["dp"])]
    for i, (matrix, alias, ranks, tmap) in enumerate(layouts):
        call_args = tuple(tuple(t) if isinstance(t, list) else t for t in tmap)

        def lay(matrix=matrix, alias=alias, ranks=ranks, call_args=call_args):
            d = Layout(matrix, alias, ranks)(*call_args)
            return {"to_dict": d.to_dict(),
                    "strategy": _DistributedTensorInfo(d).sharding_strategy}
        attempt(w, f"Layout/{i}", lay, name="Layout", device_matrix=list(matrix),
                matrix_is_tuple=isinstance(matrix, tuple), alias_name=list(alias),
                alias_is_tuple=isinstance(alias, tuple), rank_list=ranks,
                rank_list_is_list=isinstance(ranks, list) or ranks is None, tensor_map=tmap)
    attempt(w, "Layout/uncalled", lambda: Layout((2, 2), ("dp", "mp")).to_dict(), name="Layout.to_dict")

    # --- set_cpu_affinity argument checks (before anything is bound), then the once-per-process rule
    for i, (cpu_list, modules) in enumerate([("0-1", None), ([0], None), (["0-x"], None), (["a"], None),
                                             (["0-1"], []), (["0-1"], {"main": 0}), (["0-1"], {"main": [-1]}),
                                             (["0-1"], {"main": [0.5]}), ({"device7": ["0"]}, None)]):
        attempt(w, f"set_cpu_affinity/args/{i}", lambda c=cpu_list, m=modules: ms.set_cpu_affinity(True, c, m),
                name="set_cpu_affinity", affinity_cpu_list=cpu_list, module_to_cpu_dict=modules)
    attempt(w, "set_cpu_affinity/disable", lambda: ms.set_cpu_affinity(False), name="set_cpu_affinity")
    attempt(w, "set_cpu_affinity/again", lambda: ms.set_cpu_affinity(True), name="set_cpu_affinity")
    attempt(w, "launch_blocking", lambda: ms.launch_blocking(), name="launch_blocking")
