"""Legacy path ``mindspore.train.serialization``: checkpoints and export (same functions as
``mindspore_hl.serialization``)."""
from ..serialization import export, load, load_checkpoint, load_param_into_net, save_checkpoint

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "export", "load"]
