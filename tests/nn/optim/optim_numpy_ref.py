"""Plain-NumPy (float32) implementations of MindSpore's optimizer kernels: the independent truth for the tests.

Written from MindSpore's kernel sources (CPU ApplyMomentum / SGD / Adam / ApplyAdamWithAmsgrad / AdamWeightDecay /
ApplyRMSProp / ApplyCenteredRMSProp / ApplyAdagrad, the GPU Lamb kernel) and ``nn/optim/*.py``, one parameter at a
time. Every function takes the parameter's initial value and a list of (gradient, learning rate) per step and
returns ``(final param, state dict)``.
"""
import numpy as np

F = np.float32


def _decay_and_scale(p, g, wd, loss_scale, decays):
    """Optimizer.decay_weight (weight decay scaled by loss_scale) then scale_grad (divide by loss_scale)."""
    if decays and wd > 0:
        g = g + p * F(wd * loss_scale)
    if loss_scale != 1.0:
        g = g * F(1.0 / loss_scale)
    return g


def momentum(p, steps, mom, wd=0.0, loss_scale=1.0, nesterov=False, decays=True, moments=None):
    p = p.astype(F).copy()
    m = np.zeros_like(p) if moments is None else moments.astype(F).copy()
    for g, lr in steps:
        g = _decay_and_scale(p, g.astype(F), wd, loss_scale, decays)
        m = m * F(mom) + g
        p = p - (g * F(lr) + m * F(mom) * F(lr) if nesterov else m * F(lr))
    return p, {"moments": m}


def sgd(p, steps, mom=0.0, dampening=0.0, wd=0.0, nesterov=False, loss_scale=1.0):
    p = p.astype(F).copy()
    acc, stat = np.zeros_like(p), np.ones_like(p)
    for g, lr in steps:
        g = g.astype(F)
        if loss_scale != 1.0:
            g = g * F(1.0 / loss_scale)
        if wd > 0:
            g = g + p * F(wd)  # the SGD kernel's own weight decay, not loss-scaled
        if mom > 0:
            acc = np.where(stat > 0, g, acc * F(mom) + F(1 - dampening) * g)
            stat = np.zeros_like(stat)
            g = g + acc * F(mom) if nesterov else acc
        p = p - F(lr) * g
    return p, {"accum": acc, "stat": stat}


def adam(p, steps, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, loss_scale=1.0, nesterov=False, amsgrad=False,
         decays=True):
    p = p.astype(F).copy()
    m, v, vhat = np.zeros_like(p), np.zeros_like(p), np.zeros_like(p)
    b1p = b2p = F(1)
    for g, lr in steps:
        g = _decay_and_scale(p, g.astype(F), wd, loss_scale, decays)
        b1p, b2p = b1p * F(b1), b2p * F(b2)
        lr_t = F(lr) * np.sqrt(F(1) - b2p) / (F(1) - b1p)
        m = m + (g - m) * F(1 - b1)
        v = v + (g * g - v) * F(1 - b2)
        if amsgrad:
            vhat = np.maximum(vhat, v)
            p = p - lr_t * m / (np.sqrt(vhat) + F(eps))
        elif nesterov:
            p = p - lr_t * (m * F(b1) + F(1 - b1) * g) / (np.sqrt(v) + F(eps))
        else:
            p = p - lr_t * m / (np.sqrt(v) + F(eps))
    return p, {"moment1": m, "moment2": v, "vhat": vhat, "beta1_power": b1p, "beta2_power": b2p}


def adam_weight_decay(p, steps, b1=0.9, b2=0.999, eps=1e-6, wd=0.0, decays=True):
    p = p.astype(F).copy()
    m, v = np.zeros_like(p), np.zeros_like(p)
    for g, lr in steps:
        g = g.astype(F)
        m = F(b1) * m + F(1 - b1) * g
        v = F(b2) * v + F(1 - b2) * g * g
        update = m / (F(eps) + np.sqrt(v))
        if decays:
            update = update + F(wd) * p
        p = p - F(lr) * update
    return p, {"adam_m": m, "adam_v": v}


def adamw(p, steps, b1=0.9, b2=0.999, eps=1e-8, wd=1e-2, amsgrad=False, maximize=False, decays=True):
    """mindspore.mint.optim.AdamW's formula (torch's AdamW)."""
    p = p.astype(F).copy()
    m, v, vmax = np.zeros_like(p), np.zeros_like(p), np.zeros_like(p)
    for t, (g, lr) in enumerate(steps, start=1):
        g = -g.astype(F) if maximize else g.astype(F)
        if decays:
            p = p * F(1 - lr * wd)
        m = m * F(b1) + g * F(1 - b1)
        v = v * F(b2) + g * g * F(1 - b2)
        vmax = np.maximum(vmax, v)
        denom = np.sqrt(vmax if amsgrad else v) / np.sqrt(F(1 - b2 ** t)) + F(eps)
        p = p - m / denom * F(lr / (1 - b1 ** t))
    return p, {"exp_avg": m, "exp_avg_sq": v, "max_exp_avg_sq": vmax}


def lamb(p, steps, b1=0.9, b2=0.999, eps=1e-6, wd=0.0, decays=True):
    p = p.astype(F).copy()
    m, v = np.zeros_like(p), np.zeros_like(p)
    for t, (g, lr) in enumerate(steps, start=1):
        g = g.astype(F)
        m = F(b1) * m + F(1 - b1) * g
        v = F(b2) * v + F(1 - b2) * g * g
        mm, vv = m / F(1 - b1 ** t), v / F(1 - b2 ** t)
        update = mm / (np.sqrt(vv) + F(eps)) + (F(wd) * p if decays else 0)
        w_norm, u_norm = np.linalg.norm(p), np.linalg.norm(update)
        ratio = w_norm / u_norm if w_norm > 0 and u_norm > 0 else F(1)
        p = p - F(ratio) * F(lr) * update
    return p, {"lamb_m": m, "lamb_v": v}


def rmsprop(p, steps, decay=0.9, mom=0.0, eps=1e-10, centered=False, wd=0.0, loss_scale=1.0, decays=True):
    p = p.astype(F).copy()
    ms, moment, mg = np.ones_like(p), np.zeros_like(p), np.zeros_like(p)
    for g, lr in steps:
        g = _decay_and_scale(p, g.astype(F), wd, loss_scale, decays)
        ms = ms + (g * g - ms) * F(1 - decay)
        if centered:
            mg = mg + (g - mg) * F(1 - decay)
            denom = ms - mg * mg + F(eps)
            ok = denom > 0
            new_mom = moment * F(mom) + g * F(lr) / np.sqrt(np.where(ok, denom, 1))
            moment = np.where(ok, new_mom, moment)
            p = np.where(ok, p - moment, p)
        else:
            moment = moment * F(mom) + g * F(lr) / np.sqrt(ms + F(eps))
            p = p - moment
    return p, {"mean_square": ms, "moment": moment, "mean_grad": mg}


def adagrad(p, steps, accum=0.1, update_slots=True, wd=0.0, loss_scale=1.0, decays=True):
    p = p.astype(F).copy()
    acc = np.full_like(p, accum)
    for g, lr in steps:
        g = _decay_and_scale(p, g.astype(F), wd, loss_scale, decays)
        if update_slots:
            acc = acc + g * g
        p = p - F(lr) * g / np.sqrt(acc + F(1e-6))
    return p, {"accum": acc}
