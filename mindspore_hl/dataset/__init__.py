"""``mindspore_hl.dataset`` (``mindspore.dataset``): sources, pipeline operations, samplers and iterators.

Rows travel as column blocks (see ``_block``) so that built-in transforms run on whole stacks of images at once;
a producer thread and worker threads run the pipeline off the training thread.
"""
from .._lazy import lazy_names
from . import config, text, transforms, vision
from ._callbacks import DSCallback
from ._celeba import CelebADataset
from ._cifar import Cifar10Dataset, Cifar100Dataset
from ._coco import CocoDataset
from ._corpus_readers import IMDBDataset, LJSpeechDataset, Multi30kDataset, SpeechCommandsDataset, YesNoDataset
from ._dataset import BatchInfo, Dataset
from ._generator import GeneratorDataset, NumpySlicesDataset
from ._idx import FashionMnistDataset, KMnistDataset, MnistDataset
from ._image_folder import ImageFolderDataset
from ._iterator import DictIterator, TupleIterator
from ._labelled_readers import Caltech101Dataset, CityscapesDataset, Flowers102Dataset, LFWDataset, SBDataset
from ._media_readers import (
    CMUArcticDataset,
    FlickrDataset,
    Food101Dataset,
    LibriTTSDataset,
    OmniglotDataset,
    RenderedSST2Dataset,
    SBUDataset,
)
from ._mind import MindDataset
from ._ops import BatchDataset, MapDataset, ShuffleDataset
from ._samplers import (
    DistributedSampler,
    PKSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
    WeightedRandomSampler,
)
from ._scene_readers import (
    DIV2KDataset,
    KITTIDataset,
    LSUNDataset,
    ManifestDataset,
    PhotoTourDataset,
    Places365Dataset,
    SVHNDataset,
    WIDERFaceDataset,
)
from ._serialize import compare, serialize, show
from ._sources import DatasetFormatError, MappableSource
from ._structure import (
    ConcatDataset,
    ProjectDataset,
    RenameDataset,
    RepeatDataset,
    SkipDataset,
    TakeDataset,
    ZipDataset,
)
from ._synthetic import FakeImageDataset, PaddedDataset, RandomDataset
from ._text_corpora import (
    AGNewsDataset,
    AmazonReviewDataset,
    DBpediaDataset,
    EnWik9Dataset,
    PennTreebankDataset,
    SogouNewsDataset,
    WikiTextDataset,
    YahooAnswersDataset,
    YelpReviewDataset,
)
from ._text_readers import (
    CLUEDataset,
    CoNLL2000Dataset,
    IWSLT2016Dataset,
    IWSLT2017Dataset,
    SQuADDataset,
    SST2Dataset,
    UDPOSDataset,
)
from ._text_sources import CSVDataset, TextFileDataset
from ._tfrecord import Schema, TFRecordDataset
from ._vision_readers import (
    Caltech256Dataset,
    EMnistDataset,
    QMnistDataset,
    SemeionDataset,
    STL10Dataset,
    SUN397Dataset,
    USPSDataset,
)
from ._voc import VOCDataset
from ._waited_callback import WaitedDSCallback

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
    "Multi30kDataset", "CoNLL2000Dataset", "UDPOSDataset", "SQuADDataset", "SST2Dataset", "CMUArcticDataset",
    "LibriTTSDataset", "Food101Dataset", "OmniglotDataset", "RenderedSST2Dataset", "FlickrDataset", "SVHNDataset",
    "WIDERFaceDataset", "KITTIDataset", "Places365Dataset", "ManifestDataset", "DIV2KDataset", "PhotoTourDataset",
    "Flowers102Dataset", "Caltech101Dataset", "CityscapesDataset", "LFWDataset", "CLUEDataset",
    "LSUNDataset", "SBUDataset", "SBDataset", "IWSLT2016Dataset", "IWSLT2017Dataset",
    "WaitedDSCallback", "serialize", "show", "compare",
]


def zip(datasets: tuple[Dataset, ...] | list[Dataset]) -> ZipDataset:  # noqa: A001 - MindSpore's name
    """Join the columns of several datasets row by row (``ds.zip((a, b))``). Returns: ZipDataset."""
    if not isinstance(datasets, (list, tuple)) or len(datasets) < 1:
        raise TypeError(f"zip: datasets must be a tuple of datasets, but got {datasets!r}")
    return ZipDataset(list(datasets))


# The audio transforms import SciPy's signal module (0.7 s); they load when ``dataset.audio`` is first used.
__getattr__ = lazy_names(__name__, {"audio": __name__ + ".audio"})
