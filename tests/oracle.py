"""Record real MindSpore's outputs into compact fixtures, and replay them against mindspore_hl.

One module serves both sides. A recorder script under ``tools/oracle/`` runs with real MindSpore 2.10 in its
own virtual environment (never a dependency of the project), imports this file by path, and writes cases with
``FixtureWriter``; pytest reads them back with ``load_cases`` and compares with ``assert_close``. Only NumPy is
needed here, so both interpreters can import it.

A fixture is one ``.npz`` file: for each case, its arrays under ``"<case>/in/<key>"`` and ``"<case>/out/<i>"``,
and one JSON document ``"<case>/meta"`` with everything that is not an array (the name called, keyword
arguments, the output structure, or the error type that real MindSpore raised).

>>> import tempfile, os, numpy as np
>>> path = os.path.join(tempfile.mkdtemp(), "demo.npz")
>>> with FixtureWriter(path) as w:
...     w.add("add/f32", inputs={"x": np.ones(2, np.float32)}, outputs=[np.full(2, 2, np.float32)], name="add")
>>> case = load_cases(path)["add/f32"]
>>> case.name, case.inputs["x"].dtype, case.outputs[0].tolist()
('add', dtype('float32'), [2.0, 2.0])
>>> assert_close(np.array([2.0, 2.0], np.float32), case.outputs[0])
"""
from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import pathlib
import sys
import tempfile
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

#: Default tolerances per dtype kind, used when a test does not pass its own (rtol, atol).
TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (1e-3, 1e-3),
    "bfloat16": (1e-2, 1e-2),
    "float32": (1e-5, 1e-6),
    "float64": (1e-12, 1e-14),
    "complex64": (1e-5, 1e-6),
    "complex128": (1e-12, 1e-14),
}

FIXTURE_ROOT = pathlib.Path(__file__).resolve().parent / "fixtures" / "oracle"


@dataclasses.dataclass
class Case:
    """One recorded call: its inputs, keyword arguments, outputs (or the error it raised) and free-form meta."""

    id: str
    name: str
    inputs: dict[str, np.ndarray]
    outputs: list[np.ndarray]
    meta: dict[str, Any]

    @property
    def error(self) -> str | None:
        """The exception type real MindSpore raised (e.g. ``"ValueError"``), or None when it returned."""
        return self.meta.get("error")

    @property
    def kwargs(self) -> dict[str, Any]:
        return self.meta.get("kwargs", {})


