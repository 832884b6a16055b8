"""Symbol, dynamic-shape Tensor descriptions, and the input checks of Cell.set_inputs / enable_dynamic, replayed
against real MindSpore (tests/fixtures/oracle/toplevel_runtime.npz, tools/oracle/record_toplevel_runtime.py)."""
import numpy as np
import pytest
from oracle import FIXTURE_ROOT, load_cases

import mindspore_hl as ms
from mindspore_hl import Symbol, Tensor, enable_dynamic, jit, nn

CASES = load_cases(FIXTURE_ROOT / "toplevel_runtime.npz")


def _ids(prefix):
    return sorted(k for k in CASES if k.startswith(prefix))


def _replay(case, fn):
    """fn() must raise what MindSpore raised (type and first line), or return what it returned."""
    if case.error:
        with pytest.raises(Exception) as info:
            fn()
        assert type(info.value).__name__ == case.error, info.value
        assert str(info.value).splitlines()[0].rstrip() == case.meta["message"]
    else:
        assert fn() == case.meta["returned"]


@pytest.mark.parametrize("cid", _ids("Symbol/"))
def test_symbol_constructor_and_to_dict(cid):
    case = CASES[cid]

    def run():
        if cid == "Symbol/str":
            return str(Symbol(**case.kwargs))
        d = Symbol(**case.kwargs).to_dict()
        return {k: "<id>" if k == "id" else v for k, v in d.items()}
    _replay(case, run)


@pytest.mark.parametrize("cid", _ids("Tensor.shape/dynamic/"))
def test_dynamic_tensor_description_shape(cid):
    case = CASES[cid]
    shape, dtype = case.meta["shape_arg"], case.meta["dtype"]
    shape = None if shape is None else [Symbol(**d) if isinstance(d, dict) else d for d in shape]
    _replay(case, lambda: list(Tensor(shape=shape, dtype=None if dtype is None else getattr(ms, dtype)).shape))


def test_dynamic_tensor_description_holds_no_values():
    t = Tensor(shape=[Symbol(max=8), 3], dtype=ms.float32)
    assert repr(t) == "Tensor(shape=[-1, 3], dtype=Float32, value=<dynamic>)"
    with pytest.raises(ValueError, match=r"Tensor\(shape=\[-1, 3\]\) describes a dynamic-shape input"):
        t + 1


def _build(desc):
    symbols = {name: Symbol(**kw) for name, kw in desc["symbols"].items()}

    def one(spec):
        if "value" in spec:
            return spec["value"]
        shape = spec["shape"]
        shape = None if shape is None else [symbols[d] if isinstance(d, str) else d for d in shape]
        return Tensor(shape=shape, dtype=getattr(ms, spec["dtype"]))
    return [one(s) for s in desc["inputs"]]


def _actual(spec):
    return spec["value"] if "value" in spec else Tensor(np.ones(spec["shape"], dtype=spec["dtype"]))


class _Net1(nn.Cell):
    def construct(self, x):
        return x


class _Net2(nn.Cell):
    def construct(self, x, y):
        return x


@pytest.mark.parametrize("cid", _ids("Cell.set_inputs/"))
def test_set_inputs_checks_graph_mode_calls(cid):
    case = CASES[cid]
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _Net1() if len(case.meta["declared"]["inputs"]) == 1 else _Net2()
    net.set_inputs(*_build(case.meta["declared"]))
    args = [_actual(s) for s in case.meta["args"]]
    nested = cid.startswith("Cell.set_inputs/two/")  # (recorded as a list of output shapes)
    _replay(case, lambda: [list(net(*args).shape)] if nested else list(net(*args).shape))


def test_set_inputs_is_not_checked_in_pynative():
    # As in MindSpore, PYNATIVE_MODE runs the construct eagerly on whatever it is given.
    net = _Net1()
    net.set_inputs(Tensor(shape=[Symbol(max=2)], dtype=ms.float32))
    assert net(Tensor(np.ones(5, np.float32))).shape == (5,)


@pytest.mark.parametrize("cid", _ids("enable_dynamic/call/"))
def test_enable_dynamic_checks_jit_calls(cid):
    case = CASES[cid]
    ms.set_context(mode=getattr(ms, case.meta["mode"]))

    @enable_dynamic(y=Tensor(shape=[Symbol(max=4), 3], dtype=ms.float32))
    @jit
    def f(x, y):
        return y + 1
    x, y = (_actual(s) for s in case.meta["args"])
    _replay(case, lambda: list(f(x, y).shape))


@pytest.mark.parametrize("cid", _ids("enable_dynamic/args/"))
def test_enable_dynamic_argument_errors(cid):
    t = Tensor(shape=[None], dtype=ms.float32)
    calls = {
        "empty": lambda: enable_dynamic(),
        "static": lambda: enable_dynamic(y=Tensor(shape=[2, 3], dtype=ms.float32)),
        "int": lambda: enable_dynamic(y=3),
        "zero": lambda: enable_dynamic(y=Tensor(shape=[None, 0], dtype=ms.float32)),
        "not_function": lambda: enable_dynamic(y=t)(3),
        "too_many": lambda: enable_dynamic(y=t, z=t)(lambda x: x),
        "unknown_name": lambda: enable_dynamic(q=t)(lambda x: x),
        "tuple": lambda: enable_dynamic(y=(Tensor(shape=[None, 2], dtype=ms.float32),
                                           Tensor(shape=[2], dtype=ms.float32)))(lambda x, y: x) is not None,
    }
    _replay(CASES[cid], calls[cid.rsplit("/", 1)[1]])


def test_enable_dynamic_on_a_cell_method_skips_self():
    class Net(nn.Cell):
        @enable_dynamic(x=Tensor(shape=[Symbol(divisor=2)], dtype=ms.float32))
        @jit
        def construct(self, x):
            return x * 2
    net = Net()
    assert net(Tensor(np.ones(4, np.float32))).shape == (4,)
    with pytest.raises(ValueError, match="The 1th shape value of 1th actual input args must match the 'divisor'"):
        net(Tensor(np.ones(3, np.float32)))
