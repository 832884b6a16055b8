"""Run a corpus case on mindspore_hl three ways: the original code eagerly (PYNATIVE), and the converted code
(``mindspore_hl._syntax.convert``) traced under ``jax.jit`` with its Parameters as stateless-scope state --
values, Parameter values after the call, and gradients (``ones`` sensitivity on every float output, as
``ms.grad`` uses) with respect to the float inputs and a Cell's trainable Parameters."""
import jax
import jax.numpy as jnp
import numpy as np
from control_flow_loader import flat, float_positions

import mindspore_hl as ms
from mindspore_hl._syntax import convert
from mindspore_hl.common import _scope
from mindspore_hl.common.tensor import wrap


def _prepare(factory):
    obj = factory()
    is_cell = isinstance(obj, ms.nn.Cell)
    fn = obj.construct if is_cell else obj
    params = list(obj.get_parameters()) if is_cell else []
    return obj, fn, params


def eager(factory, inputs):
    """(values, Parameter values after, gradients) of the original code in PYNATIVE_MODE."""
    obj, _, params = _prepare(factory)
    args = [ms.Tensor(v) for v in inputs.values()]
    values = flat(obj(*args))
    after = [p.asnumpy() for p in params]
    obj, _, params = _prepare(factory)
    weights = [p for p in params if p.requires_grad] or None
    grads = flat(ms.grad(obj, grad_position=float_positions(inputs), weights=weights)(*args))
    return values, after, grads


def _pure(fn, params, n_args):
    def run(param_values, arg_values):
        with _scope.StatelessScope(params, param_values, rng=jax.random.PRNGKey(0)) as scope:
            out = fn(*[wrap(a) for a in arg_values])
            new = [scope.values[id(p)] for p in params]
        return [jnp.asarray(a) for a in flat_arrays(out)], new
    return run


def flat_arrays(value):
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flat_arrays(v)]
    return [value._value if isinstance(value, ms.Tensor) else jnp.asarray(value)]


def converted(factory, inputs, grad=True):
    """(values, Parameter values after, gradients or None) of the converted code, in one jax.jit."""
    _, fn, params = _prepare(factory)
    run = _pure(convert(fn), params, len(inputs))
    arg_values = [jnp.asarray(v) for v in inputs.values()]
    pvals = [p._value for p in params]
    if not grad:
        outs, new = jax.jit(run)(pvals, arg_values)
        return [np.asarray(o) for o in outs], [np.asarray(v) for v in new], None
    positions = float_positions(inputs)
    trainable = [i for i, p in enumerate(params) if p.requires_grad]

    def loss(diff_args, diff_params, all_args, all_params):
        # Every input is an argument of the jitted function (traced), as in a compiled step.
        args, pv = list(all_args), list(all_params)
        for i, v in zip(positions, diff_args):
            args[i] = v
        for i, v in zip(trainable, diff_params):
            pv[i] = v
        outs, new = run(pv, args)
        return sum(jnp.sum(o) for o in outs if jnp.issubdtype(o.dtype, jnp.floating)), (outs, new)

    step = jax.jit(jax.value_and_grad(loss, argnums=(0, 1), has_aux=True))
    (_, (outs, new)), (g_args, g_params) = step([arg_values[i] for i in positions], [pvals[i] for i in trainable],
                                                arg_values, pvals)
    grads = [np.asarray(g) for g in list(g_args) + list(g_params)]
    return [np.asarray(o) for o in outs], [np.asarray(v) for v in new], grads
