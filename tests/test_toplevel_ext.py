"""Top-level lazy_inline / no_inline / algo parameters, replayed against real MindSpore
(tests/fixtures/oracle/toplevel_ext.npz, recorded by tools/oracle/record_toplevel_ext.py)."""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn
from tests.oracle import load_cases

CASES = load_cases("toplevel_ext.npz")


@pytest.fixture()
def fresh_algo():
    ms.reset_algo_parameters()
    yield
    ms.reset_algo_parameters()


def _call(fn):
    try:
        return fn(), None
    except Exception as e:  # noqa: BLE001  (compared with the recorded error)
        return None, e


def _check(case, fn):
    got, err = _call(fn)
    if case.error:
        assert err is not None and type(err).__name__ == case.error, (case.id, err)
        assert str(err).startswith(case.meta["message"].split(" File: ")[0].split(" line: ")[0]), (case.id, err)
        return
    assert err is None, (case.id, err)
    want = case.meta["returned"]
    if want == "None":
        assert got is None, (case.id, got)
    else:
        assert got == want and type(got) is type(want), (case.id, got, want)


def test_algo_parameters_script(fresh_algo):
    steps = sorted((c for c in CASES.values() if c.name == "algo_parameters"), key=lambda c: c.id)
    assert len(steps) == 30
    for case in steps:
        kind, arg = case.meta["kind"], case.meta["arg"]
        fn = {"get": lambda a=arg: ms.get_algo_parameters(a), "set": lambda a=arg: ms.set_algo_parameters(**a),
              "reset": ms.reset_algo_parameters}[kind]
        _check(case, fn)


def test_no_inline():
    case = CASES["no_inline/0"]

    def plain(x):
        return x * 3 + 2

    assert (ms.no_inline(plain) is plain) == case.meta["returned_same"]
    assert plain.no_inline == case.meta["flag"]
    assert (ms.no_inline()(plain) is plain) == case.meta["called"]

    @ms.jit
    def loop(v):
        for _ in range(3):
            v = plain(v)
        return v

    assert float(loop(ms.Tensor(1.0, ms.float32)).asnumpy()) == 53.0


def _block(attrs, policy):
    class Block(nn.Cell):
        @ms.lazy_inline(attrs=attrs, policy=policy)
        def __init__(self, width, scale=2, name="b"):
            super().__init__()
            self.width = width
            self.tag = name

        def construct(self, x):
            return x
    return Block


@pytest.mark.parametrize("cid", [k for k in CASES if k.startswith("lazy_inline/") and k[-1].isdigit()])
def test_lazy_inline_attrs(cid):
    case = CASES[cid]
    m = case.meta

    def make():
        c = _block(m["attrs"], m["policy"])(*m["args"], **m["kwargs"])
        return str(c.cell_init_args) + "|" + str(getattr(c, "no_inline", "unset"))

    _check(case, make)


def test_lazy_inline_rejects_class_and_other_functions():
    class Plain(nn.Cell):
        def construct(self, x):
            return x

    def plain(x):
        return x

    _check(CASES["lazy_inline/class"], lambda: ms.lazy_inline(Plain))
    _check(CASES["lazy_inline/not_init"], lambda: ms.lazy_inline(plain))


def test_lazy_inline_cell_still_computes():
    class Block(nn.Cell):
        @ms.lazy_inline
        def __init__(self, width):
            super().__init__()
            self.dense = nn.Dense(width, 2)

        def construct(self, x):
            return self.dense(x)

    net = Block(3)
    assert net.cell_init_args == "lazy_inline_Blockdict_values([3])"
    assert [p.name for p in net.trainable_params()] == ["dense.weight", "dense.bias"]
    x = np.ones((2, 3), np.float32)
    want = x @ net.dense.weight.asnumpy().T + net.dense.bias.asnumpy()
    np.testing.assert_allclose(net(ms.Tensor(x)).asnumpy(), want, rtol=1e-6)
