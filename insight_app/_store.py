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
        self.runs: dict[str, RunData] = {}  # the live data, written by the refreshing thread only
        self._by_path: dict[str, str] = {}
        self._lock = threading.Lock()  # held by the one thread reading files; renders never take it
        self._last_refresh = 0.0
        self.scan_problems: list[str] = []
        self._seen_problems: dict[str, int] = {}
        self._snap = Snapshot(self.root, 0, {}, [])
        self.refresh(force=True)

    # ---- paths ----
    def confine(self, path: str | os.PathLike[str]) -> Path:
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

    # ---- discovery and reading ----
    def _discover(self) -> set:
        changed = set()
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
                changed.add(run_id)
            run = self.runs[run_id]
            for full, fmt in files:
                if full not in run.files:
                    run.files[full] = FileTail(full, fmt)
                    changed.add(run_id)
        self.scan_problems = problems
        return changed

    def refresh(self, force: bool = False) -> int:
        """Look for new runs and files, read what was appended and publish a new snapshot; returns the
        generation of the newest snapshot.

        Calls closer together than ``min_refresh_s`` return at once unless ``force``; so does a call
        made while another thread is reading (it never waits for the reader).
        """
        if not self._lock.acquire(blocking=force):
            return self._snap.generation
        try:
            now = time.monotonic()
            if not force and now - self._last_refresh < self.min_refresh_s:
                return self._snap.generation
            try:
                changed_runs = self._discover()
            except OSError as exc:
                self.scan_problems.append(f"scanning the log root failed: {exc}")
                changed_runs = set()
            for run in list(self.runs.values()):
                try:
                    got = run.poll()
                except Exception as exc:  # noqa: BLE001 -- one run's failure never hides the others
                    run.problem(run.path, 0, f"reading stopped: {type(exc).__name__}: {str(exc)[:200]}")
                    got = 1
                if got or run.problem_count != self._seen_problems.get(run.id, 0):
                    changed_runs.add(run.id)
            self._last_refresh = time.monotonic()
            problems = self._collect_problems()
            if changed_runs or problems != self._snap.problems():
                self._publish(changed_runs, problems)
            return self._snap.generation
        finally:
            self._lock.release()

    def _publish(self, changed_runs: set, problems: list[str]) -> None:
        views = dict(self._snap.runs)
        for rid in changed_runs:
            run = self.runs[rid]
            views[rid] = RunView(run)
            self._seen_problems[rid] = run.problem_count
        self._snap = Snapshot(self.root, self._snap.generation + 1, views, problems)

    def snapshot(self) -> Snapshot:
        """The newest published snapshot: immutable, so renders read it without any lock."""
        return self._snap

    @property
    def generation(self) -> int:
        """The generation of the newest snapshot."""
        return self._snap.generation

    def run(self, run_id: object) -> RunView | None:
        """The run with this server-side id in the newest snapshot (None for anything else, paths included)."""
        return self._snap.run(run_id)

    def sorted_runs(self) -> list[RunView]:
        """Runs of the newest snapshot in name order."""
        return self._snap.sorted_runs()

    def problems(self) -> list[str]:
        """Human-readable problems of the newest snapshot: skipped records and refused paths."""
        return self._snap.problems()

    def _collect_problems(self) -> list[str]:
        out = list(self.scan_problems)
        for run in sorted(self.runs.values(), key=lambda r: r.name):
            for fname, off, msg in run.problems:
                out.append(f"{run.name}/{fname} @ byte {off}: {msg}")
            extra = run.problem_count - len(run.problems)
            if extra > 0:
                out.append(f"{run.name}: {extra} more problems not listed")
        return out


class RunView:
    """One run as of one snapshot. Every container is a copy (or a view of data that is never
    rewritten), so pages read it while the reader keeps appending to the live ``RunData``."""

    def __init__(self, run: RunData) -> None:
        self.id, self.name, self.path = run.id, run.name, run.path
        self.epoch = run.epoch
        self.scalars = {t: s.frozen() for t, s in run.scalars.items()}
        self.histograms = {t: tuple(v) for t, v in run.histograms.items()}
        self.images = {t: tuple(v) for t, v in run.images.items()}
        self.texts = {t: tuple(v) for t, v in run.texts.items()}
        self.pr_curves = {t: tuple(v) for t, v in run.pr_curves.items()}
        self.custom_layout = run.custom_layout
        self.hparams = dict(run.hparams)
        self.hparam_metrics = frozenset(run.hparam_metrics)
        self.lineage = dict(run.lineage)
        self.lineage_metrics = dict(run.lineage_metrics)
        self.other_tags = frozenset(run.other_tags)
        self.graph = run.graph
        self.cell_tree = run.cell_tree
        self.version = run.version
        self.first_wall = run.first_wall
        self.problems = list(run.problems)  # (file name, offset, message) of this run's listed problems


class Snapshot:
    """Everything the pages show, as of one generation of the store."""

    def __init__(self, root: Path, generation: int, runs: dict, problems: list[str]) -> None:
        self.root = root
        self.generation = generation
        self.runs = runs
        self._sorted = sorted(runs.values(), key=lambda r: r.name)
        self._problems = problems

    def run(self, run_id: object) -> RunView | None:
        """The run with this server-side id, or None for anything else (paths included)."""
        return self.runs.get(run_id) if isinstance(run_id, str) else None

    def sorted_runs(self) -> list[RunView]:
        """Runs in name order."""
        return list(self._sorted)

    def problems(self) -> list[str]:
        """Problems listed while reading."""
        return list(self._problems)
