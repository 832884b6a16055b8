"""``nn.Cell``: MindSpore's stateful module, run eagerly (PYNATIVE) or as one compiled pure function (GRAPH)."""
from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

import jax
import jax.numpy as jnp

from .._engine import _compiled, _custom, _layout, _mode, _state
from .._engine._compiled import CompiledFunction
from ..common import dtype as mstype
from ..common._symbol import check_set_inputs
from ..common.parameter import Parameter, ParameterTuple
from ..common.tensor import Tensor, wrap
from ._cell_extras import CellExtras, run_hooked

if TYPE_CHECKING:
    from typing import Any, Iterator

    from typing_extensions import Self

__all__ = ["Cell"]


class Cell(CellExtras):
    """Base class of all networks: define ``construct``; parameters are named by attribute path.

    In GRAPH_MODE a top-level call compiles the whole ``construct`` (with every Parameter as threaded
    state) once per input signature and training flag; in PYNATIVE_MODE it runs eagerly. Nested Cells
    called inside a compiled step are traced through.

    Example:
        >>> class Net(nn.Cell):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = nn.Dense(4, 2)
        ...     def construct(self, x):
        ...         return self.fc(x)
    """

    # Set through __dict__ (bypassing __setattr__'s registry) in __init__ and set_train.
    training: bool
    _params: OrderedDict[str, Parameter]
    _cells: OrderedDict[str, Cell | None]
    _auto_prefix: bool
    _compute_dtype: mstype.Type | None
    _compiled: CompiledFunction | None
    _flags: dict[str, Any]
    _bprop_cell: bool

    def __init__(self, auto_prefix: bool = True, flags: dict[str, Any] | None = None) -> None:
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_auto_prefix"] = auto_prefix
        d["training"] = False
        d["_compute_dtype"] = None
        d["_compiled"] = None
        d["_flags"] = dict(flags or {})
        d["_bprop_cell"] = type(self).bprop is not Cell.bprop

    # ---- attribute registry -------------------------------------------------------------------
    def __setattr__(self, name, value):
        d = self.__dict__
        if "_params" not in d:
            raise RuntimeError(f"{type(self).__name__}: call super().__init__() before assigning attributes.")
        attr = getattr(type(self), name, None)
        if isinstance(attr, property) and attr.fset is not None:  # (phase, pipeline_stage ...: checked setters)
            attr.fset(self, value)
            return
        if isinstance(value, Parameter):
            if not value._has_user_name:
                value.name = name
                value._has_user_name = True
            d["_cells"].pop(name, None)
            d["_params"][name] = value
        elif isinstance(value, ParameterTuple):
            # Members are registered (in order) but keep their own names, as in MindSpore's optimizers.
            for key in [k for k in d["_params"] if k.startswith(name + ".")]:
                del d["_params"][key]
            for i, p in enumerate(value):
                d["_params"][f"{name}.{i}"] = p
        elif isinstance(value, Cell):
            value.__dict__.setdefault("_scope_name", name)
            if d["_auto_prefix"]:
                value._add_prefix(name)
            d["_params"].pop(name, None)
            d["_cells"][name] = value
        elif value is None and (name in d["_params"] or name in d["_cells"]):
            d["_params"].pop(name, None)
            d["_cells"].pop(name, None)
        d[name] = value

    def __delattr__(self, name):
        self._params.pop(name, None)
        self._cells.pop(name, None)
        del self.__dict__[name]

    def _add_prefix(self, prefix):
        for p in self.get_parameters():
            p.name = f"{prefix}.{p.name}"

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Prefix every parameter name with ``prefix`` (MindSpore API)."""
        for p in self.get_parameters(expand=recurse):
            p.name = prefix + p.name

    def insert_child_to_cell(self, child_name: str, child_cell: Cell | None) -> None:
        """Add ``child_cell`` under ``child_name`` (parameter names gain the prefix)."""
        if not isinstance(child_name, str) or "." in child_name:
            raise KeyError(f"insert_child_to_cell: child name must be a str without '.', got {child_name!r}.")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"insert_child_to_cell: child must be a Cell, got {type(child_cell).__name__}.")
        setattr(self, child_name, child_cell)

    def insert_param_to_cell(self, param_name: str, param: Parameter, check_name_contain_dot: bool = True) -> None:
        setattr(self, param_name, param)

    # ---- traversal ----------------------------------------------------------------------------
    def cells_and_names(self, cells: set[int] | None = None, name_prefix: str = "") -> Iterator[tuple[str, Cell]]:
        """Yield ``(dotted_name, cell)`` for this Cell ('' or ``name_prefix``) and all sub-cells, pre-order."""
        seen = set() if cells is None else cells
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                yield from cell.cells_and_names(seen, f"{name_prefix}.{name}" if name_prefix else name)

    def cells(self) -> list[Cell]:
        return [c for c in self._cells.values() if c is not None]

    def name_cells(self) -> OrderedDict:
        """OrderedDict of the direct sub-cells."""
        return OrderedDict((n, c) for n, c in self._cells.items() if c is not None)

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        """Yield every Parameter once, in MindSpore's order (own first, then sub-cells in attribute order)."""
        seen = set()
        cells = self.cells_and_names() if expand else [("", self)]
        for _, cell in cells:
            for p in cell._params.values():
                if p is not None and id(p) not in seen:
                    seen.add(id(p))
                    yield p

    def parameters_and_names(self, name_prefix: str = "", expand: bool = True) -> Iterator[tuple[str, Parameter]]:
        for p in self.get_parameters(expand):
            yield (f"{name_prefix}.{p.name}" if name_prefix else p.name), p

    def parameters_dict(self, recurse: bool = True) -> OrderedDict:
        return OrderedDict(self.parameters_and_names(expand=recurse))

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        return [p for p in self.get_parameters(recurse) if not p.requires_grad]

    # ---- modes --------------------------------------------------------------------------------
    def set_train(self, mode: bool = True) -> Self:
        """Set training mode on this Cell and all sub-cells; returns self."""
        for _, cell in self.cells_and_names():
            cell.__dict__["training"] = bool(mode)
        self.__dict__["_phase"] = "train" if mode else "predict"
        return self

    def set_grad(self, requires_grad: bool = True) -> Self:
        self.__dict__["requires_grad"] = requires_grad
        return self

    @property
    def phase(self) -> str:
        """The prefix of this Cell's compiled phases: ``'train'`` until ``set_train(False)`` makes it
        ``'predict'`` (Model names its eval network's ``'eval'``)."""
        return self.__dict__.get("_phase", "train")

    @phase.setter
    def phase(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', the property 'phase' must be string type, but got type {type(value)}.")
        self.__dict__["_phase"] = value

    def to_float(self, dst_type: mstype.Type) -> Self:
        """Run this Cell (and sub-cells) in ``dst_type``: floating inputs are cast on entry."""
        dst = mstype.to_ms_dtype(dst_type)
        for _, cell in self.cells_and_names():
            cell.__dict__["_compute_dtype"] = dst
        return self

    def set_jit(self, enabled: bool = True) -> Self:
        self.__dict__["_jit_disabled"] = not enabled
        return self

    def shard(self, in_strategy: tuple[Any, ...], out_strategy: tuple[Any, ...] | None = None,
              parameter_plan: dict[str, Any] | None = None, device: str = "Ascend", level: int = 0) -> Any:
        """Layouts for SEMI_AUTO_PARALLEL / AUTO_PARALLEL: split counts per dimension of each input/output.

        Args:
            in_strategy: one tuple per input (e.g. ``((2, 1),)``: dimension 0 in 2 parts) or None.
            out_strategy: the same for the outputs, or None.
            parameter_plan: ``{parameter name: strategy}`` (names relative to this Cell, e.g. ``'fc.weight'``).
        Returns: this Cell. Other parallel modes ignore the layouts.
        """
        return _layout.shard_cell(self, in_strategy, out_strategy, parameter_plan)

    # ---- calling ------------------------------------------------------------------------------
    def construct(self, *inputs: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must define construct().")

    def bprop(self, *args: Any) -> Any:
        """Override ``bprop(self, *inputs, out, dout)`` to give this Cell a custom backward pass."""
        raise NotImplementedError

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._compute_dtype is not None:
            args = _cast_inputs(args, self._compute_dtype)
        if kwargs or self.__dict__.get("_jit_disabled") or not _mode.should_compile(args):
            if not kwargs and _compiled.parallel_step_now(args):  # PYNATIVE on a device mesh
                return _compiled.eager_step(self, self._run, self.get_parameters(), args, type(self).__name__)
            return self._run(*args, **kwargs)
        if "_set_inputs" in self.__dict__:  # GRAPH_MODE checks calls against set_inputs (Symbol constraints too)
            check_set_inputs(self.__dict__["_set_inputs"], args)
        cf = self._compiled
        if cf is None:
            cf = CompiledFunction(lambda training, *a: self._run(*a), lambda: self.get_parameters(),
                                  name=type(self).__name__)
            self.__dict__["_compiled"] = cf
        out = cf(self.training, *args)
        self.__dict__["current_phase"] = cf.phase_name(self, self.phase)
        return out

    def _run(self, *args, **kwargs):
        if "_hooks" in self.__dict__ or "_recompute" in self.__dict__:  # forward/backward hooks, recompute()
            return run_hooked(self, args, kwargs)
        if _state.trace.scopes:
            # While tracing, name the ops after the Cell's attribute path (graphs, profiles, HLO).
            with jax.named_scope(self.__dict__.get("_scope_name") or type(self).__name__):
                return self._construct(args, kwargs)
        return self._construct(args, kwargs)

    def _construct(self, args, kwargs):
        # While compiling, the engine traces the construct its static-graph syntax hook gives.
        construct = _compiled.graph_function(self.construct) if _state.trace.compiling else self.construct
        if self._bprop_cell:
            # The Cell's own Parameters get zero gradients, as in MindSpore.
            return _custom.custom_bprop(construct, self.bprop, params=self.get_parameters,
                                        name=type(self).__name__)(*args)
        return construct(*args, **kwargs)

    def compile(self, *args: Any) -> Any:
        """Compile for these inputs without running (GRAPH_MODE)."""
        return self.lower(*args)

    def lower(self, *args: Any) -> Any:
        """The lowered XLA computation of this Cell for ``args`` (``.as_text()``, ``.compile()``)."""
        cf = CompiledFunction(lambda training, *a: self._run(*a), lambda: self.get_parameters(),
                              name=type(self).__name__, donate=False)
        return cf.lower(self.training, *args)

    # ---- printing -----------------------------------------------------------------------------
    def extend_repr(self) -> str:
        """Override to describe the Cell's arguments in its repr."""
        return ""

    def __repr__(self):
        extra = self.extend_repr()
        children = [(n, c) for n, c in self._cells.items() if c is not None]
        if not children:
            return f"{type(self).__name__}({extra})"
        lines = [f"{type(self).__name__}("]
        if extra:
            lines.append("  " + extra)
        for name, cell in children:
            sub = repr(cell).replace("\n", "\n  ")
            lines.append(f"  ({name}): {sub}")
        lines.append(")")
        return "\n".join(lines)

    @property
    def cls_name(self) -> str:
        return type(self).__name__

    def __getstate__(self):
        raise TypeError("Cells are not picklable; save parameters with mindspore_hl.save_checkpoint.")


def _cast_inputs(args, dst):
    np_dt = dst.to_numpy()
    out = []
    for a in args:
        if isinstance(a, Tensor) and jnp.issubdtype(a._value.dtype, jnp.floating) and a._value.dtype != np_dt:
            a = wrap(a._value.astype(np_dt))
        out.append(a)
    return tuple(out)
