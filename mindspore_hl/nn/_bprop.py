"""``Cell.bprop(self, *inputs, out, dout)`` as a ``jax.custom_vjp`` around the Cell's ``construct``."""
import jax

from ..common.tensor import Tensor, wrap


def _arr(x):
    return x._value if isinstance(x, Tensor) else x


def call_with_bprop(cell, args):
    """Run ``cell.construct(*args)`` so that its backward pass is ``cell.bprop``.

    Parameters read inside such a Cell get no gradient (as in MindSpore): only the inputs do.
    """
    tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]

    def rebuild(arrays):
        full = list(args)
        for i, a in zip(tensor_pos, arrays):
            full[i] = wrap(a)
        return full

    @jax.custom_vjp
    def f(*arrays):
        return cell.construct(*rebuild(arrays))

    def fwd(*arrays):
        out = f(*arrays)
        return out, (arrays, out)

    def bwd(res, dout):
        arrays, out = res
        grads = cell.bprop(*rebuild(arrays), out, dout)
        if not isinstance(grads, (tuple, list)):
            grads = (grads,)
        if len(grads) != len(args):
            raise ValueError(f"{type(cell).__name__}.bprop must return one gradient per input "
                             f"({len(args)}), but returned {len(grads)}.")
        return tuple(jax.numpy.asarray(_arr(grads[i]), arrays[k].dtype).reshape(arrays[k].shape)
                     for k, i in enumerate(tensor_pos))

    f.defvjp(fwd, bwd)
    return f(*[args[i]._value for i in tensor_pos])
