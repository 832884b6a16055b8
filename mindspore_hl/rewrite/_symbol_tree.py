"""``SymbolTree``: the editable node list of a network's ``construct``, and the network it generates."""
from __future__ import annotations

import ast
import copy
import itertools
import linecache
import sys
from collections import OrderedDict
from typing import Any, Iterator, TypeVar, cast

from ..nn.cell import Cell
from ._flatten import Namer
from ._node import Node, _NodeImpl
from ._parser import parse_construct
from ._values import NodeType, ScopedValue, ValueType, _check_type

__all__ = ["SymbolTree", "Position"]

_FILE_IDS = itertools.count()


class Position:
    """Where ``SymbolTree.insert`` puts a node: before or after ``node``."""

    def __init__(self, tree: _TreeImpl, node: _NodeImpl, before_node: bool) -> None:
        self.symbol_tree = tree
        self.node = node
        self.before_node = before_node


class _TreeImpl:
    def __init__(self, network: Cell) -> None:
        self.network = network
        self.nodes: list[_NodeImpl] = []
        self.node_namer = Namer()
        self.node_namer.add_name("obj")
        self.target_namer = Namer()
        self.modified = False
        self.functions: dict[str, Any] = {}  # functions called by inserted nodes, by name
        self.custom_objects: dict[str, Any] = {}  # objects passed as arguments, stored as self.<name>
        self.definition = parse_construct(self, network)
        self.cls_name = type(network).__name__ + "Opt"
        self._api: SymbolTree | None = None

    def api(self) -> SymbolTree:
        if self._api is None:
            self._api = SymbolTree(self)
        return self._api

    def subtree(self, cell: Cell) -> _TreeImpl:
        return _TreeImpl(cell)

    def unique_name(self, name: str) -> str:
        return self.target_namer.get_name(name)

    # ---- node lists ----
    def append(self, node: _NodeImpl, container: list[_NodeImpl]) -> None:
        self._place(node, container, len(container))

    def _place(self, node: _NodeImpl, container: list[_NodeImpl], index: int) -> None:
        for target in node.targets:
            self.target_namer.add_name(str(target))
        node.name = self.node_namer.get_name(node.name or _default_name(node))
        container.insert(index, node)
        node.container = container
        node.tree = self

    def walk(self, nodes: list[_NodeImpl] | None = None) -> Iterator[_NodeImpl]:
        for node in self.nodes if nodes is None else nodes:
            yield node
            yield from self.walk(node.body)

    def all_nodes(self) -> list[_NodeImpl]:
        """Every node, in MindSpore's order: this body, then nested bodies (last first), then sub-trees."""
        result: list[_NodeImpl] = []
        bodies = [self.nodes]
        while bodies:
            body = bodies.pop()
            result.extend(body)
            bodies.extend(n.body for n in body if n.node_type in (NodeType.ControlFlow, NodeType.CellContainer))
        for node in self.nodes:
            if node.node_type == NodeType.Tree and node.sub_tree is not None:
                result.extend(node.sub_tree.all_nodes())
        return result

    def find(self, node: _NodeImpl | str, what: str) -> _NodeImpl:
        # As in MindSpore, a name is looked up among the top-level nodes only (a Node may be nested).
        if isinstance(node, str):
            found = next((n for n in self.nodes if n.name == node), None)
            if found is None:
                raise RuntimeError(f"SymbolTree.{what}: node {node!r} does not belong to the top level of "
                                   f"{self.cls_name}; pass the Node itself for nodes inside control flow.")
            return found
        return node

    def insert(self, node: _NodeImpl, base: _NodeImpl, before: bool) -> _NodeImpl:
        if node.tree is not None:
            raise ValueError(f"Node in the SymbolTree cannot be inserted into SymbolTree again: {node.name}")
        container = base.container
        if container is None:
            raise ValueError(f"SymbolTree.insert: position node {base.name!r} is no longer in the tree.")
        index = container.index(base)
        if base.node_type == NodeType.Input:
            after = container[index + 1] if index + 1 < len(container) else None
            if before or (after is not None and after.node_type == NodeType.Input):
                raise RuntimeError(f"Can not insert a node before or between parameters: {base.name}")
        for target in node.targets:
            self.target_namer.add_name(str(target))
        self.store_custom_objects(node)
        self._place(node, container, index if before else index + 1)
        if node.node_type == NodeType.CallFunction and node.instance is not None:
            self.functions[_func_name(node)] = node.instance
        self.modified = True
        return node

    def store_custom_objects(self, node: _NodeImpl) -> None:
        """Arguments that are arbitrary objects become attributes ``self.arg_<Type>`` of the network, as in
        MindSpore, so the generated code can refer to them."""
        for i, value in enumerate(node.args):
            if value.type == ValueType.CustomObjValue:
                node.args[i] = self._custom_name(value.value)
                node.arg_asts[i] = None
        for key, value in node.kwargs.items():
            if value.type == ValueType.CustomObjValue:
                node.kwargs[key] = self._custom_name(value.value)
                node.kwarg_asts[key] = None

    def _custom_name(self, obj: Any) -> ScopedValue:
        name = self.unique_name(f"arg_{type(obj).__name__}")
        self.custom_objects[name] = obj
        return ScopedValue.create_naming_value(name, "self")

    def erase(self, node: _NodeImpl) -> _NodeImpl:
        if node.container is not None:
            # The else branch of an erased if/for/while goes with it.
            for other in [n for n in node.container if n.orelse_of is node]:
                self.erase(other)
            node.container.remove(node)
        node.container = None
        node.tree = None
        self.modified = True
        return node

    # ---- code ----
    def construct_ast(self) -> ast.FunctionDef:
        body = self._stmts(self.nodes)
        fdef = ast.FunctionDef(name="construct", args=copy.deepcopy(self.definition.args), body=body or [ast.Pass()],
                               decorator_list=[], returns=copy.deepcopy(self.definition.returns))
        if sys.version_info >= (3, 12):
            fdef.type_params = []
        return ast.fix_missing_locations(fdef)

    def _stmts(self, nodes: list[_NodeImpl]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, node in enumerate(nodes):
            if node.node_type == NodeType.ControlFlow:
                if node.orelse_of is not None:
                    continue  # written with its if/for/while
                partner = nodes[i + 1] if i + 1 < len(nodes) and nodes[i + 1].orelse_of is node else None
                out.append(self._control_flow(node, partner))
            else:
                stmt = _statement(node)
                if stmt is not None:
                    out.append(stmt)
        return out

    def _control_flow(self, node: _NodeImpl, partner: _NodeImpl | None) -> ast.stmt:
        body = self._stmts(node.body) or [ast.Pass()]
        orelse = self._stmts(partner.body) if partner is not None else []
        if node.ast_kind is ast.For:
            if node.loop_target is None:
                raise RuntimeError(f"SymbolTree: for-loop node {node.name!r} has no loop target.")
            return ast.For(target=copy.deepcopy(node.loop_target), iter=node.arg_ast(0), body=body, orelse=orelse)
        kind = ast.While if node.ast_kind is ast.While else ast.If
        return kind(test=node.arg_ast(0), body=body, orelse=orelse)

    def get_code(self) -> str:
        init = ("    def __init__(self, obj):\n        nn.Cell.__init__(self)\n"
                "        for key, value in obj.__dict__.items():\n            setattr(self, key, value)\n")
        construct = ast.unparse(self.construct_ast())
        return (f"class {self.cls_name}({type(self.network).__name__}, nn.Cell):\n\n{init}\n"
                + "\n".join("    " + line if line else line for line in construct.splitlines()) + "\n")

    def get_network(self) -> Cell:
        source = ast.unparse(self.construct_ast()) + "\n"
        # A file name in linecache lets inspect (and GRAPH_MODE's source conversion) read the generated code.
        filename = f"<rewrite {self.cls_name} #{next(_FILE_IDS)}>"
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        base_cls = type(self.network)
        namespace = dict(base_cls.construct.__globals__)
        namespace.update(self.functions)
        exec(compile(source, filename, "exec"), namespace)  # noqa: S102  (the rewritten construct)
        construct = namespace["construct"]
        construct.__qualname__ = f"{self.cls_name}.construct"
        # A subclass of the network's class, so its instances are Cells.
        new_cls = cast("type[Cell]", type(self.cls_name, (base_cls,), {"construct": construct,
                                                                      "__module__": base_cls.__module__}))
        net = new_cls.__new__(new_cls)
        Cell.__init__(net)
        # Share the original's sub-Cells and Parameters (as MindSpore does), in registries of its own.
        for key, value in self.network.__dict__.items():
            if key in ("_params", "_cells"):
                value = OrderedDict(value)
            elif key == "_compiled":
                value = None
            net.__dict__[key] = value
        for node in self.walk():
            if node.node_type == NodeType.Tree and node.sub_tree is not None and node.func_ast is not None:
                if not node.sub_tree.is_modified():
                    continue  # an unedited sub-network is used as it is
                field = _func_name(node)
                sub = node.sub_tree.get_network()
                net.__dict__[field] = sub
                net.__dict__["_cells"][field] = sub
            elif node.func_ast is None and node.node_type in (NodeType.CallCell, NodeType.CallPrimitive):
                setattr(net, node.name, node.instance)  # inserted cells/primitives: self.<node name>
        for name, obj in self.custom_objects.items():
            setattr(net, name, obj)
        return net

    def is_modified(self) -> bool:
        return self.modified or any(n.sub_tree.is_modified() for n in self.walk() if n.sub_tree is not None)

    def tabulate(self) -> str:
        rows = [["node type", "name", "codes", "arg providers", "target users"]]
        for n in self.nodes:
            stmt = _statement(n) if n.node_type != NodeType.ControlFlow else None
            code = ast.unparse(ast.fix_missing_locations(stmt)) if stmt is not None else (
                f"{n.name.split('_node')[0]} {n.args[0] if n.args else ''}".strip())
            providers = [[k, (p.name, i)] for k, (p, i) in n.arg_providers().items()]
            users = [[k, [(u.name, i) for u, i in v]] for k, v in n.target_users().items()]
            rows.append([str(n.node_type), n.name, code, str(providers), str(users)])
        widths = [max(len(r[c]) for r in rows) for c in range(5)]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
        lines.insert(1, "  ".join("-" * w for w in widths))
        return f"\n[{self.cls_name}]\n" + "\n".join(lines) + "\n"


def _default_name(node: _NodeImpl) -> str:
    if node.node_type in (NodeType.CallCell, NodeType.CallPrimitive, NodeType.CallFunction, NodeType.Tree):
        return type(node.instance).__name__
    return {NodeType.Python: "python_node", NodeType.Input: "parameter", NodeType.Output: "return",
            NodeType.MathOps: "math_ops"}.get(node.node_type, str(node.node_type))


def _func_name(node: _NodeImpl) -> str:
    """The name a call node calls (the function, or the ``self.<field>`` of a sub-network)."""
    if node.func is None:
        raise RuntimeError(f"SymbolTree: call node {node.name!r} ({node.node_type}) has no function name.")
    return node.func.value


_OpT = TypeVar("_OpT", ast.operator, ast.unaryop, ast.boolop, ast.cmpop)


def _math_ops(node: _NodeImpl, op_type: type[_OpT]) -> list[_OpT]:
    """The operators of a MathOps node, checked to be of the kind its expression takes."""
    ops = [op for op in node.ops if isinstance(op, op_type)]
    if len(ops) != len(node.ops):
        raise RuntimeError(f"SymbolTree: math node {node.name!r} expects {op_type.__name__} operators, "
                           f"got {node.ops!r}.")
    return ops


def _call(node: _NodeImpl) -> ast.Call:
    func = node.func_ast
    if func is None:
        if node.node_type == NodeType.CallFunction:
            func = ast.Name(id=_func_name(node), ctx=ast.Load())
        else:  # an inserted Cell or Primitive lives on the network under the node's name
            func = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=node.name, ctx=ast.Load())
    return ast.Call(func=copy.deepcopy(func), args=[node.arg_ast(i) for i in range(len(node.args))],
                    keywords=node.keywords())


