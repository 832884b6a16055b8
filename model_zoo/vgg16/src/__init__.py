"""VGG11/13/16/19 (ModelZoo official/cv/VGG)."""
from .vgg import Vgg, cfg, vgg11, vgg13, vgg16, vgg19

__all__ = ["Vgg", "cfg", "vgg11", "vgg13", "vgg16", "vgg19"]
