"""Checkpoints: MindSpore-compatible ``.ckpt`` (byte-identical protobuf) and ``.safetensors`` files.

Public: ``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net`` (MindSpore 2.10 signatures),
``wait_async_save`` (join ``async_save=True`` writes), and the format errors ``CheckpointError`` /
``SafetensorsError`` (both ValueError) and ``ParameterMismatchError`` (ValueError and RuntimeError).
"""
from ._ckpt_format import CheckpointError
from ._export import ExportedGraph, MindIRGraph, export, load
from ._load import ParameterMismatchError, load_checkpoint, load_param_into_net
from ._safetensors import SafetensorsError
from ._save import save_checkpoint, wait_async_save

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "wait_async_save",
           "CheckpointError", "SafetensorsError", "ParameterMismatchError", "export", "load", "ExportedGraph",
           "MindIRGraph"]
