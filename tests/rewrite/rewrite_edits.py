"""The rewrite scenarios both sides run: the oracle recorder with real MindSpore and test_rewrite.py with
mindspore_hl. Each takes ``api`` (``ms``, ``nn``, ``ops``, ``Node``, ``ScopedValue``, ``SymbolTree``...) from
one framework, so the very same steps are replayed."""
import re

import numpy as np

NETWORKS = [("MLP", (2, 4)), ("LeNet5", (1, 1, 32, 32)), ("Misc", (2, 4)), ("OpsNet", (2, 4)), ("Assigns", (2, 4))]


def _type_name(t):
    return getattr(t, "__name__", str(t))


def construct_text(code, cls_name):
    """The ``construct`` of class ``<cls_name>Opt`` in generated code (imports and other classes vary)."""
    # MindSpore numbers repeated class names process-wide (MLPOpt, MLPOpt_1...).
    start = re.search(rf"class {cls_name}Opt(_\d+)?\(", code).start()
    start = code.index("    def construct", start)
    lines = []
    for line in code[start:].splitlines():
        if lines and line.strip() and not line.startswith("    "):
            break  # next top-level statement or MindSpore's '#' separator
        lines.append(line)
    return "\n".join(lines).rstrip()


def fill_parameters(net, ms):
    """Give every Parameter of ``net`` a fixed value made from its name and shape (both sides do the same, so
    the fixture holds no weights); returns the Parameter names."""
    names = []
    for p in net.get_parameters():
        size = int(np.prod(p.shape))
        salt = sum(ord(ch) for ch in p.name) % 97
        value = (0.1 * np.sin(np.arange(size, dtype=np.float64) * 0.37 + salt)).astype(np.float32)
        p.set_data(ms.Tensor(value.reshape(p.shape)))
        names.append(p.name)
    return sorted(names)


def describe(stree):
    nodes = [[n.get_name(), str(n.get_node_type()), _type_name(n.get_instance_type()), str(n.get_targets()),
              str(n.get_args()), str(n.get_kwargs()), [u.get_name() for u in n.get_users()],
              [i.get_name() for i in n.get_inputs()]] for n in stree.nodes()]
    cls_name = type(stree.get_origin_network()).__name__
    return {"nodes": nodes, "all_names": [n.get_name() for n in stree.nodes(all_nodes=True)],
            "code": construct_text(stree.get_code(), cls_name)}


def mlp_insert(stree, api):
    node_cls, sv, nn = api["Node"], api["ScopedValue"], api["nn"]
    x = [sv.create_naming_value("x")]
    named = node_cls.create_call_cell(nn.ReLU(), targets=["x"], args=x, name="new_relu")
    stree.insert(stree.after(stree.get_node("fc1")), named)
    unnamed = node_cls.create_call_cell(nn.Tanh(), targets=["x"], args=x)
    stree.insert(stree.before("relu"), unnamed)
    clash = node_cls.create_call_cell(nn.ReLU(), ["x"], x, name="relu")
    stree.insert(stree.after("relu"), clash)
    return {"names": [named.get_name(), unnamed.get_name(), clash.get_name()],
            "types": [str(n.get_node_type()) for n in (named, unnamed, clash)]}


mlp_insert.network = ("MLP", (2, 4))


def mlp_replace_erase(stree, api):
    node_cls, sv, nn = api["Node"], api["ScopedValue"], api["nn"]
    new = node_cls.create_call_cell(nn.Dense(8, 3), targets=["x"], args=[sv.create_naming_value("y")], name="fc2")
    replaced = stree.replace(stree.get_node("fc2"), [new])
    stree.get_node("return").set_arg(0, "x")
    erased = stree.erase(stree.get_node("abs"))
    return {"replaced": replaced.get_name(), "erased": erased.get_name(),
            "unique": [stree.unique_name("x"), stree.unique_name(), stree.unique_name(), stree.unique_name("y_1")]}


mlp_replace_erase.network = ("MLP", (2, 4))


def lenet_primitive(stree, api):
    node_cls, sv, ops = api["Node"], api["ScopedValue"], api["ops"]
    target = stree.unique_name("fc3_var")
    prim = node_cls.create_call_cell(ops.Abs(), targets=[target], args=[sv.create_naming_value("fc3_var")])
    stree.insert(stree.after("fc3"), prim)
    stree.get_node("return_1").set_arg_by_node(0, prim)
    stree.erase("relu_3")
    stree.get_node("fc3").set_arg(0, "fc2_var")
    return {"prim": prim.get_name(), "target": target, "prim_type": str(prim.get_node_type()),
            "symbol_tree_set": prim.get_symbol_tree() is not None}


lenet_primitive.network = ("LeNet5", (1, 1, 32, 32))


