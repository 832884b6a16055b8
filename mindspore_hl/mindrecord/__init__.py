"""``mindspore_hl.mindrecord`` (``mindspore.mindrecord``): MindSpore's own dataset file format.

Files written here are read by real MindSpore and the reverse (same header, pages, blob encoding and SQLite
index); ``mindspore_hl.dataset.MindDataset`` reads them into a pipeline.
"""
from ._format import FormatError
from ._reader import FileReader
from ._writer import FileWriter

SUCCESS = 0
FAILED = 1

__all__ = ["FileWriter", "FileReader", "FormatError", "SUCCESS", "FAILED"]
