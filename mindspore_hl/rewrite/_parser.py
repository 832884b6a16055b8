"""Parse a Cell's ``construct`` source into rewrite nodes, following MindSpore's statement rules."""
from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
from typing import TYPE_CHECKING, Any

from .. import nn
from ..nn.cell import Cell
from ..ops._primitives import Primitive
from ._flatten import flatten_body
from ._node import _NodeImpl
from ._values import NodeType, ScopedValue, from_ast

if TYPE_CHECKING:
    from ._symbol_tree import _TreeImpl

__all__ = ["parse_construct", "is_builtin_cell"]

_CONTAINERS = (nn.SequentialCell, nn.CellList)


def is_builtin_cell(cell: Cell) -> bool:
    """A Cell class of the ``nn`` namespace: called as one ``CallCell`` node, not parsed into a sub-tree."""
    return getattr(nn, type(cell).__name__, None) is type(cell)


def construct_source(network: Cell) -> ast.FunctionDef:
    fn = type(network).construct
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError) as err:
        raise RuntimeError(f"SymbolTree.create: cannot read the source of {type(network).__name__}.construct "
                           f"({err}); rewrite parses the Python source of the network.") from err
    node = ast.parse(textwrap.dedent(source)).body[0]
    if not isinstance(node, ast.FunctionDef):
        raise RuntimeError(f"SymbolTree.create: {type(network).__name__}.construct is not a plain function "
                           f"definition (got {type(node).__name__}).")
    return node


def _targets(target: ast.expr) -> list[ScopedValue]:
    elems: list[ast.expr] = []
    stack = [target]
    while stack:  # depth-first, left to right, as MindSpore lists tuple targets
        item = stack.pop(0)
        if isinstance(item, (ast.Tuple, ast.List)):
            stack[0:0] = list(item.elts)
        else:
            elems.append(item)
    return [from_ast(e) for e in elems]


def _simple_elts(elts: list[ast.expr]) -> bool:
    return all(isinstance(e, (ast.Name, ast.Attribute, ast.Tuple, ast.Constant)) for e in elts)


