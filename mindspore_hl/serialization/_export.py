"""``export`` / ``load``: a network as a portable compiled artefact (StableHLO via ``jax.export``).

The file is a zip holding ``model.stablehlo`` (the serialized ``jax.export.Exported``, with a symbolic
batch dimension), ``weights.npz`` (the parameters, passed as arguments, so the program stays small) and
``meta.json``. ``load(file)`` + ``nn.GraphCell(graph)`` run it without the Python model code.

``file_format='MINDIR'`` is accepted for MindSpore scripts and writes this same format under the
``.mindir`` name: it is *not* MindSpore's MindIR protobuf and real MindSpore cannot read it.
"""
import io
import json
import os
import zipfile

import jax
import jax.numpy as jnp
import numpy as np

from ..common import _scope
from ..common.tensor import Tensor, to_array, wrap
from ._atomic import atomic_open

__all__ = ["export", "load", "ExportedGraph"]

_MAGIC = "mindspore_hl.export/1"
_EXT = {"MINDIR": ".mindir", "STABLEHLO": ".shlo"}


def _plain(out):
    """Tensors -> arrays, so the exported output tree has only built-in containers."""
    if isinstance(out, Tensor):
        return out._value
    if isinstance(out, (tuple, list)):
        return tuple(_plain(o) for o in out)
    return out


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs):
    """Export ``net`` (in eval mode) for inputs like ``inputs``; the first axis of every input is symbolic.

    Args:
        net: a Cell. inputs: example Tensors (their shapes past the batch axis and dtypes are fixed).
        file_name: output path; the format's extension is added when missing.
        file_format: 'MINDIR' or 'STABLEHLO' (this project's StableHLO container), or 'ONNX'.
    Returns:
        the path written.
    """
    fmt = str(file_format).upper()
    if fmt == "ONNX":
        raise ValueError("export: file_format='ONNX' is not supported by mindspore_hl yet; use 'MINDIR' or "
                         "'STABLEHLO' (StableHLO runs with mindspore_hl.load or any jax.export consumer).")
    if fmt not in _EXT:
        raise ValueError(f"export: unknown file_format {file_format!r}; supported: 'MINDIR', 'STABLEHLO'.")
    if not inputs:
        raise ValueError("export: give at least one example input, e.g. export(net, Tensor(x), file_name='net').")
    path = os.fspath(file_name)
    if not path.endswith(_EXT[fmt]):
        path += _EXT[fmt]

    params = tuple(net.get_parameters())
    arrays = [to_array(x) for x in inputs]
    was_training = net.training
    net.set_train(False)
    try:
        def forward(state, *xs):
            with _scope.StatelessScope(params, state, rng=jax.random.key_data(jax.random.key(0))):
                return _plain(net._run(*[wrap(x) for x in xs]))

        (batch,) = jax.export.symbolic_shape("b")
        specs = [jax.ShapeDtypeStruct((batch,) + a.shape[1:] if a.ndim else (), a.dtype) for a in arrays]
        state_specs = tuple(jax.ShapeDtypeStruct(p.shape, p._value.dtype) for p in params)
        exported = jax.export.export(jax.jit(forward))(state_specs, *specs)
    finally:
        net.set_train(was_training)

    weights = io.BytesIO()
    np.savez(weights, **{f"p{i}": np.asarray(p._value) for i, p in enumerate(params)})
    meta = {"format": _MAGIC, "network": type(net).__name__, "parameters": [p.name for p in params],
            "inputs": [[[-1] + list(a.shape[1:]) if a.ndim else [], str(a.dtype)] for a in arrays]}
    with atomic_open(path) as f, zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as z:
        z.writestr("meta.json", json.dumps(meta))
        z.writestr("model.stablehlo", bytes(exported.serialize()))
        z.writestr("weights.npz", weights.getvalue())
    return path


class ExportedGraph:
    """A loaded export: call it (or wrap it in ``nn.GraphCell``) with input Tensors."""

    def __init__(self, exported, weights, meta, path):
        self.exported, self.weights, self.meta, self.path = exported, weights, meta, path

    @property
    def parameter_names(self):
        return list(self.meta["parameters"])

    def __call__(self, *inputs):
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


def load(file_name, **kwargs):
    """Load a file written by :func:`export`; returns an :class:`ExportedGraph`."""
    path = os.fspath(file_name)
    try:
        with zipfile.ZipFile(path) as z:
            meta = json.loads(z.read("meta.json"))
            blob = z.read("model.stablehlo")
            npz = np.load(io.BytesIO(z.read("weights.npz")))
            weights = tuple(jnp.asarray(npz[f"p{i}"]) for i in range(len(meta["parameters"])))
    except FileNotFoundError:
        raise
    except (zipfile.BadZipFile, KeyError, ValueError, json.JSONDecodeError) as e:
        raise ValueError(f"load: {path} is not a mindspore_hl export (real MindSpore MindIR files cannot be "
                         f"loaded): {e}") from None
    if meta.get("format") != _MAGIC:
        raise ValueError(f"load: {path} has unknown export format {meta.get('format')!r}.")
    exported = jax.export.deserialize(bytearray(blob))
    return ExportedGraph(exported, weights, meta, path)
