"""A corpus of control-flow functions and Cells in MindSpore's static-graph syntax, written once for two frameworks.

This file imports no framework: ``load(framework)`` (in ``control_flow_loader.py``) executes it as a module whose
globals ``ms``, ``nn``, ``ops``, ``Tensor`` and ``Parameter`` come from the framework given -- mindspore_hl in the
tests, real MindSpore 2.10 in ``tools/oracle/record_control_flow.py`` -- so both run the very same source.

``CASES`` lists ``(case id, factory, input names, options)``: ``factory()`` returns the function or a fresh Cell;
``INPUTS[case id]`` holds its NumPy inputs. Options: ``grad`` (the float inputs, and a Cell's trainable
Parameters, are differentiated), ``unbounded`` (a loop whose trip count depends on a Tensor: forward only on JAX).
"""
# ruff: noqa: F821  (ms, nn, ops, Tensor and Parameter are given by the loader)
import numpy as np

for _name in ("ms", "nn", "ops", "Tensor", "Parameter"):
    if _name not in globals():
        raise ImportError("tests/syntax/control_flow_corpus.py is loaded by control_flow_loader.load(framework), "
                          "not imported.")

_rng = np.random.RandomState(7)


def _vec(*values):
    return np.array(values, np.float32)


# ---- if / elif / else -----------------------------------------------------------------------------------
def if_else(x):
    if x.sum() > 0:
        y = x * 2
    else:
        y = -x
    return y


def if_elif_else(x, y):
    if x.sum() > y.sum():
        z = x - y
    elif x.sum() > 0:
        z = x * y
    else:
        z = y + 1
    return z


def nested_if(x):
    if x.sum() > 0:
        if x.max() > 2:
            y = x * 3
        else:
            y = x * 2
    else:
        if x.min() < -1:
            y = x - 1
        else:
            y = x + 1
    return y


def if_without_else(x):
    y = x
    if x.mean() > 0.5:
        y = y * y
    return y


def elif_chain(x):
    s = x.sum()
    if s < -2:
        y = x * 0.5
    elif s < 0:
        y = x * 1.5
    elif s < 2:
        y = x * 2.5
    else:
        y = x * 3.5
    return y


def two_vars_in_branches(x):
    if x.max() > 1:
        a = x
        b = x * 2
    else:
        a = x * 3
        b = x
    return a * b


def static_condition(x):
    if x.shape[0] > 2:
        y = x * 2
    else:
        y = x * 3
    if x.sum() > 0:
        y = y + 1
    return y


def scalar_inputs(a, b):
    if a > b:
        c = a * b
    else:
        c = a - b
    return c


# ---- return in branches ---------------------------------------------------------------------------------
def return_in_branch(a, b):
    if a.mean() > b.mean():
        return a - b
    return a + b


def return_in_elif(x):
    if x.sum() > 5:
        return x * 2
    elif x.sum() > 0:
        return x * 3
    else:
        return -x


def return_in_nested(x, y):
    if x.sum() > 0:
        if y.sum() > 0:
            return x * y
        z = x - y
    else:
        z = x + y
    return z * 2


# ---- and / or / not / conditional expressions -----------------------------------------------------------
def and_chain(x, y):
    if x.sum() > 0 and y.sum() > 0:
        z = x * y
    else:
        z = x + y
    return z


def or_chain(x, y):
    if x.sum() > 10 or y.max() > 1:
        z = x - y
    else:
        z = x + y
    return z


def not_condition(x):
    if not x.sum() > 0:
        z = -x
    else:
        z = x * x
    return z


def and_or_mixed(x, y):
    if (x.sum() > 0 and y.sum() < 0) or x.max() > 2:
        z = x * 2 + y
    else:
        z = x - y * 2
    return z


def conditional_expression(x):
    y = x * 2 if x.sum() > 0 else x * 3
    return y + 1


def conditional_expression_and(x):
    y = x if x.sum() > 0 and x.max() < 5 else -x
    return y * x


def compare_chain(x):
    if 0 < x.sum() < 10:
        y = x * 2
    else:
        y = -x
    return y


# ---- while on a Tensor condition ------------------------------------------------------------------------
def while_tensor(x):
    while x.sum() < 10:
        x = x * 2
    return x


