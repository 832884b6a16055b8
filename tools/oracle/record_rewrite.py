"""Record real MindSpore 2.10's ``mindspore.rewrite`` on the networks of tests/rewrite/rewrite_corpus.py into
tests/fixtures/oracle/rewrite.npz.

Run with the oracle interpreter, from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_rewrite.py

Per case: the nodes of ``SymbolTree.create(net)`` (name, type, instance type, targets, args, kwargs, users,
inputs, as strings), every node name (``nodes(all_nodes=True)``), the text of the generated ``construct``, and
the outputs of ``get_network()`` on a fixed input, its Parameters named and set to fixed values by
``rewrite_edits.fill_parameters``. Edit cases apply the same inserts / replaces / erases / set_arg on both
sides. MindSpore writes the generated network under ./rewritten_network, so the script runs in a temporary folder.
"""
import os
import pathlib
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "rewrite"))

import mindspore as ms  # noqa: E402
import rewrite_corpus  # noqa: E402
import rewrite_edits  # noqa: E402
from mindspore import nn, ops  # noqa: E402
from mindspore.rewrite import Node, NodeType, ScopedValue, SymbolTree, ValueType  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

API = dict(ms=ms, nn=nn, ops=ops, Node=Node, NodeType=NodeType, ScopedValue=ScopedValue, SymbolTree=SymbolTree,
           ValueType=ValueType)


def _record_tree(w, case_id, stree, net_inputs):
    net = stree.get_network()
    param_names = rewrite_edits.fill_parameters(net, ms)
    out = net(*[ms.Tensor(v) for v in net_inputs.values()])
    outs = [o.asnumpy() if hasattr(o, "asnumpy") else np.asarray(o)
            for o in (out if isinstance(out, tuple) else (out,))]
    w.add(case_id, inputs=net_inputs, outputs=outs, name="rewrite", param_names=param_names,
          **rewrite_edits.describe(stree))


def main():
    corpus = rewrite_corpus.load(ms)
    # MindSpore's generated code imports the network class by the file's name.
    sys.modules["rewrite_corpus"] = corpus
    rng = np.random.default_rng(0)
    out_path = ROOT / "tests" / "fixtures" / "oracle" / "rewrite.npz"
    os.chdir(tempfile.mkdtemp())
    with FixtureWriter(out_path) as w:
        for name, shape in rewrite_edits.NETWORKS:
            x = rng.standard_normal(shape).astype(np.float32)
            stree = SymbolTree.create(getattr(corpus, name)())
            _record_tree(w, f"parse/{name}", stree, {"x": x})
        for edit in rewrite_edits.EDITS:
            net_name, shape = edit.network
            x = rng.standard_normal(shape).astype(np.float32)
            stree = SymbolTree.create(getattr(corpus, net_name)())
            extra = edit(stree, API)
            case_id = f"edit/{edit.__name__}"
            _record_tree(w, case_id, stree, {"x": x})
            if extra:
                w.add(f"{case_id}/extra", name="rewrite", **extra)
        for check in rewrite_edits.ERRORS:
            try:
                check(corpus, API)
                w.add(f"error/{check.__name__}", name="rewrite", error=None)
            except Exception as err:  # noqa: BLE001  (the type is what is recorded)
                w.add(f"error/{check.__name__}", name="rewrite", error=type(err).__name__)
        w.add("values/scoped_value", name="rewrite", **rewrite_edits.scoped_values(API))


if __name__ == "__main__":
    main()
