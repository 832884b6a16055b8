"""Record real MindSpore 2.10's scatter family (ops functions, Primitives, Tensor methods) and a set of Primitives.

    ../ms-oracle/bin/python tools/oracle/record_scatter_prims_replay.py
    # -> tests/fixtures/oracle/scatter_prims_replay.npz

Cases are named ``ops.<name>`` (``ops.name(*args, **kwargs)``), ``P.<Name>`` (``ops.Name(**init)(*args)``) and
``Tensor.<name>`` (``args[0].name(*args[1:], **kwargs)``); arguments are encoded as in ``_sweep.py``. The scatter ops
update their first input in place, so it is passed as a Parameter (``Prm``) or as an in-place Tensor (``M``) and
its value after the call is recorded after the return value(s). ``tests/ops/test_scatter_prims_replay.py``
replays them. Where the CPU build has no kernel, a real-MindSpore function with the same semantics is recorded
instead (meta ``truth``): ``ops.tensor_scatter_elements`` for ``Tensor.scatter_`` and ``Tensor.scatter_add(dim,
index, src)``, ``ops.full_like`` for ``Fills``. Einsum, MatrixExp and SoftMarginLoss have none: their
RuntimeError is recorded and the test compares with NumPy / SciPy.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import mindspore as ms  # noqa: E402
from _sweep import M, Prm, T, decode_ms, encode, flatten_outputs  # noqa: E402
from mindspore import ops  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(18)


def a(v, dt):
    return T(np.asarray(v, dt))


def rnd(shape, dt=np.float32, lo=-3, hi=3):
    if np.issubdtype(dt, np.integer):
        return rng.integers(lo, hi, shape).astype(dt)
    return rng.uniform(lo, hi, shape).astype(dt)


def scatter_cases():
    out = []
    base = np.arange(12, dtype=np.float32).reshape(4, 3) - 4
    dup = [0, 2, 0]  # a repeated index: add/sub/mul/div/max/min accumulate, defined for these
    upd = rnd((3, 3))
    upd_div = rng.uniform(0.5, 2, (3, 3)).astype(np.float32)
    rows = {"Add": "scatter_add", "Sub": None, "Mul": "scatter_mul", "Div": "scatter_div", "Max": "scatter_max",
            "Min": "scatter_min", "Update": "scatter_update"}
    for kind, fn in rows.items():
        idx = [0, 2, 3] if kind == "Update" else dup
        u = upd_div if kind == "Div" else upd
        calls = [(f"P.Scatter{kind}", {}), (f"P.Scatter{kind}", {"use_locking": True})]
        if fn:
            calls.append((f"ops.{fn}", None))
        for name, init in calls:
            out.append((name, [Prm(base), a(idx, np.int32), T(u)], {}, init))
        # 2-D indices (rows of a 2x2 grid), other dtypes
        idx2 = [[1, 0], [3, 2]] if kind == "Update" else [[1, 0], [1, 3]]
        name = f"ops.{fn}" if fn else f"P.Scatter{kind}"
        init = None if fn else {}
        u2 = rng.uniform(0.5, 2, (2, 2, 3)) if kind == "Div" else rnd((2, 2, 3))
        out.append((name, [Prm(base.astype(np.float16)), a(idx2, np.int64), T(u2.astype(np.float16))], {}, init))
        if kind != "Div":
            out.append((name, [Prm(base.astype(np.int32)), a(idx, np.int32), T(rnd((3, 3), np.int32))], {}, init))
        # Float16 updates promote into a Float32 Parameter; errors: index out of range (also negative), updates
        # that the Parameter's dtype cannot hold, float indices, wrong updates shape
        out.append((name, [Prm(base), a(idx, np.int32), T(upd.astype(np.float16))], {}, init))
        out.append((name, [Prm(base), a([0, 4, 1], np.int32), T(upd)], {}, init))
        out.append((name, [Prm(base), a([0, -1, 1], np.int32), T(upd)], {}, init))
        out.append((name, [Prm(base.astype(np.int32)), a(idx, np.int32), T(upd)], {}, init))
        out.append((name, [Prm(base), a(idx, np.float32), T(upd)], {}, init))
        out.append((name, [Prm(base), a(idx, np.int32), T(upd[:2])], {}, init))
    # ops.scatter_* also take a plain Tensor in PyNative mode and update it in place
    out.append(("ops.scatter_add", [M(base), a(dup, np.int32), T(upd)], {}, None))
    out.append(("ops.scatter_update", [M(base), a([3, 1, 0], np.int32), T(upd)], {}, None))

    nd = {"Add": "scatter_nd_add", "Sub": "scatter_nd_sub", "Mul": "scatter_nd_mul", "Div": "scatter_nd_div",
          "Max": "scatter_nd_max", "Min": "scatter_nd_min", "Update": "scatter_nd_update"}
    for kind, fn in nd.items():
        rows_idx = [[0], [3], [2]] if kind == "Update" else [[0], [2], [0]]
        elem_idx = [[0, 1], [3, 2], [1, 1]] if kind == "Update" else [[0, 1], [3, 2], [0, 1]]
        u_rows = upd_div if kind == "Div" else upd
        u_elem = (rng.uniform(0.5, 2, 3) if kind == "Div" else rnd(3)).astype(np.float32)
        for name, init in [(f"P.ScatterNd{kind}", {}), (f"ops.{fn}", None)]:
            out.append((name, [Prm(base), a(rows_idx, np.int32), T(u_rows)], {}, init))
            out.append((name, [Prm(base), a(elem_idx, np.int64), T(u_elem)], {}, init))
        if kind != "Update":  # ops.scatter_nd_update takes no use_locking (TypeError in MindSpore 2.10)
            out.append((f"ops.{fn}", [Prm(base), a(rows_idx, np.int32), T(u_rows)], {"use_locking": True}, None))
        out.append((f"P.ScatterNd{kind}", [Prm(base.astype(np.float64)), a(elem_idx, np.int32),
                                           T(u_elem.astype(np.float64))], {}, {"use_locking": True}))
        if kind != "Div":
            out.append((f"ops.{fn}", [Prm(base.astype(np.int32)), a(elem_idx, np.int32),
                                      T(rnd(3, np.int32))], {}, None))
        out.append((f"ops.{fn}", [Prm(base), a([[0], [4]], np.int32), T(upd[:2])], {}, None))
        out.append((f"ops.{fn}", [Prm(base), a(rows_idx, np.int32), T(upd.astype(np.float16))], {}, None))
        out.append((f"ops.{fn}", [Prm(base.astype(np.int32)), a(rows_idx, np.int32), T(u_rows)], {}, None))
        out.append((f"ops.{fn}", [Prm(base), a(rows_idx, np.float32), T(upd)], {}, None))
        out.append((f"ops.{fn}", [Prm(base), a(rows_idx, np.int32), T(upd[:, :2])], {}, None))
    out.append(("ops.scatter_nd_add", [M(base), a([[0], [2], [0]], np.int32), T(upd)], {}, None))

    # Tensor methods: scatter_add/sub/mul/div/max/min(indices, updates) are tensor_scatter_* (a new Tensor)
    for m in ["scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_max", "scatter_min"]:
        u = upd_div if m == "scatter_div" else upd
        out.append((f"Tensor.{m}", [M(base), a([[0], [2], [0]], np.int32), T(u)], {}, None))
        out.append((f"Tensor.{m}", [M(base), a([[0, 1], [3, 2], [0, 1]], np.int64), T(u[0])], {}, None))
        if m != "scatter_div":
            out.append((f"Tensor.{m}", [M(base.astype(np.int32)), a([[1], [3]], np.int32),
                                        T(rnd((2, 3), np.int32))], {}, None))
        out.append((f"Tensor.{m}", [M(base), a([[0], [5]], np.int32), T(upd[:2])], {}, None))
    # Tensor.scatter_add(dim, index, src) and Tensor.scatter_(...): torch-style, in place for scatter_
    src = rnd((3, 3))
    out.append(("Tensor.scatter_add", [M(base), 0, a([[0, 1, 3], [0, 2, 3]], np.int64), T(src[:2])], {}, None))
    out.append(("Tensor.scatter_add", [M(base), 1, a([[0, 0], [2, 1], [1, 1], [2, 0]], np.int32), T(rnd((4, 2)))],
                {}, None))
    out.append(("Tensor.scatter_", [M(base), 0, a([[3, 1, 0], [2, 0, 1]], np.int64), T(src[:2])], {}, None))
    out.append(("Tensor.scatter_", [M(base), 1, a([[2, 0], [1, 2], [0, 1], [2, 1]], np.int32), T(rnd((4, 2)))],
                {}, None))
    out.append(("Tensor.scatter_", [M(base), 0, a([[0, 1, 3], [0, 2, 3]], np.int64), T(src[:2])],
                {"reduce": "add"}, None))
    out.append(("Tensor.scatter_", [M(base), 1, a([[2, 0], [1, 2], [0, 1], [2, 1]], np.int64), 2.5], {}, None))
    return out


def prim_cases():
    x4 = rnd((2, 3, 4, 4))
    c = 3
    scale, bias = rng.uniform(0.5, 1.5, c).astype(np.float32), rnd(c)
    mean, var = rnd(c, lo=-1, hi=1), rng.uniform(0.5, 2, c).astype(np.float32)
    spd = rng.standard_normal((3, 3))
    spd = (spd @ spd.T + 3 * np.eye(3)).astype(np.float32)
    chol = np.linalg.cholesky(spd).astype(np.float32)
    lu_a = rng.standard_normal((3, 3)).astype(np.float32) + 2 * np.eye(3, dtype=np.float32)
    probs = rng.uniform(0.05, 0.95, (2, 3)).astype(np.float32)
    labels01 = rng.integers(0, 2, (2, 3)).astype(np.float32)
    return [
        ("P.Angle", [T((rnd((2, 3)) + 1j * rnd((2, 3))).astype(np.complex64))], {}, {}),
        ("P.Angle", [T((rnd(4) + 1j * rnd(4)).astype(np.complex128))], {}, {}),
        ("P.Angle", [T(rnd(4))], {}, {}),
        ("P.BatchNorm", [T(x4), T(scale), T(bias), T(mean), T(var)], {}, {}),
        ("P.BatchNorm", [T(x4), T(scale), T(bias), T(mean), T(var)], {}, {"epsilon": 1e-3}),
        ("P.BatchNorm", [T(x4), T(scale), T(bias), Prm(mean), Prm(var)], {}, {"is_training": True, "momentum": 0.2}),
        ("P.BinaryCrossEntropy", [T(probs), T(labels01), T(rnd((2, 3), lo=0.5, hi=1.5))], {}, {}),
        ("P.BinaryCrossEntropy", [T(probs), T(labels01), T(rnd((2, 3), lo=0.5, hi=1.5))], {}, {"reduction": "none"}),
        ("P.BinaryCrossEntropy", [T(probs), T(labels01), None], {}, {"reduction": "sum"}),
        ("P.Bucketize", [T(np.array([[-1, 0.5, 2], [3, 5, 10]], np.float32))], {}, {"boundaries": [0.0, 1.0, 3.0,
                                                                                                   5.0]}),
        ("P.Bucketize", [a([1, 4, 7, 0], np.int32)], {}, {"boundaries": [1.0, 4.5]}),
        ("P.CholeskySolve", [T(rnd((3, 2))), T(chol)], {}, {}),
        ("P.CholeskySolve", [T(rnd((3, 2))), T(chol.T.copy())], {}, {"upper": True}),
        ("P.Conv2D", [T(rnd((1, 2, 5, 5))), T(rnd((4, 2, 3, 3)))], {}, {"out_channel": 4, "kernel_size": 3}),
        ("P.Conv2D", [T(rnd((1, 4, 6, 6))), T(rnd((4, 2, 3, 3)))], {},
         {"out_channel": 4, "kernel_size": 3, "pad_mode": "pad", "pad": (1, 0, 2, 1), "stride": 2, "group": 2}),
        ("P.Conv2D", [T(rnd((1, 2, 6, 6))), T(rnd((3, 2, 2, 2)))], {},
         {"out_channel": 3, "kernel_size": 2, "pad_mode": "same", "dilation": 2}),
        ("P.Einsum", [(T(rnd((2, 3))), T(rnd((3, 4))))], {}, {"equation": "ij,jk->ik"}),
        ("P.Einsum", [(T(rnd((2, 3, 4))),)], {}, {"equation": "bij->bji"}),
        ("P.Einsum", [(T(rnd(3)), T(rnd(3)))], {}, {"equation": "i,i->"}),
        ("P.Fills", [T(rnd((2, 3))), 2.5], {}, {}),
        ("P.Fills", [a([[1, 2]], np.int32), a(7.0, np.float32)], {}, {}),
        # MindSpore 2.10's deprecated GatherV2 takes batch_dims as a 4th input (3 inputs raise RuntimeError)
        ("P.GatherV2", [T(rnd((4, 3))), a([2, 0, 2], np.int32), 0, 0], {}, {}),
        ("P.GatherV2", [T(rnd((2, 4, 3))), a([[1, 3], [0, 0]], np.int64), 1, 0], {}, {}),
        ("P.GatherV2", [T(rnd((2, 4, 3))), a([[1, 3], [0, 0]], np.int32), 1, 1], {}, {}),
        ("P.IndexAdd", [Prm(rnd((3, 4))), a([0, 2, 0], np.int32), T(rnd((3, 3)))], {}, {"axis": 1}),
        ("P.IndexAdd", [Prm(rnd((3, 2), np.int32)), a([2, 1], np.int32), T(rnd((2, 2), np.int32))], {},
         {"axis": 0}),
        ("P.LayerNorm", [T(rnd((2, 3, 4))), T(rnd((3, 4))), T(rnd((3, 4)))], {}, {}),
        ("P.LayerNorm", [T(rnd((2, 3, 4))), T(rnd(4)), T(rnd(4))], {},
         {"begin_norm_axis": -1, "begin_params_axis": -1, "epsilon": 1e-5}),
        ("P.LuSolve", [T(rnd((3, 2))), T(lu_a), a([2, 3, 3], np.int32)], {}, {}),
        ("P.LuSolve", [T(rnd((3, 1))), T(lu_a), a([1, 2, 3], np.int32)], {}, {}),
        ("P.MatrixExp", [T(rnd((3, 3), lo=-1, hi=1))], {}, {}),
        ("P.MatrixExp", [T(rnd((2, 2, 2), lo=-1, hi=1).astype(np.float64))], {}, {}),
        ("P.Orgqr", [T(rnd((4, 3))), T(rnd(2, lo=0.5, hi=1.5))], {}, {}),
        ("P.Orgqr", [T(rnd((2, 3, 3)).astype(np.float64)), T(rnd((2, 3), lo=0.5, hi=1.5).astype(np.float64))], {},
         {}),
        ("P.Pad", [T(rnd((2, 3)))], {}, {"paddings": ((1, 2), (0, 1))}),
        ("P.Pad", [a([[[1, 2]]], np.int32)], {}, {"paddings": ((0, 0), (1, 0), (2, 2))}),
        ("P.SoftMarginLoss", [T(rnd((2, 3))), T(np.sign(rnd((2, 3))).astype(np.float32))], {}, {}),
        ("P.SoftMarginLoss", [T(rnd((2, 3))), T(np.sign(rnd((2, 3))).astype(np.float32))], {},
         {"reduction": "none"}),
        ("P.SoftMarginLoss", [T(rnd(4).astype(np.float16)), T(np.ones(4, np.float16))], {}, {"reduction": "sum"}),
    ]


def _flush():
    """A pending kernel error of an earlier call surfaces here, not in the next case."""
    for _ in range(5):
        try:
            (ms.Tensor(np.ones(1, np.float32)) + 1).asnumpy()
            return
        except Exception:  # noqa: BLE001
            continue


def _run(name, enc_args, enc_kwargs, enc_init, inputs, fn_override=None):
    made = []
    _flush()
    args = [decode_ms(v, inputs, ms, made) for v in enc_args]
    kwargs = {k: decode_ms(v, inputs, ms, made) for k, v in enc_kwargs.items()}
    kind, _, attr = name.partition(".")
    if fn_override is not None:
        fn = fn_override
    elif kind == "Tensor":
        fn = getattr(args.pop(0), attr)
    elif kind == "P":
        fn = getattr(ops, attr)(**{k: decode_ms(v, inputs, ms) for k, v in enc_init.items()})
    else:
        fn = getattr(ops, attr)
    outs = flatten_outputs(fn(*args, **kwargs))
    return outs + [m.asnumpy() for m in made]


def _fallback(name, args, kwargs):
    """Real MindSpore's ``tensor_scatter_elements`` for the torch-style overloads whose CPU kernel is missing, and
    ``full_like`` for ``Fills`` (no CPU kernel either)."""
    if name == "P.Fills":
        def fills(x, value):
            return ops.full_like(x, value.asnumpy().item() if isinstance(value, ms.Tensor) else value)
        fills.truth = "ops.full_like"
        return fills
    if name not in ("Tensor.scatter_", "Tensor.scatter_add") or not isinstance(args[1], int):
        return None
    reduction = "add" if name == "Tensor.scatter_add" or kwargs.get("reduce") == "add" else "none"

    def fn(index, src, **_):
        made_self = fn.self
        if not isinstance(src, ms.Tensor):
            src = ops.fill(made_self.dtype, index.shape, src)
        res = ops.tensor_scatter_elements(made_self, index, src, axis=args[1], reduction=reduction)
        if name == "Tensor.scatter_":  # in place: self holds the result afterwards
            made_self.assign_value(res)
        return res
    fn.truth = "ops.tensor_scatter_elements"
    return fn


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    path = ROOT / "tests" / "fixtures" / "oracle" / "scatter_prims_replay.npz"
    counts = {}
    with FixtureWriter(path) as w:
        for name, args, kwargs, init in scatter_cases() + prim_cases():
            inputs = {}
            enc_args = [encode(v, inputs) for v in args]
            enc_kwargs = {k: encode(v, inputs) for k, v in kwargs.items()}
            enc_init = {k: encode(v, inputs) for k, v in (init or {}).items()}
            outs, error, message, truth = [], None, None, name
            try:
                outs = _run(name, enc_args, enc_kwargs, enc_init, inputs)
            except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
                error, message = type(e).__name__, " ".join(str(e).split())[:160]
                fb = _fallback(name, args, kwargs) if error == "RuntimeError" else None
                if fb is not None:
                    made = []
                    if name == "P.Fills":
                        rest = [decode_ms(v, inputs, ms) for v in enc_args]
                    else:
                        fb.self = decode_ms(enc_args[0], inputs, ms, made)
                        rest = [decode_ms(v, inputs, ms) for v in enc_args[2:]]
                    try:
                        outs = flatten_outputs(fb(*rest)) + [m.asnumpy() for m in made]
                        error, truth = None, fb.truth
                    except Exception as e2:  # noqa: BLE001
                        message += f"; fallback: {type(e2).__name__} {str(e2)[:80]}"
            if error:
                print(f"{name}: {error} {message}", file=sys.stderr)
            counts[name] = counts.get(name, 0) + 1
            w.add(f"{name}/{counts[name]}", inputs=inputs, outputs=outs, name=name, error=error, args=enc_args,
                  kwargs=enc_kwargs, init=enc_init, message=message, truth=truth)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB, {sum(counts.values())} cases)", file=sys.stderr)


if __name__ == "__main__":
    main()