def while_break(x):
    while x.sum() < 100:
        x = x * 2
        if x.max() > 5:
            break
    return x


def while_continue(x):
    i = Tensor(0, ms.int32)
    while i < 5:
        i = i + 1
        if i % 2 == 0:
            continue
        x = x * 1.5
    return x


def while_return(x):
    while x.sum() < 50:
        x = x * 2
        if x.max() > 7:
            return x
    return x + 1


def while_and(x):
    i = Tensor(0, ms.int32)
    while x.sum() < 30 and i < 3:
        x = x + 1
        i = i + 1
    return x


# ---- for loops ------------------------------------------------------------------------------------------
def for_range_tensor(x, n):
    for _ in range(n):
        x = x * 1.5
    return x


def for_range_break(x):
    for _ in range(6):
        if x.sum() > 20:
            break
        x = x * 1.5
    return x


def for_range_continue(x):
    y = x
    for i in range(4):
        if x[i % 3] > 1:
            continue
        y = y + x * i
    return y


def for_range_return(x):
    for _ in range(5):
        x = x * 2
        if x.sum() > 10:
            return x - 1
    return x


def for_over_tensor(m):
    acc = m[0] * 0
    for row in m:
        acc = acc * 0.5 + row
    return acc


def for_over_tensor_if(m):
    acc = m[0] * 0
    for row in m:
        if row.sum() > 0:
            acc = acc + row
        else:
            acc = acc - row * 0.5
    return acc


def for_over_tensor_break(m):
    acc = m[0] * 0
    for row in m:
        if row.sum() > 3:
            break
        acc = acc + row
    return acc


def nested_loops(m):
    acc = m[0] * 0
    for k in range(2):
        for row in m:
            if row.max() > k:
                acc = acc + row
            else:
                acc = acc - row
    return acc


# ---- Cells ----------------------------------------------------------------------------------------------
class ScaleIf(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(_vec(0.5, -1.0, 2.0)), name="w")

    def construct(self, x):
        if (x * self.w).sum() > 0:
            out = x * self.w
        else:
            out = x - self.w
        return out


class BranchDense(nn.Cell):
    def __init__(self):
        super().__init__()
        w1 = Tensor(np.arange(6, dtype=np.float32).reshape(2, 3) / 10)
        w2 = Tensor(-np.arange(6, dtype=np.float32).reshape(2, 3) / 5)
        self.d1 = nn.Dense(3, 2, weight_init=w1, bias_init=Tensor(_vec(0.1, 0.2)))
        self.d2 = nn.Dense(3, 2, weight_init=w2, bias_init=Tensor(_vec(-0.3, 0.4)))

    def construct(self, x):
        if x.sum() > 0:
            y = self.d1(x)
        else:
            y = self.d2(x)
        return y


class AccumulateInLoop(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(_vec(1.0, 2.0, 3.0)), name="w")
        self.acc = Parameter(Tensor(_vec(0.0, 0.0, 0.0)), name="acc", requires_grad=False)

    def construct(self, x):
        y = x
        for i in range(3):
            if x.sum() > i:
                # MindSpore passes no gradient through Assign, so the accumulated value must not need one.
                ops.assign(self.acc, self.acc + i + 1)
                y = y * self.w + self.acc
        return y


class UpdateInBranch(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(_vec(0.5, 1.5, -0.5)), name="w")
        self.count = Parameter(Tensor(_vec(0.0)), name="count", requires_grad=False)

    def construct(self, x):
        if x.sum() > 0:
            ops.assign(self.count, self.count + 1)
            y = x * self.w
        else:
            ops.assign(self.count, self.count - 1)
            y = x + self.w
        return y


class WhileParameter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(_vec(1.1, 0.9, 1.2)), name="w")
        self.steps = Parameter(Tensor(np.array(0, np.int32)), name="steps", requires_grad=False)

    def construct(self, x):
        while x.sum() < 20:
            x = x * self.w + 1
            ops.assign(self.steps, self.steps + 1)
        return x


class ScanCell(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(_vec(0.5, -0.25, 1.0)), name="w")

    def construct(self, m):
        h = m[0] * 0
        for row in m:
            h = h * self.w + row
            if h.sum() > 2:
                h = h * 0.5
        return h


def _fn(f):
    return lambda: f


