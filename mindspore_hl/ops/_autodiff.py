"""Autodiff (``grad``, ``value_and_grad``, ``GradOperation``, ``vjp``, ``jvp``, ``jacfwd``, ``jacrev``, ``vmap``,
``differentiate``): defined in ``mindspore_hl._engine._autodiff``, the engine's one autodiff mechanism."""
from .._engine._autodiff import GradOperation, differentiate, grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap

__all__ = ["grad", "value_and_grad", "vjp", "jvp", "jacfwd", "jacrev", "vmap", "GradOperation", "differentiate"]
