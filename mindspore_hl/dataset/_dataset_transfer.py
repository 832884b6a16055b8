"""``Dataset.device_que`` and ``TransferDataset``: a pipeline whose batches a background thread moves onto the
device (``jax.device_put``) ahead of use, as MindSpore's data queue does in sink mode.

MindSpore's ``TransferDataset`` cannot be iterated: the compiled graph reads its queue (``GetNext`` with the
queue's ``queue_name``). Here the queue is registered under ``queue_name`` and :func:`next_batch` reads it, so a
``GetNext``-like reader or a sink loop can take the batches, which already live on the device.
"""
from __future__ import annotations

import queue
import threading
import time
import uuid
import weakref
from typing import Any, NoReturn

import jax
import numpy as np

from .. import context
from . import config
from ._dataset import Dataset
from ._iterator import TupleIterator

__all__ = ["TransferDataset", "device_que", "next_batch", "EndOfEpoch"]

_INT32_MAX = 2 ** 31 - 1

# queue_name -> the sender feeding it (the latest ``send`` of that TransferDataset)
_QUEUES: weakref.WeakValueDictionary[str, _ToDevice] = weakref.WeakValueDictionary()


class EndOfEpoch:
    """What :func:`next_batch` returns at an epoch's end when the queue was made with ``send_epoch_end=True``
    (MindSpore's end-of-sequence signal to the device)."""

    def __repr__(self) -> str:
        return "EndOfEpoch"


_EOS = EndOfEpoch()
_DONE = object()   # all epochs sent


class _Failed:
    def __init__(self, exc: BaseException):
        self.exc = exc


def _check_type(value: Any, types: tuple[type, ...], name: str) -> None:
    """MindSpore's ``type_check`` (bool is no int)."""
    if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
        raise TypeError(f"Argument {name} with value {value} is not of type {list(types)}, but got "
                        f"{type(value)}.")


class _ToDevice:
    """The sender of one ``send``: a thread that iterates the pipeline and puts each batch, on the device, into a
    bounded queue (``ds.config.get_prefetch_size()`` batches), so reading the host pipeline overlaps the steps."""

    def __init__(self, transfer: TransferDataset, num_epochs: int):
        self._epochs = num_epochs
        self._send_epoch_end = transfer._send_epoch_end
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=config.get_prefetch_size())
        self._info: queue.Queue[Any] | None = queue.Queue() if transfer._create_data_info_queue else None
        self._go = threading.Event()      # cleared by stop_send: the sender waits before its next batch
        self._go.set()
        self._stop = threading.Event()    # release: the sender ends
        self._batches = 0                 # batches in the queue (end-of-epoch marks not counted)
        self._sent = 0
        self._fetch_s = self._push_s = 0.0
        self._lock = threading.Lock()
        self._iter = TupleIterator(transfer.children[0], None, num_epochs, output_numpy=True)
        self._thread = threading.Thread(target=self._run, name=f"device_que-{transfer.queue_name}", daemon=True)
        self._thread.start()

    def _put(self, item: Any) -> bool:
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _run(self) -> None:
        epoch = 0
        try:
            while self._epochs == -1 or epoch < self._epochs:
                rows = 0
                while True:
                    start = time.perf_counter()
                    try:
                        row = next(self._iter)
                    except StopIteration:
                        break
                    fetched = time.perf_counter()
                    while not self._go.wait(0.05):
                        if self._stop.is_set():
                            return
                    arrays = tuple(jax.device_put(np.asarray(c)) for c in row)
                    with self._lock:
                        self._batches += 1
                    if not self._put(arrays):
                        return
                    if self._info is not None:
                        self._info.put(([a.dtype for a in arrays], [list(a.shape) for a in arrays]))
                    self._sent += 1
                    self._fetch_s += fetched - start
                    self._push_s += time.perf_counter() - fetched
                    rows += 1
                epoch += 1
                if self._send_epoch_end and not self._put(_EOS):
                    return
                if rows == 0:   # an empty epoch: endless sending would only repeat end-of-epoch marks
                    break
            self._put(_DONE)
        except BaseException as e:  # noqa: BLE001 - handed to the reader, which raises it
            self._put(_Failed(e))
        finally:
            self._iter.stop()

    def next_batch(self, timeout: float | None) -> Any:
        if self._stop.is_set():
            raise RuntimeError("device_que: the queue was released")
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"device_que: no batch arrived within {timeout} s") from None
        if item is _DONE:
            self._queue.put(_DONE)   # stays finished for later readers
            raise StopIteration
        if isinstance(item, _Failed):
            raise RuntimeError(f"device_que: the pipeline failed while sending: {item.exc}") from item.exc
        if item is not _EOS:
            with self._lock:
                self._batches -= 1
        return item

    def stop_send(self) -> None:
        self._go.clear()

    def continue_send(self) -> None:
        self._go.set()

    def get_data_info(self) -> tuple[list[np.dtype], list[list[int]]]:
        if self._info is None:
            raise RuntimeError("DataInfo queue is not created.")
        while True:
            try:
                return self._info.get(timeout=0.05)
            except queue.Empty:
                if self._stop.is_set() or not self._thread.is_alive():
                    raise RuntimeError("get_data_info: the sender ended and no batch is left to describe") from None

    def get_mbuf_queue_size(self) -> int:
        with self._lock:
            return self._batches

    def get_send_info(self) -> list[float]:
        return [self._sent, self._fetch_s, self._push_s]

    def release(self) -> None:
        self._stop.set()
        self._go.set()
        self._iter.stop()   # the pipeline's threads end too, also where the sender waits on a slow pipeline
        self._thread.join(timeout=5)
        while not self._queue.empty():   # drop the device buffers now
            self._queue.get_nowait()
        with self._lock:
            self._batches = 0


