"""Range checks on class-index labels, where MindSpore's CPU kernels have them (checked with MindSpore 2.10).

- ``SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')`` (MindSpore's SparseSoftmaxCrossEntropyWithLogits
  kernel): a label < 0 or >= num_classes is an error. (MindSpore's kernel lets ``label == num_classes`` through
  and reads past the row; here it is an error too.)
- ``CrossEntropyLoss`` / ``NLLLoss`` (MindSpore's GatherD): a label outside [-num_classes, num_classes) that is not
  ``ignore_index`` is an error; -num_classes..-1 count from the end, as in MindSpore.

Eagerly the error is a ValueError raised at once. Inside a compiled step the labels are not known while
compiling. When they are an input of the step (``Model.train``, ``TrainOneStepCell(data, label)``), the check runs
on the host before each call (``_engine._step.register_input_check``): the same ValueError, before any Parameter
changes, and an executable the persistent compile cache can store. Labels computed inside the step are checked
when it runs, through a host callback that raises the same message (JAX reports it as a runtime error whose text
holds it); the callback only runs when a label is out of range.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._engine._step import register_input_check

__all__ = ["check_class_indices"]


def _out_of_range(labels, low, high, ignore_index):
    """The mask of labels outside [low, high) that are not ``ignore_index`` (NumPy or JAX arrays)."""
    bad = (labels < low) | (labels >= high)
    return bad if ignore_index is None else bad & (labels != ignore_index)


def _message(cell, labels, bad, low, high, ignore_index, where):
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    shown = index[0] if len(index) == 1 else index
    ignored = f" or ignore_index ({ignore_index})" if ignore_index is not None else ""
    return (f"For '{cell}', the labels must be class indices in [{low}, {high}){ignored}, as {where}, but got "
            f"label {labels[index]} at index {shown} ({int(bad.sum())} of {labels.size} labels out of range).")


def _host_check(cell, low, high, ignore_index, where):
    """``check(labels)`` on the host: raise the ValueError when a label is out of range. Used before a step on its
    input, and from inside a step through a callback (under vmap that branch runs for every batch, so the
    labels are checked here again)."""
    def check(labels):
        labels = np.asarray(labels)
        bad = _out_of_range(labels, low, high, ignore_index)
        if bad.any():
            raise ValueError(_message(cell, labels, bad, low, high, ignore_index, where))
    return check


def check_class_indices(cell: str, labels: jax.Array, num_classes: int, allow_negative: bool,
                        ignore_index: int | None = None) -> None:
    """Raise when an integer label array is outside the range ``cell`` accepts.

    Args:
        cell: the Cell's name, for the message.
        labels: the labels (a JAX array or tracer; floating labels are not class indices and pass).
        num_classes: the size of the class axis.
        allow_negative: accept [-num_classes, 0) (counted from the end).
        ignore_index: a label value that is always accepted (it adds nothing to the loss).
    """
    if not jnp.issubdtype(labels.dtype, jnp.integer) or labels.size == 0:
        return
    low, high = (-num_classes if allow_negative else 0), num_classes
    check = _host_check(cell, low, high, ignore_index, f"the logits have {num_classes} classes")
    if not isinstance(labels, jax.core.Tracer):
        check(labels)
    elif not register_input_check(labels, check):
        any_bad = jnp.any(_out_of_range(labels, low, high, ignore_index))
        jax.lax.cond(any_bad, lambda x: jax.debug.callback(check, x), lambda x: None, labels)
