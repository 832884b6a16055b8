"""``mindspore_hl.dataset`` (``mindspore.dataset``): sources, pipeline operations, samplers and iterators.

Rows travel as column blocks (see ``_block``) so that built-in transforms run on whole stacks of images at once;
a producer thread and worker threads run the pipeline off the training thread.
"""
from . import config
from . import vision
from . import transforms
from ._dataset import Dataset, BatchInfo
from ._ops import MapDataset, BatchDataset, ShuffleDataset
from ._structure import (RepeatDataset, TakeDataset, SkipDataset, ProjectDataset, RenameDataset, ZipDataset,
                         ConcatDataset)
from ._samplers import (Sampler, SequentialSampler, RandomSampler, DistributedSampler, SubsetRandomSampler,
                        SubsetSampler)
from ._sources import MappableSource, DatasetFormatError
from ._idx import MnistDataset, FashionMnistDataset
from ._cifar import Cifar10Dataset, Cifar100Dataset
from ._image_folder import ImageFolderDataset
from ._generator import GeneratorDataset, NumpySlicesDataset
from ._iterator import TupleIterator, DictIterator

__all__ = [
    "config", "vision", "transforms",
    "Dataset", "BatchInfo", "MapDataset", "BatchDataset", "ShuffleDataset", "RepeatDataset", "TakeDataset",
    "SkipDataset", "ProjectDataset", "RenameDataset", "ZipDataset", "ConcatDataset",
    "Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetRandomSampler", "SubsetSampler",
    "MappableSource", "DatasetFormatError",
    "MnistDataset", "FashionMnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset",
    "GeneratorDataset", "NumpySlicesDataset", "TupleIterator", "DictIterator",
]
