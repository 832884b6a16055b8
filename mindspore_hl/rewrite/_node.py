"""``Node``: one statement of a parsed ``construct`` (a Cell call, an operator, a return...)."""
from __future__ import annotations

import ast
import copy
import inspect
from typing import TYPE_CHECKING, Any

from ..nn.cell import Cell
from ..ops._primitives import Primitive
from ._values import NodeType, ScopedValue, ValueType, _check_type, to_ast

if TYPE_CHECKING:
    from ._symbol_tree import SymbolTree

__all__ = ["Node"]


class _NodeImpl:
    """The data behind a ``Node``; the ``SymbolTree`` keeps these in per-body lists."""

    def __init__(self, node_type: NodeType, name: str = "", targets: list[ScopedValue] | None = None,
                 func: ScopedValue | None = None, args: list[ScopedValue] | None = None,
                 kwargs: dict[str, ScopedValue] | None = None, instance: Any = None) -> None:
        self.node_type = node_type
        self.name = name
        self.targets = list(targets or [])
        self.func = func
        self.args = list(args or [])
        self.kwargs = dict(kwargs or {})
        self.instance = instance
        # Source pieces kept from the parsed statement, so unmodified code is written back as it was.
        self.arg_asts: list[ast.expr | None] = [None] * len(self.args)
        self.kwarg_asts: dict[str, ast.expr | None] = dict.fromkeys(self.kwargs)
        self.func_ast: ast.expr | None = None
        self.target_ast: ast.expr | None = None
        self.stmt: ast.stmt | None = None      # Python nodes: the statement itself
        # MathOps: the operator(s), of the kind ast_kind takes (ast.BinOp: one operator, ast.Compare: cmpops...)
        self.ops: list[ast.operator | ast.unaryop | ast.boolop | ast.cmpop] = []
        self.ast_kind: type | None = None      # MathOps: ast.BinOp...; ControlFlow: ast.If / For / While
        self.body: list[_NodeImpl] = []        # ControlFlow / CellContainer contents
        self.loop_target: ast.expr | None = None
        self.orelse_of: _NodeImpl | None = None  # an else_node's if/for/while node
        self.container: list[_NodeImpl] | None = None
        self.tree: Any = None                  # owning _TreeImpl once inserted
        self.sub_tree: Any = None              # Tree nodes: the sub-network's _TreeImpl
        self.field: str | None = None          # attribute the generated code calls (self.<field>)

    # ---- topology (computed from the body the node lives in: MindSpore keeps control-flow bodies apart) ----
    def arg_providers(self) -> dict[int, tuple[_NodeImpl, int]]:
        providers: dict[int, tuple[_NodeImpl, int]] = {}
        if self.container is None:
            return providers
        before = self.container[:self.container.index(self)]
        values = self.args + list(self.kwargs.values())
        for i, value in enumerate(values):
            if not (isinstance(value, ScopedValue) and value.type == ValueType.NamingValue and not value.scope):
                continue
            for prev in reversed(before):
                names = [str(t) for t in prev.targets]
                if value.value in names:
                    providers[i] = (prev, names.index(value.value))
                    break
        return providers

    def target_users(self) -> dict[int, list[tuple[_NodeImpl, int]]]:
        users: dict[int, list[tuple[_NodeImpl, int]]] = {i: [] for i in range(len(self.targets))}
        if self.container is None:
            return users
        for later in self.container[self.container.index(self) + 1:]:
            for arg_idx, (prov, out_idx) in later.arg_providers().items():
                if prov is self:
                    users[out_idx].append((later, arg_idx))
        return users

    def inputs(self) -> list[_NodeImpl]:
        return [prov for prov, _ in self.arg_providers().values()]

    def users(self) -> list[_NodeImpl]:
        result: list[_NodeImpl] = []
        for entries in self.target_users().values():
            for user, _ in entries:
                if user not in result:
                    result.append(user)
        return result

    def instance_type(self) -> Any:
        if inspect.isfunction(self.instance):
            return self.instance
        return type(self.instance)

    # ---- code ----
    def arg_ast(self, i: int) -> ast.expr:
        kept = self.arg_asts[i]
        return copy.deepcopy(kept) if kept is not None else to_ast(self.args[i])

    def keywords(self) -> list[ast.keyword]:
        return [ast.keyword(arg=k, value=self.kwarg_ast(k)) for k in self.kwargs]

    def kwarg_ast(self, key: str) -> ast.expr:
        kept = self.kwarg_asts.get(key)
        return copy.deepcopy(kept) if kept is not None else to_ast(self.kwargs[key])

    def targets_ast(self) -> ast.expr:
        if self.target_ast is not None:
            return copy.deepcopy(self.target_ast)
        elts = [to_ast(t) for t in self.targets]
        return elts[0] if len(elts) == 1 else ast.Tuple(elts=elts, ctx=ast.Store())


