"""The source transformation: a function's AST with ``if``/``while``/``for``/``and``/``or``/``not``/``x if c else y``
rewritten into calls of the run-time helpers in ``_runtime`` (imported by the generated code as ``ag__``).

Passes, in order (as TF AutoGraph does):
1. ``return`` inside a block becomes ``ag__do_return = True; ag__retval = value`` (plus ``break`` inside loops)
   and the statements after it are guarded by ``if not ag__do_return``;
2. ``break`` / ``continue`` become flags, the statements after them are guarded, a ``while`` test gets
   ``not break_flag and ...``, a loop's ``else`` block runs under ``if not break_flag``;
3. reads of variables that control flow assigns go through ``ag__.ld`` (a clear error for undefined values);
   ``and``/``or``/``not``/conditional expressions/comparison chains become ``ag__.and_`` etc.; called
   functions go through ``ag__.call`` (user functions are converted in turn);
4. each ``if``/``while``/``for`` becomes nested functions over the variables it assigns, and a call of
   ``ag__.if_stmt`` / ``while_stmt`` / ``for_stmt`` that returns their new values.
"""
from __future__ import annotations

import ast
import builtins
import itertools

from ._analysis import SCOPES, assigned_names, child_blocks, contains, walk_local

AG = "ag__"
_BUILTINS = frozenset(dir(builtins))
DO_RETURN = "ag__do_return"
RETVAL = "ag__retval"


def _load(name):
    return ast.Name(id=name, ctx=ast.Load())


def _store(name):
    return ast.Name(id=name, ctx=ast.Store())


def _ag(attr, *args):
    return ast.Call(func=ast.Attribute(value=_load(AG), attr=attr, ctx=ast.Load()), args=list(args), keywords=[])


def _assign(name, value):
    return ast.Assign(targets=[_store(name)], value=value)


def _const(v):
    return ast.Constant(value=v)


def _lambda(body):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[],
                                         kwarg=None, defaults=[]), body=body)


def _guard(flag, stmts):
    node = ast.If(test=_ag("not_", _load(flag)), body=stmts, orelse=[])
    node.ag_guard = True  # type: ignore[attr-defined]  # a mark on the AST node for the later passes
    return node


def _located(nodes, like):
    for n in nodes:
        ast.copy_location(n, like)
        for sub in ast.walk(n):
            if not hasattr(sub, "lineno") and "lineno" in sub._attributes:
                # a node class with positions (its _attributes say so); ast.AST declares none
                sub.lineno, sub.col_offset = like.lineno, like.col_offset  # type: ignore[attr-defined]
                sub.end_lineno, sub.end_col_offset = like.lineno, like.col_offset  # type: ignore[attr-defined]
    return nodes


# ---- pass 1: return -------------------------------------------------------------------------------------
def _nested_return(stmts):
    return any(contains(list(b), ast.Return) for s in stmts if not isinstance(s, SCOPES) for b in child_blocks(s))


def _lower_return_block(stmts, in_loop):
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Return):
            value = s.value if s.value is not None else _const(None)
            new = [_assign(DO_RETURN, _const(True)), _assign(RETVAL, value)] + ([ast.Break()] if in_loop else [])
            out.extend(_located(new, s))
            return out
        had = not isinstance(s, SCOPES) and contains([s], ast.Return)
        if had:
            if isinstance(s, (ast.While, ast.For)):
                s.body = _lower_return_block(s.body, True)
                s.orelse = _lower_return_block(s.orelse, in_loop)
            elif isinstance(s, ast.If):
                s.body = _lower_return_block(s.body, in_loop)
                s.orelse = _lower_return_block(s.orelse, in_loop)
            elif isinstance(s, ast.With):
                s.body = _lower_return_block(s.body, in_loop)
        out.append(s)
        rest = stmts[i + 1:]
        if had and rest:
            out.extend(_located([_guard(DO_RETURN, _lower_return_block(rest, in_loop))], rest[0]))
            return out
    return out


def lower_returns(fn: ast.FunctionDef) -> None:
    if not _nested_return(fn.body):
        return
    body = _lower_return_block(fn.body, False)
    head = _located([_assign(DO_RETURN, _const(False)), _assign(RETVAL, _ag("unset_return"))], fn.body[0])
    tail = _located([ast.Return(value=_ag("retval", _load(RETVAL)))], fn.body[-1])
    fn.body = head + body + tail


