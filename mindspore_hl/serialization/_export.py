"""``export`` / ``load``: a network as a deployable file, and such a file run without the model's code.

Formats:

- ``MINDIR``: MindSpore's own MindIR protobuf, which real MindSpore (and MindSpore Lite) loads
  (``_mindir_write``); ``load`` also runs MindIR files that real MindSpore exported (``_mindir_read``).
- ``ONNX``: the forward pass through jax2onnx, with a symbolic batch axis (``_onnx``).
- ``STABLEHLO``: this project's container, a zip holding ``model.stablehlo`` (the serialized
  ``jax.export.Exported``, batch axis symbolic), ``weights.npz`` (the parameters, passed as arguments, so the
  program stays small) and ``meta.json``.

``load(file)`` + ``nn.GraphCell(graph)`` run MindIR and StableHLO files.
"""
from __future__ import annotations

import io
import json
import os
import zipfile
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np

from ..common import _scope
from ..common.tensor import Tensor, to_array, wrap
from ._atomic import atomic_open
from ._mindir_read import MindIRGraph, read_mindir
from ._mindir_write import export_mindir
from ._onnx import export_onnx

__all__ = ["export", "load", "ExportedGraph", "MindIRGraph"]

if TYPE_CHECKING:
    from ..nn.cell import Cell

_MAGIC = "mindspore_hl.export/1"
_EXT = {"MINDIR": ".mindir", "STABLEHLO": ".shlo", "ONNX": ".onnx"}


def _plain(out: Any) -> Any:
    """Tensors -> arrays, so the exported output tree has only built-in containers."""
    if isinstance(out, Tensor):
        return out._value
    if isinstance(out, (tuple, list)):
        return tuple(_plain(o) for o in out)
    return out


def export(net: Cell, *inputs: Any, file_name: str | os.PathLike[str], file_format: str = "MINDIR",
           **kwargs: Any) -> str:
    """Export ``net`` (in eval mode) for inputs like ``inputs``; the first axis of every input is symbolic.

    Args:
        net: a Cell. inputs: example Tensors (their shapes past the batch axis and dtypes are fixed).
        file_name: output path; the format's extension is added when missing.
        file_format: 'MINDIR' or 'STABLEHLO' (this project's StableHLO container), or 'ONNX'.
    Returns:
        the path written.
    """
    fmt = str(file_format).upper()
    if fmt not in _EXT:
        raise ValueError(f"export: unknown file_format {file_format!r}; supported: 'MINDIR', 'ONNX', 'STABLEHLO'.")
    if not inputs:
        raise ValueError("export: give at least one example input, e.g. export(net, Tensor(x), file_name='net').")
    path = os.fspath(file_name)
    if not path.endswith(_EXT[fmt]):
        path += _EXT[fmt]
    if fmt == "ONNX":
        return export_onnx(net, inputs, path)
    if fmt == "MINDIR":
        return export_mindir(net, inputs, path)

    params = tuple(net.get_parameters())
    arrays = [to_array(x) for x in inputs]
    was_training = net.training  # type: ignore[attr-defined]  # (Cell sets it in __init__, undeclared)
    net.set_train(False)
    try:
        def forward(state: Any, *xs: Any) -> Any:
            with _scope.StatelessScope(params, state, rng=jax.random.key_data(jax.random.key(0))):
                return _plain(net._run(*[wrap(x) for x in xs]))

        (batch,) = jax.export.symbolic_shape("b")
        specs = [jax.ShapeDtypeStruct((batch,) + a.shape[1:] if a.ndim else (), a.dtype) for a in arrays]
        state_specs = tuple(jax.ShapeDtypeStruct(p.shape, p._value.dtype) for p in params)
        exported = jax.export.export(jax.jit(forward))(state_specs, *specs)
    finally:
        net.set_train(was_training)

    weights = io.BytesIO()
    # numpy's stub types a **dict argument as if it could hold allow_pickle (a bool)
    np.savez(weights, **{f"p{i}": np.asarray(p._value) for i, p in enumerate(params)})  # type: ignore[arg-type]
    meta = {"format": _MAGIC, "network": type(net).__name__, "parameters": [p.name for p in params],
            "inputs": [[[-1] + list(a.shape[1:]) if a.ndim else [], str(a.dtype)] for a in arrays]}
    with atomic_open(path) as f, zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as z:
        z.writestr("meta.json", json.dumps(meta))
        z.writestr("model.stablehlo", bytes(exported.serialize()))
        z.writestr("weights.npz", weights.getvalue())
    return path


class ExportedGraph:
    """A loaded export: call it (or wrap it in ``nn.GraphCell``) with input Tensors."""

    def __init__(self, exported: jax.export.Exported, weights: tuple[jax.Array, ...], meta: dict[str, Any],
                 path: str) -> None:
        self.exported, self.weights, self.meta, self.path = exported, weights, meta, path

    @property
    def parameter_names(self) -> list[str]:
        """The names of the exported network's Parameters, in the order the program takes them."""
        return list(self.meta["parameters"])

    def __call__(self, *inputs: Any) -> Any:
        expected = len(self.meta["inputs"])
        if len(inputs) != expected:
            raise ValueError(f"{self.meta['network']} (exported to {self.path}) takes {expected} input(s), "
                             f"but got {len(inputs)}.")
        xs = []
        for i, (x, (shape, dtype)) in enumerate(zip(inputs, self.meta["inputs"])):
            a = to_array(x)
            if list(a.shape[1:]) != shape[1:]:
                raise ValueError(f"{self.meta['network']} (exported to {self.path}): input {i} must have shape "
                                 f"(N, {', '.join(map(str, shape[1:]))}), but got {tuple(a.shape)}.")
            xs.append(a.astype(dtype))
        return wrap(self.exported.call(self.weights, *xs))


def load(file_name: str | os.PathLike[str], **kwargs: Any) -> MindIRGraph | ExportedGraph:
    """Load a MindIR file (real MindSpore's or one exported here) or a StableHLO export, to run with GraphCell.

    Returns:
        a :class:`MindIRGraph` or an :class:`ExportedGraph`; both are called with input Tensors.
    """
    path = os.fspath(file_name)
    if os.path.isdir(path):
        raise IsADirectoryError(f"load: {path} is a directory, not a MindIR or StableHLO file.")
    if not zipfile.is_zipfile(path):
        return read_mindir(path)
    try:
        with zipfile.ZipFile(path) as z:
            meta = json.loads(z.read("meta.json"))
            blob = z.read("model.stablehlo")
            npz = np.load(io.BytesIO(z.read("weights.npz")))
            weights = tuple(jnp.asarray(npz[f"p{i}"]) for i in range(len(meta["parameters"])))
    except FileNotFoundError:
        raise
    except (zipfile.BadZipFile, KeyError, ValueError, json.JSONDecodeError) as e:
        raise ValueError(f"load: {path} is not a StableHLO export of mindspore_hl: {e}") from None
    if meta.get("format") != _MAGIC:
        raise ValueError(f"load: {path} has unknown export format {meta.get('format')!r}.")
    exported = jax.export.deserialize(bytearray(blob))
    return ExportedGraph(exported, weights, meta, path)
