"""``nn.GraphCell``: run an exported graph (``ms.load(file)``) as a Cell."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cell import Cell

if TYPE_CHECKING:
    from typing import Any, Callable



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

    graph: Callable[..., Any]  # set through __dict__ (a plain function, not a registered Cell)

    def __init__(self, graph: Callable[..., Any], params_init: dict[str, Any] | None = None,
                 obf_random_seed: int | None = None) -> None:
        super().__init__()
        if not callable(graph):
            raise TypeError(f"GraphCell: 'graph' must come from mindspore_hl.load, got {type(graph).__name__}.")
        self.__dict__["graph"] = graph

    def construct(self, *inputs: Any) -> Any:
        return self.graph(*inputs)

    def __call__(self, *inputs: Any) -> Any:
        return self.graph(*inputs)
