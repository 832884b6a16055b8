"""LeNet5 (ModelZoo research/cv/lenet)."""
from .dataset import create_dataset
from .lenet import LeNet5

__all__ = ["LeNet5", "create_dataset"]