class TransferDataset(Dataset):
    """The result of ``device_que``: ``send`` starts moving the input's batches onto the device.

    Args: input_dataset, send_epoch_end (bool): put an end-of-epoch mark after each epoch,
        create_data_info_queue (bool): keep each batch's dtypes and shapes for ``get_data_info``,
        queue_name (str): the queue's name ("": a new uuid)."""

    def __init__(self, input_dataset: Dataset, send_epoch_end: bool = True, create_data_info_queue: bool = False,
                 queue_name: str = ""):
        super().__init__([input_dataset])
        self.queue_name = queue_name if queue_name else str(uuid.uuid1())
        self.device_type = context.get_context("device_target")
        self.device_id = context.get_context("device_id")
        self._send_epoch_end = True if send_epoch_end is None else send_epoch_end
        self._create_data_info_queue = create_data_info_queue
        self._to_device: _ToDevice | None = None
        self.column_name = input_dataset.get_col_names()
        self.column_names = list(self.column_name)

    def _num_rows(self):
        return self.children[0]._num_rows()

    def _blocks(self, ctx, epoch, block_rows):
        yield from self.children[0]._blocks(ctx, epoch, block_rows)

    # MindSpore: the device reads the queue; the dataset itself is not iterable
    def _not_iterable(self) -> NoReturn:
        raise RuntimeError("TransferDataset is not iterable.")

    def create_dict_iterator(self, num_epochs: int = -1, output_numpy: bool = False,  # type: ignore[override]
                             do_copy: bool = False) -> NoReturn:
        self._not_iterable()

    def create_tuple_iterator(self, columns: Any = None, num_epochs: int = -1,  # type: ignore[override]
                              output_numpy: bool = False, do_copy: bool = False) -> NoReturn:
        self._not_iterable()

    def __iter__(self) -> NoReturn:  # type: ignore[override]
        self._not_iterable()

    def output_shapes(self, estimate: bool = False) -> NoReturn:  # type: ignore[override]
        raise RuntimeError("TransferDataset does not support obtaining output_shapes.")

    def output_types(self) -> NoReturn:  # type: ignore[override]
        raise RuntimeError("TransferDataset does not support obtaining output_types.")

    def send(self, num_epochs: int = -1) -> None:
        """Start sending ``num_epochs`` epochs (-1: without end) to the device; a new ``send`` replaces the
        previous sender. Resumes at ``set_init_step`` as the iterators do."""
        _check_type(num_epochs, (int,), "num_epochs")
        if not -1 <= num_epochs <= _INT32_MAX:
            raise ValueError(f"Input num_epochs is not within the required interval of [-1, {_INT32_MAX}].")
        if num_epochs == 0:
            raise RuntimeError("send: num_epochs should be either -1 or positive integer, num_epochs: 0")
        if self._to_device is not None:
            self._to_device.release()
        self._to_device = _ToDevice(self, num_epochs)
        _QUEUES[self.queue_name] = self._to_device
        # the sender does not hold this dataset: when it is dropped, the thread ends and the buffers go
        weakref.finalize(self, self._to_device.release)

    def stop_send(self) -> None:
        """Hold the sender before its next batch (nothing before ``send``)."""
        if self._to_device is not None:
            self._to_device.stop_send()

    def continue_send(self) -> None:
        """Let a held sender go on (nothing before ``send``)."""
        if self._to_device is not None:
            self._to_device.continue_send()

    def get_data_info(self) -> tuple[list[np.dtype], list[list[int]]]:
        """The dtypes and shapes of the next sent batch not yet described (waits for it); needs
        ``create_data_info_queue=True``."""
        if self._to_device is not None:
            return self._to_device.get_data_info()
        raise RuntimeError("Calling get_data_info with bad state.")

    def get_mbuf_queue_size(self) -> int:
        """Batches waiting in the device queue."""
        if self._to_device is not None:
            return self._to_device.get_mbuf_queue_size()
        raise RuntimeError("Device queue is not init, call get_mbuf_queue_size failed.")

    def get_send_info(self) -> list[float]:
        """``[batches sent, seconds fetching them from the pipeline, seconds putting them on the device]``."""
        if self._to_device is not None:
            return self._to_device.get_send_info()
        raise RuntimeError("Calling get_send_info with bad state, data queue is not initialized.")

    def release(self) -> None:
        """End the sender and free the queued device buffers (nothing before ``send``)."""
        if self._to_device is not None:
            self._to_device.release()


