"""Shared by the numpy / mint / linalg recorders: encode calls (Tensor, dtype, Python arguments) into fixture cases.

A case's meta holds ``module``, ``name``, ``args`` and ``kwargs`` encoded as JSON: ``{"t": key}`` is a Tensor built
from the recorded input array ``key``, ``{"d": "float32"}`` a dtype, ``{"l": [...]}`` a list and ``{"u": [...]}``
a tuple; ``{"p": key}`` a Parameter and ``{"m": key}`` a Tensor whose value after the call is recorded too (in-place
ops); anything else is a plain JSON value. ``tests/sweep.py`` decodes the same format.
"""
import numpy as np


class T:
    """A Tensor argument."""

    def __init__(self, value, dtype=None):
        self.value = np.asarray(value, dtype)


class Prm(T):
    """A Parameter argument (an op that updates it in place)."""


class M(T):
    """A Tensor argument that an in-place op may update (its value after the call is recorded too)."""


class D:
    """A dtype argument."""

    def __init__(self, name):
        self.name = name


def encode(value, inputs):
    if isinstance(value, T):
        key = f"a{len(inputs)}"
        inputs[key] = value.value
        return {"p" if isinstance(value, Prm) else "m" if isinstance(value, M) else "t": key}
    if isinstance(value, D):
        return {"d": value.name}
    if isinstance(value, list):
        return {"l": [encode(v, inputs) for v in value]}
    if isinstance(value, tuple):
        return {"u": [encode(v, inputs) for v in value]}
    if isinstance(value, float) and not np.isfinite(value):
        return {"f": repr(value)}
    return value


def decode_ms(value, arrays, ms, made=None):
    """The MindSpore argument for an encoded one; Parameters and in-place Tensors are appended to ``made``."""
    if isinstance(value, dict):
        if "t" in value:
            return ms.Tensor(arrays[value["t"]])
        if "p" in value or "m" in value:
            key = value.get("p", value.get("m"))
            res = ms.Parameter(ms.Tensor(arrays[key]), name=key) if "p" in value else ms.Tensor(arrays[key])
            if made is not None:
                made.append(res)
            return res
        if "d" in value:
            return getattr(ms, value["d"])
        if "l" in value:
            return [decode_ms(v, arrays, ms, made) for v in value["l"]]
        if "u" in value:
            return tuple(decode_ms(v, arrays, ms, made) for v in value["u"])
        if "f" in value:
            return float(value["f"])
    return value


def flatten_outputs(out):
    """Outputs as a list of NumPy arrays (Tensors, tuples of them, Python scalars and bools)."""
    if isinstance(out, (tuple, list)):
        res = []
        for o in out:
            res.extend(flatten_outputs(o))
        return res
    if hasattr(out, "asnumpy"):
        return [out.asnumpy()]
    if out is None or isinstance(out, (int, float, bool, np.generic, np.ndarray)):
        return [np.asarray(out if out is not None else np.nan)]
    raise TypeError(f"cannot record output of type {type(out).__name__}")


def _flush(ms):
    """Run trivial ops until one succeeds: a pending kernel error of an earlier call surfaces here, not in the
    next case."""
    for _ in range(5):
        try:
            (ms.Tensor(np.ones(1, np.float32)) + 1).asnumpy()
            return
        except Exception:  # noqa: BLE001
            continue


def _call(fn, args, kwargs, inputs, ms):
    """Call with decoded arguments; a failed call is retried twice, because MindSpore's CPU runtime can report the
    previous call's kernel error once more on the next call."""
    for _attempt in range(3):
        _flush(ms)
        try:
            out = fn(*[decode_ms(a, inputs, ms) for a in args],
                     **{k: decode_ms(v, inputs, ms) for k, v in kwargs.items()})
            return flatten_outputs(out), None, None
        except Exception as e:  # noqa: BLE001  (the error type is the recorded truth)
            error, message = type(e).__name__, " ".join(str(e).split())[:160]
    return [], error, message


def record(writer, cases, modules, ms, fallback=None):
    """Run each ``(case_id, module, name, args, kwargs)`` with real MindSpore and add it to ``writer``.

    ``fallback(module, name)`` may name a second real-MindSpore function with the same semantics (e.g. ``ops.acos``
    for ``mint.acos``, whose kernel the CPU build lacks); it is called when the first raises a RuntimeError, and
    the case's meta records ``truth``.
    """
    for case_id, module, name, args, kwargs in cases:
        inputs = {}
        enc_args = [encode(a, inputs) for a in args]
        enc_kwargs = {k: encode(v, inputs) for k, v in kwargs.items()}
        outs, error, message = _call(getattr(modules[module], name), enc_args, enc_kwargs, inputs, ms)
        truth = f"{module}.{name}"
        if error in ("RuntimeError", "NotImplementedError") and fallback is not None:
            second = fallback(module, name, kwargs)
            if second is not None:
                o2, e2, m2 = _call(second[1], enc_args, enc_kwargs, inputs, ms)
                if e2 is None:
                    outs, error, message, truth = o2, None, f"{module}.{name}: {message}", second[0]
        writer.add(case_id, inputs=inputs, outputs=outs, name=name, error=error, module=module, args=enc_args,
                   kwargs=enc_kwargs, message=message, truth=truth)
