"""Scenarios for ``saved_tensors_hooks`` / ``register_saved_tensors_hooks`` / ``DeviceCtx``, run the same way by the
oracle recorder (``tools/oracle/record_toplevel_hooks.py``, with real MindSpore as ``ms``) and by
``tests/test_toplevel_hooks.py`` (with mindspore_hl as ``ms``). Only NumPy is imported here.

Each scenario takes the framework module and returns ``(outputs, meta)``: NumPy arrays (gradients) and JSON-able
facts (how many times the hooks ran, the device in use, the error raised).
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

X = np.array([1.0, 2.0], np.float32)
Y = np.array([3.0, 4.0], np.float32)


def _np(values: Any) -> list[np.ndarray]:
    return [v.asnumpy() for v in (values if isinstance(values, (tuple, list)) else [values])]


def _offload(ms: Any, log: list[str], tag: str = "") -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Hooks that keep each saved tensor on the host as a NumPy array (values unchanged)."""
    def pack(t: Any) -> Any:
        log.append(tag + "pack")
        return t.asnumpy()

    def unpack(a: Any) -> Any:
        log.append(tag + "unpack")
        return ms.Tensor(a)
    return pack, unpack


def _plus_one(log: list[str]) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """MindSpore's docstring hooks: the saved value is changed (+1), so the gradient shows which tensors were saved."""
    def pack(t: Any) -> Any:
        log.append("pack")
        return t + 1

    def unpack(t: Any) -> Any:
        log.append("unpack")
        return t
    return pack, unpack


def _grad_with(ms: Any, hooks: tuple[Any, Any], fn: Callable[..., Any], *args: Any) -> Any:
    with ms.saved_tensors_hooks(*hooks):
        return ms.grad(fn, (0, 1) if len(args) == 2 else 0)(*args)


