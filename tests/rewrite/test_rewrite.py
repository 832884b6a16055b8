"""mindspore_hl.rewrite replayed against real MindSpore 2.10 (tests/fixtures/oracle/rewrite.npz).

The networks (rewrite_corpus.py) and the edit steps (rewrite_edits.py) are the files the recorder ran with real
MindSpore: node names, types, targets, args, users/inputs, the generated ``construct`` and the outputs of
``get_network()`` (its Parameters named as MindSpore's and set to the same fixed values) must all match.
"""
import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import nn, ops
from mindspore_hl.rewrite import Node, NodeType, ScopedValue, SymbolTree, ValueType
from tests.oracle import FIXTURE_ROOT, assert_close, load_cases
from tests.rewrite import rewrite_corpus, rewrite_edits

FIXTURE = FIXTURE_ROOT / "rewrite.npz"
CASES = load_cases(FIXTURE)
API = dict(ms=ms, nn=nn, ops=ops, Node=Node, NodeType=NodeType, ScopedValue=ScopedValue, SymbolTree=SymbolTree,
           ValueType=ValueType)
CORPUS = rewrite_corpus.load(ms)
EDITS = {f.__name__: f for f in rewrite_edits.EDITS}
ERRORS = {f.__name__: f for f in rewrite_edits.ERRORS}


def _ids(prefix):
    return [k for k in CASES if k.startswith(prefix) and not k.endswith("/extra")]


# Networks calling a Python function (here ops.abs): MindSpore copies the function's source into the generated
# code as `<name>_opt` and parses its body into nodes of its own, which mindspore_hl leaves out (the function is
# called as it is). Names, users and code differ there; types, instances, targets, args and outputs must not.
FUNCTION_CALLS = {"OpsNet"}


def _check_tree(stree, case, names=True):
    got = rewrite_edits.describe(stree)
    if names:
        assert got["nodes"] == case.meta["nodes"]
        assert got["all_names"] == case.meta["all_names"]
        assert got["code"] == case.meta["code"]
    else:
        assert [n[1:6] for n in got["nodes"]] == [n[1:6] for n in case.meta["nodes"]]
    net = stree.get_network()
    assert rewrite_edits.fill_parameters(net, ms) == case.meta["param_names"]
    out = net(ms.Tensor(case.inputs["x"]))
    outs = out if isinstance(out, tuple) else (out,)
    assert len(outs) == len(case.outputs)
    for o, w in zip(outs, case.outputs):
        assert_close(np.asarray(o.asnumpy() if hasattr(o, "asnumpy") else o), w, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case_id", _ids("parse/"))
def test_parse_matches_mindspore(case_id):
    name = case_id.split("/")[1]
    stree = SymbolTree.create(getattr(CORPUS, name)())
    _check_tree(stree, CASES[case_id], names=name not in FUNCTION_CALLS)


@pytest.mark.parametrize("case_id", _ids("edit/"))
def test_edits_match_mindspore(case_id):
    edit = EDITS[case_id.split("/")[1]]
    stree = SymbolTree.create(getattr(CORPUS, edit.network[0])())
    extra = edit(stree, API)
    if f"{case_id}/extra" in CASES:
        want = {k: v for k, v in CASES[f"{case_id}/extra"].meta.items() if k not in ("name", "n_out", "error")}
        assert extra == want
    _check_tree(stree, CASES[case_id])


@pytest.mark.parametrize("case_id", [k for k in CASES if k.startswith("error/")])
def test_errors_match_mindspore(case_id):
    check = ERRORS[case_id.split("/")[1]]
    want = CASES[case_id].error
    if want is None:
        check(CORPUS, API)
    else:
        with pytest.raises(Exception) as info:
            check(CORPUS, API)
        assert type(info.value).__name__ == want


def test_scoped_values_match_mindspore():
    want = {k: v for k, v in CASES["values/scoped_value"].meta.items() if k not in ("name", "n_out", "error")}
    assert rewrite_edits.scoped_values(API) == want


def test_top_level_names():
    assert ms.SymbolTree is SymbolTree and ms.Node is Node and ms.NodeType is NodeType
    assert ms.ScopedValue is ScopedValue
    assert ms.rewrite.ValueType is ValueType and not hasattr(ms, "ValueType")  # as in MindSpore 2.10


def test_rewritten_network_runs_in_graph_mode():
    # GRAPH_MODE reads the generated construct's source back (it lives only in linecache).
    net = CORPUS.MLP()
    stree = SymbolTree.create(net)
    relu = Node.create_call_cell(nn.ReLU(), ["z"], [ScopedValue.create_naming_value("z")], name="out_relu")
    stree.insert(stree.before(stree.get_node("return")), relu)
    new_net = stree.get_network()
    x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
    expected = np.maximum(net(x).asnumpy(), 0)
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        got = new_net(x).asnumpy()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
    assert_close(got, expected)


def test_model_zoo_lenet_parses_like_mindspore():
    # The model-zoo LeNet5 has the corpus LeNet5's construct plus type annotations, which the generated code keeps.
    from model_zoo.lenet.src.lenet import LeNet5

    net = LeNet5()
    stree = SymbolTree.create(net)
    want = CASES["parse/LeNet5"].meta
    assert [n.get_name() for n in stree.nodes()] == [n[0] for n in want["nodes"]]
    assert "def construct(self, x: Tensor) -> Tensor:" in stree.get_code()
    x = ms.Tensor(CASES["parse/LeNet5"].inputs["x"])
    assert_close(stree.get_network()(x).asnumpy(), net(x).asnumpy())


def test_print_node_tabulate(capsys):
    stree = SymbolTree.create(CORPUS.MLP())
    stree.print_node_tabulate()
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "[MLPOpt]" and lines[2].split() == ["node", "type", "name", "codes", "arg", "providers",
                                                          "target", "users"]
    row = next(line for line in lines if " binop_add " in line)
    assert "y = mult_var + 1" in row and "[[0, ('binop_mult', 0)]]" in row and "[[0, [('fc2', 0)]]]" in row
