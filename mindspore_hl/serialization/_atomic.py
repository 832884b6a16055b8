"""Atomic file replacement: write a temp file beside the target, fsync it, then ``os.replace``.

Temp files are named ``.<name>.<pid>.<hex>.tmp``. A writer killed mid-write (SIGKILL, power loss) leaves its
temp file behind; the next atomic write into the same directory removes the temp files whose writer process
no longer exists, so repeated crashes do not fill the disk.
"""
from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Iterator
from typing import BinaryIO

__all__ = ["atomic_open", "remove_dead_temp_files", "temp_writer_pid"]

_TEMP = re.compile(r"^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$")


def temp_writer_pid(filename: str) -> int | None:
    """The writer's pid if ``filename`` (a base name) is one of our temp files, else None."""
    m = _TEMP.match(filename)
    return int(m.group(1)) if m else None


def _alive(pid):
    if pid == os.getpid():
        return True  # our own (e.g. a background save still writing)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists but belongs to someone else
        return True
    return True


def remove_dead_temp_files(directory: str) -> list[str]:
    """Remove ``.<name>.<pid>.<hex>.tmp`` files in ``directory`` whose writer process is gone.

    Returns:
        list of the removed paths.
    """
    removed: list[str] = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        pid = temp_writer_pid(name)
        if pid is None or _alive(pid):
            continue
        path = os.path.join(directory, name)
        with contextlib.suppress(FileNotFoundError):  # another process cleaned it up first
            if os.path.isfile(path) and not os.path.islink(path):
                os.unlink(path)
                removed.append(path)
    return removed


def _named(e, path, action):
    """``e`` re-raised as the same OSError subclass with the checkpoint's path in its message."""
    if not isinstance(e, OSError) or e.errno is None:
        return e
    return OSError(e.errno, f"{e.strerror or e} while {action}", path)


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open a binary temp file next to ``path``; on clean exit it replaces ``path`` in one step.

    A failure anywhere inside the ``with`` block removes the temp file and leaves an existing ``path``
    untouched, so a crash or a full disk never leaves a half-written checkpoint under the real name.
    Operating-system errors (disk full, file too large, permission denied) are raised as ``OSError`` of the
    same kind whose message names ``path``. Temp files left by dead writers in the directory are removed first.

    Args:
        path: the final file name.

    Yields:
        a writable binary file object.
    """
    path = os.path.abspath(os.fspath(path))
    directory = os.path.dirname(path)
    remove_dead_temp_files(directory)
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    # os.open with 0o666 lets the umask decide the final permissions, as a plain open() would.
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    except OSError as e:
        raise _named(e, path, "creating a temp file to write") from e
    action = "writing"
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        action = "renaming the finished temp file onto"
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise _named(e, path, action) from e
        raise
    _fsync_dir(directory)


def _fsync_dir(directory):
    """Persist the rename itself (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
