"""``mindspore_hl.dataset`` (``mindspore.dataset``): sources, pipeline operations, samplers and iterators.

Rows travel as column blocks (see ``_block``) so that built-in transforms run on whole stacks of images at once;
a producer thread and worker threads run the pipeline off the training thread.
"""
from . import config
from . import vision
from . import transforms
from . import text
from . import audio
from ._dataset import Dataset, BatchInfo
from ._ops import MapDataset, BatchDataset, ShuffleDataset
from ._structure import (RepeatDataset, TakeDataset, SkipDataset, ProjectDataset, RenameDataset, ZipDataset,
                         ConcatDataset)
from ._samplers import (Sampler, SequentialSampler, RandomSampler, DistributedSampler, SubsetRandomSampler,
                        SubsetSampler)
from ._sources import MappableSource, DatasetFormatError
from ._idx import MnistDataset, FashionMnistDataset, KMnistDataset
from ._cifar import Cifar10Dataset, Cifar100Dataset
from ._image_folder import ImageFolderDataset
from ._generator import GeneratorDataset, NumpySlicesDataset
from ._iterator import TupleIterator, DictIterator
from ._mind import MindDataset
from ._text_sources import TextFileDataset, CSVDataset
from ._tfrecord import TFRecordDataset, Schema
from ._synthetic import PaddedDataset, RandomDataset, FakeImageDataset
from ._samplers import WeightedRandomSampler, PKSampler
from ._callbacks import DSCallback
from ._coco import CocoDataset
from ._voc import VOCDataset
from ._celeba import CelebADataset
from ._vision_readers import (USPSDataset, SemeionDataset, EMnistDataset, QMnistDataset, STL10Dataset,
                              Caltech256Dataset, SUN397Dataset)
from ._corpus_readers import YesNoDataset, SpeechCommandsDataset, LJSpeechDataset, IMDBDataset, Multi30kDataset
from ._text_corpora import (AGNewsDataset, AmazonReviewDataset, DBpediaDataset, SogouNewsDataset,
                            YahooAnswersDataset, YelpReviewDataset, PennTreebankDataset, WikiTextDataset,
                            EnWik9Dataset)

__all__ = [
    "config", "vision", "transforms", "text", "audio",
    "Dataset", "BatchInfo", "MapDataset", "BatchDataset", "ShuffleDataset", "RepeatDataset", "TakeDataset",
    "SkipDataset", "ProjectDataset", "RenameDataset", "ZipDataset", "ConcatDataset",
    "Sampler", "SequentialSampler", "RandomSampler", "DistributedSampler", "SubsetRandomSampler", "SubsetSampler",
    "MappableSource", "DatasetFormatError",
    "MnistDataset", "FashionMnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset",
    "GeneratorDataset", "NumpySlicesDataset", "TupleIterator", "DictIterator", "MindDataset",
    "TextFileDataset", "CSVDataset", "TFRecordDataset", "Schema", "PaddedDataset", "RandomDataset",
    "WeightedRandomSampler", "PKSampler", "zip", "DSCallback", "KMnistDataset", "FakeImageDataset",
    "CocoDataset", "VOCDataset", "CelebADataset", "AGNewsDataset", "AmazonReviewDataset", "DBpediaDataset",
    "SogouNewsDataset", "YahooAnswersDataset", "YelpReviewDataset", "PennTreebankDataset", "WikiTextDataset",
    "EnWik9Dataset", "USPSDataset", "SemeionDataset", "EMnistDataset", "QMnistDataset", "STL10Dataset",
    "Caltech256Dataset", "SUN397Dataset", "YesNoDataset", "SpeechCommandsDataset", "LJSpeechDataset", "IMDBDataset",
    "Multi30kDataset",
]


def zip(datasets):  # noqa: A001 - MindSpore's name
    """Join the columns of several datasets row by row (``ds.zip((a, b))``). Returns: ZipDataset."""
    if not isinstance(datasets, (list, tuple)) or len(datasets) < 1:
        raise TypeError(f"zip: datasets must be a tuple of datasets, but got {datasets!r}")
    return ZipDataset(list(datasets))
