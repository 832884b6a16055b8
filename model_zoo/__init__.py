"""ModelZoo networks written with mindspore_hl, with ModelZoo's constructor signatures and parameter names.

Real MindSpore checkpoints of these networks load into them with ``load_checkpoint`` + ``load_param_into_net``.
"""
import pathlib

DATA_DIR = pathlib.Path(__file__).resolve().parent / "data"
MNIST_DIR = DATA_DIR / "mnist"
