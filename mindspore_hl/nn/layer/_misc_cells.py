"""``TimeDistributed``, ``Conv2dBnAct``, ``DenseBnAct`` and the gradient Cells ``Jvp`` / ``Vjp``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ... import ops
from ...common.tensor import Tensor
from ..cell import Cell
from ._activation import LeakyReLU, get_activation
from ._basic import Dense
from ._conv import Conv2d
from ._normalization import BatchNorm1d, BatchNorm2d

if TYPE_CHECKING:
    from typing import Any, Callable

    from ...common.initializer import Initializer

__all__ = ["TimeDistributed", "Conv2dBnAct", "DenseBnAct", "Jvp", "Vjp"]


class TimeDistributed(Cell):
    """Applies ``layer`` to every time step of ``inputs`` along ``time_axis`` (one call per step, results stacked
    there), or, with ``reshape_with_axis``, once on the time axis merged into that axis."""

    def __init__(self, layer: Cell, time_axis: int, reshape_with_axis: int | None = None) -> None:
        if not isinstance(layer, Cell) and not callable(layer):
            raise TypeError(f"For 'TimeDistributed', the 'layer' must be Cell or Primitive instance, but got type: "
                            f"{type(layer).__name__}.")
        for name, v in (("time_axis", time_axis), ("reshape_with_axis", reshape_with_axis)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int)):
                raise TypeError(f"For 'TimeDistributed', '{name}' must be an int, but got {type(v).__name__}.")
        super().__init__()
        self.layer, self.time_axis, self.reshape_with_axis = layer, time_axis, reshape_with_axis

    def construct(self, inputs: Tensor) -> Tensor:
        if not isinstance(inputs, Tensor) or inputs.ndim < 3:
            raise ValueError(f"For 'TimeDistributed', inputs must be a Tensor of at least 3 dimensions, but got "
                             f"{getattr(inputs, 'shape', type(inputs).__name__)}.")
        nd = inputs.ndim
        t = self.time_axis % nd
        if self.reshape_with_axis is None:
            return ops.stack([self.layer(x) for x in ops.unstack(inputs, t)], t)
        r = self.reshape_with_axis % nd
        # MindSpore's recipe: move the time axis next to ``r``, merge the two, run once, split again.
        t_new = nd - 2 if r == nd - 1 else (r + 1 if t > r else r - 1)
        pos = min(t_new, r)
        perm = list(range(nd))
        perm.remove(t)
        perm.insert(t_new, t)
        x = ops.transpose(inputs, tuple(perm))
        shape = tuple(x.shape)
        y = self.layer(ops.reshape(x, shape[:pos] + (-1,) + shape[pos + 2:]))
        if tuple(y.shape[:pos + 1]) != tuple(x.shape[:pos]) + (shape[pos] * shape[pos + 1],):
            raise ValueError(f"For 'TimeDistributed', the layer must keep axis {pos} (size "
                             f"{shape[pos] * shape[pos + 1]}), but its output has shape {tuple(y.shape)}.")
        out = tuple(y.shape[:pos]) + shape[pos:pos + 2] + tuple(y.shape[pos + 1:])
        return ops.reshape(y, (-1,) + out[1:])


def _activation(cls, activation, alpha):
    if activation == "leakyrelu":
        return LeakyReLU(alpha)
    act = get_activation(activation) if isinstance(activation, str) else activation
    if activation is not None and not callable(act):
        raise TypeError(f"For '{cls}', the 'activation' must be str or Cell or Primitive, but got "
                        f"{type(activation).__name__}.")
    return act


class Conv2dBnAct(Cell):
    """``Conv2d`` (Parameters ``conv.*``), then optional ``BatchNorm2d`` (``batchnorm.*``) and activation."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: int | tuple[int, ...],
                 stride: int | tuple[int, ...] = 1, pad_mode: str = "same", padding: int | tuple[int, ...] = 0,
                 dilation: int | tuple[int, ...] = 1, group: int = 1, has_bias: bool = False,
                 weight_init: str | float | Tensor | Initializer = "normal",
                 bias_init: str | float | Tensor | Initializer = "zeros", has_bn: bool = False, momentum: float = 0.997,
                 eps: float = 1e-5, activation: str | Cell | Callable[..., Tensor] | None = None, alpha: float = 0.2,
                 after_fake: bool = True) -> None:
        super().__init__()
        self.conv = Conv2d(in_channels, out_channels, kernel_size=kernel_size, stride=stride, pad_mode=pad_mode,
                           padding=padding, dilation=dilation, group=group, has_bias=has_bias,
                           weight_init=weight_init, bias_init=bias_init)
        self.has_bn, self.has_act, self.after_fake = bool(has_bn), activation is not None, bool(after_fake)
        if has_bn:
            self.batchnorm = BatchNorm2d(out_channels, eps, momentum)
        self.activation = _activation("Conv2dBnAct", activation, alpha)

    def construct(self, x: Tensor) -> Tensor:
        x = self.conv(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class DenseBnAct(Cell):
    """``Dense`` (Parameters ``dense.*``), then optional ``BatchNorm1d`` (``batchnorm.*``) and activation."""

    def __init__(self, in_channels: int, out_channels: int, weight_init: str | float | Tensor | Initializer = "normal",
                 bias_init: str | float | Tensor | Initializer = "zeros", has_bias: bool = True, has_bn: bool = False,
                 momentum: float = 0.9, eps: float = 1e-5, activation: str | Cell | Callable[..., Tensor] | None = None,
                 alpha: float = 0.2, after_fake: bool = True) -> None:
        super().__init__()
        self.dense = Dense(in_channels, out_channels, weight_init, bias_init, has_bias)
        self.has_bn, self.has_act, self.after_fake = bool(has_bn), activation is not None, bool(after_fake)
        if has_bn:
            self.batchnorm = BatchNorm1d(out_channels, eps, momentum)
        self.activation = _activation("DenseBnAct", activation, alpha)

    def construct(self, x: Tensor) -> Tensor:
        x = self.dense(x)
        if self.has_bn:
            x = self.batchnorm(x)
        return self.activation(x) if self.has_act else x


class Jvp(Cell):
    """``Jvp(fn)(*inputs, v)`` -> ``(fn(*inputs), J v)``, the Jacobian-vector product (``v`` one tangent per
    input, a tuple when there are several)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        self.fn = fn

    def construct(self, *args: Any) -> tuple[Any, Any]:
        inputs, v = args[:-1], args[-1]
        return ops.jvp(self.fn, inputs[0] if len(inputs) == 1 else tuple(inputs), v)


class Vjp(Cell):
    """``Vjp(fn)(*inputs, v)`` -> ``(fn(*inputs), v^T J)``: the gradient w.r.t. the input (a tuple, one per input,
    when there are several) with ``v`` as the output's sensitivity."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        super().__init__()
        self.fn = fn

    def construct(self, *args: Any) -> tuple[Any, Any]:
        inputs, v = args[:-1], args[-1]
        out, vjp_fn = ops.vjp(self.fn, *inputs)
        grads = vjp_fn(v)
        grads = tuple(grads) if isinstance(grads, (tuple, list)) else (grads,)
        return out, grads[0] if len(inputs) == 1 else grads
