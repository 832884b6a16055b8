"""Static checks and name analysis over a function's AST (no transformation here).

``assigned_names`` finds the local names a block of statements binds (its would-be loop / branch state);
``validate`` rejects the syntax the static-graph conversion cannot keep faithful, naming the file, the line
and what to write instead.
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from typing import Iterator

# Nodes that open a new Python scope: their bodies are neither analysed nor converted.
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp,
          ast.DictComp, ast.GeneratorExp)


class GraphSyntaxError(SyntaxError):
    """A construct that GRAPH_MODE's static-graph syntax does not support; the message says what to write."""

    def __init__(self, msg: str, filename: str, lineno: int) -> None:
        super().__init__(f'File "{filename}", line {lineno}: {msg}')
        self.filename, self.lineno = filename, lineno


def walk_local(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` (itself excluded) that belongs to the same Python scope."""
    for child in ast.iter_child_nodes(node):
        yield child
        if not isinstance(child, SCOPES):
            yield from walk_local(child)


def _target_names(target, out):
    if isinstance(target, ast.Name):
        out.append(target.id)
    elif isinstance(target, (ast.Tuple, ast.List)):
        for t in target.elts:
            _target_names(t, out)
    elif isinstance(target, ast.Starred):
        _target_names(target.value, out)


def assigned_names(stmts: list[ast.stmt]) -> list[str]:
    """Names bound by ``stmts`` in their own scope, in first-binding order."""
    out: list[str] = []
    for stmt in stmts:
        nodes = [stmt] + list(walk_local(stmt))
        for node in nodes:
            if isinstance(node, (ast.Assign,)):
                for t in node.targets:
                    _target_names(t, out)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                _target_names(node.target, out)
            elif isinstance(node, (ast.For, ast.AsyncFor)):
                _target_names(node.target, out)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                _target_names(node.optional_vars, out)
            elif isinstance(node, ast.NamedExpr):
                _target_names(node.target, out)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                out.extend((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.ExceptHandler) and node.name:
                out.append(node.name)
    seen, names = set(), []
    for n in out:
        if n not in seen:
            seen.add(n)
            names.append(n)
    return names


def child_blocks(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The statement lists nested directly in ``stmt`` (bodies, else-blocks, handlers)."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(stmt, field, None)
        if isinstance(block, list):
            yield block
    for h in getattr(stmt, "handlers", None) or []:
        yield h.body


def contains(stmts: list[ast.stmt], kinds: type[ast.AST] | tuple[type[ast.AST], ...],
             stop_at_loops: bool = False) -> bool:
    """Whether ``stmts`` contain a statement of ``kinds`` in their scope (not inside nested loops if asked)."""
    for stmt in stmts:
        if isinstance(stmt, kinds):
            return True
        if isinstance(stmt, SCOPES):
            continue
        if stop_at_loops and isinstance(stmt, (ast.For, ast.While)):
            if contains(stmt.orelse, kinds, stop_at_loops):
                return True
            continue
        if any(contains(block, kinds, stop_at_loops) for block in child_blocks(stmt)):
            return True
    return False


_UNSUPPORTED: dict[type[ast.stmt] | type[ast.expr], str] = {
    ast.Yield: "`yield` (a generator) is not supported in GRAPH_MODE's static graph syntax. Fix: return a tuple "
               "or list of the values instead.",
    ast.YieldFrom: "`yield from` (a generator) is not supported in GRAPH_MODE's static graph syntax. Fix: return a "
                   "tuple or list of the values instead.",
    ast.Await: "`await` is not supported in GRAPH_MODE's static graph syntax. Fix: make the function synchronous.",
    ast.AsyncFor: "`async for` is not supported in GRAPH_MODE's static graph syntax. Fix: use a plain `for`.",
    ast.AsyncWith: "`async with` is not supported in GRAPH_MODE's static graph syntax. Fix: use a plain `with`.",
    ast.Global: "`global` is not supported in GRAPH_MODE's static graph syntax: a compiled function cannot rebind "
                "module variables. Fix: pass the value as an argument and return the new one, or keep it in a "
                "Parameter and update it with `param.set_data(...)`.",
    ast.Nonlocal: "`nonlocal` is not supported in GRAPH_MODE's static graph syntax. Fix: return the new value "
                  "from the inner function instead of rebinding the outer variable.",
    ast.Match: "`match` statements are not supported in GRAPH_MODE's static graph syntax. Fix: write an "
               "`if/elif/else` chain.",
}


def validate(fn_node: ast.FunctionDef, filename: str) -> None:
    """Raise GraphSyntaxError for the first unsupported construct in ``fn_node``'s own scope."""
    if isinstance(fn_node, ast.AsyncFunctionDef):
        raise GraphSyntaxError("an `async def` cannot be compiled in GRAPH_MODE. Fix: make it a plain `def`.",
                               filename, fn_node.lineno)
    for node in walk_local(fn_node):
        for kind, msg in _UNSUPPORTED.items():
            if isinstance(node, kind):
                raise GraphSyntaxError(msg, filename, node.lineno)
        if isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            node = cast(ast.Try, node)  # ast.TryStar (3.11+) has Try's fields
            if contains(node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body],
                        (ast.Return, ast.Break, ast.Continue)):
                raise GraphSyntaxError(
                    "`return`, `break` or `continue` inside `try` is not supported in GRAPH_MODE's static graph "
                    "syntax: exceptions happen while compiling, not while the graph runs, so the jump cannot be "
                    "converted. Fix: move the `return`/`break`/`continue` out of the `try` block (set a variable "
                    "inside it and test that variable after the block).", filename, node.lineno)
        if isinstance(node, (ast.If, ast.While, ast.For)):
            for inner in [s for s in node.body + node.orelse]:
                for n in [inner] + list(walk_local(inner)):
                    if isinstance(n, ast.Delete) and any(isinstance(t, ast.Name) for t in n.targets):
                        raise GraphSyntaxError(
                            "`del` of a variable inside an if/while/for body is not supported in GRAPH_MODE's "
                            "static graph syntax (the variable would exist in one branch only). Fix: assign it a "
                            "new value (e.g. None) instead of deleting it.", filename, n.lineno)
        if isinstance(node, ast.While):
            for n in [node.test] + list(walk_local(node.test)):
                if isinstance(n, ast.NamedExpr):
                    raise GraphSyntaxError(
                        "an assignment expression (`:=`) in a `while` condition is not supported in GRAPH_MODE's "
                        "static graph syntax. Fix: assign the variable before the loop and at the end of its "
                        "body.", filename, n.lineno)
        if isinstance(node, (ast.BoolOp, ast.IfExp)):
            for n in walk_local(node):
                if isinstance(n, ast.NamedExpr):
                    raise GraphSyntaxError(
                        "an assignment expression (`:=`) inside `and`/`or`/`... if ... else ...` is not supported "
                        "in GRAPH_MODE's static graph syntax. Fix: assign the variable in a statement before the "
                        "expression.", filename, n.lineno)
