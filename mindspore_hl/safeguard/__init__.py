"""Weight obfuscation of checkpoints (MindSpore's ``mindspore.safeguard``): ``obfuscate_ckpt`` writes
``<stem>_obf.ckpt`` files with selected weights scaled / permuted by random factors and returns the factors to keep;
``load_obf_params_into_net`` checks an obfuscation setup against a network (MindSpore 2.10 returns it unchanged).
"""
from ._obfuscate import load_obf_params_into_net, obfuscate_ckpt

__all__ = ["obfuscate_ckpt", "load_obf_params_into_net"]
