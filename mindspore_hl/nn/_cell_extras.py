"""The rest of ``nn.Cell``'s public methods: forward / backward hooks, ``apply``, ``recompute``, flags, buffers,
``state_dict`` / ``load_state_dict``, ``set_inputs`` and the compatibility setters of MindSpore's Ascend features.

``Cell`` inherits ``CellExtras``; ``run_hooked`` is what ``Cell._run`` calls when a Cell has hooks or is marked
for recomputation:

- forward pre-hooks ``hook(cell, inputs) -> None | new inputs`` and forward hooks
  ``hook(cell, inputs, output) -> None | new output`` run in PYNATIVE and while compiling (they are traced);
- backward hooks ``hook(cell, grad_input, grad_output) -> None | new grad_input`` and backward pre-hooks
  ``hook(cell, grad_output) -> None | new grad_output`` run inside the backward pass: identity functions with a
  custom VJP ("taps") sit on the Cell's floating-point inputs and on its output;
- ``recompute()`` wraps the construct in ``jax.checkpoint``: its activations are recomputed in the backward pass
  instead of kept.
"""
from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, cast

import jax
import jax.numpy as jnp

from .._engine._saved_tensors import register_cell_hooks
from ..common.tensor import Tensor, wrap

if TYPE_CHECKING:
    from typing import Any, Callable, Iterator

    from typing_extensions import Self

    from ..common import dtype as mstype
    from ..common.parameter import Parameter
    from .cell import Cell

__all__ = ["CellExtras", "HookHandle", "run_hooked"]

_ids = itertools.count()


class HookHandle:
    """Returned by the ``register_*hook`` methods; ``remove()`` unregisters the hook."""

    def __init__(self, table: dict[int, Any], cell: Cell | None = None) -> None:
        self._table, self._cell, self.handle_id = table, cell, next(_ids)

    def remove(self) -> None:
        self._table.pop(self.handle_id, None)
        if self._cell is not None:
            _forget_graph(self._cell)


def _forget_graph(cell):
    """GRAPH_MODE traces hooks into the compiled step: this Cell's next call compiles again. (A parent Cell's
    compiled graph keeps the hooks it was traced with: register hooks before the first call.)"""
    cell.__dict__["_compiled"] = None


def _is_float(x):
    return isinstance(x, Tensor) and jnp.issubdtype(x._value.dtype, jnp.floating)


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _tap_output(cell, stash, y):
    """Identity on ``y`` (arrays) whose backward records (and lets pre-hooks replace) the output gradient."""
    @jax.custom_vjp
    def tap(v):
        return v

    def fwd(v):
        return v, None

    def bwd(_, g):
        grads = _as_tuple(g)
        for hook in list(cell.__dict__["_hooks"]["backward_pre"].values()):
            r = hook(cell, tuple(wrap(t) for t in grads))
            if r is not None:
                grads = tuple(t._value if isinstance(t, Tensor) else jnp.asarray(t) for t in _as_tuple(r))
        stash["grad_output"] = tuple(wrap(t) for t in grads)
        return (grads if isinstance(g, tuple) else grads[0],)

    tap.defvjp(fwd, bwd)
    return tap(y)


def _tap_inputs(cell, stash, xs):
    """Identity on the tuple of floating inputs whose backward calls the backward hooks on their gradients."""
    @jax.custom_vjp
    def tap(v):
        return v

    def fwd(v):
        return v, None

    def bwd(_, g):
        grads = tuple(g)
        out = stash.get("grad_output", ())
        for hook in list(cell.__dict__["_hooks"]["backward"].values()):
            r = hook(cell, tuple(wrap(t) for t in grads), out)
            if r is not None:
                grads = tuple(t._value if isinstance(t, Tensor) else jnp.asarray(t) for t in _as_tuple(r))
        return (tuple(grads),)

    tap.defvjp(fwd, bwd)
    return tap(xs)