def misc_subtree_and_loop(stree, api):
    node_cls, sv, nn = api["Node"], api["ScopedValue"], api["nn"]
    block = stree.get_node("block")
    sub = block.get_sub_tree()
    relu = node_cls.create_call_cell(nn.ReLU(), ["dense_var"], [sv.create_naming_value("dense_var")])
    sub.insert(sub.after("dense"), relu)
    in_loop = node_cls.create_call_cell(nn.ReLU(), ["m"], [sv.create_naming_value("m")], name="loop_relu")
    # A name finds top-level nodes only; a node inside the loop body is passed as a Node.
    stree.insert(stree.after(stree.get_node("binop_add")), in_loop)
    return {"sub_nodes": [n.get_name() for n in sub.nodes()], "sub_code": construct_text(sub.get_code(), "Block"),
            "block_type": str(block.get_node_type()), "loop_relu_users": [n.get_name() for n in in_loop.get_users()],
            "binop_add_users": [n.get_name() for n in stree.get_node("binop_add").get_users()]}


misc_subtree_and_loop.network = ("Misc", (2, 4))

def mlp_custom_object(stree, api):
    node_cls, sv, ops, ms = api["Node"], api["ScopedValue"], api["ops"], api["ms"]
    shift = sv.create_variable_value(ms.Tensor(np.full((8,), 0.5, np.float32)))
    add = node_cls.create_call_cell(ops.Add(), ["x"], [sv.create_naming_value("x"), shift], name="shift")
    stree.insert(stree.after("fc1"), add)
    return {"args": str(add.get_args()), "arg_type": str(add.get_args()[1].type),
            "unique": stree.unique_name("arg_Tensor")}


mlp_custom_object.network = ("MLP", (2, 4))


def lenet_erase_if(stree, api):
    stree.erase(stree.get_node("if_node"))
    stree.erase("unaryop_not")
    return {"names": [n.get_name() for n in stree.nodes()]}


lenet_erase_if.network = ("LeNet5", (1, 1, 32, 32))

def mlp_call_function(stree, api):
    node_cls, sv, ops = api["Node"], api["ScopedValue"], api["ops"]
    node = node_cls.create_call_function(ops.abs, ["x"], [sv.create_naming_value("x")])
    before = [node.get_name(), str(node.get_node_type()), str(node.get_targets())]
    stree.insert(stree.after("fc1"), node)
    return {"before": before, "after": node.get_name(), "users": [n.get_name() for n in node.get_users()]}


mlp_call_function.network = ("MLP", (2, 4))

EDITS = [mlp_call_function, mlp_insert, mlp_replace_erase, lenet_primitive, misc_subtree_and_loop, mlp_custom_object,
         lenet_erase_if]


def create_from_non_cell(corpus, api):
    api["SymbolTree"].create(object())


def insert_twice(corpus, api):
    stree = api["SymbolTree"].create(corpus.MLP())
    node = api["Node"].create_call_cell(api["nn"].ReLU(), ["x"], [api["ScopedValue"].create_naming_value("x")])
    stree.insert(stree.after("fc1"), node)
    stree.insert(stree.after("relu"), node)


def insert_before_input(corpus, api):
    stree = api["SymbolTree"].create(corpus.MLP())
    node = api["Node"].create_call_cell(api["nn"].ReLU(), ["x"], [api["ScopedValue"].create_naming_value("x")])
    stree.insert(stree.before("input_x"), node)


def sub_tree_of_cell_node(corpus, api):
    api["SymbolTree"].create(corpus.MLP()).get_node("fc1").get_sub_tree()


def name_values_length_mismatch(corpus, api):
    api["ScopedValue"].create_name_values(["a", "b"], ["self"])


def set_arg_wrong_type(corpus, api):
    api["SymbolTree"].create(corpus.MLP()).get_node("fc1").set_arg(0, 1)


def create_call_cell_bad_targets(corpus, api):
    api["Node"].create_call_cell(api["nn"].ReLU(), [1])


def position_of_nested_name(corpus, api):
    stree = api["SymbolTree"].create(corpus.Misc())
    stree.after("binop_add")


def create_call_cell_not_cell(corpus, api):
    api["Node"].create_call_cell(len, ["x"])


ERRORS = [create_from_non_cell, insert_twice, insert_before_input, sub_tree_of_cell_node, name_values_length_mismatch,
          set_arg_wrong_type, create_call_cell_bad_targets, create_call_cell_not_cell, position_of_nested_name]


def scoped_values(api):
    sv, vt = api["ScopedValue"], api["ValueType"]
    values = [2, 1.5, "s", None, True, (1, "a"), [1, 2], {"k": 1}]
    made = [sv.create_variable_value(v) for v in values]
    naming = sv.create_naming_value("conv", "self")
    names = sv.create_name_values(["z", "z_1"], ["self", "self"])
    return {"str": [str(m) for m in made], "types": [str(m.type) for m in made],
            "naming": [str(naming), str(naming.type), naming.scope, naming.value], "names": str(names),
            "equal": [naming == sv(vt.NamingValue, "self", "conv"), sv.create_variable_value(2) == made[0]],
            "value_types": [[m.name, m.value] for m in vt]}