# ---- pass 2: break / continue ---------------------------------------------------------------------------
def _lower_jump_block(stmts, kind, flag):
    out = []
    for i, s in enumerate(stmts):
        if isinstance(s, kind):
            out.extend(_located([_assign(flag, _const(True))], s))
            return out
        had = not isinstance(s, SCOPES) and contains([s], kind, stop_at_loops=True)
        if had:
            if isinstance(s, ast.If):
                s.body = _lower_jump_block(s.body, kind, flag)
                s.orelse = _lower_jump_block(s.orelse, kind, flag)
            elif isinstance(s, ast.With):
                s.body = _lower_jump_block(s.body, kind, flag)
        out.append(s)
        rest = stmts[i + 1:]
        if had and rest:
            out.extend(_located([_guard(flag, _lower_jump_block(rest, kind, flag))], rest[0]))
            return out
    return out


class _Jumps:
    def __init__(self, counter):
        self.counter = counter

    def block(self, stmts):
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s):
        if isinstance(s, SCOPES):
            return [s]
        if isinstance(s, (ast.While, ast.For)):
            return self.loop(s)
        for field in ("body", "orelse", "finalbody"):
            if isinstance(getattr(s, field, None), list):
                setattr(s, field, self.block(getattr(s, field)))
        for h in getattr(s, "handlers", None) or []:
            h.body = self.block(h.body)
        return [s]

    def loop(self, s):
        s.body = self.block(s.body)
        orelse = self.block(s.orelse)
        s.orelse = []
        pre, post = [], []
        k = next(self.counter)
        if contains(s.body, ast.Continue, stop_at_loops=True):
            flag = f"ag__continue_{k}"
            s.body = _located([_assign(flag, _const(False))], s) + _lower_jump_block(s.body, ast.Continue, flag)
            pre += _located([_assign(flag, _const(False))], s)
        s.ag_break = None
        if contains(s.body, ast.Break, stop_at_loops=True):
            flag = f"ag__break_{k}"
            s.body = _lower_jump_block(s.body, ast.Break, flag)
            pre += _located([_assign(flag, _const(False))], s)
            s.ag_break = flag
            if isinstance(s, ast.While):
                s.test = _ag("and_", _lambda(_ag("not_", _load(flag))), _lambda(s.test))
            if orelse:
                post += _located([_guard(flag, orelse)], orelse[0])
        else:
            post += orelse
        return pre + [s] + post


def lower_jumps(fn: ast.FunctionDef) -> None:
    fn.body = _Jumps(itertools.count()).block(fn.body)


# ---- pass 3: expressions --------------------------------------------------------------------------------
def controlled_names(fn: ast.FunctionDef) -> list[str]:
    """Every name that an if/while/for of ``fn`` assigns (these may become undefined or carried state)."""
    names = []
    for node in walk_local(fn):
        if isinstance(node, (ast.If, ast.While, ast.For)):
            names += assigned_names([node])
    return list(dict.fromkeys(names))


class _Expressions(ast.NodeTransformer):
    filename: str  # set by the caller before visiting

    def __init__(self, loaded):
        self.loaded = set(loaded)

    def visit(self, node):
        if isinstance(node, SCOPES):
            return node
        return super().visit(node)

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if not (isinstance(func, ast.Name) and func.id in _BUILTINS):
            # A user function called here is converted too (as MindSpore parses the functions construct calls).
            node.func = ast.copy_location(_ag("call", func), func)
        return node

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.loaded:
            return ast.copy_location(_ag("ld", node), node)
        return node

    def _site(self, node):
        return ast.Tuple(elts=[_const(self.filename), _const(node.lineno)], ctx=ast.Load())

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        call = _ag(fn, *[_lambda(v) for v in node.values])
        call.keywords = [ast.keyword(arg="site", value=self._site(node))]
        return ast.copy_location(call, node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_ag("not_", node.operand, self._site(node)), node)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        return ast.copy_location(_ag("if_exp", node.test, _lambda(node.body), _lambda(node.orelse),
                                     self._site(node)), node)

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) < 2:
            return node
        args = [node.left]
        for op, right in zip(node.ops, node.comparators):
            args += [_const(type(op).__name__), _lambda(right)]
        call = _ag("compare", *args)
        call.keywords = [ast.keyword(arg="site", value=self._site(node))]
        return ast.copy_location(call, node)


def lower_expressions(fn: ast.FunctionDef, filename: str) -> list[str]:
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs]
    params += [a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None]
    names = controlled_names(fn)
    tr = _Expressions(names)
    tr.filename = filename
    fn.body = [tr.visit(s) for s in fn.body]
    return [n for n in names if n not in params]