def _statement(node: _NodeImpl) -> ast.stmt | None:
    kind = node.node_type
    if kind == NodeType.Input:
        return None
    if kind == NodeType.Python:
        return copy.deepcopy(node.stmt)
    if kind == NodeType.Output:
        return ast.Return(value=node.arg_ast(0) if node.args else None)
    if kind == NodeType.MathOps:
        args = [node.arg_ast(i) for i in range(len(node.args))]
        if node.ast_kind is ast.BinOp:
            value: ast.expr = ast.BinOp(left=args[0], op=_math_ops(node, ast.operator)[0], right=args[1])
        elif node.ast_kind is ast.UnaryOp:
            value = ast.UnaryOp(op=_math_ops(node, ast.unaryop)[0], operand=args[0])
        elif node.ast_kind is ast.BoolOp:
            value = ast.BoolOp(op=_math_ops(node, ast.boolop)[0], values=args)
        else:
            value = ast.Compare(left=args[0], ops=_math_ops(node, ast.cmpop), comparators=args[1:])
    elif kind == NodeType.CallMethod:
        args = [node.arg_ast(i) for i in range(len(node.args))]
        method = node.func.value if node.func is not None else "pass_through"
        if method == "tuple":
            value = ast.Tuple(elts=args, ctx=ast.Load())
        elif method == "list":
            value = ast.List(elts=args, ctx=ast.Load())
        elif method == "dict":
            kws = node.keywords()
            value = ast.Dict(keys=[ast.Constant(k.arg) for k in kws], values=[k.value for k in kws])
        else:
            value = args[0]
    else:
        value = _call(node)
    if not node.targets:
        return ast.Expr(value=value)
    return ast.Assign(targets=[_store(node.targets_ast())], value=value)


