"""ResNet18/34/50/101 (ModelZoo official/cv/ResNet)."""
from .resnet import ResNet, ResidualBlock, ResidualBlockBase, resnet18, resnet34, resnet50, resnet101

__all__ = ["ResNet", "ResidualBlock", "ResidualBlockBase", "resnet18", "resnet34", "resnet50", "resnet101"]