def run_hooked(cell: Cell, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Call ``cell._construct`` with its forward hooks, backward taps and recomputation."""
    hooks = cell.__dict__.get("_hooks") or _new_hooks()
    for hook in list(hooks["forward_pre"].values()):
        r = hook(cell, args)
        if r is not None:
            args = _as_tuple(r)
    backward = bool(hooks["backward"] or hooks["backward_pre"])
    stash: dict[Any, Any] = {}
    if hooks["backward"]:
        floats = [i for i, a in enumerate(args) if _is_float(a)]
        if floats:
            tapped = _tap_inputs(cell, stash, tuple(args[i]._value for i in floats))
            new_args = list(args)
            for i, v in zip(floats, tapped):
                new_args[i] = wrap(v)
            args = tuple(new_args)
    if cell.__dict__.get("_recompute"):
        out = _recomputed(cell, args, kwargs)
    else:
        out = cell._construct(args, kwargs)
    if backward:
        leaves, tree = jax.tree_util.tree_flatten(out, is_leaf=lambda t: isinstance(t, Tensor))
        arrays = tuple(t._value for t in leaves)
        arrays = _tap_output(cell, stash, arrays)
        out = jax.tree_util.tree_unflatten(tree, [wrap(a) for a in arrays])
    for hook in list(hooks["forward"].values()):
        r = hook(cell, args, out)
        if r is not None:
            out = r
    return out


def _recomputed(cell, args, kwargs):
    """The construct under ``jax.checkpoint`` over its Tensor arguments (Parameters are read inside)."""
    leaves, tree = jax.tree_util.tree_flatten((args, kwargs), is_leaf=lambda t: isinstance(t, Tensor))
    where = [i for i, t in enumerate(leaves) if isinstance(t, Tensor)]
    out_tree = {}

    @jax.checkpoint
    def body(*arrays):
        filled = list(leaves)
        for i, a in zip(where, arrays):
            filled[i] = wrap(a)
        a, k = jax.tree_util.tree_unflatten(tree, filled)
        out = cell._construct(a, k)
        flat, out_tree["tree"] = jax.tree_util.tree_flatten(out, is_leaf=lambda t: isinstance(t, Tensor))
        return tuple(t._value for t in flat)

    flat = body(*(leaves[i]._value for i in where))
    return jax.tree_util.tree_unflatten(out_tree["tree"], [wrap(a) for a in flat])


def _new_hooks():
    return {"forward_pre": OrderedDict(), "forward": OrderedDict(), "backward": OrderedDict(),
            "backward_pre": OrderedDict()}


class CellExtras:
    """Mixin of ``nn.Cell``: the methods below need only the Cell's registries (``_params``, ``_cells``)."""

    IGNORE_LIST = ["_scope", "_cell_init_args", "_auto_prefix", "_cells", "_params", "_create_time",
                   "_func_graph_flags", "_parameter_layout_dict", "_params_list", "_phase", "_bprop_debug",
                   "_forward_pre_hook", "_forward_hook", "_backward_hook", "_backward_pre_hook"]
    T_destination = dict
    total_instance_count = 0
    global_cells: dict[Any, Any] = {}

    if TYPE_CHECKING:
        # Members of Cell, the class this mixin is part of.
        def cells_and_names(self, cells: set[int] | None = None,
                            name_prefix: str = "") -> Iterator[tuple[str, Cell]]: ...
        def cells(self) -> list[Cell]: ...
        def get_parameters(self, expand: bool = True) -> Iterator[Parameter]: ...
        def trainable_params(self, recurse: bool = True) -> list[Parameter]: ...
        @property
        def phase(self) -> str: ...
        def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

    # ---- hooks ----------------------------------------------------------------------------------------------------
    def _hook_table(self, kind):
        hooks = self.__dict__.get("_hooks")
        if hooks is None:
            hooks = self.__dict__["_hooks"] = _new_hooks()
        return hooks[kind]

    def _register_hook(self, kind, hook_fn, prepend=False):
        if not callable(hook_fn):
            raise TypeError(f"{type(self).__name__}: the hook must be callable, but got {type(hook_fn).__name__}.")
        table = self._hook_table(kind)
        handle = HookHandle(table, cast("Cell", self))
        table[handle.handle_id] = hook_fn
        _forget_graph(self)
        if prepend:
            table.move_to_end(handle.handle_id, last=False)
        return handle

    def register_forward_pre_hook(self, hook_fn: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookHandle:
        """``hook_fn(cell, inputs)`` runs before ``construct``; a non-None result replaces the inputs."""
        if with_kwargs:
            raise ValueError("register_forward_pre_hook: with_kwargs=True is not supported; Cells here are called "
                             "with positional inputs.")
        return self._register_hook("forward_pre", hook_fn, prepend)

    def register_forward_hook(self, hook_fn: Callable[..., Any], *, prepend: bool = False, with_kwargs: bool = False,
                              always_call: bool = False) -> HookHandle:
        """``hook_fn(cell, inputs, output)`` runs after ``construct``; a non-None result replaces the output."""
        if with_kwargs:
            raise ValueError("register_forward_hook: with_kwargs=True is not supported; Cells here are called "
                             "with positional inputs.")
        return self._register_hook("forward", hook_fn, prepend)

    def register_backward_hook(self, hook_fn: Callable[..., Any]) -> HookHandle:
        """``hook_fn(cell, grad_input, grad_output)`` runs in the backward pass, with the gradients w.r.t. the
        Cell's floating inputs and its output; a non-None result replaces ``grad_input``."""
        return self._register_hook("backward", hook_fn)

    def register_backward_pre_hook(self, hook_fn: Callable[..., Any]) -> HookHandle:
        """``hook_fn(cell, grad_output)`` runs when the output's gradient is known; a non-None result replaces it."""
        return self._register_hook("backward_pre", hook_fn)

    def register_saved_tensors_hooks(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        """Hooks on the tensors a gradient of this Cell saves for its backward pass (``pack_hook(tensor)`` in the
        forward pass, ``unpack_hook(packed) -> Tensor`` in the backward pass), in both modes; see
        :class:`mindspore_hl.saved_tensors_hooks`. They apply when this Cell is the differentiated function."""
        register_cell_hooks(self, pack_hook, unpack_hook)

    @property
    def enable_backward_hook(self) -> bool:
        hooks = self.__dict__.get("_hooks")
        return bool(hooks and (hooks["backward"] or hooks["backward_pre"]))

    def recompute(self, *, use_reentrant: bool = True, output_recompute: bool = False, early_stop: bool = True,
                  context_fn: Callable[..., Any] | None = None, **kwargs: Any) -> Self:
        """Recompute this Cell's activations in the backward pass instead of keeping them (``jax.checkpoint``)."""
        self.__dict__["_recompute"] = True
        _forget_graph(self)
        return self

    # ---- traversal helpers ------------------------------------------------------------------------------------------
    def apply(self, fn: Callable[..., Any]) -> Self:
        """Call ``fn(cell)`` on every sub-cell (children first) and on this Cell; returns this Cell."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    def get_sub_cell(self, target: str) -> Cell:
        """The sub-cell at the dotted path ``target`` ('' is this Cell)."""
        cell = cast("Cell", self)
        for part in (target.split(".") if target else []):
            sub = cell.__dict__["_cells"].get(part)
            if sub is None:
                raise AttributeError(f"{type(cell).__name__} has no sub-cell '{part}' (looking for '{target}').")
            cell = sub
        return cell

    def get_scope(self) -> str | None:
        return self.__dict__.get("_scope_name")

    def generate_scope(self) -> None:
        for name, cell in self.cells_and_names():
            cell.__dict__["_scope_name"] = name or type(self).__name__

    def update_cell_prefix(self) -> None:
        for name, cell in self.cells_and_names():
            cell.__dict__["_param_prefix"] = name

    @property
    def param_prefix(self) -> str:
        return self.__dict__.get("_param_prefix", "")

    def update_cell_type(self, cell_type: str) -> None:
        self.__dict__["_cell_type"] = cell_type

    @property
    def create_time(self) -> int:
        """When the Cell was first asked for it, in nanoseconds since the epoch (part of its phase names)."""
        return self.__dict__.setdefault("_create_time", time.time_ns())

    @property
    def cell_init_args(self) -> str:
        return self.__dict__.get("_cell_init_args", "")

    @property
    def bprop_debug(self) -> bool:
        return self.__dict__.get("_bprop_debug", False)

    @bprop_debug.setter
    def bprop_debug(self, value: bool) -> None:
        self.__dict__["_bprop_debug"] = bool(value)

    # ---- flags ----------------------------------------------------------------------------------------------------
    def add_flags(self, **flags: Any) -> Self:
        """Record ``flags`` and set each as an attribute, as MindSpore does (``net.add_flags(sink_mode=True)``
        makes ``net.sink_mode`` True)."""
        self.__dict__.setdefault("_flags", {}).update(flags)
        self.__dict__.update(flags)
        return self

    def add_flags_recursive(self, **flags: Any) -> Self:
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self) -> dict[str, Any]:
        return self.__dict__.setdefault("_flags", {})

    # ---- inputs ---------------------------------------------------------------------------------------------------
    def set_inputs(self, *inputs: Any, **kwargs: Any) -> Self:
        """Declare the (possibly dynamic-shape) inputs; compilation here specialises on each call's shapes anyway."""
        self.__dict__["_set_inputs"] = inputs
        return self

    def get_inputs(self) -> tuple[Any, ...] | None:
        return self.__dict__.get("_set_inputs")

    def cast_inputs(self, inputs: tuple[Any, ...], dst_type: mstype.Type) -> tuple[Any, ...]:
        """The floating Tensors of ``inputs`` cast to ``dst_type``."""
        return tuple(t.astype(dst_type) if _is_float(t) else t for t in inputs)

    # ---- buffers and state dicts -----------------------------------------------------------------------------------
    def register_buffer(self, name: str, tensor: Tensor, persistent: bool = True) -> None:
        """A non-trainable Tensor attribute saved in ``state_dict`` (when ``persistent``)."""
        if not isinstance(name, str) or "." in name or not name:
            raise KeyError(f"register_buffer: the name must be a non-empty str without '.', got {name!r}.")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"register_buffer: '{name}' must be a Tensor or None, but got {type(tensor).__name__}.")
        self.__dict__.setdefault("_buffers", OrderedDict())[name] = tensor
        if not persistent:
            self.__dict__.setdefault("_non_persistent", set()).add(name)
        self.__dict__[name] = tensor

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        seen = set()
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        for path, cell in cells:
            for name, buf in cell.__dict__.get("_buffers", {}).items():
                if buf is None or (remove_duplicate and id(buf) in seen):
                    continue
                seen.add(id(buf))
                yield (f"{path}.{name}" if path else name), buf

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def get_buffer(self, target: str) -> Tensor:
        path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(path)
        bufs = cell.__dict__.get("_buffers", {})
        if name not in bufs:
            raise AttributeError(f"{type(cell).__name__} has no buffer '{name}'.")
        return bufs[name]

    def get_extra_state(self) -> Any:
        raise RuntimeError(f"{type(self).__name__}: get_extra_state() must be overridden to return extra state.")

    def set_extra_state(self, state: Any) -> None:
        raise RuntimeError(f"{type(self).__name__}: set_extra_state() must be overridden to accept extra state.")

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> HookHandle:
        return self._register_plain("state_dict_pre", hook)

    def register_state_dict_post_hook(self, hook: Callable[..., Any]) -> HookHandle:
        return self._register_plain("state_dict_post", hook)

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> HookHandle:
        return self._register_plain("load_pre", hook)

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> HookHandle:
        return self._register_plain("load_post", hook)

    def _register_plain(self, kind, hook):
        table = self.__dict__.setdefault("_sd_hooks", {}).setdefault(kind, OrderedDict())
        handle = HookHandle(table)
        table[handle.handle_id] = hook
        return handle

    def _sd_hooks(self, kind):
        return list(self.__dict__.get("_sd_hooks", {}).get(kind, {}).values())

    def state_dict(self, *args: Any, destination: dict[str, Any] | None = None, prefix: str = "",
                   keep_vars: bool = False) -> dict[str, Any]:
        """OrderedDict of every Parameter (by name) and persistent buffer; values are the Parameters themselves
        with ``keep_vars``, else Tensor copies."""
        for hook in self._sd_hooks("state_dict_pre"):
            hook(self, prefix, keep_vars)
        out = OrderedDict() if destination is None else destination
        for p in self.get_parameters():
            out[prefix + p.name] = p if keep_vars else Tensor(p.asnumpy())
        for path, cell in self.cells_and_names():
            skip = cell.__dict__.get("_non_persistent", set())
            for name, buf in cell.__dict__.get("_buffers", {}).items():
                if buf is not None and name not in skip:
                    key = f"{path}.{name}" if path else name
                    out[prefix + key] = buf if keep_vars else Tensor(buf.asnumpy())
        for hook in self._sd_hooks("state_dict_post"):
            hook(self, out, prefix, keep_vars)
        return out

    def load_state_dict(self, state_dict: dict[str, Any], strict: bool = True) -> Any:
        """Copy values from ``state_dict`` into the Parameters and buffers of the same names.

        Returns ``(missing_keys, unexpected_keys)``; ``strict`` raises KeyError when either is non-empty.
        """
        for hook in self._sd_hooks("load_pre"):
            hook(self, state_dict)
        params = {p.name: p for p in self.get_parameters()}
        buffers = dict(self.named_buffers())
        missing = [k for k in list(params) + list(buffers) if k not in state_dict]
        unexpected = [k for k in state_dict if k not in params and k not in buffers]
        if strict and (missing or unexpected):
            raise KeyError(f"{type(self).__name__}.load_state_dict: missing keys {missing}, unexpected keys "
                           f"{unexpected}.")
        for key, value in state_dict.items():
            value = value if isinstance(value, Tensor) else Tensor(value)
            if key in params:
                p = params[key]
                if tuple(value.shape) != tuple(p.shape):
                    raise ValueError(f"{type(self).__name__}.load_state_dict: '{key}' has shape {tuple(value.shape)}"
                                     f", but the Parameter has shape {tuple(p.shape)}.")
                p.set_data(Tensor(value.asnumpy()))
            elif key in buffers:
                path, _, name = key.rpartition(".")
                self.get_sub_cell(path).register_buffer(name, Tensor(value.asnumpy()))
        result = (missing, unexpected)
        for hook in self._sd_hooks("load_post"):
            hook(self, result)
        return result

    def parameters_broadcast_dict(self, recurse: bool = True) -> OrderedDict:
        """OrderedDict of the Parameters that data-parallel training broadcasts (all of them, by name)."""
        return OrderedDict((p.name, p) for p in self.get_parameters(recurse))

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict[Parameter, Parameter]:
        """Parameters here hold their data from construction: returns ``{param: param}`` as MindSpore does."""
        return {p: p for p in self.get_parameters()}

    def check_names(self) -> None:
        names = [p.name for p in self.get_parameters()]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"{type(self).__name__}: the parameter names {dup} are not unique.")

    def check_names_and_refresh_name(self) -> None:
        self.check_names()

    @property
    def exist_names(self) -> set[str]:
        return {p.name for p in self.get_parameters()}

    @property
    def exist_objs(self) -> set[int]:
        return {id(p) for p in self.get_parameters()}

    def remove_redundant_parameters(self) -> None:
        """Parameters are never duplicated here: nothing to remove."""

    # ---- MindSpore runtime switches without an XLA counterpart: recorded, and reported by their getters --------------
    def set_boost(self, boost_type: str) -> Self:
        self.__dict__["_boost"] = boost_type
        return self

    def set_broadcast_flag(self, mode: bool = True) -> Self:
        self.add_flags_recursive(broadcast_flag=mode)
        return self

    def set_comm_fusion(self, fusion_type: int, recurse: bool = True) -> Self:
        for p in self.trainable_params(recurse):
            p.comm_fusion = fusion_type  # type: ignore[attr-defined]  # recorded only: there is no fusion here
        return self

    def set_data_parallel(self) -> Self:
        self.__dict__["_data_parallel"] = True
        return self

    def offload(self, backward_prefetch: str = "Auto") -> Self:
        self.__dict__["_offload"] = backward_prefetch
        return self

    @property
    def pipeline_stage(self) -> int:
        return self.__dict__.get("_pipeline_stage", 0)

    @pipeline_stage.setter
    def pipeline_stage(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise TypeError(f"pipeline_stage must be a non-negative int, but got {value!r}.")
        self.__dict__["_pipeline_stage"] = value

    @property
    def pipeline_segment(self) -> int | None:
        return self.__dict__.get("_pipeline_segment")

    @pipeline_segment.setter
    def pipeline_segment(self, value: int | None) -> None:
        self.__dict__["_pipeline_segment"] = value

    def set_jit_config(self, jit_config: Any) -> Self:
        self.__dict__["_jit_config"] = jit_config
        return self

    @property
    def jit_config_dict(self) -> dict[str, Any]:
        cfg = self.__dict__.get("_jit_config")
        return dict(getattr(cfg, "jit_config_dict", cfg) or {})

    def get_mixed_precision_type(self) -> Any:
        return self.__dict__.get("_mixed_precision_type")

    def set_mixed_precision_type(self, mixed_type: Any, recurse: bool = True) -> Self:
        cells = self.cells_and_names() if recurse else [("", self)]
        for _, cell in cells:
            cell.__dict__["_mixed_precision_type"] = mixed_type
        return self

    def to(self, *args: Any, **kwargs: Any) -> Self:
        """``cell.to(dtype)`` casts every floating Parameter to ``dtype``; device arguments are accepted and kept."""
        dtype = kwargs.get("dtype")
        for a in args:
            if not isinstance(a, str):
                dtype = a
        if dtype is not None:
            for p in self.get_parameters():
                if jnp.issubdtype(p._value.dtype, jnp.floating):
                    p.set_data(p.astype(dtype))
        return self

    def to_empty(self, *, device: str | None = None, recurse: bool = True) -> Self:
        """Parameters here always hold data: returns this Cell unchanged."""
        return self

    @property
    def parameter_layout_dict(self) -> dict[str, Any]:
        return self.__dict__.setdefault("_parameter_layout_dict", {})

    @property
    def parallel_parameter_name_list(self) -> list[str]:
        return self.__dict__.setdefault("_parallel_parameter_name_list", [])

    @property
    def parallel_parameter_merge_net_dict(self) -> dict[str, Any]:
        return self.__dict__.setdefault("_parallel_parameter_merge_net_dict", {})

    @property
    def compile_cache(self) -> set[str]:
        return self.__dict__.setdefault("_compile_cache", set())

    @property
    def phase_cache(self) -> dict[str, Any]:
        return self.__dict__.setdefault("_phase_cache", {})

    @property
    def compile_phase(self) -> str:
        return self.__dict__.get("current_phase", self.phase)

    @property
    def compiled(self) -> bool:
        """Whether this Cell was compiled: called in GRAPH_MODE, or trained / evaluated by a Model there."""
        return self.__dict__.get("_compiled") is not None or "current_phase" in self.__dict__

    def compile_and_run(self, *args: Any, **kwargs: Any) -> Any:
        """Compile (GRAPH_MODE) and run: the same as calling the Cell."""
        return self(*args, **kwargs)

    def run_construct(self, cast_inputs: tuple[Any, ...], kwargs: dict[str, Any] | None) -> Any:
        """Run ``construct`` on already-cast inputs (with hooks), as MindSpore's ``__call__`` does."""
        return run_hooked(cast("Cell", self), tuple(cast_inputs), kwargs or {})