def _store(target: ast.expr) -> ast.expr:
    # Only the assigned expressions are stores: `x` in `x[0] = v` is still loaded.
    for sub in [target, *(target.elts if isinstance(target, ast.Tuple) else [])]:
        if hasattr(sub, "ctx"):
            sub.ctx = ast.Store()
    return target


class SymbolTree:
    """The statements of a network's ``construct`` as editable nodes; ``get_network`` builds the edited network.

    Args:
        handler: the internal tree handle; use ``SymbolTree.create(network)`` instead of this constructor.
    """

    def __init__(self, handler: _TreeImpl) -> None:
        _check_type("handler", handler, (_TreeImpl,), "SymbolTree")
        self._symbol_tree = handler

    @classmethod
    def create(cls, network: Cell) -> SymbolTree:
        """Parse ``network.construct`` (its Python source) into a SymbolTree.

        Nested expressions become one node per call or operator; calls of ``nn`` Cells are ``CallCell``
        nodes, of user-defined Cells ``Tree`` nodes holding a sub-tree; ``if``/``for``/``while`` are
        ``ControlFlow`` nodes; statements rewrite does not model are opaque ``Python`` nodes.
        """
        _check_type("network", network, (Cell,), "SymbolTree")
        return _TreeImpl(network).api()

    def get_handler(self) -> _TreeImpl:
        return self._symbol_tree

    def nodes(self, all_nodes: bool = False) -> Iterator[Node]:
        """The nodes of ``construct`` in order (``all_nodes``: also those inside control flow and containers)."""
        _check_type("all_nodes", all_nodes, (bool,), "nodes")
        impls = self._symbol_tree.all_nodes() if all_nodes else list(self._symbol_tree.nodes)
        for impl in impls:
            yield Node(impl)

    def get_node(self, node_name: str) -> Node | None:
        """The node named ``node_name`` (inside control flow too), or None."""
        _check_type("node_name", node_name, (str,), "SymbolTree")
        found = next((n for n in self._symbol_tree.walk() if n.name == node_name), None)
        return None if found is None else Node(found)

    def get_inputs(self) -> list[Node]:
        return [Node(n) for n in self._symbol_tree.nodes if n.node_type == NodeType.Input]

    def before(self, node: Node | str) -> Position:
        """The position before ``node`` (a Node or a node name), for ``insert``."""
        _check_type("node", node, (Node, str), "SymbolTree")
        impl = node.get_handler() if isinstance(node, Node) else node
        found = self._symbol_tree.find(impl, "before")
        return Position(found.tree, found, True)

    def after(self, node: Node | str) -> Position:
        """The position after ``node`` (a Node or a node name), for ``insert``."""
        _check_type("node", node, (Node, str), "SymbolTree")
        impl = node.get_handler() if isinstance(node, Node) else node
        found = self._symbol_tree.find(impl, "after")
        return Position(found.tree, found, False)

    def insert(self, position: Position, node: Node) -> Node:
        """Insert ``node`` at ``position``; its name is made unique in this tree."""
        _check_type("position", position, (Position,), "SymbolTree")
        _check_type("node", node, (Node,), "SymbolTree")
        if position.symbol_tree is not None and position.symbol_tree is not self._symbol_tree:
            raise ValueError("SymbolTree.insert: the position belongs to another SymbolTree.")
        return Node(self._symbol_tree.insert(node.get_handler(), position.node, position.before_node))

    def erase(self, node: Node | str) -> Node:
        """Remove ``node`` (its users keep their arguments, as in MindSpore); returns it."""
        _check_type("node", node, (Node, str), "SymbolTree")
        impl = node.get_handler() if isinstance(node, Node) else node
        return Node(self._symbol_tree.erase(self._symbol_tree.find(impl, "erase")))

    def replace(self, old_node: Node, new_nodes: list[Node]) -> Node:
        """Insert ``new_nodes`` in order where ``old_node`` is, then erase it; returns the last new node."""
        _check_type("old_node", old_node, (Node,), "SymbolTree")
        if not isinstance(new_nodes, (list, tuple)) or not new_nodes or not all(
                isinstance(n, Node) for n in new_nodes):
            raise TypeError(f"For 'SymbolTree', 'new_nodes' should be a non-empty list of Node, got {new_nodes!r}.")
        tree = self._symbol_tree
        base = tree.find(old_node.get_handler(), "replace")
        for new in new_nodes:
            base = tree.insert(new.get_handler(), base, False)
        tree.erase(old_node.get_handler())
        return Node(base)

    def print_node_tabulate(self, all_nodes: bool = False) -> None:
        """Print each node's type, name, code, argument providers and target users."""
        _check_type("all_nodes", all_nodes, (bool,), "print_node_tabulate")
        text = self._symbol_tree.tabulate()
        if all_nodes:
            for node in self._symbol_tree.walk():
                if node.sub_tree is not None:
                    text += node.sub_tree.tabulate()
        print(text)

    def get_code(self) -> str:
        """Source code of the (edited) network class."""
        return self._symbol_tree.get_code()

    def get_network(self) -> Cell:
        """A new network whose ``construct`` is the edited code; it shares the original's Cells and Parameters."""
        return self._symbol_tree.get_network()

    def unique_name(self, name: str = "output") -> str:
        """A variable name not yet used in this tree, based on ``name``."""
        _check_type("name", name, (str,), "SymbolTree")
        return self._symbol_tree.unique_name(name)

    def get_origin_network(self) -> Cell:
        return self._symbol_tree.network