class FixtureWriter:
    """Collects cases and writes them atomically into one compressed ``.npz`` on ``close()``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = pathlib.Path(path)
        self._arrays: dict[str, np.ndarray] = {}
        self._ids: set[str] = set()

    def add(self, case_id: str, *, inputs: Mapping[str, Any] | None = None,
            outputs: Sequence[Any] | None = None, name: str | None = None, error: str | None = None,
            **meta: Any) -> None:
        """Record one case. ``outputs`` are converted with ``np.asarray``; pass ``error`` instead when it raised."""
        if case_id in self._ids:
            raise ValueError(f"FixtureWriter: case {case_id!r} was added twice to {self.path}")
        if "/in/" in case_id or "/out/" in case_id or case_id.endswith("/meta"):
            raise ValueError(f"FixtureWriter: case id {case_id!r} may not contain '/in/', '/out/' or end in '/meta'")
        self._ids.add(case_id)
        for key, value in (inputs or {}).items():
            self._arrays[f"{case_id}/in/{key}"] = np.asarray(value)
        outs = list(outputs or [])
        for i, value in enumerate(outs):
            self._arrays[f"{case_id}/out/{i}"] = np.asarray(value)
        doc = dict(meta, name=name or case_id.split("/")[0], n_out=len(outs), error=error)
        self._arrays[f"{case_id}/meta"] = np.asarray(json.dumps(doc, sort_keys=True))

    def close(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".npz.tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez_compressed(f, **self._arrays)
            os.replace(tmp, self.path)
        except BaseException:
            os.unlink(tmp)
            raise

    def __enter__(self) -> "FixtureWriter":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()


def load_cases(path: str | os.PathLike[str]) -> dict[str, Case]:
    """Every case in a fixture file, by id, in the order they were recorded."""
    path = pathlib.Path(path)
    if not path.is_absolute() and not path.exists():
        path = FIXTURE_ROOT / path
    with np.load(path, allow_pickle=False) as data:
        arrays = {key: data[key] for key in data.files}
    cases: dict[str, Case] = {}
    for key in arrays:
        if not key.endswith("/meta"):
            continue
        case_id = key[: -len("/meta")]
        meta = json.loads(str(arrays[key]))
        prefix = f"{case_id}/in/"
        inputs = {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}
        outputs = [arrays[f"{case_id}/out/{i}"] for i in range(meta["n_out"])]
        cases[case_id] = Case(case_id, meta["name"], inputs, outputs, meta)
    return cases


def case_params(path: str | os.PathLike[str]) -> list[Any]:
    """The cases of one fixture as ``pytest.param`` objects with readable ids, for ``parametrize``."""
    import pytest

    return [pytest.param(case, id=case_id) for case_id, case in load_cases(path).items()]


def as_numpy(value: Any) -> np.ndarray:
    """A Tensor (either framework's), JAX array or NumPy value as a NumPy array."""
    if hasattr(value, "asnumpy"):
        return value.asnumpy()
    return np.asarray(value)


def assert_close(actual: Any, expected: np.ndarray, *, rtol: float | None = None, atol: float | None = None,
                 check_dtype: bool = True, what: str = "") -> None:
    """Shape, dtype and values of ``actual`` equal the recorded ``expected`` (NaNs equal, tolerance per dtype)."""
    got = as_numpy(actual)
    label = f"{what}: " if what else ""
    if got.shape != expected.shape:
        raise AssertionError(f"{label}shape {got.shape} != recorded {expected.shape}")
    if check_dtype and got.dtype != expected.dtype:
        raise AssertionError(f"{label}dtype {got.dtype} != recorded {expected.dtype}")
    if expected.dtype.kind in "fc" or str(expected.dtype) == "bfloat16":
        default = TOLERANCES.get(str(expected.dtype), (1e-5, 1e-6))
        np.testing.assert_allclose(got.astype(np.float64) if got.dtype.kind != "c" else got,
                                   expected.astype(np.float64) if expected.dtype.kind != "c" else expected,
                                   rtol=default[0] if rtol is None else rtol,
                                   atol=default[1] if atol is None else atol, equal_nan=True, err_msg=label)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=label)


def assert_outputs(actual: Any, case: Case, **tolerance: Any) -> None:
    """``actual`` (one value or a tuple/list) matches every recorded output of ``case``."""
    outs: Iterable[Any] = actual if isinstance(actual, (tuple, list)) else [actual]
    outs = list(outs)
    if len(outs) != len(case.outputs):
        raise AssertionError(f"{case.id}: {len(outs)} outputs, recorded {len(case.outputs)}")
    for i, (got, want) in enumerate(zip(outs, case.outputs)):
        assert_close(got, want, what=f"{case.id} output {i}", **tolerance)


def for_framework(path: str | os.PathLike[str], framework: Any) -> Any:
    """The Python file ``path`` run as a module with ``ms``, ``nn`` and ``ops`` bound to ``framework``.

    A recorder and its test build the very same networks from one file: real MindSpore in the recorder,
    mindspore_hl in the test. The file defines its classes at module level under ``if nn is not None:`` (MindSpore
    rewrites some Cells from their source, which must find their names in the module), and is registered in
    ``sys.modules`` so ``inspect`` can read that source.
    """
    path = pathlib.Path(path)
    name = f"{path.stem}_{framework.__name__}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    module.ms, module.nn, module.ops = framework, framework.nn, framework.ops  # type: ignore[attr-defined]
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
