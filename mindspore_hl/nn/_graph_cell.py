"""``nn.GraphCell``: run an exported graph (``ms.load(file)``) as a Cell."""
from .cell import Cell


class GraphCell(Cell):
    """Wrap a graph loaded with ``mindspore_hl.load`` so it can be called like the original network.

    Example:
        >>> net = nn.Dense(4, 2)
        >>> x = Tensor(np.ones((1, 4), np.float32))
        >>> path = ms.export(net, x, file_name="dense", file_format="MINDIR")
        >>> out = nn.GraphCell(ms.load(path))(x)
        >>> bool(np.allclose(out.asnumpy(), net(x).asnumpy()))
        True
    """

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__()
        if not callable(graph):
            raise TypeError(f"GraphCell: 'graph' must come from mindspore_hl.load, got {type(graph).__name__}.")
        self.__dict__["graph"] = graph

    def construct(self, *inputs):
        return self.graph(*inputs)

    def __call__(self, *inputs):
        return self.graph(*inputs)