def _str_keys(keys: list[ast.expr | None]) -> list[str] | None:
    """The keys of a dict display when all are string constants (``{**d}`` has a None key), else None."""
    names = [k.value for k in keys if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return names if len(names) == len(keys) else None


class _Parser:
    def __init__(self, tree: _TreeImpl, network: Cell, fn_globals: dict[str, Any]) -> None:
        self.tree = tree
        self.network = network
        self.globals = fn_globals
        self.loop_vars: list[set[str]] = []

    # ---- helpers ----
    def _python(self, stmt: ast.stmt, container: list[_NodeImpl]) -> None:
        node = _NodeImpl(NodeType.Python, type(stmt).__name__)
        node.stmt = stmt
        self.tree.append(node, container)

    def _call_node(self, kind: NodeType, name: str, targets: list[ScopedValue], call: ast.Call,
                   instance: Any = None) -> _NodeImpl:
        args = [from_ast(a) for a in call.args]
        kwargs = {kw.arg: from_ast(kw.value) for kw in call.keywords if kw.arg is not None}
        func = call.func
        scope = ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""
        node = _NodeImpl(kind, name, targets, ScopedValue.create_naming_value(name, scope), args, kwargs, instance)
        node.arg_asts = list(call.args)
        node.kwarg_asts = {kw.arg: kw.value for kw in call.keywords if kw.arg is not None}
        node.func_ast = func
        return node

    def _resolve(self, dotted: str) -> Any:
        parts = dotted.split(".")
        if parts[0] in self.globals:
            obj = self.globals[parts[0]]
        elif hasattr(builtins, parts[0]):
            obj = getattr(builtins, parts[0])
        else:
            return None
        for part in parts[1:]:
            obj = getattr(obj, part, None)
            if obj is None:
                return None
        return obj

    # ---- statements ----
    def body(self, stmts: list[ast.stmt], container: list[_NodeImpl]) -> None:
        for stmt in stmts:
            self.statement(stmt, container)

    def statement(self, stmt: ast.stmt, container: list[_NodeImpl]) -> None:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            self.assign(stmt, container)
        elif isinstance(stmt, ast.Return):
            args = [] if stmt.value is None else [from_ast(stmt.value)]
            node = _NodeImpl(NodeType.Output, "return", [], ScopedValue.create_naming_value("return"), args)
            node.arg_asts = [] if stmt.value is None else [stmt.value]
            self.tree.append(node, container)
        elif isinstance(stmt, (ast.If, ast.For, ast.While)):
            self.control_flow(stmt, container)
        else:
            # Expressions, augmented assignments, raise, assert...: kept as opaque Python nodes, as MindSpore does.
            self._python(stmt, container)

    def control_flow(self, stmt: ast.If | ast.For | ast.While, container: list[_NodeImpl]) -> None:
        flatten_body(stmt.body, self.tree.unique_name)
        if stmt.orelse:
            flatten_body(stmt.orelse, self.tree.unique_name)
        kind = {ast.If: "if", ast.For: "for", ast.While: "while"}[type(stmt)]
        source = stmt.iter if isinstance(stmt, ast.For) else stmt.test
        node = _NodeImpl(NodeType.ControlFlow, f"{kind}_node", [], None, [from_ast(source)])
        node.arg_asts = [source]
        node.ast_kind = type(stmt)
        loop_vars: set[str] = set()
        if isinstance(stmt, ast.For):
            node.loop_target = stmt.target
            loop_vars = {ast.unparse(e) for e in _targets_ast(stmt.target)}
        self.tree.append(node, container)
        self.loop_vars.append(loop_vars)
        self.body(stmt.body, node.body)
        if stmt.orelse:
            else_name = "else_node" if kind == "if" else f"{kind}_else_node"
            other = _NodeImpl(NodeType.ControlFlow, else_name, [], None, list(node.args))
            other.arg_asts = [source]
            other.orelse_of = node
            other.ast_kind = type(stmt)
            self.tree.append(other, container)
            self.body(stmt.orelse, other.body)
        self.loop_vars.pop()

    def assign(self, stmt: ast.Assign, container: list[_NodeImpl]) -> None:
        value = stmt.value
        targets = _targets(stmt.targets[0])
        if isinstance(value, ast.Call):
            if any(kw.arg is None for kw in value.keywords):
                self._python(stmt, container)  # `f(**kw)` has no ScopedValue form
                return
            self._append_assign(self.call(value, targets), stmt, container)
            return
        if isinstance(value, (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare)):
            self._append_assign(_math_node(value, targets), stmt, container)
            return
        if isinstance(value, ast.Subscript):
            node = _NodeImpl(NodeType.CallMethod, "subscript_var", targets, ScopedValue.create_naming_value(
                "pass_through"), [from_ast(value)])
        elif isinstance(value, (ast.Constant, ast.Name, ast.Attribute)):
            node = _NodeImpl(NodeType.CallMethod, f"{type(value).__name__.lower()}_assign", targets,
                             ScopedValue.create_naming_value("pass_through"), [from_ast(value)])
        elif isinstance(value, (ast.Tuple, ast.List)) and _simple_elts(value.elts):
            name = "tuple" if isinstance(value, ast.Tuple) else "list"
            node = _NodeImpl(NodeType.CallMethod, name, targets, ScopedValue.create_naming_value(name),
                             [from_ast(e) for e in value.elts])
            node.arg_asts = list(value.elts)
            self._append_assign(node, stmt, container)
            return
        elif (isinstance(value, ast.Dict) and (keys := _str_keys(value.keys)) is not None
              and _simple_elts(value.values)):
            node = _NodeImpl(NodeType.CallMethod, "dict", targets, ScopedValue.create_naming_value("dict"), [],
                             {k: from_ast(v) for k, v in zip(keys, value.values)})
            node.kwarg_asts = {k: v for k, v in zip(keys, value.values)}
            self._append_assign(node, stmt, container)
            return
        else:
            self._python(stmt, container)
            return
        node.arg_asts = [value]
        self._append_assign(node, stmt, container)

    def _append_assign(self, node: _NodeImpl, stmt: ast.Assign, container: list[_NodeImpl]) -> None:
        node.target_ast = stmt.targets[0]  # written back as parsed: `p, (q, r) = ...` keeps its nesting
        self.tree.append(node, container)

    def call(self, call: ast.Call, targets: list[ScopedValue]) -> _NodeImpl:
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else ast.unparse(func)
        scope = ast.unparse(func.value) if isinstance(func, ast.Attribute) else ""
        full = f"{scope}.{name}" if scope else name
        plain = NodeType.CallFunction
        if any(isinstance(n, ast.Call) for n in ast.walk(func)) or full in dir(builtins):
            return self._call_node(plain, name, targets, call)
        if any(full in lv for lv in self.loop_vars):
            return self._call_node(plain, name, targets, call)
        if scope == "self":
            attr = getattr(self.network, name, None)
            if isinstance(attr, Cell):
                return self.cell_call(call, targets, name, attr)
            if isinstance(attr, Primitive):
                return self._call_node(NodeType.CallPrimitive, name, targets, call, attr)
            if inspect.ismethod(attr):
                # MindSpore also parses the method body into nodes of this CallFunction; that is left out here.
                return self._call_node(plain, name, targets, call, attr)
            return self._call_node(plain, name, targets, call)
        obj = self._resolve(full)
        if isinstance(obj, Primitive):
            return self._call_node(NodeType.CallPrimitive, name, targets, call, obj)
        if inspect.isfunction(obj):
            return self._call_node(plain, name, targets, call, obj)
        return self._call_node(plain, name, targets, call)

    def cell_call(self, call: ast.Call, targets: list[ScopedValue], name: str, cell: Cell) -> _NodeImpl:
        if isinstance(cell, _CONTAINERS):
            node = self._call_node(NodeType.CellContainer, name, targets, call, cell)
            for sub in cell:
                inner = self._call_node(NodeType.CallCell, type(sub).__name__, targets, call, sub)
                if not is_builtin_cell(sub):
                    inner.node_type = NodeType.Tree
                    inner.sub_tree = self.tree.subtree(sub)
                # MindSpore names the contained cells' nodes before the container's own node.
                self.tree.append(inner, node.body)
            return node
        if is_builtin_cell(cell):
            return self._call_node(NodeType.CallCell, name, targets, call, cell)
        node = self._call_node(NodeType.Tree, name, targets, call, cell)
        node.sub_tree = self.tree.subtree(cell)
        return node


def _targets_ast(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return [e for elt in target.elts for e in _targets_ast(elt)]
    return [target]


def _math_node(value: ast.BinOp | ast.UnaryOp | ast.BoolOp | ast.Compare, targets: list[ScopedValue]) -> _NodeImpl:
    kind = type(value).__name__
    operands: list[ast.expr]
    ops: list[ast.operator | ast.unaryop | ast.boolop | ast.cmpop]
    if isinstance(value, ast.BinOp):
        operands, ops = [value.left, value.right], [value.op]
    elif isinstance(value, ast.UnaryOp):
        operands, ops = [value.operand], [value.op]
    elif isinstance(value, ast.BoolOp):
        operands, ops = list(value.values), [value.op]
    else:
        operands, ops = [value.left, *value.comparators], list(value.ops)
    name = "_".join([kind] + [type(op).__name__ for op in ops]).lower()
    node = _NodeImpl(NodeType.MathOps, name, targets, ScopedValue.create_naming_value(kind),
                     [from_ast(o) for o in operands])
    node.arg_asts = list(operands)
    node.ops = ops
    node.ast_kind = type(value)
    return node


def parse_construct(tree: _TreeImpl, network: Cell) -> ast.FunctionDef:
    """Fill ``tree`` with the nodes of ``network.construct``; returns its definition (parameters, annotations)."""
    fdef = construct_source(network)
    body = [s for s in fdef.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)
                                        and isinstance(s.value.value, str))]  # docstrings
    flatten_body(body)
    parser = _Parser(tree, network, type(network).construct.__globals__)
    for arg in fdef.args.args[1:]:
        node = _NodeImpl(NodeType.Input, f"input_{arg.arg}", [ScopedValue.create_naming_value(arg.arg)])
        tree.append(node, tree.nodes)
    parser.body(body, tree.nodes)
    # Statements after the first top-level return never run: MindSpore drops their nodes.
    for i, node in enumerate(tree.nodes):
        if node.node_type == NodeType.Output:
            del tree.nodes[i + 1:]
            break
    return fdef
