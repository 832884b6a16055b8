"""Pipeline operations that touch row values: map, batch, shuffle."""
from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ._block import column_from_rows, concat, nrows, object_column, rows, slice_block, source_file, take
from ._callbacks import DSCallback, run_callbacks
from ._context import ordered_map
from ._dataset import BatchInfo, Dataset, check_workers, column_list, default_workers
from ._extra import check_pad_info, pad_batch
from ._sync import notify_batch_size
from .transforms._base import TensorOperation
from .transforms._ops import Compose, apply_op, op_name

__all__ = ["MapDataset", "BatchDataset", "ShuffleDataset"]


def _flatten_ops(operations: Any) -> list[Callable[..., Any]]:
    ops = operations if isinstance(operations, (list, tuple)) else [operations]
    flat: list[Callable[..., Any]] = []
    for op in ops:
        if isinstance(op, Compose):
            flat.extend(_flatten_ops(op.transforms))
        elif callable(op):
            flat.append(op)
        else:
            raise TypeError(f"map: operations must be transforms or callables, but got {op!r}")
    if not flat:
        raise ValueError("map: operations must not be empty")
    return flat


class MapDataset(Dataset):
    """Rows with ``operations`` applied to ``input_columns`` (see ``Dataset.map``)."""

    _given_columns: tuple[Any, Any] = (None, None)   # map()'s input/output_columns as given (for to_json)

    def __init__(self, child: Dataset, operations: Callable[..., Any] | Sequence[Callable[..., Any]] | None,
                 input_columns: str | Sequence[str] | None = None, output_columns: str | Sequence[str] | None = None,
                 num_parallel_workers: int | None = None, callbacks: DSCallback | Sequence[DSCallback] | None = None):
        super().__init__([child], check_workers("map", num_parallel_workers))
        cbs: list[Any] = [] if callbacks is None else \
            (list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks])
        if not all(isinstance(cb, DSCallback) for cb in cbs):
            raise TypeError(f"map: callbacks must be DSCallback objects, but got {callbacks!r}")
        self.callbacks = cbs
        self.operations = _flatten_ops(operations)
        names = child.get_col_names()
        self.input_columns = [names[0]] if input_columns is None else column_list("map", input_columns,
                                                                                   "input_columns")
        missing = [c for c in self.input_columns if c not in names]
        if missing:
            raise ValueError(f"map: input column(s) {missing} do not exist; the dataset has columns {names}")
        self.output_columns = self.input_columns if output_columns is None else \
            column_list("map", output_columns, "output_columns")
        self._in_idx = [names.index(c) for c in self.input_columns]
        first = min(self._in_idx)
        kept = [(i, c) for i, c in enumerate(names) if i not in self._in_idx]
        self._layout = [("in", i) for i, _ in kept if i < first] + [("out", j) for j in range(
            len(self.output_columns))] + [("in", i) for i, _ in kept if i > first]
        self.column_names = [names[i] if kind == "in" else self.output_columns[i] for kind, i in self._layout]
        if len(set(self.column_names)) != len(self.column_names):
            raise ValueError(f"map: output columns {self.output_columns} clash with existing columns {names}")
        self._random = any(getattr(op, "random", False) or not isinstance(op, TensorOperation)
                           for op in self.operations)

    def _workers(self):
        return default_workers(self.num_parallel_workers)

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _fail(self, op, e, where):
        cols = self.input_columns[0] if len(self.input_columns) == 1 else self.input_columns
        user = "" if isinstance(op, TensorOperation) else \
            " Exception thrown from user defined Python function in dataset."
        raise RuntimeError(f"map: operation {op_name(op)} failed on column {cols!r}{where}:{user} "
                           f"{type(e).__name__}: {e}") from e

    def _map_block(self, block, rng):
        vals = [block[i] for i in self._in_idx]
        n = nrows(block)
        for op in self.operations:
            if isinstance(op, TensorOperation) and op.batchable and all(v.dtype != object for v in vals):
                try:
                    out = op._apply_batch(rng, *vals)
                except Exception as e:  # noqa: BLE001 - re-raised with the op and column named
                    self._fail(op, e, f" (a block of {n} rows)")
                vals = list(out) if isinstance(out, tuple) else [out]
                continue
            outs = []
            for i in range(n):
                args = [v[i] if v.dtype == object else v[i, ...] for v in vals]
                try:
                    outs.append(apply_op(op, rng, args))
                except Exception as e:  # noqa: BLE001
                    files = [f for f in map(source_file, args) if f]
                    self._fail(op, e, f" (file {', '.join(files)})" if files else f" (row {i} of a block)")
            k = len(outs[0]) if outs else len(vals)
            if any(len(o) != k for o in outs):
                raise RuntimeError(f"map: operation {op_name(op)} returned different numbers of columns for "
                                   f"different rows")
            vals = [column_from_rows([o[j] for o in outs]) for j in range(k)]
        if len(vals) != len(self.output_columns):
            raise RuntimeError(f"map: the operations on {self.input_columns} returned {len(vals)} column(s), but "
                               f"output_columns names {len(self.output_columns)}: {self.output_columns}; "
                               f"set output_columns to {len(vals)} name(s)")
        return [block[i] if kind == "in" else vals[i] for kind, i in self._layout]

    def _blocks(self, ctx, epoch, block_rows):
        src = enumerate(self.children[0]._blocks(ctx, epoch, block_rows))
        if self._random:
            def work(item):
                return self._map_block(item[1], ctx.rng(self, *epoch, item[0]))
        else:
            def work(item):
                return self._map_block(item[1], None)
        state = ctx.__dict__.setdefault("_ds_callbacks", {}).setdefault(id(self), {})
        if any(getattr(cb, "waits_for_training", False) for cb in self.callbacks):
            # a WaitedDSCallback's hook may change the operations for the next row: run the hooks before each
            # row is mapped, one row at a time
            rows_in = (slice_block(b, i, i + 1) for b in self.children[0]._blocks(ctx, epoch, block_rows)
                       for i in range(nrows(b)))
            hooked = enumerate(run_callbacks(self.callbacks, rows_in, epoch[0], state, nrows))
            yield from (work(item) for item in hooked)
            return
        out = ordered_map(ctx, work, src, self._workers())
        if self.callbacks:
            out = run_callbacks(self.callbacks, out, epoch[0], state, nrows)
        yield from out


