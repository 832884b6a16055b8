"""``mindspore.rewrite``: parse a Cell's ``construct`` into nodes, edit them, and build the edited network.

>>> import mindspore_hl as ms
>>> from mindspore_hl import nn
>>> from mindspore_hl.rewrite import SymbolTree, Node, ScopedValue
>>> class Net(nn.Cell):
...     def __init__(self):
...         super().__init__()
...         self.fc = nn.Dense(2, 2)
...     def construct(self, x):
...         return self.fc(x) * 2
>>> stree = SymbolTree.create(Net())
>>> [n.get_name() for n in stree.nodes()]
['input_x', 'fc', 'binop_mult', 'return']
"""
from ._node import Node
from ._symbol_tree import SymbolTree
from ._values import NodeType, ScopedValue, ValueType

__all__ = ["SymbolTree", "Node", "NodeType", "ScopedValue", "ValueType"]
