"""ResNet18/34/50/101/152 (ModelZoo official/cv/ResNet)."""
from .resnet import ResidualBlock, ResidualBlockBase, ResNet, resnet18, resnet34, resnet50, resnet101, resnet152

__all__ = ["ResNet", "ResidualBlock", "ResidualBlockBase", "resnet18", "resnet34", "resnet50", "resnet101", "resnet152"]
