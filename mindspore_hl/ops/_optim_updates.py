"""MindSpore's optimizer-update Primitives (``ApplyMomentum``, ``Adam``, ``ApplyFtrl`` ...).

Each takes its state as Parameters (``var``, accumulators) and its hyper-parameters as Tensors or numbers, writes
the new state into the Parameters (``_set_value``: recorded in the active scope inside a compiled step, at once
eagerly) and returns what MindSpore returns: the updated ``var`` alone, or ``(var, accum, ...)``.

>>> import numpy as np, mindspore_hl as ms
>>> var = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="var")
>>> ms.ops.ApplyGradientDescent()(var, 0.5, ms.Tensor(np.ones(2, np.float32)))
Tensor(shape=[2], dtype=Float32, value= [ 5.00000000e-01,  5.00000000e-01])
"""

from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp

from ..common.tensor import Tensor, describe, wrap
from ._core import OpTypeError, check, unwrap
from ._primitives import Primitive, primitive_class

_E = inspect.Parameter.empty


def _sqrt(x):
    return jnp.sqrt(x)


def _gd(a, var, alpha, delta):
    return (var - alpha * delta,)


def _momentum(a, var, accum, lr, grad, momentum):
    accum = accum * momentum + grad * a["gradient_scale"]
    var = var - (grad * lr + accum * momentum * lr if a["use_nesterov"] else accum * lr)
    return var, accum


def _adagrad(a, var, accum, lr, grad):
    if a["update_slots"]:
        accum = accum + grad * grad
    return var - lr * grad / _sqrt(accum), accum


def _adagrad_v2(a, var, accum, lr, grad):
    if a["update_slots"]:
        accum = accum + grad * grad
    return var - lr * grad / (_sqrt(accum) + a["epsilon"]), accum