def device_que(dataset: Dataset, send_epoch_end: bool = True, create_data_info_queue: bool = False,
               queue_name: str = "") -> TransferDataset:
    """``dataset.device_que(...)``: MindSpore's argument checks, then a TransferDataset over ``dataset``."""
    _check_type(send_epoch_end, (bool,), "send_epoch_end")
    _check_type(create_data_info_queue, (bool,), "create_data_info_queue")
    _check_type(queue_name, (str,), "queue_name")
    return TransferDataset(dataset, send_epoch_end, create_data_info_queue, queue_name)


def next_batch(queue_name: str, timeout: float | None = None) -> tuple[jax.Array, ...] | EndOfEpoch:
    """The next batch (a tuple of device arrays, one per column) of the queue ``queue_name``, waiting up to
    ``timeout`` seconds; :data:`EndOfEpoch` marks an epoch's end. Raises StopIteration after the last epoch.

    >>> import numpy as np
    >>> import mindspore_hl.dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.arange(4, dtype=np.int32)}, shuffle=False).batch(2).device_que()
    >>> data.send(1)
    >>> [int(v) for v in next_batch(data.queue_name, timeout=10)[0]]
    [0, 1]
    >>> data.release()
    """
    sender = _QUEUES.get(queue_name)
    if sender is None:
        raise RuntimeError(f"device_que: no queue named {queue_name!r} is sending; call send() on the "
                           f"TransferDataset that device_que() returned")
    return sender.next_batch(timeout)
