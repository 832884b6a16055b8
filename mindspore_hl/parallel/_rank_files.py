"""Files of a distributed checkpoint: each rank's file in ``rank_<id>/`` folders (MindSpore's
``_collect_safetensor_files``, which picks among several files by name), safetensors key order, read-only writes.
"""
from __future__ import annotations

import glob
import json
import os
import re
import stat
from typing import Any

from ..serialization import _safetensors

__all__ = ["collect_rank_files", "header_order", "save_safetensors"]


def _numbers(path: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", path)][-2:]


def _pick(files: list[str], suffix: str, wanted: str, fmt: str) -> str:
    """MindSpore's choice among several files that match ``*<file_suffix>.<fmt>``."""
    matched = [f for f in files if f.endswith(f"{wanted}.{fmt}")]
    if wanted.startswith("_") and re.fullmatch(r"_\d+-\d+_\d+", wanted):
        matched = [f for f in matched if not f.endswith(f"rank{wanted}.{fmt}")]
    if not matched:
        raise ValueError(f"Multiple files with suffix '{suffix}' found in {files}. Following MindSpore naming rules, "
                         f"searched for files ending with '{wanted}' but found zero files. Please set file_suffix "
                         f"to the longest common suffix of all files.")
    shortest = min(len(os.path.basename(f)) for f in matched)
    best = [f for f in matched if len(os.path.basename(f)) == shortest]
    if len(best) > 1:
        raise ValueError(f"Multiple files with suffix '{suffix}' found in {files}. Following MindSpore naming rules, "
                         f"searched for files ending with '{wanted}' but found multiple files {matched}. Then "
                         f"searched for the shortest filename, but found multiple shortest files {best}. Please set "
                         f"file_suffix to the longest common suffix of all files.")
    return best[0]


def _most_matching(files: list[str], suffix: str | None, fmt: str) -> str:
    if suffix is None:  # the newest: largest (epoch, step), the last two numbers of the name
        return sorted(files, key=_numbers)[-1]
    for pattern, prefix in ((r"_?\d+-\d+_\d+", "_"), (r"-?\d+_\d+", "-"), (r"_?\d+", "_")):
        if re.fullmatch(pattern, suffix):
            return _pick(files, suffix, suffix if suffix.startswith(prefix) else prefix + suffix, fmt)
    raise ValueError(f"Multiple {fmt} files ending with '{suffix}' found in {files}. Cannot determine which file is "
                     f"the intended one. Please set file_suffix to the longest common suffix.")


def collect_rank_files(src_dir: str, fmt: str = "safetensors", file_suffix: str | None = None) -> dict[int, str]:
    """``{rank: file}`` of ``src_dir/rank_<rank>/*<file_suffix>.<fmt>`` (MindSpore's ``_collect_safetensor_files``):
    with several files in a folder, the newest (``file_suffix`` None) or the one the suffix names."""
    if os.path.isfile(src_dir) and fmt == "safetensors" and src_dir.endswith("safetensors"):
        return {0: src_dir}
    out: dict[int, str] = {}
    for folder in sorted(glob.glob(os.path.join(glob.escape(src_dir), "rank_[0-9]*"))):
        tail = folder.split("rank_")[-1]
        if not os.path.isdir(folder) or not tail.isdigit():
            continue
        pattern = f"*.{fmt}" if file_suffix is None else f"*{glob.escape(file_suffix)}.{fmt}"
        files = sorted(glob.glob(os.path.join(glob.escape(folder), pattern)))
        if len(files) > 1:
            out[int(tail)] = _most_matching(files, file_suffix, fmt)
        elif files:
            out[int(tail)] = files[0]
        elif file_suffix is not None:
            raise ValueError(f"No safetensors files found in directory '{folder}' with suffix '{file_suffix}' and "
                             f"format '{fmt}'. Please verify the directory contains the expected files. Recommend "
                             f"setting file_suffix to the longest common suffix.")
    return out


def header_order(path: str) -> list[str]:
    """The tensor names of a safetensors file in storage order (MindSpore iterates a file's keys this way)."""
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
    header.pop("__metadata__", None)
    return sorted(header, key=lambda k: header[k]["data_offsets"][0])


def save_safetensors(path: str, tensors: dict[str, Any], metadata: dict[str, str]) -> None:
    """Write a safetensors file read-only, as MindSpore's ``_save_file_atomically`` leaves it."""
    _safetensors.write(path, tensors.items(), metadata=metadata)
    os.chmod(path, stat.S_IRUSR)
