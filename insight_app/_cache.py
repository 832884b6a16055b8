"""A small thread-safe LRU cache for rendered pieces (smoothed series, decimated traces)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any


class LRU:
    """At most ``size`` entries; the least recently used one is dropped first.

    >>> c = LRU(2); c.put("a", 1); c.put("b", 2); c.get("a"); c.put("c", 3); c.get("b") is None
    1
    True
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._d: OrderedDict = OrderedDict()
        self._lock = threading.Lock()  # held for a dict operation only, never while computing
        self._busy: dict = {}           # key -> Event set when the thread computing it is done

    def get(self, key: Hashable) -> Any:
        """The cached value, or None."""
        with self._lock:
            val = self._d.get(key)
            if val is not None:
                self._d.move_to_end(key)
            return val

    def get_or_compute(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The cached value, computing it once: threads asking for a key being computed wait for it
        rather than computing it again (twenty tabs changing the smoothing at once cost one pass)."""
        while True:
            with self._lock:
                val = self._d.get(key)
                if val is not None:
                    self._d.move_to_end(key)
                    return val
                waiter = self._busy.get(key)
                if waiter is None:
                    self._busy[key] = threading.Event()
                    break
            waiter.wait()
        try:
            val = compute()
            self.put(key, val)
            return val
        finally:
            with self._lock:
                self._busy.pop(key).set()

    def put(self, key: Hashable, value: Any) -> None:
        """Store ``value`` (not None) under ``key``."""
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self.size:
                self._d.popitem(last=False)
