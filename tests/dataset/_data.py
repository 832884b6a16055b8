"""Where the dataset tests find real data files: inside the repository, so a clone anywhere runs them."""
import os

_REPO = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
#: all four MNIST files (train and test), bundled with the model zoo
MNIST_DIR = os.path.join(_REPO, "model_zoo", "data", "mnist")
#: the Fashion-MNIST test split (t10k files only)
FASHION_DIR = os.path.join(_REPO, "tests", "fixtures", "datasets", "fashion_mnist")
