"""LeNet5 (ModelZoo research/cv/lenet)."""
from .lenet import LeNet5
from .dataset import create_dataset

__all__ = ["LeNet5", "create_dataset"]
