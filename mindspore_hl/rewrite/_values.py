"""``ValueType``, ``ScopedValue`` and ``NodeType``: the value and node kinds of ``mindspore.rewrite``."""
from __future__ import annotations

import ast
from enum import Enum
from typing import Any, Sequence

__all__ = ["NodeType", "ValueType", "ScopedValue"]


class NodeType(Enum):
    """Kind of a rewrite ``Node`` (values as MindSpore 2.10).

    >>> NodeType.CallCell.value, NodeType.ControlFlow.value
    (1, 12)
    """

    Unknown = 0
    CallCell = 1
    CallPrimitive = 2
    CallModule = 3
    CallFunction = 4
    CallMethod = 5
    Python = 6
    Input = 7
    Output = 8
    Tree = 9
    CellContainer = 10
    MathOps = 11
    ControlFlow = 12


class ValueType(Enum):
    """Kind of a ``ScopedValue``: a constant, a container of values, a name, or an arbitrary object."""

    ConstantValue = 0
    TupleValue = 20
    ListValue = 21
    DictValue = 22
    NamingValue = 40
    CustomObjValue = 41
    UnsupportedValue = 50


def _check_type(name: str, value: Any, types: tuple, owner: str) -> None:
    if not isinstance(value, types) or (bool not in types and int in types and isinstance(value, bool)):
        want = " or ".join(t.__name__ for t in types)
        raise TypeError(f"For '{owner}', the type of '{name}' should be {want}, but got {type(value).__name__}.")


class ScopedValue:
    """A value with its scope: ``self.conv`` is the naming value ``conv`` in scope ``self``.

    Args:
        arg_type (ValueType): kind of the value.
        scope (str): scope of a naming value, e.g. ``"self"``. Default: ``""``.
        value: the value itself (a name for ``NamingValue``). Default: ``None``.

    >>> print(ScopedValue.create_naming_value("conv", "self"), ScopedValue.create_variable_value(2))
    self.conv 2
    """

    def __init__(self, arg_type: ValueType, scope: str = "", value: Any = None) -> None:
        _check_type("arg_type", arg_type, (ValueType,), "ScopedValue")
        _check_type("scope", scope, (str,), "ScopedValue")
        self.type = arg_type
        self.scope = scope
        self.value = value

    @classmethod
    def create_variable_value(cls, value: Any) -> ScopedValue:
        """A value whose type follows ``value``: constant, tuple/list/dict of values, or custom object."""
        if value is None or isinstance(value, (int, float, str, bool)):
            return cls(ValueType.ConstantValue, "", value)
        if isinstance(value, tuple):
            return cls(ValueType.TupleValue, "", tuple(cls.create_variable_value(v) for v in value))
        if isinstance(value, list):
            return cls(ValueType.ListValue, "", [cls.create_variable_value(v) for v in value])
        if isinstance(value, dict):
            return cls(ValueType.DictValue, "", {cls.create_variable_value(k): cls.create_variable_value(v)
                                                 for k, v in value.items()})
        return cls(ValueType.CustomObjValue, "", value)

    @classmethod
    def create_naming_value(cls, name: str, scope: str = "") -> ScopedValue:
        """A reference to the variable ``name`` (in ``scope``, e.g. ``"self"``)."""
        _check_type("name", name, (str,), "ScopedValue")
        _check_type("scope", scope, (str,), "ScopedValue")
        return cls(ValueType.NamingValue, scope, name)

    @staticmethod
    def create_name_values(names: Sequence[str], scopes: Sequence[str] | None = None) -> list[ScopedValue]:
        """Naming values for ``names`` (with the matching ``scopes`` when given).

        >>> ScopedValue.create_name_values(["z", "z_1"], ["self", "self"])
        [self.z, self.z_1]
        """
        _check_elements("names", names)
        if scopes is not None:
            _check_elements("scopes", scopes)
            if len(names) != len(scopes):
                raise ValueError("Length of names should be equal to length of scopes")
        return [ScopedValue.create_naming_value(name, scopes[i] if scopes is not None else "")
                for i, name in enumerate(names)]

    def __str__(self) -> str:
        if self.type == ValueType.ConstantValue:
            return str(self.value)
        if self.type == ValueType.NamingValue:
            return f"{self.scope}.{self.value}" if self.scope else str(self.value)
        if self.type == ValueType.CustomObjValue:
            return f"CustomObj: {self.value}"
        return f"Illegal ValueType: {self.type}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, ScopedValue):
            return NotImplemented
        return self.type == other.type and self.scope == other.scope and self.value == other.value

    def __hash__(self) -> int:
        return hash((self.type, self.scope, self.value))


def _check_elements(name: str, values: Any) -> None:
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise TypeError(f"For 'ScopedValue', '{name}' should be a list or tuple of str, but got {values!r}.")


def from_ast(node: ast.AST) -> ScopedValue:
    """The ScopedValue MindSpore's parser makes for an argument expression (unsupported ones keep their source)."""
    if isinstance(node, ast.Name):
        return ScopedValue.create_naming_value(node.id)
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name):
            return ScopedValue.create_naming_value(node.attr, node.value.id)
        return ScopedValue(ValueType.UnsupportedValue, "", ast.unparse(node))
    if isinstance(node, (ast.List, ast.Tuple)):
        items = []
        for elt in node.elts:
            if isinstance(elt, ast.Constant):
                items.append(elt.value)
            elif isinstance(elt, ast.Name):
                items.append(elt.id)
            elif isinstance(elt, ast.Attribute) and isinstance(elt.value, ast.Name):
                items.append(f"{elt.value.id}.{elt.attr}")
            else:
                return ScopedValue(ValueType.UnsupportedValue, "", ast.unparse(node))
        # As in MindSpore, a tuple or list argument becomes a TupleValue whose names are kept as strings.
        return ScopedValue.create_variable_value(tuple(items))
    if isinstance(node, ast.Constant):
        return ScopedValue.create_variable_value(node.value)
    return ScopedValue(ValueType.UnsupportedValue, "", ast.unparse(node))


def to_ast(value: ScopedValue | str) -> ast.expr:
    """The expression written into the generated source for ``value``."""
    if isinstance(value, str):
        return ast.Name(id=value, ctx=ast.Load())
    if value.type == ValueType.NamingValue:
        if value.scope:
            return ast.Attribute(value=ast.Name(id=value.scope, ctx=ast.Load()), attr=value.value, ctx=ast.Load())
        return ast.Name(id=value.value, ctx=ast.Load())
    if value.type == ValueType.ConstantValue:
        return ast.Constant(value=value.value)
    if value.type in (ValueType.TupleValue, ValueType.ListValue):
        elts = [to_ast(v) for v in value.value]
        cls = ast.Tuple if value.type == ValueType.TupleValue else ast.List
        return cls(elts=elts, ctx=ast.Load())
    if value.type == ValueType.DictValue:
        return ast.Dict(keys=[to_ast(k) for k in value.value], values=[to_ast(v) for v in value.value.values()])
    if value.type == ValueType.UnsupportedValue:
        return ast.parse(str(value.value), mode="eval").body
    raise ValueError(f"rewrite: a {value.type} argument ({value}) cannot be written into source code; "
                     "pass a naming or constant ScopedValue.")