def _normalize_targets(targets: Any, owner: str) -> list[ScopedValue]:
    if not isinstance(targets, (list, tuple)) or not all(isinstance(t, (ScopedValue, str)) for t in targets):
        raise TypeError(f"For '{owner}', 'targets' should be a list of ScopedValue or str, but got {targets!r}.")
    return [ScopedValue.create_naming_value(t) if isinstance(t, str) else t for t in targets]


def _check_call_inputs(args: Any, kwargs: Any, owner: str) -> None:
    if args is not None and (not isinstance(args, (list, tuple)) or
                             not all(isinstance(a, ScopedValue) for a in args)):
        raise TypeError(f"For '{owner}', 'args' should be a list of ScopedValue, but got {args!r}.")
    if kwargs is not None and (not isinstance(kwargs, dict) or not all(
            isinstance(k, str) and isinstance(v, ScopedValue) for k, v in kwargs.items())):
        raise TypeError(f"For '{owner}', 'kwargs' should be a dict of str to ScopedValue, but got {kwargs!r}.")


class Node:
    """A statement of a network's ``construct`` in a ``SymbolTree``.

    Args:
        node: the internal node handle; create Nodes with ``Node.create_call_cell`` or get them from a
            ``SymbolTree`` rather than calling this constructor.
    """

    def __init__(self, node: _NodeImpl) -> None:
        self._node = node

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and self._node is other._node

    def __hash__(self) -> int:
        return id(self._node)

    @staticmethod
    def create_call_cell(cell: Cell, targets: list[ScopedValue | str], args: list[ScopedValue] | None = None,
                         kwargs: dict[str, ScopedValue] | None = None, name: str = "",
                         is_sub_net: bool = False) -> Node:
        """A node for ``targets = self.<name>(*args, **kwargs)`` calling ``cell`` (a Cell or Primitive).

        The name is made unique when the node is inserted; an empty name uses the class name of ``cell``.
        """
        _check_type("cell", cell, (Cell, Primitive), "Node")
        new_targets = _normalize_targets(targets, "Node")
        _check_type("name", name, (str,), "Node")
        _check_type("is_sub_net", is_sub_net, (bool,), "Node")
        _check_call_inputs(args, kwargs, "Node")
        if is_sub_net:
            raise NotImplementedError("Node.create_call_cell: is_sub_net=True (parsing the inserted Cell into a "
                                      "sub-SymbolTree) is not supported by mindspore_hl.rewrite.")
        kind = NodeType.CallPrimitive if isinstance(cell, Primitive) else NodeType.CallCell
        impl = _NodeImpl(kind, name, new_targets, None, list(args or []), dict(kwargs or {}), cell)
        return Node(impl)

    @staticmethod
    def create_call_function(function: Any, targets: list[ScopedValue | str], args: list[ScopedValue] | None = None,
                             kwargs: dict[str, ScopedValue] | None = None) -> Node:
        """A node for ``targets = function(*args, **kwargs)``; the function's body is not parsed."""
        if not callable(function):
            raise TypeError(f"For 'create_call_function', 'function' should be a function, got {type(function)}.")
        new_targets = _normalize_targets(targets, "create_call_function")
        _check_call_inputs(args, kwargs, "create_call_function")
        name = function.__name__
        impl = _NodeImpl(NodeType.CallFunction, name, new_targets, ScopedValue.create_naming_value(name),
                         list(args or []), dict(kwargs or {}), function)
        return Node(impl)

    @staticmethod
    def create_input(param_name: str, default: ScopedValue | None = None) -> Node:
        """An input (a parameter of ``construct``) named ``input_<param_name>``."""
        _check_type("param_name", param_name, (str,), "Node")
        if default is not None:
            _check_type("default", default, (ScopedValue,), "Node")
        return Node(_NodeImpl(NodeType.Input, f"input_{param_name}", [ScopedValue.create_naming_value(param_name)],
                              None, [] if default is None else [default]))

    def get_handler(self) -> _NodeImpl:
        return self._node

    def get_inputs(self) -> list[Node]:
        """Nodes whose outputs are arguments of this node."""
        return [Node(n) for n in self._node.inputs()]

    def get_users(self) -> list[Node]:
        """Nodes that take an output of this node as argument."""
        return [Node(n) for n in self._node.users()]

    def set_arg(self, index: int, arg: ScopedValue | str) -> None:
        """Replace argument ``index`` (a str is a variable name)."""
        _check_type("index", index, (int,), "Node")
        _check_type("arg", arg, (ScopedValue, str), "Node")
        if not 0 <= index < len(self._node.args):
            raise ValueError(f"Node '{self._node.name}': arg index {index} out of range "
                             f"[0, {len(self._node.args)}).")
        value = ScopedValue.create_naming_value(arg) if isinstance(arg, str) else arg
        self._node.args[index] = value
        self._node.arg_asts[index] = None
        if self._node.tree is not None:
            self._node.tree.store_custom_objects(self._node)
        _mark_modified(self._node)

    def set_arg_by_node(self, arg_idx: int, src_node: Node, out_idx: int | None = None) -> None:
        """Use output ``out_idx`` of ``src_node`` as argument ``arg_idx``."""
        _check_type("arg_idx", arg_idx, (int,), "Node")
        _check_type("src_node", src_node, (Node,), "Node")
        targets = src_node.get_targets()
        if out_idx is None:
            if len(targets) != 1:
                raise ValueError(f"Node '{src_node.get_name()}' has {len(targets)} outputs: pass out_idx.")
            out_idx = 0
        _check_type("out_idx", out_idx, (int,), "Node")
        if not 0 <= out_idx < len(targets):
            raise ValueError(f"out_idx {out_idx} out of range for node '{src_node.get_name()}' "
                             f"with {len(targets)} outputs.")
        self.set_arg(arg_idx, targets[out_idx])

    def get_targets(self) -> list[ScopedValue]:
        return self._node.targets

    def get_name(self) -> str:
        return self._node.name

    def get_node_type(self) -> NodeType:
        return self._node.node_type

    def get_instance_type(self) -> Any:
        """The type of the object called (the function itself for a function call, NoneType when none)."""
        return self._node.instance_type()

    def get_instance(self) -> Any:
        return self._node.instance

    def get_args(self) -> list[ScopedValue]:
        return self._node.args

    def get_kwargs(self) -> dict[str, ScopedValue]:
        return self._node.kwargs

    def get_symbol_tree(self) -> SymbolTree | None:
        """The SymbolTree this node was inserted into (None before insertion)."""
        return None if self._node.tree is None else self._node.tree.api()

    def get_sub_tree(self) -> SymbolTree:
        """The SymbolTree of the sub-network of a ``NodeType.Tree`` node."""
        if self._node.node_type != NodeType.Tree:
            raise TypeError("For get_sub_tree, the type of node should be 'NodeType.Tree', "
                            f"but got {self._node.node_type}")
        return self._node.sub_tree.api()

    def get_arg_providers(self) -> dict[int, tuple[Node, int]]:
        return {i: (Node(n), k) for i, (n, k) in self._node.arg_providers().items()}

    def get_target_users(self, index: int = -1) -> dict | list:
        _check_type("index", index, (int,), "get_target_users")
        users = {i: [(Node(n), k) for n, k in v] for i, v in self._node.target_users().items()}
        return users if index == -1 else users[index]

    def __repr__(self) -> str:
        return f"Node({self._node.node_type.name}, {self._node.name!r})"


def _mark_modified(node: _NodeImpl) -> None:
    if node.tree is not None:
        node.tree.modified = True
