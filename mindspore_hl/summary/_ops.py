"""Summary ops used inside ``construct``: ``ScalarSummary()('tag', value)``, ``ImageSummary``, ``HistogramSummary``,
``TensorSummary``.

Mechanism: inside a compiled step the value is sent to the host with ``jax.debug.callback`` (an unordered
effect: the step is not serialised with the host, and the callback costs a device-to-host copy of that
value each time the step runs; benchmarks/model_train.py measures it). Eagerly the value is stored
directly. Values wait in a per-process buffer (the last value per tag wins, as when MindSpore sinks several
steps) until the next ``SummaryRecord.record(step)`` writes them with tag = the op's name.
"""
import threading

import jax
import numpy as np

from ..common.tensor import Tensor, to_array

__all__ = ["ScalarSummary", "ImageSummary", "HistogramSummary", "TensorSummary", "take_pending"]

_lock = threading.Lock()
_pending = {}  # tag -> (plugin, numpy value)


def _store(plugin, tag, value):
    with _lock:
        _pending[tag] = (plugin, np.asarray(value))


def take_pending():
    """``{tag: (plugin, value)}`` recorded by summary ops since the last call (waits for running steps first)."""
    jax.effects_barrier()
    with _lock:
        out = dict(_pending)
        _pending.clear()
    return out


def clear_pending():
    with _lock:
        _pending.clear()


class _SummaryOp:
    """Base of the summary primitives: ``op(name, value)`` records ``value`` under the tag ``name``."""

    plugin = None

    def __init__(self):
        self.name = type(self).__name__

    def _check(self, value):
        return value

    def __call__(self, name, value):
        if not isinstance(name, str) or not name:
            raise TypeError(f"For '{self.name}', the name must be a non-empty str, but got {name!r}.")
        array = self._check(to_array(value) if isinstance(value, Tensor) else jax.numpy.asarray(value))
        if isinstance(array, jax.core.Tracer):
            jax.debug.callback(lambda v, _p=self.plugin, _t=name: _store(_p, _t, v), array)
        else:
            _store(self.plugin, name, np.asarray(array))

    def __repr__(self):
        return f"{self.name}<>"


class ScalarSummary(_SummaryOp):
    """Record a scalar (shape () or (1,)) under a tag: ``ops.ScalarSummary()('loss', loss)``."""

    plugin = "scalar"

    def _check(self, value):
        if value.size != 1 or value.ndim > 1:
            raise ValueError(f"For 'ScalarSummary', the value must be a scalar (shape () or (1,)), but got shape "
                             f"{tuple(value.shape)}.")
        return value.reshape(())


class ImageSummary(_SummaryOp):
    """Record a batch of images (N, C, H, W) under a tag."""

    plugin = "image"

    def _check(self, value):
        if value.ndim != 4:
            raise ValueError(f"For 'ImageSummary', the value must be a 4-D (N, C, H, W) image batch, but got shape "
                             f"{tuple(value.shape)}.")
        return value


class HistogramSummary(_SummaryOp):
    """Record the distribution of a Tensor's values under a tag."""

    plugin = "histogram"


class TensorSummary(_SummaryOp):
    """Record a Tensor's values under a tag."""

    plugin = "tensor"
