"""The log root: run discovery, server-side run ids, path confinement and live refresh."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from ._reader import FileTail, RunData, file_format


class PathOutsideLogdir(PermissionError):
    """A path that resolves outside the log root (directly or through a symlink)."""


class LogStore:
    """All runs found under one log root, read incrementally.

    A run is a directory holding event files; it is named by its path relative to the root ("." for
    the root itself) and addressed by a server-side id ("r0", "r1", ...). The browser only ever
    sends ids, which are looked up in this store; paths never come from a request.
    """

    def __init__(self, logdir: str, min_refresh_s: float = 1.0) -> None:
        root = Path(logdir).expanduser()
        if not root.is_dir():
            raise FileNotFoundError(f"--logdir {logdir!r}: not a directory")
        self.root = root.resolve()
        self.min_refresh_s = min_refresh_s
        self.generation = 0
        self.runs: dict[str, RunData] = {}
        self._by_path: dict[str, str] = {}
        self._lock = threading.RLock()
        self._last_refresh = 0.0
        self.scan_problems: list[str] = []
        self.refresh(force=True)

    # ---- paths ----
    def confine(self, path) -> Path:
        """Resolve ``path`` (relative paths are taken from the root) and check it stays inside the root.

        Raises:
            PathOutsideLogdir: the resolved path is not the root or below it.
        """
        p = Path(path)
        resolved = (p if p.is_absolute() else self.root / p).resolve()
        if resolved != self.root and self.root not in resolved.parents:
            raise PathOutsideLogdir(f"{str(path)!r} resolves to {str(resolved)!r}, outside the log root "
                                    f"{str(self.root)!r}; refused")
        return resolved

    def run(self, run_id) -> RunData | None:
        """The run with this server-side id, or None for anything else (paths included)."""
        if not isinstance(run_id, str):
            return None
        return self.runs.get(run_id)

    def sorted_runs(self) -> list[RunData]:
        """Runs in name order."""
        return sorted(self.runs.values(), key=lambda r: r.name)

    # ---- discovery and reading ----
    def _discover(self) -> bool:
        changed = False
        seen_dirs: set[str] = set()
        problems: list[str] = []
        for dirpath, dirnames, filenames in os.walk(self.root, followlinks=True):
            real = os.path.realpath(dirpath)
            if real in seen_dirs:  # a symlink loop or a second link to a directory
                dirnames[:] = []
                continue
            seen_dirs.add(real)
            keep = []
            for d in sorted(dirnames):
                full = os.path.join(dirpath, d)
                try:
                    self.confine(full)
                    keep.append(d)
                except PathOutsideLogdir:
                    problems.append(f"{os.path.relpath(full, self.root)}: symlink leads outside the log root; "
                                    "not followed")
            dirnames[:] = keep
            files = []
            for name in sorted(filenames):
                fmt = file_format(name)
                if fmt is None:
                    continue
                full = os.path.join(dirpath, name)
                try:
                    self.confine(full)
                except PathOutsideLogdir:
                    problems.append(f"{os.path.relpath(full, self.root)}: symlink leads outside the log root; "
                                    "not read")
                    continue
                files.append((full, fmt))
            if not files:
                continue
            rel = os.path.relpath(dirpath, self.root)
            run_id = self._by_path.get(dirpath)
            if run_id is None:
                run_id = f"r{len(self._by_path)}"
                self._by_path[dirpath] = run_id
                self.runs[run_id] = RunData(run_id, rel, dirpath)
                changed = True
            run = self.runs[run_id]
            for full, fmt in files:
                if full not in run.files:
                    run.files[full] = FileTail(full, fmt)
                    changed = True
        self.scan_problems = problems
        return changed

    def refresh(self, force: bool = False) -> int:
        """Look for new runs and files and read what was appended; returns the data generation.

        Calls closer together than ``min_refresh_s`` return at once unless ``force``.
        """
        with self._lock:
            now = time.monotonic()
            if not force and now - self._last_refresh < self.min_refresh_s:
                return self.generation
            changed = self._discover()
            for run in self.runs.values():
                if run.poll():
                    changed = True
            self._last_refresh = time.monotonic()
            if changed:
                self.generation += 1
            return self.generation

    @property
    def lock(self) -> threading.RLock:
        """Held while reading; hold it to read a consistent snapshot."""
        return self._lock

    def problems(self) -> list[str]:
        """Human-readable problems: skipped records and refused paths."""
        out = list(self.scan_problems)
        for run in self.sorted_runs():
            for fname, off, msg in run.problems:
                out.append(f"{run.name}/{fname} @ byte {off}: {msg}")
            extra = run.problem_count - len(run.problems)
            if extra > 0:
                out.append(f"{run.name}: {extra} more problems not listed")
        return out
