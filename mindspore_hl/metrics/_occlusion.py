"""``OcclusionSensitivity``: how much a classifier's score for the true label drops when each part of the input is
covered."""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common.tensor import Tensor
from ..nn.cell import Cell
from ._metric import Metric, check_num_inputs, rearrange_inputs

__all__ = ["OcclusionSensitivity"]


class OcclusionSensitivity(Metric):
    """For every element of the input (or of the ``b_box`` region), the baseline score of the label minus the
    score with a window of ``pad_val`` placed there; a large value marks an element the decision depends on.

    The window at index ``i`` of each axis covers ``[i - margin, i + margin)``, clipped to the input, as in
    MindSpore.

    Args:
        pad_val: the value written over the occluded window.
        margin: the half width of the window.
        n_batch: how many occluded inputs go through the model per call.
        b_box: ``[min0, max0, min1, max1, ...]`` per axis (batch axis excluded), inclusive; a negative max means
            the end of that axis. None: the whole input.

    >>> class Pick(nn.Cell):
    ...     def construct(self, x):
    ...         return x.reshape(x.shape[0], -1)[:, :2]
    >>> m = OcclusionSensitivity(margin=1)
    >>> m.update(Pick(), np.array([[1.0, 2.0, 3.0]], np.float32), 1)
    >>> m.eval().tolist()
    [0.0, 2.0, 2.0]
    """

    def __init__(self, pad_val: float = 0.0, margin: int | list[int] = 2, n_batch: int = 128,
                 b_box: list[int] | None = None) -> None:
        super().__init__()
        if not isinstance(pad_val, float):
            raise TypeError(f"For 'OcclusionSensitivity', 'pad_val' must be a float, but got {type(pad_val).__name__}.")
        if not isinstance(margin, (int, list)) or isinstance(margin, bool):
            raise TypeError(f"For 'OcclusionSensitivity', 'margin' must be an int or list, but got "
                            f"{type(margin).__name__}.")
        if not isinstance(n_batch, int) or n_batch <= 0:
            raise ValueError(f"For 'OcclusionSensitivity', 'n_batch' must be a positive int, but got {n_batch!r}.")
        if b_box is not None and not isinstance(b_box, list):
            raise TypeError(f"For 'OcclusionSensitivity', 'b_box' must be a list or None, but got "
                            f"{type(b_box).__name__}.")
        self.pad_val, self.margin, self.n_batch, self.b_box = pad_val, margin, n_batch, b_box
        self.clear()

    def clear(self) -> None:
        """Forget the last update."""
        self._baseline = 0.0
        self._sensitivity_im: Any = 0
        self._updated = False

    def _box(self, shape: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.b_box is None:
            return np.zeros_like(shape), shape - 1
        if len(self.b_box) != 2 * len(shape):
            raise ValueError(f"For 'OcclusionSensitivity', 'b_box' needs a lower and upper bound for each of the "
                             f"{len(shape)} input axes (batch excluded): {2 * len(shape)} values, but got "
                             f"{len(self.b_box)}.")
        lo, hi = np.array(self.b_box[::2]), np.array(self.b_box[1::2])
        lo[lo < 0] = 0
        hi[hi < 0] = shape[hi < 0] - 1
        if np.any(hi >= shape):
            raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for "
                             "all values.")
        if np.any(lo > hi):
            raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding "
                             "box for all values.")
        return lo, hi

    def _scores(self, model: Cell, images: list[np.ndarray], label: int) -> np.ndarray:
        out = model(Tensor(np.concatenate(images)))
        return np.asarray(out.asnumpy())[:, label]

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Inputs: the classification ``model`` (a Cell), one input ``y_pred`` of shape (1, ...) and its ``label``."""
        check_num_inputs(self, inputs, 3, "(classification model, predicted value, label)")
        model = inputs[0]
        if not isinstance(model, Cell):
            raise TypeError(f"For 'OcclusionSensitivity.update', the model (inputs[0]) must be a Cell, but got "
                            f"{type(model).__name__}.")
        x = self._convert_data(inputs[1])
        label_arr = self._convert_data(inputs[2])
        if x.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                               f"(input[1]) must be 1, but got {x.shape[0]}.")
        if label_arr.size != 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label (input[2]) must be same "
                               f"as the batches, but got the label number {label_arr.size}, and batches 1.")
        label = int(label_arr.reshape(-1)[0])
        shape = np.array(x.shape[1:])
        lo, hi = self._box(shape)
        out_shape = tuple(int(d) for d in hi - lo + 1)
        self._baseline = float(np.asarray(model(Tensor(x)).asnumpy())[0, label])
        scores: list[np.ndarray] = []
        pending: list[np.ndarray] = []
        total = int(np.prod(out_shape))
        margins = [self.margin] * len(shape) if isinstance(self.margin, int) else list(self.margin)
        if len(margins) != len(shape):
            raise ValueError(f"For 'OcclusionSensitivity', 'margin' needs one value per input axis after the batch "
                             f"({len(shape)}), but got {self.margin!r}.")
        for i in range(total):
            idx = np.array(np.unravel_index(i, out_shape)) + lo
            window = tuple(slice(max(0, int(c) - m), min(int(d), int(c) + m)) for c, d, m in zip(idx, shape, margins))
            occluded = x.copy()
            occluded[(...,) + window] = self.pad_val
            pending.append(occluded)
            if len(pending) == self.n_batch or i == total - 1:
                scores.append(self._scores(model, pending, label))
                pending = []
        self._sensitivity_im = np.concatenate(scores).reshape(out_shape)
        self._updated = True

    def eval(self) -> np.ndarray:
        """The sensitivity map: baseline score minus the occluded score, one value per element of the region."""
        if not self._updated:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)
