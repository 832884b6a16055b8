"""Unique names and the statement flattener used when a ``construct`` is parsed.

Both follow MindSpore's rewrite so that generated node names and variable names are the ones it produces:
nested calls and operators are split into one assignment each, named ``<callee>_var`` / ``<op>_var`` and
deduplicated with ``_1``, ``_2``... suffixes.
"""
from __future__ import annotations

import ast
import keyword
from typing import Callable

__all__ = ["Namer", "flatten_body"]


class Namer:
    """Hands out unique names: the first request for ``n`` gets ``n``, later ones ``n_1``, ``n_2``...

    >>> namer = Namer()
    >>> [namer.get_name("relu") for _ in range(3)]
    ['relu', 'relu_1', 'relu_2']
    """

    def __init__(self) -> None:
        self._names: dict[str, int] = {}

    @staticmethod
    def _split_suffix(name: str) -> tuple[str, int | None]:
        pos = name.rfind("_")
        if name == "_" or pos in (-1, len(name) - 1) or not name[pos + 1:].isdigit():
            return name, None
        return name[:pos], int(name[pos + 1:])

    def get_name(self, origin: str) -> str:
        if origin == "_":
            return origin
        base, suffix = self._split_suffix(origin)
        number = self._names.get(origin)
        if number is None:
            self._names[origin] = 1
            # "relu_3" is free unless "relu" has already handed out suffixes up to 3.
            if not suffix or not self._names.get(base, -1) > suffix:
                return origin
            number = 1
        while True:
            candidate = f"{origin}_{number}"
            number += 1
            self._names[origin] = number
            if candidate not in self._names:
                return candidate

    def add_name(self, name: str) -> None:
        self._names.setdefault(name, 1)


_FIELDS: dict[type, tuple[str, ...]] = {
    ast.Return: ("value",), ast.Call: ("func", "args", "keywords"), ast.BinOp: ("left", "right"),
    ast.BoolOp: ("values",), ast.UnaryOp: ("operand",), ast.Compare: ("left", "comparators"),
    ast.If: ("test",), ast.For: ("iter",), ast.Tuple: ("elts",), ast.List: ("elts",),
}


def _target_names(body: list[ast.stmt]) -> list[str]:
    names: list[str] = []
    for stmt in body:
        if not isinstance(stmt, ast.Assign):
            continue
        stack: list = list(stmt.targets)
        while stack:
            item = stack.pop()
            if isinstance(item, ast.Name):
                if item.id not in names:
                    names.append(item.id)
            elif isinstance(item, (ast.Tuple, ast.List)):
                stack.extend(item.elts)
    return names


class _Flattener:
    def __init__(self, unique: Callable[[str], str] | None) -> None:
        self._unique = unique

    def _new_name(self, node: ast.AST, taken: list[str]) -> str:
        if isinstance(node, ast.Call):
            func = node.func
            base = (func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute)
                    else "function") + "_var"
        elif isinstance(node, ast.Return):
            base = "return_value"
        elif isinstance(node, (ast.BinOp, ast.BoolOp, ast.UnaryOp)):
            base = type(node.op).__name__.lower() + "_var"
        elif isinstance(node, ast.Name):
            base = node.id
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            base = f"{node.value.id}_{node.attr}"
        else:
            base = type(node).__name__.lower() + "_var"
        if keyword.iskeyword(base):
            base += "_var"
        result, suffix = base, 0
        while result in taken:
            suffix += 1
            result = f"{base}_{suffix}"
        if self._unique is not None:
            result = self._unique(result)
        taken.append(result)
        return result

    def _hoist(self, node: ast.expr, taken: list[str], parent: ast.AST) -> tuple[ast.expr, ast.Assign | None]:
        if isinstance(node, (ast.Name, ast.Constant)):
            return node, None
        if isinstance(node, ast.Attribute) and not isinstance(parent, ast.For):
            root = node
            while isinstance(root.value, ast.Attribute):
                root = root.value
            if isinstance(root.value, ast.Name):
                return node, None
            # MindSpore hoists the innermost object and rebuilds only its first attribute access.
            name = self._new_name(root.value, taken)
            new = ast.Attribute(value=ast.Name(id=name, ctx=ast.Load()), attr=root.attr, ctx=root.ctx)
            return new, ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=root.value)
        name = self._new_name(node, taken)
        return (ast.Name(id=name, ctx=ast.Load()),
                ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=node))

    def _flatten(self, node: ast.AST, taken: list[str]) -> list[ast.Assign]:
        fields = _FIELDS.get(type(node))
        if fields is None:
            return []
        hoisted: list[ast.Assign] = []
        for field in fields:
            todo = getattr(node, field)
            if isinstance(todo, list):
                new_list = []
                for idx, item in enumerate(todo):
                    if isinstance(item, ast.Starred) or (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)
                                                         and idx > 0):
                        new_list.append(item)  # `a and b`: b must stay lazily evaluated
                        continue
                    if isinstance(item, ast.keyword):
                        new, assign = self._hoist(item.value, taken, node)
                        if assign is not None:
                            item.value = new
                            hoisted.append(assign)
                        new_list.append(item)
                        continue
                    new, assign = self._hoist(item, taken, node)
                    new_list.append(new)
                    if assign is not None:
                        hoisted.append(assign)
                setattr(node, field, new_list)
            else:
                new, assign = self._hoist(todo, taken, node)
                if assign is not None:
                    setattr(node, field, new)
                    hoisted.append(assign)
        return hoisted

    def body(self, body: list[ast.stmt]) -> None:
        # `a = b = v` becomes `b = v; a = b`, as in MindSpore.
        pos = 0
        while pos < len(body):
            stmt = body[pos]
            if isinstance(stmt, ast.Assign) and len(stmt.targets) > 1:
                extra = [ast.Assign(targets=[t], value=stmt.targets[i + 1]) for i, t in enumerate(stmt.targets[:-1])]
                stmt.targets = [stmt.targets[-1]]
                body[pos + 1:pos + 1] = extra
            pos += 1
        taken = _target_names(body)
        # Walk backwards; hoisted assignments land before their statement and are flattened next, so names are
        # handed out from the last statement to the first (hence LeNet's `relu_var_1` before `relu_var`).
        index = len(body) - 1
        while index >= 0:
            stmt = body[index]
            target = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else stmt
            for assign in reversed(self._flatten(target, taken)):
                body.insert(index, assign)
                index += 1
            index -= 1


def flatten_body(body: list[ast.stmt], unique: Callable[[str], str] | None = None) -> None:
    """Split nested expressions of the statements in ``body`` into separate assignments, in place.

    >>> tree = ast.parse("x = self.pool(self.relu(self.conv(x)))")
    >>> flatten_body(tree.body)
    >>> print(ast.unparse(ast.fix_missing_locations(tree)))
    conv_var = self.conv(x)
    relu_var = self.relu(conv_var)
    x = self.pool(relu_var)
    """
    _Flattener(unique).body(body)

