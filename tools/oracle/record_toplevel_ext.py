"""Record real MindSpore for ``mindspore_hl/_toplevel_ext.py`` (lazy_inline, no_inline, algo parameters) and the
``mint.nn.functional`` pooling names of ``mint/nn/_pool_ext.py`` (run with the MindSpore 2.10 interpreter).

    python tools/oracle/record_toplevel_ext.py   ->  tests/fixtures/oracle/toplevel_ext.npz

MindSpore's CPU build registers no kernel for mint's AvgPool1D, AvgPool3DExt, AdaptiveAvgPool1D,
AdaptiveAvgPool3DExt, AdaptiveMaxPool1D or MaxUnpool2DExt (Ascend only): for avg_pool3d, adaptive_avg_pool3d,
max_unpool2d and avg_pool1d the case records the ``ops`` function with the same semantics (meta ``oracle_fn``);
adaptive_max_pool2d is mint's own. The replay test also compares every mint pooling name with torch.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore as ms  # noqa: E402
from mindspore import nn, ops  # noqa: E402
from mindspore.mint.nn import functional as F  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(18)


def outs(res):
    return [r.asnumpy() for r in (res if isinstance(res, tuple) else (res,))]


def attempt(w, case_id, fn, **meta):
    """Record fn()'s outputs, or the error type and message it raised."""
    try:
        res = fn()
    except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
        w.add(case_id, outputs=[], error=type(e).__name__, message=str(e).splitlines()[0], **meta)
        return
    if res is None:
        w.add(case_id, outputs=[], returned="None", **meta)
    elif isinstance(res, (bool, int, float, str)):
        w.add(case_id, outputs=[], returned=res, **meta)
    else:
        w.add(case_id, outputs=outs(res), **meta)