_X = _vec(0.5, 1.5, -0.25)
_NEG = _vec(-1.5, 0.25, -2.0)
_M = _rng.randn(4, 3).astype(np.float32)

#: (case id, factory, inputs, options)
CASES = [
    ("if_else/pos", _fn(if_else), {"x": _X}, {}),
    ("if_else/neg", _fn(if_else), {"x": _NEG}, {}),
    ("if_elif_else/first", _fn(if_elif_else), {"x": _vec(3, 1, 1), "y": _vec(0.5, 0.5, 0.5)}, {}),
    ("if_elif_else/second", _fn(if_elif_else), {"x": _X, "y": _vec(2, 2, 2)}, {}),
    ("if_elif_else/else", _fn(if_elif_else), {"x": _NEG, "y": _vec(1, 1, 1)}, {}),
    ("nested_if/pos", _fn(nested_if), {"x": _vec(0.5, 2.5, 1.0)}, {}),
    ("nested_if/neg", _fn(nested_if), {"x": _NEG}, {}),
    ("if_without_else", _fn(if_without_else), {"x": _vec(1.0, 2.0, 0.5)}, {}),
    ("elif_chain", _fn(elif_chain), {"x": _vec(0.2, 0.3, 0.4)}, {}),
    ("two_vars_in_branches", _fn(two_vars_in_branches), {"x": _X}, {}),
    ("static_condition", _fn(static_condition), {"x": _X}, {}),
    ("scalar_inputs", _fn(scalar_inputs), {"a": np.float32(1.5), "b": np.float32(0.5)}, {}),
    ("return_in_branch", _fn(return_in_branch), {"a": _X, "b": _NEG}, {}),
    ("return_in_elif", _fn(return_in_elif), {"x": _X}, {}),
    ("return_in_nested", _fn(return_in_nested), {"x": _X, "y": _NEG}, {}),
    ("and_chain", _fn(and_chain), {"x": _X, "y": _vec(1, 2, 3)}, {}),
    ("or_chain", _fn(or_chain), {"x": _X, "y": _vec(0.5, 0.5, 0.5)}, {}),
    ("not_condition", _fn(not_condition), {"x": _NEG}, {}),
    ("and_or_mixed", _fn(and_or_mixed), {"x": _vec(2.5, 0.5, 0.1), "y": _vec(1, 1, 1)}, {}),
    ("conditional_expression", _fn(conditional_expression), {"x": _NEG}, {}),
    ("conditional_expression_and", _fn(conditional_expression_and), {"x": _X}, {}),
    ("compare_chain", _fn(compare_chain), {"x": _X}, {}),
    ("while_tensor", _fn(while_tensor), {"x": _X}, {"unbounded": True}),
    ("while_break", _fn(while_break), {"x": _X}, {"unbounded": True}),
    ("while_continue", _fn(while_continue), {"x": _X}, {"unbounded": True}),
    ("while_return", _fn(while_return), {"x": _X}, {"unbounded": True}),
    ("while_and", _fn(while_and), {"x": _X}, {"unbounded": True}),
    ("for_range_tensor", _fn(for_range_tensor), {"x": _X, "n": np.array(3, np.int32)}, {"unbounded": True}),
    ("for_range_break", _fn(for_range_break), {"x": _X}, {}),
    ("for_range_continue", _fn(for_range_continue), {"x": _X}, {}),
    ("for_range_return", _fn(for_range_return), {"x": _X}, {}),
    ("for_over_tensor", _fn(for_over_tensor), {"m": _M}, {}),
    ("for_over_tensor_if", _fn(for_over_tensor_if), {"m": _M}, {}),
    ("for_over_tensor_break", _fn(for_over_tensor_break), {"m": np.abs(_M) + 0.2}, {}),
    ("nested_loops", _fn(nested_loops), {"m": _M}, {}),
    ("cell/scale_if", ScaleIf, {"x": _X}, {}),
    ("cell/branch_dense", BranchDense, {"x": _NEG}, {}),
    ("cell/accumulate_in_loop", AccumulateInLoop, {"x": _X}, {}),
    ("cell/update_in_branch", UpdateInBranch, {"x": _NEG}, {}),
    ("cell/while_parameter", WhileParameter, {"x": _X}, {"unbounded": True}),
    ("cell/scan", ScanCell, {"m": _M}, {}),
]