# ---- pass 4: statements ---------------------------------------------------------------------------------
class _Statements:
    def __init__(self, filename):
        self.filename = filename
        self.counter = itertools.count()

    def block(self, stmts):
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out or [ast.Pass()]

    def _site(self, node):
        return ast.Tuple(elts=[_const(self.filename), _const(node.lineno)], ctx=ast.Load())

    def _def(self, name, params, body, returns, like):
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None, kwonlyargs=[],
                             kw_defaults=[], kwarg=None, defaults=[])
        ret = ast.Return(value=ast.Tuple(elts=[_load(v) for v in returns], ctx=ast.Load()))
        return _located([ast.FunctionDef(name=name, args=args, body=body + _located([ret], like), decorator_list=[],
                                         returns=None)], like)[0]

    def _call(self, like, names, fn, *args):
        tup = ast.Tuple(elts=[_load(v) for v in names], ctx=ast.Load())
        strs = ast.Tuple(elts=[_const(v) for v in names], ctx=ast.Load())
        call = _ag(fn, *args, tup, strs, self._site(like))
        if names:
            target = ast.Tuple(elts=[_store(v) for v in names], ctx=ast.Store())
            return _located([ast.Assign(targets=[target], value=call)], like)
        return _located([ast.Expr(value=call)], like)

    def stmt(self, s):
        if isinstance(s, SCOPES):
            return [s]
        if isinstance(s, ast.If):
            names = assigned_names([s])
            k = next(self.counter)
            t = self._def(f"ag__if_true_{k}", names, self.block(s.body), names, s)
            f = self._def(f"ag__if_false_{k}", names, self.block(s.orelse), names, s)
            out = [t, f] + self._call(s, names, "if_stmt", s.test, _load(t.name), _load(f.name))
            if getattr(s, "ag_guard", False):
                call = out[-1].value
                call.args.append(_const(True))
            return out
        if isinstance(s, ast.While):
            names = assigned_names([s])
            k = next(self.counter)
            test = self._def(f"ag__loop_test_{k}", names, [], [], s)
            test.body = _located([ast.Return(value=s.test)], s)
            body = self._def(f"ag__loop_body_{k}", names, self.block(s.body), names, s)
            return [test, body] + self._call(s, names, "while_stmt", _load(test.name), _load(body.name))
        if isinstance(s, ast.For):
            names = assigned_names([s])
            k = next(self.counter)
            item = f"ag__item_{k}"
            bind = _located([ast.Assign(targets=[s.target], value=_load(item))], s)
            body = self._def(f"ag__loop_body_{k}", [item] + names, bind + self.block(s.body), names, s)
            it = s.iter
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
                it = ast.copy_location(_ag("range_", *it.args), it)
                it.keywords = [ast.keyword(arg="site", value=self._site(s))]
            flag = _const(getattr(s, "ag_break", None))
            return [body] + self._call(s, names, "for_stmt", it, _load(body.name), flag)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(s, field, None)
            if isinstance(block, list) and block:
                setattr(s, field, self.block(block))
        for h in getattr(s, "handlers", None) or []:
            h.body = self.block(h.body)
        return [s]


def lower_statements(fn: ast.FunctionDef, filename: str) -> None:
    fn.body = _Statements(filename).block(fn.body)


# ---- helpers for the converter --------------------------------------------------------------------------
class Mangle(ast.NodeTransformer):
    """Private-name mangling (``self.__x`` -> ``self._Cls__x``) that the class body would have applied."""

    def __init__(self, cls_name: str) -> None:
        self.prefix = "_" + cls_name.lstrip("_")

    def _m(self, name):
        if name.startswith("__") and not name.endswith("__") and self.prefix != "_":
            return self.prefix + name
        return name

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        node.attr = self._m(node.attr)
        return node

    def visit_Name(self, node: ast.Name) -> ast.Name:
        node.id = self._m(node.id)
        return node


def explicit_super(fn: ast.FunctionDef) -> None:
    """``super()`` -> ``super(__class__, self)``: the zero-argument form does not work in nested functions."""
    args = fn.args.posonlyargs + fn.args.args
    if not args:
        return
    for node in walk_local(fn):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
                and not node.args and not node.keywords):
            node.args = [_load("__class__"), _load(args[0].arg)]


def transform(fn: ast.FunctionDef, filename: str) -> list[str]:
    """Apply every pass to the FunctionDef ``fn`` in place; returns the names initialised as undefined."""
    lower_returns(fn)
    lower_jumps(fn)
    undefined = lower_expressions(fn, filename)
    lower_statements(fn, filename)
    init = [_assign(n, _ag("Undefined", _const(n))) for n in undefined if n not in (DO_RETURN, RETVAL)]
    fn.body = _located(init, fn.body[0]) + fn.body
    return undefined
