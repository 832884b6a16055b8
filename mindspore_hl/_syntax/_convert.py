"""``convert(fn)``: the static-graph version of a function or bound method, built once and cached.

The function's source is parsed, transformed (``_transform``) and compiled against the original file name and
line numbers, so tracebacks and error messages point at the user's code. The new function shares the original's
globals, defaults and closure cells (a closure variable rebound later is seen by both).
"""
from __future__ import annotations

import ast
import inspect
import os
import sysconfig
import textwrap
import types
import weakref
from typing import TYPE_CHECKING, cast

from . import _runtime
from ._analysis import GraphSyntaxError, validate
from ._transform import Mangle, explicit_super, transform

if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["convert", "is_converted", "GraphSyntaxError"]

_FACTORY = "ag__factory"
# original function -> converted function
_converted: weakref.WeakKeyDictionary[Callable[..., Any], Callable[..., Any]] = weakref.WeakKeyDictionary()
# original code object -> converted code object (shared by every closure of the same def)
_codes: dict[types.CodeType, types.CodeType | None] = {}


def is_converted(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` is the output of :func:`convert`."""
    fn = getattr(fn, "__func__", fn)
    return getattr(fn, "__ms_converted__", False)


def _source_tree(fn):
    """(FunctionDef node with original line numbers, file name), or None when the source is unavailable."""
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
    src = "".join(lines)
    if src[:1] in " \t":
        src = "if 1:\n" + src  # keeps an indented method parseable without dedenting multi-line strings
        tree = ast.parse(src, filename=filename)
        node = cast(ast.If, tree.body[0]).body[0]
        offset = first - 2
    else:
        tree = ast.parse(textwrap.dedent(src), filename=filename)
        node = tree.body[0]
        offset = first - 1
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name != fn.__name__:
        return None  # a lambda, or source that does not match the code object
    ast.increment_lineno(node, offset)
    return node, filename


def _build_code(fn):
    found = _source_tree(fn)
    if found is None:
        return None
    node, filename = found
    validate(node, filename)
    node.decorator_list = []
    node.returns = None
    qual = fn.__qualname__.split(".")
    if len(qual) >= 2 and qual[-2] != "<locals>":
        Mangle(qual[-2]).visit(node)
    if "__class__" in fn.__code__.co_freevars:
        explicit_super(node)
    transform(node, filename)
    freevars = list(fn.__code__.co_freevars)
    args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in ["ag__"] + freevars], vararg=None,
                         kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    factory = ast.FunctionDef(name=_FACTORY, args=args, body=[node, ast.Return(value=ast.Name(node.name, ast.Load()))],
                              decorator_list=[], returns=None)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.copy_location(factory, node)
    ast.fix_missing_locations(module)
    code = compile(module, filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == _FACTORY)
    return next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == node.name)


_installed: dict[str, bool] = {}  # file name -> whether it belongs to an installed package or the standard library
_INSTALLED = tuple(os.path.realpath(p) + os.sep for p in {sysconfig.get_paths()[k] for k in ("stdlib", "purelib",
                                                                                           "platlib")})


def _library(fn):
    module = getattr(fn, "__module__", None) or ""
    return module == "mindspore_hl" or module.startswith("mindspore_hl.")


def call(fn: Callable[..., Any]) -> Callable[..., Any]:
    """What converted code calls for ``fn(...)``: the converted version of a user's Python function or method
    (not of installed libraries); anything else (Cells, ops, builtins) as it is. A helper whose syntax cannot
    be converted runs as written."""
    target = getattr(fn, "__func__", fn)
    if not isinstance(target, types.FunctionType) or _library(target):
        return fn
    filename = target.__code__.co_filename
    installed = _installed.get(filename)
    if installed is None:
        installed = _installed[filename] = os.path.realpath(filename).startswith(_INSTALLED)
    if installed:
        return fn
    try:
        return convert(fn)
    except GraphSyntaxError:
        return fn


def convert(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The static-graph version of ``fn``: Python ``if``/``while``/``for``/``and``/``or``/``not`` on Tensor
    values become ``lax`` control flow while tracing; on Python values they run as written.

    ``fn`` may be a function or a bound method (e.g. ``cell.construct``). The conversion happens once per
    function (cached); functions without retrievable source, lambdas and mindspore_hl's own code are returned
    unchanged. Unsupported syntax raises a ``SyntaxError`` naming the file and line.

    >>> convert(len) is len  # not a Python function: nothing to convert
    True
    """
    if isinstance(fn, types.MethodType):
        func = convert(fn.__func__)
        return fn if func is fn.__func__ else types.MethodType(func, fn.__self__)
    if not isinstance(fn, types.FunctionType) or is_converted(fn) or _library(fn):
        return fn
    done = _converted.get(fn)
    if done is not None:
        return done
    code = fn.__code__
    if code not in _codes:
        _codes[code] = _build_code(fn)
    new_code = _codes[code]
    if new_code is None:
        _converted[fn] = fn
        return fn
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    closure = []
    for name in new_code.co_freevars:
        closure.append(types.CellType(_AG) if name == "ag__" else cells[name])
    new = types.FunctionType(new_code, fn.__globals__, fn.__name__, fn.__defaults__, tuple(closure))
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__, new.__doc__, new.__module__ = fn.__qualname__, fn.__doc__, fn.__module__
    new.__dict__.update(fn.__dict__)
    # attributes of a function object, read by inspect.unwrap and is_converted
    new.__wrapped__ = fn  # type: ignore[attr-defined]
    new.__ms_converted__ = True  # type: ignore[attr-defined]
    _converted[fn] = new
    return new


# The ``ag__`` namespace the generated code reads: the run-time helpers and ``call``.
_AG = types.SimpleNamespace(**{name: getattr(_runtime, name) for name in _runtime.__all__}, call=call)