with FixtureWriter(ROOT / "tests" / "fixtures" / "oracle" / "toplevel_ext.npz") as w:
    # --- mint pooling
    x2 = rng.standard_normal((2, 3, 7, 5)).astype(np.float32)
    for i, (size, ri) in enumerate([((3, 2), True), (4, False), ((None, 2), True), ((1, 5), True)]):
        w.add(f"mint.nn.functional.adaptive_max_pool2d/{i}", inputs={"input": x2},
              outputs=outs(F.adaptive_max_pool2d(ms.Tensor(x2), size, ri)),
              name="mint.nn.functional.adaptive_max_pool2d",
              kwargs={"output_size": size, "return_indices": ri})
    x3 = rng.standard_normal((1, 2, 5, 6, 7)).astype(np.float32)
    for i, kw in enumerate([{"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True,
                                                  "count_include_pad": False},
                            {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True, "divisor_override": 5},
                            {"kernel_size": (2, 3, 2), "stride": (1, 2, 3)}]):
        st = kw.get("stride", kw["kernel_size"])
        res = ops.avg_pool3d(ms.Tensor(x3), kw["kernel_size"], st, kw.get("padding", 0), kw.get("ceil_mode", False),
                             kw.get("count_include_pad", True), kw.get("divisor_override", 0))
        w.add(f"mint.nn.functional.avg_pool3d/{i}", inputs={"input": x3}, outputs=outs(res),
              name="mint.nn.functional.avg_pool3d", kwargs=kw, oracle_fn="ops.avg_pool3d")
    for i, size in enumerate([(2, 3, 4), 3, (2, None, 4)]):
        w.add(f"mint.nn.functional.adaptive_avg_pool3d/{i}", inputs={"input": x3},
              outputs=outs(ops.adaptive_avg_pool3d(ms.Tensor(x3), size)), name="mint.nn.functional.adaptive_avg_pool3d",
              kwargs={"output_size": size}, oracle_fn="ops.adaptive_avg_pool3d")
    x1 = rng.standard_normal((2, 3, 9)).astype(np.float32)
    for i, (k, s, p, cip) in enumerate([(3, 3, 0, True), (3, 2, 1, True), (3, 2, 1, False), (4, 1, 2, True)]):
        res = ops.avg_pool1d(ms.Tensor(x1), k, s, p, False, cip)
        w.add(f"mint.nn.functional.avg_pool1d/{i}", inputs={"input": x1}, outputs=outs(res),
              name="mint.nn.functional.avg_pool1d",
              kwargs={"kernel_size": k, "stride": s, "padding": p, "count_include_pad": cip},
              oracle_fn="ops.avg_pool1d")
    x4 = rng.standard_normal((2, 3, 6, 4)).astype(np.float32)
    pooled, idx = ops.max_pool2d(ms.Tensor(x4), 2, 2, return_indices=True)
    for i, kw in enumerate([{"kernel_size": 2}, {"kernel_size": 2, "stride": 2, "output_size": (7, 5)}]):
        res = ops.max_unpool2d(pooled, idx, kw["kernel_size"], kw.get("stride"), 0, kw.get("output_size"))
        w.add(f"mint.nn.functional.max_unpool2d/{i}", inputs={"input": pooled.asnumpy(), "indices": idx.asnumpy()},
              outputs=outs(res), name="mint.nn.functional.max_unpool2d", kwargs=kw, oracle_fn="ops.max_unpool2d")

    # --- algo parameters: a script of calls, each recording what it returned or raised
    keys = ["fully_use_devices", "elementwise_op_strategy_follow", "enable_algo_approxi", "algo_approxi_epsilon",
            "tensor_slice_align_enable", "tensor_slice_align_size"]
    steps = [("get", k) for k in keys] + [
        ("get", "x"), ("set", {"x": 1}), ("set", {"fully_use_devices": 1}), ("set", {"tensor_slice_align_size": 0}),
        ("set", {"tensor_slice_align_size": 2000}), ("set", {"algo_approxi_epsilon": 0.0}),
        ("set", {"algo_approxi_epsilon": 2.0}), ("set", {"algo_approxi_epsilon": 1}),
        ("set", {"algo_approxi_epsilon": 0.3}), ("get", "algo_approxi_epsilon"),
        ("set", {"fully_use_devices": True, "tensor_slice_align_size": 32, "enable_algo_approxi": True,
                 "elementwise_op_strategy_follow": True, "tensor_slice_align_enable": True}),
    ] + [("get", k) for k in keys] + [("reset", None)] + [("get", k) for k in keys]
    for i, (kind, arg) in enumerate(steps):
        fn = {"get": lambda a=arg: ms.get_algo_parameters(a), "set": lambda a=arg: ms.set_algo_parameters(**a),
              "reset": ms.reset_algo_parameters}[kind]
        attempt(w, f"algo_parameters/{i:02d}", fn, name="algo_parameters", kind=kind, arg=arg)

    # --- lazy_inline / no_inline: what they leave on the function / Cell, and their errors
    def plain(x):
        return x

    w.add("no_inline/0", outputs=[], name="no_inline", returned_same=ms.no_inline(plain) is plain,
          flag=plain.no_inline, called=ms.no_inline()(plain) is plain)

    def block(attrs=None, policy=None):
        class Block(nn.Cell):
            @ms.lazy_inline(attrs=attrs, policy=policy)
            def __init__(self, width, scale=2, name="b"):
                super().__init__()
                self.width = width
                self.tag = name

            def construct(self, x):
                return x
        return Block

    for i, (attrs, policy, args, kwargs) in enumerate([
            (None, None, [3], {}), (None, None, [3, 5], {"name": "z"}), (["width", "tag", "missing"], None, [4], {}),
            ("tag", None, [4], {"name": "q"}), ("missing", None, [4], {}), (None, "front", [2], {}),
            (None, "back", [2], {}), ([1], None, [2], {}), (3, None, [2], {})]):
        def make(attrs=attrs, policy=policy, args=args, kwargs=kwargs):
            c = block(attrs, policy)(*args, **kwargs)
            return str(c.cell_init_args) + "|" + str(getattr(c, "no_inline", "unset"))
        attempt(w, f"lazy_inline/{i}", make, name="lazy_inline", attrs=attrs, policy=policy, args=args,
                kwargs=kwargs)

    class Plain(nn.Cell):
        def construct(self, x):
            return x

    attempt(w, "lazy_inline/class", lambda: ms.lazy_inline(Plain), name="lazy_inline")
    attempt(w, "lazy_inline/not_init", lambda: ms.lazy_inline(plain), name="lazy_inline")