def mul_offload(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    log: list[str] = []
    g = _grad_with(ms, _offload(ms, log), lambda x, y: x * y, ms.Tensor(X), ms.Tensor(Y))
    return _np(g), {"n_pack": log.count("pack"), "n_unpack": log.count("unpack")}


def sin_mul_offload(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    log: list[str] = []
    g = _grad_with(ms, _offload(ms, log), lambda x, y: ms.ops.sin(x) * y, ms.Tensor(X), ms.Tensor(Y))
    return _np(g), {"n_pack": log.count("pack"), "n_unpack": log.count("unpack")}


def mul_plus_one(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    log: list[str] = []

    def f(x: Any, y: Any) -> Any:  # the hooks entered inside the differentiated function
        with ms.saved_tensors_hooks(*_plus_one(log)):
            out = x * y
        log.append("forward end")
        return out
    g = ms.grad(f, (0, 1))(ms.Tensor(X), ms.Tensor(Y))
    return _np(g), {"n_pack": log.count("pack"), "n_unpack": log.count("unpack")}


def exp_plus_one(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    log: list[str] = []
    g = _grad_with(ms, _plus_one(log), ms.ops.exp, ms.Tensor(X))
    return _np(g), {"n_pack": log.count("pack"), "n_unpack": log.count("unpack")}


def dense_offload(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    """A Dense layer's weight gradients and the input gradient with offloaded saved tensors."""
    log: list[str] = []
    net = ms.nn.Dense(3, 2, weight_init=ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 6),
                      bias_init=ms.Tensor(np.array([0.5, -0.5], np.float32)), activation="tanh")
    x = ms.Tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    with ms.saved_tensors_hooks(*_offload(ms, log)):
        value, (gx, gw) = ms.value_and_grad(lambda a: (net(a) ** 2).sum(), 0, net.trainable_params())(x)
    return _np(value) + _np(gx) + _np(gw), {"pack_called": log.count("pack") > 0,
                                            "balanced": log.count("pack") == log.count("unpack")}


def vjp_offload(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    log: list[str] = []
    with ms.saved_tensors_hooks(*_offload(ms, log)):
        out, vjp_fn = ms.vjp(lambda x, y: ms.ops.sin(x) * y, ms.Tensor(X), ms.Tensor(Y))
    packed = log.count("pack")
    grads = vjp_fn(ms.Tensor(np.array([1.0, -2.0], np.float32)))
    return _np(out) + _np(grads), {"packed_before_backward": packed > 0,
                                   "n_unpack_equals_n_pack": log.count("unpack") == packed}


def forward_only(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    """No gradient is taken: nothing is saved, the hooks never run."""
    log: list[str] = []
    with ms.saved_tensors_hooks(*_offload(ms, log)):
        out = ms.ops.sin(ms.Tensor(X)) * ms.Tensor(Y)
    return _np(out), {"n_calls": len(log)}


def nesting_restores(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    """An inner pair entered and left before the gradient: the outer pair is back in force; after both, none."""
    log: list[str] = []
    f = lambda x, y: x * y  # noqa: E731
    with ms.saved_tensors_hooks(*_offload(ms, log, "A")):
        with ms.saved_tensors_hooks(*_offload(ms, log, "B")):
            pass
        g = ms.grad(f, (0, 1))(ms.Tensor(X), ms.Tensor(Y))
    after = ms.grad(f, (0, 1))(ms.Tensor(X), ms.Tensor(Y))
    return _np(g) + _np(after), {"tags": sorted(set(log))}


def decorator_pynative(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    """``register_saved_tensors_hooks`` has no effect in PYNATIVE."""
    log: list[str] = []

    @ms.register_saved_tensors_hooks(*_plus_one(log))
    def f(x: Any, y: Any) -> Any:
        return x * y
    return _np(ms.grad(f, (0, 1))(ms.Tensor(X), ms.Tensor(Y))), {"n_calls": len(log)}


def decorator_jit(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    """Under ``jit`` the decorator's hooks apply: the gradient uses the packed (+1) tensors."""
    def pack(t: Any) -> Any:
        return t + 1

    def unpack(t: Any) -> Any:
        return t

    @ms.register_saved_tensors_hooks(pack, unpack)
    def f(x: Any, y: Any) -> Any:
        return x * y
    return _np(ms.jit(ms.grad(f, (0, 1)))(ms.Tensor(X), ms.Tensor(Y))), {}


def context_outside_jit(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    """``saved_tensors_hooks`` does not reach into a ``jit`` function."""
    log: list[str] = []

    def f(x: Any, y: Any) -> Any:
        return x * y
    with ms.saved_tensors_hooks(*_plus_one(log)):
        g = ms.jit(ms.grad(f, (0, 1)))(ms.Tensor(X), ms.Tensor(Y))
    return _np(g), {"n_calls": len(log)}


def _raises(fn: Callable[[], Any]) -> dict[str, Any]:
    try:
        fn()
    except Exception as e:  # noqa: BLE001  (the error type is the result)
        return {"error": type(e).__name__}
    return {"error": None}


def hook_errors(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    f = lambda x, y: x * y  # noqa: E731
    x, y = ms.Tensor(X), ms.Tensor(Y)

    def boom(t: Any) -> Any:
        raise ValueError("pack failed")
    wrong_shape = (lambda t: t.asnumpy(), lambda a: ms.Tensor(np.zeros(3, np.float32)))
    return [], {"not_callable": _raises(lambda: _grad_with(ms, (1, 2), f, x, y))["error"],
                "pack_raises": _raises(lambda: _grad_with(ms, (boom, lambda t: t), f, x, y))["error"],
                "unpack_wrong_shape": _raises(lambda: _grad_with(ms, wrong_shape, f, x, y))["error"]}


def device_ctx(ms: Any) -> tuple[list[np.ndarray], dict[str, Any]]:
    """The device in use inside, in a nested block, after an exception, and the argument errors."""
    seen: dict[str, Any] = {"before": list(ms.get_current_device())}
    with ms.DeviceCtx("CPU") as ctx:
        seen["inside"] = list(ms.get_current_device())
        seen["device_id"] = ctx.device_id
        seen["target"] = ms.get_context("device_target")
        with ms.DeviceCtx("CPU", 0):
            seen["nested"] = list(ms.get_current_device())
        seen["value"] = float((ms.Tensor(X) + ms.Tensor(Y)).sum().asnumpy())
    try:
        with ms.DeviceCtx("CPU"):
            raise KeyError("inside")
    except KeyError:
        seen["after_error"] = list(ms.get_current_device())
    seen["after"] = list(ms.get_current_device())
    for key, args in (("lower_case", ("cpu",)), ("negative_id", ("CPU", -1)), ("str_id", ("CPU", "0"))):
        def enter(args: tuple[Any, ...] = args) -> None:
            with ms.DeviceCtx(*args):
                pass
        seen[key] = _raises(enter)["error"]
    seen["has_call"] = callable(ms.DeviceCtx("CPU"))
    return [], seen


SCENARIOS: dict[str, Callable[[Any], tuple[list[np.ndarray], dict[str, Any]]]] = {
    f.__name__: f for f in (mul_offload, sin_mul_offload, mul_plus_one, exp_plus_one, dense_offload, vjp_offload,
                            forward_only, nesting_restores, decorator_pynative, decorator_jit, context_outside_jit,
                            hook_errors, device_ctx)}
