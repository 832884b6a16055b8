"""Record real MindSpore 2.10's ``ops.fractional_max_pool2d`` / ``ops.fractional_max_pool3d`` and
``ops.deformable_conv2d`` (its CPU build runs it).

    ../ms-oracle/bin/python tools/oracle/record_ops_fractional.py
    # -> tests/fixtures/oracle/ops_fractional.npz

Every case passes an explicit ``_random_samples``, so the pooling regions (and outputs) are deterministic. Cases
are named ``ops.<name>`` with arguments encoded as in ``_sweep.py``; error cases record the exception type.
``tests/ops/test_ops_fractional.py`` replays them.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tools" / "oracle")]

import mindspore as ms  # noqa: E402
from _sweep import T, decode_ms, encode, flatten_outputs  # noqa: E402
from mindspore import ops  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

rng = np.random.default_rng(1218)


def x(shape, dt=np.float32):
    if np.issubdtype(dt, np.integer):
        return T(rng.permutation(int(np.prod(shape))).reshape(shape).astype(dt))
    return T(rng.uniform(-3, 3, shape).astype(dt))


def s(shape, dt=np.float32):
    return T(rng.uniform(0, 1, shape).astype(dt))


def cases_2d():
    f = "ops.fractional_max_pool2d"
    return [
        (f, [x((1, 2, 6, 6)), 2], {"output_size": 3, "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6)), 2], {"output_size": 3, "return_indices": True, "_random_samples": s((1, 2, 2))}),
        (f, [x((2, 3, 7, 5)), (2, 3)], {"output_size": (4, 2), "return_indices": True,
                                        "_random_samples": s((2, 3, 2))}),
        (f, [x((2, 7, 5)), (2, 2)], {"output_size": (3, 2), "return_indices": True,
                                     "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 1, 8, 8)), 3], {"output_ratio": 0.5, "return_indices": True, "_random_samples": s((1, 1, 2))}),
        (f, [x((1, 2, 8, 10)), 2], {"output_ratio": (0.5, 0.6), "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6)), 2], {"output_size": 4, "output_ratio": 0.5, "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6), np.float16), 2], {"output_size": 3, "return_indices": True,
                                               "_random_samples": s((1, 2, 2), np.float16)}),
        (f, [x((1, 2, 6, 6), np.float64), 2], {"output_size": 3, "return_indices": True,
                                               "_random_samples": s((1, 2, 2), np.float64)}),
        (f, [x((1, 2, 6, 6), np.int32), 2], {"output_size": 3, "return_indices": True,
                                             "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6), np.int64), 2], {"output_size": 3, "_random_samples": s((1, 2, 2))}),
        # errors
        (f, [x((1, 2, 6, 6)), 2], {"_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6)), 2], {"output_size": 3, "return_indices": 1, "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6)), 2], {"output_ratio": 1.5, "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6)), 2], {"output_ratio": 1, "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6)), 2], {"output_ratio": (0.5, 0.0), "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6)), 4], {"output_size": 4, "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 6, 6)), 2], {"output_size": 3, "_random_samples": s((1, 3, 2))}),
        (f, [x((1, 2, 6, 6)), 2], {"output_size": 3, "_random_samples": s((1, 2, 3))}),
        (f, [x((1, 2, 6, 6)), (2, 2, 2)], {"output_size": 3, "_random_samples": s((1, 2, 2))}),
    ]


def cases_3d():
    f = "ops.fractional_max_pool3d"
    return [
        (f, [x((1, 2, 5, 5, 5)), 2], {"output_size": 3, "_random_samples": s((1, 2, 3))}),
        (f, [x((1, 2, 5, 5, 5)), 2], {"output_size": 3, "return_indices": True, "_random_samples": s((1, 2, 3))}),
        (f, [x((2, 2, 4, 6, 5)), (1, 2, 2)], {"output_size": (3, 4, 2), "return_indices": True,
                                              "_random_samples": s((2, 2, 3))}),
        (f, [x((2, 4, 5, 6)), 2], {"output_size": (2, 3, 3), "return_indices": True,
                                   "_random_samples": s((1, 2, 3))}),
        (f, [x((1, 1, 6, 6, 8)), 2], {"output_ratio": 0.5, "return_indices": True,
                                      "_random_samples": s((1, 1, 3))}),
        (f, [x((1, 1, 6, 8, 10)), (2, 1, 2)], {"output_ratio": (0.5, 0.5, 0.6), "_random_samples": s((1, 1, 3))}),
        (f, [x((1, 2, 5, 5, 5), np.float64), 2], {"output_size": 3, "return_indices": True,
                                                  "_random_samples": s((1, 2, 3), np.float64)}),
        (f, [x((1, 2, 5, 5, 5), np.float16), 2], {"output_size": 3, "return_indices": True,
                                                  "_random_samples": s((1, 2, 3), np.float16)}),
        # errors
        (f, [x((1, 2, 5, 5, 5)), 2], {"_random_samples": s((1, 2, 3))}),
        (f, [x((1, 2, 5, 5, 5)), 2], {"output_size": 3, "return_indices": "yes", "_random_samples": s((1, 2, 3))}),
        (f, [x((1, 2, 5, 5, 5)), 2], {"output_size": 3, "_random_samples": s((1, 2, 3), np.float64)}),
        (f, [x((1, 2, 5, 5, 5)), 2], {"output_ratio": 2.0, "_random_samples": s((1, 2, 3))}),
        (f, [x((1, 2, 5, 5, 5)), 2], {"output_ratio": 1, "_random_samples": s((1, 2, 3))}),
        (f, [x((1, 2, 5, 5, 5)), 4], {"output_size": 3, "_random_samples": s((1, 2, 3))}),
        (f, [x((1, 2, 5, 5, 5)), 2], {"output_size": 3, "_random_samples": s((1, 2, 2))}),
        (f, [x((1, 2, 5, 5, 5)), (2, 2)], {"output_size": 3, "_random_samples": s((1, 2, 3))}),
    ]


def deform(n, c, h, w, co, k, strides, pad, dil=(1, 1, 1, 1), groups=1, dg=1, dt=np.float32, bias=False, **kw):
    """A ``deformable_conv2d`` call with offsets of up to 1.5 pixels (samples fall outside the input too)."""
    ho = (h + pad[0] + pad[1] - (k[0] - 1) * dil[2] - 1) // strides[2] + 1
    wo = (w + pad[2] + pad[3] - (k[1] - 1) * dil[3] - 1) // strides[3] + 1
    offsets = T(rng.uniform(-1.5, 1.5, (n, 3 * dg * k[0] * k[1], ho, wo)).astype(dt))
    args = [x((n, c, h, w), dt), x((co, c // groups) + k, dt), offsets, k, strides, pad]
    kwargs = {"dilations": dil, "groups": groups, "deformable_groups": dg, **kw}
    if bias:
        kwargs["bias"] = x((co,), dt)
    return ("ops.deformable_conv2d", args, kwargs)


def cases_deform():
    one = (1, 1, 1, 1)
    bad_padding = deform(1, 2, 5, 5, 3, (3, 3), one, one)
    bad_padding[1][5] = (1, 1, 1)
    return [
        deform(1, 2, 5, 5, 3, (3, 3), one, one),
        deform(2, 4, 6, 7, 4, (2, 3), (1, 1, 2, 1), (0, 1, 1, 0), dil=(1, 1, 1, 2), groups=2, dg=2, bias=True),
        deform(1, 3, 6, 6, 2, (3, 2), (1, 1, 1, 2), (1, 1, 0, 1), dg=3),
        deform(1, 2, 5, 5, 2, (2, 2), one, (0, 0, 0, 0), dt=np.float16, bias=True),
        # errors
        deform(1, 2, 5, 5, 3, (3, 3), one, one, modulated=False),
        deform(1, 2, 5, 5, 3, (3, 3), one, one, modulated=1),
        bad_padding,
        deform(1, 2, 5, 5, 3, (3, 3), (2, 1, 1, 1), one),
        deform(1, 2, 5, 5, 3, (3, 3), one, one, dil=(1.0, 1, 1, 1)),
    ]


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    path = ROOT / "tests" / "fixtures" / "oracle" / "ops_fractional.npz"
    counts = {}
    with FixtureWriter(path) as w:
        for name, args, kwargs in cases_2d() + cases_3d() + cases_deform():
            inputs = {}
            enc_args = [encode(v, inputs) for v in args]
            enc_kwargs = {k: encode(v, inputs) for k, v in kwargs.items()}
            outs, error, message = [], None, None
            try:
                fn = getattr(ops, name.split(".", 1)[1])
                out = fn(*[decode_ms(v, inputs, ms) for v in enc_args],
                         **{k: decode_ms(v, inputs, ms) for k, v in enc_kwargs.items()})
                outs = flatten_outputs(out)
            except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
                error, message = type(e).__name__, " ".join(str(e).split())[:200]
                print(f"{name}: {error} {message}", file=sys.stderr)
            counts[name] = counts.get(name, 0) + 1
            w.add(f"{name}/{counts[name]}", inputs=inputs, outputs=outs, name=name, error=error, args=enc_args,
                  kwargs=enc_kwargs, message=message)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB, {sum(counts.values())} cases)", file=sys.stderr)


if __name__ == "__main__":
    main()
