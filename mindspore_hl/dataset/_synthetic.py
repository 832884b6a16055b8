"""In-memory sources: ``PaddedDataset`` (rows given as dicts) and ``RandomDataset`` (random rows of a schema)."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from . import config
from ._block import column_from_rows
from ._samplers import Sampler
from ._sources import MappableSource
from ._tfrecord import Schema

__all__ = ["PaddedDataset", "RandomDataset", "FakeImageDataset"]


class PaddedDataset(MappableSource):
    """Rows given as a list of dicts (columns: the first dict's keys, in order). Often concatenated to a source
    so that every shard gets the same number of rows.

    Args: padded_samples (list of dict)."""

    def __init__(self, padded_samples: list[dict[str, Any]]):
        if not isinstance(padded_samples, list) or not padded_samples or \
                not all(isinstance(s, dict) for s in padded_samples):
            raise TypeError(f"PaddedDataset: padded_samples must be a non-empty list of dicts, but got "
                            f"{type(padded_samples).__name__}")
        names = list(padded_samples[0])
        for i, s in enumerate(padded_samples):
            if list(s) != names and set(s) != set(names):
                raise ValueError(f"PaddedDataset: sample {i} has keys {sorted(s)}, but sample 0 has {sorted(names)}")
        super().__init__(None, None, False, None, None, None, default_shuffle=False)
        self.column_names = names
        self._rows = [[np.asarray(s[c]) for c in names] for s in padded_samples]

    def _length(self):
        return len(self._rows)

    def _read(self, ids):
        picked = [self._rows[int(i)] for i in ids]
        return [column_from_rows([r[k] for r in picked]) for k in range(len(self.column_names))]


_RANDOM_TYPES = ("uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "float16", "float32",
                 "float64", "bool")


class RandomDataset(MappableSource):
    """Random rows, for testing pipelines. With a ``schema`` each column has its type and shape (scalars where no
    shape); without one, 1-4 columns of random types and shapes (each side 1-32). Values are uniform over
    [0, 255] for integers, [0, 1) for floats. Row ``i`` is the same on every read (seeded by the dataset seed).

    Args: total_rows (int, default random in [1, 1024]), schema (Schema | JSON file), columns_list (list),
        num_samples, num_parallel_workers, cache (unused), shuffle (default True), num_shards, shard_id."""

    def __init__(self, total_rows: int | None = None, schema: Schema | str | None = None,
                 columns_list: Sequence[str] | None = None, num_samples: int | None = None,
                 num_parallel_workers: int | None = None, cache: Any = None, shuffle: bool | None = None,
                 num_shards: int | None = None, shard_id: int | None = None):
        seed = config.effective_seed()
        # a fresh SeedSequence's entropy is an int
        self._seed = int(seed) if seed is not None else int(np.random.SeedSequence().entropy % (2 ** 32))  # type: ignore[operator]
        rng = np.random.default_rng(self._seed)
        if total_rows is None:
            total_rows = int(rng.integers(1, 1025))
        if isinstance(total_rows, bool) or not isinstance(total_rows, int) or total_rows < 1:
            raise ValueError(f"RandomDataset: total_rows must be a positive int, but got {total_rows!r}")
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is not None and not isinstance(schema, Schema):
            raise TypeError(f"RandomDataset: schema must be a Schema or a JSON file path, but got {schema!r}")
        if schema is not None and schema.columns:
            cols = [(c["name"], c["type"], tuple(c.get("shape", ()))) for c in schema.columns]
        else:
            cols = [(f"c{k}", str(rng.choice(_RANDOM_TYPES)), tuple(int(d) for d in rng.integers(
                1, 33, size=int(rng.integers(1, 5))))) for k in range(int(rng.integers(1, 5)))]
        for name, t, _ in cols:
            if t not in _RANDOM_TYPES:
                raise ValueError(f"RandomDataset: column {name!r} has type {t!r}; random data supports "
                                 f"{list(_RANDOM_TYPES)}")
        if columns_list is not None:
            cols = [c for c in cols if c[0] in columns_list]
        super().__init__(num_samples, num_parallel_workers, shuffle, None, num_shards, shard_id)
        self.total_rows = total_rows
        self._cols = cols
        self.column_names = [c[0] for c in cols]

    def _length(self):
        return self.total_rows

    def _row(self, i):
        rng = np.random.default_rng([self._seed, i])
        out = []
        for _, t, shape in self._cols:
            if t.startswith("float"):
                out.append(rng.random(shape).astype(t))
            elif t == "bool":
                out.append(rng.integers(0, 2, shape).astype(bool))
            else:
                out.append(rng.integers(0, 256, shape).astype(t))
        return out

    def _read(self, ids):
        rows = [self._row(int(i)) for i in ids]
        return [column_from_rows([r[k] for r in rows]) for k in range(len(self._cols))]


class FakeImageDataset(MappableSource):
    """Random uint8 images with uint32 labels in [0, num_classes), for testing pipelines. Image ``i`` depends
    only on ``base_seed`` and ``i`` (MindSpore's own generator is not reproduced: the pixels differ from it).

    Args: num_images (int), image_size ((H, W, C)), num_classes (int), base_seed (int), num_samples,
        num_parallel_workers, shuffle (default True), sampler, num_shards, shard_id, cache (unused)."""

    def __init__(self, num_images: int = 1000, image_size: Sequence[int] = (224, 224, 3), num_classes: int = 10,
                 base_seed: int = 0, num_samples: int | None = None, num_parallel_workers: int | None = None,
                 shuffle: bool | None = None, sampler: Sampler | Iterable[int] | None = None,
                 num_shards: int | None = None, shard_id: int | None = None, cache: Any = None):
        for name, v in (("num_images", num_images), ("num_classes", num_classes)):
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise ValueError(f"FakeImageDataset: {name} must be a positive int, but got {v!r}")
        if not isinstance(image_size, (list, tuple)) or len(image_size) != 3 or \
                not all(isinstance(d, int) and d > 0 for d in image_size):
            raise ValueError(f"FakeImageDataset: image_size must be 3 positive ints (H, W, C), got {image_size!r}")
        if isinstance(base_seed, bool) or not isinstance(base_seed, int) or base_seed < 0:
            raise ValueError(f"FakeImageDataset: base_seed must be a non-negative int, but got {base_seed!r}")
        super().__init__(num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id)
        self.num_images, self.image_size = num_images, tuple(image_size)
        self._classes, self.base_seed = num_classes, base_seed
        self.column_names = ["image", "label"]

    def _length(self):
        return self.num_images

    def _read(self, ids):
        images, labels = [], []
        for i in ids:
            rng = np.random.default_rng([self.base_seed, int(i)])
            images.append(rng.integers(0, 256, self.image_size, dtype=np.uint8))
            labels.append(rng.integers(0, self._classes))
        return [np.stack(images), np.asarray(labels, np.uint32)]

    def num_classes(self) -> int:
        return self._classes