def _adamax(a, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    m = beta1 * m + (1 - beta1) * grad
    v = jnp.maximum(beta2 * v, jnp.abs(grad))
    return var - lr / (1 - beta1_power) * m / (v + epsilon), m, v


def _adadelta(a, var, accum, accum_update, lr, rho, epsilon, grad):
    accum = rho * accum + (1 - rho) * grad * grad
    update = _sqrt(accum_update + epsilon) / _sqrt(accum + epsilon) * grad
    accum_update = rho * accum_update + (1 - rho) * update * update
    return var - lr * update, accum, accum_update


def _add_sign(a, var, m, lr, alpha, sign_decay, beta, grad):
    m = beta * m + (1 - beta) * grad
    return var - lr * (alpha + sign_decay * jnp.sign(grad) * jnp.sign(m)) * grad, m


def _power_sign(a, var, m, lr, logbase, sign_decay, beta, grad):
    m = beta * m + (1 - beta) * grad
    return var - lr * jnp.exp(logbase * sign_decay * jnp.sign(grad) * jnp.sign(m)) * grad, m


def _shrink(prox, step, l1, l2):
    return jnp.sign(prox) / (1 + step * l2) * jnp.maximum(jnp.abs(prox) - step * l1, 0)


def _proximal_gd(a, var, alpha, l1, l2, delta):
    return (_shrink(var - alpha * delta, alpha, l1, l2),)


def _proximal_adagrad(a, var, accum, lr, l1, l2, grad):
    accum = accum + grad * grad
    step = lr / _sqrt(accum)
    return _shrink(var - step * grad, step, l1, l2), accum


def _rmsprop(a, var, mean_square, moment, lr, grad, decay, momentum, epsilon):
    mean_square = decay * mean_square + (1 - decay) * grad * grad
    moment = momentum * moment + lr * grad / _sqrt(mean_square + epsilon)
    return var - moment, mean_square, moment


def _centered_rmsprop(a, var, mean_grad, mean_square, moment, grad, lr, decay, momentum, epsilon):
    mean_grad = decay * mean_grad + (1 - decay) * grad
    mean_square = decay * mean_square + (1 - decay) * grad * grad
    moment = momentum * moment + lr * grad / _sqrt(mean_square - mean_grad * mean_grad + epsilon)
    return var - moment, mean_grad, mean_square, moment


def _ftrl(a, var, accum, linear, grad, lr, l1, l2, lr_power):
    new_accum = accum + grad * grad
    linear = linear + grad - (new_accum ** -lr_power - accum ** -lr_power) / lr * var
    quadratic = new_accum ** -lr_power / lr + 2 * l2
    var = jnp.where(jnp.abs(linear) > l1, (jnp.sign(linear) * l1 - linear) / quadratic, 0).astype(var.dtype)
    return var, new_accum, linear


def _keras_momentum(a, var, accum, lr, grad, momentum):
    accum = accum * momentum - lr * grad
    return var + (accum * momentum - lr * grad if a["use_nesterov"] else accum), accum


def _adagrad_da(a, var, g_acc, gs_acc, grad, lr, l1, l2, global_step):
    g_acc = g_acc + grad
    gs_acc = gs_acc + grad * grad
    step = global_step.astype(var.dtype)
    tmp = jnp.where(l1 > 0, jnp.sign(g_acc) * jnp.maximum(jnp.abs(g_acc) - l1 * step, 0), g_acc)
    return -tmp * lr / (l2 * step * lr + _sqrt(gs_acc)), g_acc, gs_acc


def _amsgrad_core(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    vhat = jnp.maximum(vhat, v)
    lr_t = lr * _sqrt(1 - beta2_power) / (1 - beta1_power)
    return var - lr_t * m / (_sqrt(vhat) + epsilon), m, v, vhat


def _amsgrad(a, var, m, v, vhat, beta1_power, beta2_power, lr, grad):
    return _amsgrad_core(var, m, v, vhat, beta1_power, beta2_power, lr, a["beta1"], a["beta2"], a["epsilon"], grad)


def _amsgrad_v2(a, var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    return _amsgrad_core(var, m, v, vhat, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)


def _adam_step(a, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    m = m + (grad - m) * (1 - beta1)
    v = v + (grad * grad - v) * (1 - beta2)
    lr_t = lr * _sqrt(1 - beta2_power) / (1 - beta1_power)
    num = m * beta1 + (1 - beta1) * grad if a.get("use_nesterov") else m
    return lr_t * num / (_sqrt(v) + epsilon), m, v


def _adam(a, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    step, m, v = _adam_step(a, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)
    return var - step, m, v


def _adam_no_update(a, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    step, m, v = _adam_step(a, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)
    return -step, m, v


def _adam_weight_decay(a, var, m, v, lr, beta1, beta2, epsilon, decay, grad):
    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad * grad
    return var - lr * (m / (_sqrt(v) + epsilon) + decay * var), m, v


def _sgd(a, param, grad, lr, accum, momentum, stat):
    if a["weight_decay"] != 0:
        grad = grad + a["weight_decay"] * param
    first = stat > 0  # MindSpore's ``stat`` marks the first step: the buffer starts as the gradient itself
    accum = jnp.where(first, grad, momentum * accum + (1 - a["dampening"]) * grad)
    accum = jnp.where(momentum > 0, accum, grad)
    step = grad + momentum * accum if a["nesterov"] else accum
    return param - lr * step, accum, jnp.where(first, jnp.zeros_like(stat), stat)


def _check_sgd(a):
    check(not (a["nesterov"] and a["dampening"] != 0), "SGD",
          f"the 'dampening' must be 0 when 'nesterov' is True, but got 'dampening' is {a['dampening']} "
          f"and 'nesterov' is True.")


# (name, constructor arguments with defaults, input names, positions written back, outputs (positions in the new
# state tuple, which lists var first), fn, extra constructor check)
_SPECS = [
    ("ApplyGradientDescent", (), "var alpha delta", (0,), (0,), _gd),
    ("ApplyMomentum", (("use_nesterov", False), ("use_locking", False), ("gradient_scale", 1.0)),
     "variable accumulation learning_rate gradient momentum", (0, 1), (0,), _momentum),
    ("ApplyAdagrad", (("update_slots", True),), "var accum lr grad", (0, 1), (0, 1), _adagrad),
    ("ApplyAdagradV2", (("epsilon", _E), ("update_slots", True)), "var accum lr grad", (0, 1), (0, 1), _adagrad_v2),
    ("ApplyAdaMax", (), "var m v beta1_power lr beta1 beta2 epsilon grad", (0, 1, 2), (0, 1, 2), _adamax),
    ("ApplyAdadelta", (), "var accum accum_update lr rho epsilon grad", (0, 1, 2), (0, 1, 2), _adadelta),
    ("ApplyAddSign", (), "var m lr alpha sign_decay beta grad", (0, 1), (0, 1), _add_sign),
    ("ApplyPowerSign", (), "var m lr logbase sign_decay beta grad", (0, 1), (0, 1), _power_sign),
    ("ApplyProximalGradientDescent", (), "var alpha l1 l2 delta", (0,), (0,), _proximal_gd),
    ("ApplyProximalAdagrad", (("use_locking", False),), "var accum lr l1 l2 grad", (0, 1), (0, 1), _proximal_adagrad),
    ("ApplyRMSProp", (("use_locking", False),), "var mean_square moment learning_rate grad decay momentum epsilon",
     (0, 1, 2), (0,), _rmsprop),
    ("ApplyCenteredRMSProp", (("use_locking", False),),
     "var mean_gradient mean_square moment grad learning_rate decay momentum epsilon", (0, 1, 2, 3), (0,),
     _centered_rmsprop),
    ("ApplyFtrl", (("use_locking", False),), "var accum linear grad lr l1 l2 lr_power", (0, 1, 2), (0,), _ftrl),
    ("ApplyKerasMomentum", (("use_locking", False), ("use_nesterov", False)), "var accum lr grad momentum",
     (0, 1), (0, 1), _keras_momentum),
    ("ApplyAdagradDA", (("use_locking", False),),
     "var gradient_accumulator gradient_squared_accumulator grad lr l1 l2 global_step", (0, 1, 2), (0,), _adagrad_da),
    ("ApplyAdamWithAmsgrad", (("beta1", 0.9), ("beta2", 0.999), ("epsilon", 1e-8), ("use_locking", False)),
     "var m v vhat beta1_power beta2_power lr grad", (0, 1, 2, 3), (0, 1, 2, 3), _amsgrad),
    ("ApplyAdamWithAmsgradV2", (("use_locking", False),),
     "var m v vhat beta1_power beta2_power lr beta1 beta2 epsilon grad", (0, 1, 2, 3), (0, 1, 2, 3), _amsgrad_v2),
    ("Adam", (("use_locking", False), ("use_nesterov", False)),
     "var m v beta1_power beta2_power lr beta1 beta2 epsilon gradient", (0, 1, 2), (0, 1, 2), _adam),
    ("AdamNoUpdateParam", (("use_locking", False), ("use_nesterov", False)),
     "m v beta1_power beta2_power lr beta1 beta2 epsilon gradient", (None, 0, 1), (0,), _adam_no_update),
    ("AdamWeightDecay", (("use_locking", False),), "var m v lr beta1 beta2 epsilon decay gradient", (0, 1, 2),
     (0, 1, 2), _adam_weight_decay),
    ("SGD", (("dampening", 0.0), ("weight_decay", 0.0), ("nesterov", False)),
     "parameters gradient learning_rate accum momentum stat", (0, 3, 5), (0,), _sgd),
]
_CHECKS = {"SGD": _check_sgd}


def _float(name, key, x):
    arr = unwrap(x)
    if isinstance(arr, (bool, str)) or arr is None:
        raise OpTypeError(f"For '{name}', '{key}' must be a Tensor or a number, but got {type(x).__name__}.")
    return jnp.asarray(arr)


def _make(name, init_args, inputs, refs, outs, fn):
    in_names = inputs.split()

    def call(self, *args):
        if len(args) != len(in_names):
            raise TypeError(f"For '{name}', expected {len(in_names)} inputs ({', '.join(in_names)}), "
                            f"but got {len(args)}.")
        arrays = [_float(name, k, x) for k, x in zip(in_names, args)]
        var = arrays[[r for r in refs if r is not None][0]]
        check(jnp.issubdtype(var.dtype, jnp.floating), name,
              f"the state must be a floating Tensor, but got {describe(args[0])}.", kind=TypeError)
        for r in refs:
            if r is not None:
                check(arrays[r].shape == var.shape, name, f"'{in_names[r]}' must have the shape {list(var.shape)} "
                      f"of '{in_names[refs[0] or 0]}', but got {list(arrays[r].shape)}.")
        # hyper-parameters compute in the state's dtype, as MindSpore casts them
        arrays = [x.astype(var.dtype) if jnp.issubdtype(x.dtype, jnp.floating) else x for x in arrays]
        new = fn(self.attrs, *arrays)
        for slot, pos in enumerate(refs):
            value = new[slot].astype(var.dtype)
            if pos is not None and isinstance(args[pos], Tensor):
                args[pos]._set_value(value)
        results = [wrap(new[i].astype(var.dtype)) for i in outs]
        return results[0] if len(results) == 1 else tuple(results)

    doc = (f"``ops.{name}({', '.join(k for k, _ in init_args)})({', '.join(in_names)})``: updates the Parameters "
           f"{', '.join(in_names[r] for r in refs if r is not None)} in place.")
    check_attrs = _CHECKS.get(name)
    return primitive_class(name, init_args, call, doc, __name__,
                           on_init=None if check_attrs is None else lambda prim: check_attrs(prim.attrs))


for _spec in _SPECS:
    globals()[_spec[0]] = _make(*_spec)


class LARSUpdate(Primitive):
    """``LARSUpdate(epsilon=1e-05, hyperpara=0.001, use_clip=False)(weight, gradient, norm_weight, norm_gradient,
    weight_decay, learning_rate)``: the LARS gradient ``trust * (gradient + weight_decay * weight)`` with
    ``trust = hyperpara * |w| / (|g| + weight_decay * |w| + epsilon)`` from the sums of squares ``norm_weight`` and
    ``norm_gradient`` (1 where a norm is 0; with ``use_clip``: ``min(trust / learning_rate, 1)``), as ``nn.LARS``
    documents it. Updates nothing in place."""

    def __init__(self, epsilon: float = 1e-05, hyperpara: float = 0.001, use_clip: bool = False) -> None:
        super().__init__("LARSUpdate")
        for key, value in (("epsilon", epsilon), ("hyperpara", hyperpara)):
            if not isinstance(value, float):
                raise TypeError(f"For 'LARSUpdate', '{key}' must be a float, but got {type(value).__name__}.")
        if not isinstance(use_clip, bool):
            raise TypeError(f"For 'LARSUpdate', 'use_clip' must be a bool, but got {type(use_clip).__name__}.")
        self.epsilon, self.hyperpara, self.use_clip = epsilon, hyperpara, use_clip
        for key in ("epsilon", "hyperpara", "use_clip"):
            self.add_prim_attr(key, getattr(self, key))

    def __call__(self, weight: Tensor, gradient: Tensor, norm_weight: Tensor, norm_gradient: Tensor,
                 weight_decay: Tensor, learning_rate: Tensor) -> Tensor:
        names = "weight gradient norm_weight norm_gradient weight_decay learning_rate".split()
        w, g, nw, ng, wd, lr = (_float("LARSUpdate", k, x) for k, x in zip(names, (
            weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate)))
        check(w.shape == g.shape, "LARSUpdate", f"'gradient' must have the shape {list(w.shape)} of 'weight', "
              f"but got {list(g.shape)}.", kind=TypeError)
        return wrap(lars_gradient(w, g, jnp.sqrt(nw.astype(jnp.float32)), jnp.sqrt(ng.astype(jnp.float32)), wd, lr,
                                  self.hyperpara, self.epsilon, self.use_clip))


def lars_gradient(w: jax.Array, g: jax.Array, w_norm: jax.Array, g_norm: jax.Array, weight_decay: jax.Array | float,
                  learning_rate: jax.Array | float, coefficient: float, epsilon: float, use_clip: bool) -> jax.Array:
    """LARS's scaled gradient ``trust * (g + weight_decay * w)`` from the norms of ``w`` and ``g`` (the one
    implementation behind ``LARSUpdate`` and ``nn.LARS``)."""
    trust = coefficient * w_norm / (g_norm + weight_decay * w_norm + epsilon)
    trust = jnp.where((w_norm > 0) & (g_norm > 0), trust, 1.0)
    if use_clip:
        trust = jnp.minimum(trust / learning_rate, 1.0)
    return (trust * (g + weight_decay * w)).astype(g.dtype)


__all__ = [s[0] for s in _SPECS] + ["LARSUpdate"]
