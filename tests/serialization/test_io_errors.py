"""I/O errors name their file: disk full / file too large on save, a directory or FIFO named like a checkpoint
on load; temp files of dead writers are removed by the next save."""
import errno
import os
import re
import resource
import signal
import subprocess
import sys
import threading

import numpy as np
import pytest

from mindspore_hl import Tensor
from mindspore_hl.serialization import _atomic, load_checkpoint, save_checkpoint


def _params(n=4):
    return {"w": Tensor(np.arange(n, dtype=np.float32))}


def test_load_a_directory_named_ckpt(tmp_path):
    (tmp_path / "x.ckpt").mkdir()
    with pytest.raises(ValueError, match=re.escape(str(tmp_path / "x.ckpt")) + " is a directory, not a checkpoint"):
        load_checkpoint(str(tmp_path / "x.ckpt"))
    with pytest.raises(ValueError, match="does not exist"):
        load_checkpoint(str(tmp_path / "y.ckpt"))
    with pytest.raises(IsADirectoryError, match=re.escape(str(tmp_path / "x.ckpt")) + " is a directory"):
        save_checkpoint(_params(), str(tmp_path / "x.ckpt"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_load_a_fifo_named_ckpt_does_not_block(tmp_path):
    fifo = tmp_path / "x.ckpt"
    os.mkfifo(fifo)
    result = {}

    def load():
        try:
            load_checkpoint(str(fifo))
        except ValueError as e:
            result["error"] = str(e)

    t = threading.Thread(target=load, daemon=True)
    t.start()
    t.join(30)
    if t.is_alive():  # unblock the reader so the test process can end, then fail
        with open(fifo, "wb"):
            pass
        pytest.fail("load_checkpoint blocked opening a FIFO")
    assert re.search(re.escape(str(fifo)) + " is a FIFO", result["error"])


def test_file_too_large_names_the_file_and_keeps_the_old_one(tmp_path):
    path = tmp_path / "big.ckpt"
    save_checkpoint(_params(), str(path))
    before = path.read_bytes()
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed by SIGXFSZ
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, hard))
    try:
        with pytest.raises(OSError) as info:
            save_checkpoint(_params(200_000), str(path))
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)
    assert info.value.errno == errno.EFBIG
    assert str(path) in str(info.value) and "while writing" in str(info.value)
    assert path.read_bytes() == before  # the old checkpoint is untouched
    assert sorted(os.listdir(tmp_path)) == ["big.ckpt"]  # and no temp file is left


def test_disk_full_names_the_file(tmp_path, monkeypatch):
    """ENOSPC from the write (a full disk cannot be made on demand here: the write is made to fail)."""
    path = tmp_path / "full.ckpt"

    def no_space(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(_atomic.os, "fsync", no_space)
    with pytest.raises(OSError, match=re.escape(os.strerror(errno.ENOSPC)) + " while writing: '"
                       + re.escape(str(path))) as info:
        save_checkpoint(_params(), str(path))
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(path)
    assert os.listdir(tmp_path) == []


def _dead_pid():
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_next_save_removes_temp_files_of_dead_writers(tmp_path):
    dead = _dead_pid()
    stale = [tmp_path / f".CKP-1_{i}.ckpt.{dead}.{i:08x}.tmp" for i in range(3)]
    live = [tmp_path / f".CKP-1_9.ckpt.{os.getpid()}.0000abcd.tmp", tmp_path / ".CKP-1_9.ckpt.1.0000abcd.tmp"]
    unrelated = [tmp_path / ".notes.tmp", tmp_path / "CKP-1_1.ckpt.123.0000abcd.tmp"]
    for p in stale + live + unrelated:
        p.write_bytes(b"partial")
    save_checkpoint(_params(), str(tmp_path / "CKP-2_1.ckpt"))
    left = set(os.listdir(tmp_path))
    assert not left & {p.name for p in stale}
    assert {p.name for p in live + unrelated} <= left  # a running writer (pid 1, ourselves) and other files stay
    assert _atomic.temp_writer_pid(stale[0].name) == dead and _atomic.temp_writer_pid(".notes.tmp") is None
