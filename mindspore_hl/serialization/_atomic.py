"""Atomic file replacement: write a temp file beside the target, fsync it, then ``os.replace``."""
import contextlib
import os
import secrets

__all__ = ["atomic_open"]


@contextlib.contextmanager
def atomic_open(path):
    """Open a binary temp file next to ``path``; on clean exit it replaces ``path`` in one step.

    A failure anywhere inside the ``with`` block removes the temp file and leaves an existing ``path``
    untouched, so a crash or a full disk never leaves a half-written checkpoint under the real name.

    Args:
        path: the final file name.

    Yields:
        a writable binary file object.
    """
    path = os.path.abspath(os.fspath(path))
    directory = os.path.dirname(path)
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    # os.open with 0o666 lets the umask decide the final permissions, as a plain open() would.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
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
