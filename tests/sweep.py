"""Replay of the argument-sweep fixtures written by ``tools/oracle/_sweep.py`` (numpy, mint, linalg, fft ...)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import mindspore_hl as ms
from tests.oracle import Case, assert_close


def decode(value, arrays, made: list | None = None):
    """The mindspore_hl argument for an encoded one (see ``tools/oracle/_sweep.py``); Parameters and in-place
    Tensors are appended to ``made``, so a test can compare their values after the call."""
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
            return [decode(v, arrays, made) for v in value["l"]]
        if "u" in value:
            return tuple(decode(v, arrays, made) for v in value["u"])
        if "f" in value:
            return float(value["f"])
    return value


def flatten(out) -> list:
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in flatten(o)]
    return [out]


def call_recorded(case: Case, module, made: list | None = None):
    """Call what ``case`` recorded on mindspore_hl's ``module``: ``ops.<name>(*args, **kwargs)``, for a Primitive
    case (``P.<Name>``) ``<Name>(**init)(*args, **kwargs)``, for a Tensor method case (``Tensor.<name>``)
    ``args[0].<name>(*args[1:], **kwargs)``. Parameter / in-place Tensor arguments are appended to ``made``."""
    args = [decode(a, case.inputs, made) for a in case.meta["args"]]
    kwargs = {k: decode(v, case.inputs, made) for k, v in case.meta.get("kwargs", {}).items()}
    kind, _, attr = case.name.partition(".")
    if kind == "Tensor":
        return getattr(args[0], attr)(*args[1:], **kwargs)
    fn = getattr(module, attr)
    if kind != "ops":
        fn = fn(**{k: decode(v, case.inputs) for k, v in case.meta.get("init", {}).items()})
    return fn(*args, **kwargs)


def replay(case: Case, module, rtol=None, atol=None) -> None:
    """Call ``module.<name>`` as recorded and compare outputs (values, dtypes, shapes), or expect the error."""
    fn = getattr(module, case.name)
    args = [decode(a, case.inputs) for a in case.meta["args"]]
    kwargs = {k: decode(v, case.inputs) for k, v in case.meta["kwargs"].items()}
    if case.error:
        try:
            fn(*args, **kwargs)
        except Exception:  # noqa: BLE001  (MindSpore raised too)
            return
        pytest.skip(f"MindSpore raised {case.error}; mindspore_hl accepts this input and returns a value")
    outs = flatten(fn(*args, **kwargs))
    assert len(outs) == len(case.outputs), f"{case.id}: {len(outs)} outputs, recorded {len(case.outputs)}"
    for i, (got, want) in enumerate(zip(outs, case.outputs)):
        if not hasattr(got, "asnumpy") and want.ndim == 0 and not isinstance(got, np.ndarray):
            # a Python scalar / bool result: compare values
            assert (got == want.item()) or (isinstance(got, float) and math.isclose(got, want.item(), rel_tol=1e-5)), \
                f"{case.id} output {i}: {got!r} != recorded {want.item()!r}"
            continue
        assert_close(got, want, rtol=rtol, atol=atol, what=f"{case.id} output {i}")


def split_params(params: list, known: dict[str, str] | None = None) -> list:
    """The first case of each name runs by default, the others are marked slow; ``known`` cases (id -> reason,
    a recorded difference from MindSpore not fixed yet) are strict xfails."""
    seen: set[str] = set()
    out = []
    for p in params:
        case = p.values[0]
        marks = list(p.marks)
        if known and case.id in known:
            marks.append(pytest.mark.xfail(reason=known[case.id], strict=True))
        if case.name in seen:
            marks.append(pytest.mark.slow)
        seen.add(case.name)
        out.append(pytest.param(case, id=p.id, marks=marks))
    return out