class BatchDataset(Dataset):
    """Rows grouped into batches (see ``Dataset.batch``)."""

    batch_size: int
    drop_remainder: bool
    per_batch_map: Callable[..., Any] | None
    _in_cols: list[str]
    _out_cols: list[str]

    def __init__(self, child: Dataset, batch_size: int, drop_remainder: bool = False,
                 num_parallel_workers: int | None = None, per_batch_map: Callable[..., Any] | None = None,
                 input_columns: str | Sequence[str] | None = None, output_columns: str | Sequence[str] | None = None,
                 pad_info: dict[str, Any] | None = None, pad_all: bool = False):
        super().__init__([child], check_workers("batch", num_parallel_workers))
        self.pad_info = check_pad_info("batch", pad_info, child.get_col_names())
        self._pad_all = pad_all
        if isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral) or \
                not 1 <= batch_size <= 2 ** 31 - 1:
            raise ValueError(f"batch: batch_size must be a positive int, but got {batch_size!r}")
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"batch: drop_remainder must be a bool, but got {drop_remainder!r}")
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError(f"batch: per_batch_map must be callable, but got {per_batch_map!r}")
        self.batch_size, self.drop_remainder, self.per_batch_map = int(batch_size), drop_remainder, per_batch_map
        notify_batch_size(child, self.batch_size)
        names = child.get_col_names()
        self._in_cols = names if input_columns is None else column_list("batch", input_columns, "input_columns")
        missing = [c for c in self._in_cols if c not in names]
        if missing:
            raise ValueError(f"batch: input column(s) {missing} do not exist; the dataset has columns {names}")
        out_cols = self._in_cols if output_columns is None else column_list("batch", output_columns,
                                                                             "output_columns")
        self._out_cols = out_cols
        if per_batch_map is None or input_columns is None:
            self.column_names = list(names) if per_batch_map is None else list(out_cols)
        else:
            first = names.index(self._in_cols[0])
            rest = [c for c in names if c not in self._in_cols]
            self.column_names = [c for c in rest if names.index(c) < first] + list(out_cols) + \
                [c for c in rest if names.index(c) > first]

    def _num_rows(self):
        n = self.children[0]._num_rows()
        if n is None or n == -1:
            return n
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def get_batch_size(self) -> int:
        return self.batch_size if self._batch_size is None else self._batch_size

    def _stack(self, col, name):
        if self.pad_info is not None and (name in self.pad_info or self._pad_all):
            spec = self.pad_info.get(name)
            if col.dtype == object or (spec is not None and spec[0] is not None and
                                       list(spec[0]) != list(col.shape[1:])):
                return pad_batch(rows(col), name, spec)
        if col.dtype != object:
            return col
        values = list(col)
        first = values[0]
        for v in values[1:]:
            if v.shape != first.shape or v.dtype != first.dtype:
                raise RuntimeError(f"batch: cannot batch column '{name}': its rows have different shapes/types, "
                                   f"{first.shape} {first.dtype} and {v.shape} {v.dtype}; resize or pad them to "
                                   f"one shape first (e.g. with map)")
        return np.stack(values)

    def _apply_per_batch_map(self, batch, names, batch_num, epoch):
        in_idx = [names.index(c) for c in self._in_cols]
        args = [rows(batch[i]) for i in in_idx] + [BatchInfo(batch_num, epoch[0])]
        try:
            out = self.per_batch_map(*args)  # type: ignore[misc]  # only called with a per_batch_map
        except Exception as e:  # noqa: BLE001
            raise RuntimeError(f"batch: per_batch_map {op_name(self.per_batch_map)} failed on columns "
                               f"{self._in_cols}: Exception thrown from user defined Python function in dataset. "
                               f"{type(e).__name__}: {e}") from e
        out = out if isinstance(out, tuple) else (out,)
        if len(out) != len(self._out_cols):
            raise RuntimeError(f"batch: per_batch_map returned {len(out)} columns, but output_columns has "
                               f"{len(self._out_cols)}: {self._out_cols}")
        new = {}
        for name, values in zip(self._out_cols, out):
            values = list(values) if isinstance(values, (list, tuple)) else list(np.asarray(values))
            new[name] = column_from_rows([np.asarray(v) for v in values])
        kept = {c: batch[names.index(c)] for c in names if c not in self._in_cols}
        return [new[c] if c in new else kept[c] for c in self.column_names]

    def _blocks(self, ctx, epoch, block_rows):
        bs = self.batch_size
        names = self.children[0].get_col_names()
        hint = bs * max(1, 256 // bs)
        carry, batch_num = None, 0
        for block in self.children[0]._blocks(ctx, epoch, hint):
            n = nrows(block)
            if n == 0:
                continue
            batches, start = [], 0
            if carry is not None:
                need = bs - nrows(carry)
                start = min(need, n)
                carry = concat([carry, slice_block(block, 0, start)])
                if nrows(carry) == bs:
                    batches.append(carry)
                    carry = None
            while start + bs <= n:
                batches.append(slice_block(block, start, start + bs))
                start += bs
            if start < n:
                carry = slice_block(block, start, n)
            if batches:
                yield self._emit(batches, names, batch_num, epoch)
                batch_num += len(batches)
        if carry is not None and not self.drop_remainder:
            yield self._emit([carry], names, batch_num, epoch)

    def _emit(self, batches, names, batch_num, epoch):
        out = []
        for k, b in enumerate(batches):
            b = [self._stack(c, names[j]) for j, c in enumerate(b)]
            if self.per_batch_map is not None:
                b = self._apply_per_batch_map(b, names, batch_num + k, epoch)
                b = [self._stack(c, self.column_names[j]) for j, c in enumerate(b)]
            out.append(b)
        return [object_column([b[j] for b in out]) for j in range(len(out[0]))]


class ShuffleDataset(Dataset):
    """Rows shuffled through a buffer of ``buffer_size`` rows: each incoming row replaces a randomly chosen
    buffered row, which is emitted (MindSpore's ShuffleOp), done block-wise."""

    buffer_size: int

    def __init__(self, child: Dataset, buffer_size: int):
        super().__init__([child])
        if isinstance(buffer_size, bool) or not isinstance(buffer_size, numbers.Integral) or buffer_size < 2:
            raise ValueError(f"shuffle: buffer_size must be an int >= 2, but got {buffer_size!r}")
        if child.is_sync():
            raise RuntimeError("shuffle: no shuffle after sync operators (sync_wait).")
        self.buffer_size = int(buffer_size)
        self.column_names = child.get_col_names()

    def is_shuffled(self) -> bool:
        return True

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _blocks(self, ctx, epoch, block_rows):
        rng = ctx.rng(self, *epoch)
        cap = self.buffer_size
        buf: Any = None   # the buffer block once the first rows arrive
        full = False
        for block in self.children[0]._blocks(ctx, epoch, block_rows):
            if nrows(block) == 0:
                continue
            if not full:
                buf = block if buf is None else concat([buf, block])
                if nrows(buf) < cap:
                    continue
                block, buf = slice_block(buf, cap, nrows(buf)), slice_block(buf, 0, cap)
                buf = [c.copy() for c in buf]  # owned: written in place below
                full = True
            start, n = 0, nrows(block)
            while start < n:
                m = min(n - start, cap)
                pos = rng.choice(cap, size=m, replace=False)
                incoming = slice_block(block, start, start + m)
                out = take(buf, pos)
                for j, src in enumerate(incoming):
                    c = buf[j]
                    if c.dtype == object or src.dtype != c.dtype or src.shape[1:] != c.shape[1:]:
                        if c.dtype != object:
                            buf[j] = c = object_column(rows(c))
                        src = object_column(rows(src))
                    c[pos] = src
                yield out
                start += m
        if buf is not None and nrows(buf):
            order = rng.permutation(nrows(buf))
            for s in range(0, len(order), block_rows):
                yield take(buf, order[s:s + block_rows])


