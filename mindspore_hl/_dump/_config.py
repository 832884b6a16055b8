"""The dump configuration file named by ``MINDSPORE_DUMP_CONFIG``: parsed and checked as MindSpore 2.10 does.

Every rule and message follows MindSpore's dump JSON parser (its CPU/GPU synchronous "e2e" dump); each error is a
``RuntimeError`` that also names the configuration file. Differences, because this backend is neither
MindSpore's CPU nor its Ascend build:

- ``dump_mode`` 2 (dump what :func:`mindspore_hl.set_dump` marked) works here; MindSpore's CPU build refuses it.
- ``saved_data`` ``"statistic"`` and ``"full"`` are refused with MindSpore's CPU message (not implemented here).
- As in MindSpore's CPU dump, ``file_format`` is not read (files are ``.npy``); ``op_debug_mode`` 3 (overflow,
  1 and 2 become 3) dumps every op, as MindSpore's CPU build does, and 4 (exception dump) writes no op, with
  MindSpore's warnings.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
from typing import Any

__all__ = ["DumpConfig", "ENV", "parse", "DumpConfigError"]

ENV = "MINDSPORE_DUMP_CONFIG"
_log = logging.getLogger(__name__)
_REQUIRED = ("dump_mode", "net_name", "iteration", "input_output", "kernels", "support_device")


class DumpConfigError(RuntimeError):
    """A dump configuration MindSpore would reject (the message names the file and the field)."""


@dataclasses.dataclass(frozen=True)
class DumpConfig:
    """A checked dump configuration (the fields of ``common_dump_settings`` that decide what is written)."""
    file: str
    text: str                 # the file as read (copied to .dump_metadata/data_dump.json)
    path: str
    net_name: str
    dump_mode: int            # 0: every kernel, 1: the ``kernels`` list, 2: what set_dump marked
    iteration: str            # "all" or "0|5-8|100-120"
    input_output: int         # 0: inputs and outputs, 1: inputs only, 2: outputs only
    op_debug_mode: int = 0    # 4: exception dump (no op is written on this backend, as on MindSpore's CPU)
    kernel_names: frozenset[str] = frozenset()              # full names (with '/' or '-op')
    kernel_types: tuple[str, ...] = ()                      # op types, matched case-insensitively as substrings
    kernel_regexes: tuple[re.Pattern[str], ...] = ()        # name-regex(...) entries

    def dumps_iteration(self, iteration: int) -> bool:
        """Whether ``iteration`` is in ``iteration`` ("all", or ``|``-separated numbers and ``low-high`` ranges)."""
        if self.iteration == "all":
            return True
        return any(_in_range(iteration, part) for part in self.iteration.split("|"))

    def dumps_kernel(self, full_name: str) -> bool:
        """Whether dump_mode 1's ``kernels`` select the kernel ``full_name`` (``Default/fc-Dense/MatMul-op0``)."""
        if any(r.fullmatch(full_name) for r in self.kernel_regexes):
            return True
        if full_name in self.kernel_names:
            return True
        # An op type matches the lower-cased name between the last '/' and the last '-' (MindSpore's rule).
        op = full_name[full_name.rfind("/") + 1:]
        dash = op.rfind("-")
        op = (op[:dash] if dash >= 0 else op).lower()
        return any(t.lower() in op for t in self.kernel_types)

    @property
    def dumps_inputs(self) -> bool:
        return self.input_output in (0, 1)

    @property
    def dumps_outputs(self) -> bool:
        return self.input_output in (0, 2)


def _in_range(iteration: int, part: str) -> bool:
    if not part:
        return False
    if "-" not in part:
        return part.isdigit() and iteration == int(part)
    low, _, high = part.partition("-")
    if not low.isdigit() or not high.isdigit():  # also "1-2-3" (a second dash), as MindSpore
        return False
    return int(low) <= iteration <= int(high)


def _unsigned(value: Any, key: str, fail) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        fail(f"Dump config parse failed, {key} should be unsigned int type")
    return int(value)


def parse(file: str) -> DumpConfig:
    """Read and check the dump configuration ``file`` (as ``MINDSPORE_DUMP_CONFIG`` names it).

    Raises:
        DumpConfigError: the file cannot be read, is not JSON, or has a field MindSpore rejects; the message is
            MindSpore's, followed by the file's name.
    """
    def fail(message: str):
        raise DumpConfigError(f"{message} (dump config file '{file}', set by {ENV}).")

    try:
        with open(file, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail(f"Dump file:{file} open failed. {e.strerror or e}")
    try:
        content = json.loads(text)
    except json.JSONDecodeError as e:
        fail(f"Parse dump json failed, error:{e}")
    if not isinstance(content, dict) or "common_dump_settings" not in content:
        fail("Check dump json failed, common_dump_settings not found")
    common = content["common_dump_settings"]
    if not isinstance(common, dict):
        fail("Dump config parse failed, common_dump_settings should be object type")
    e2e = content.get("e2e_dump_settings")
    if isinstance(e2e, dict):
        for key in ("enable", "trans_flag"):
            if key in e2e and not isinstance(e2e[key], bool):
                fail("Dump Json Parse Failed. 'enable' should be boolean type")  # (trans_flag too)
    for key in _REQUIRED:
        if key not in common:
            fail(f"Check dump json failed, {key} not found")

    dump_mode = _unsigned(common["dump_mode"], "dump_mode", fail)
    if dump_mode > 2:
        fail(f"Dump config parse failed, dump_mode should be 0, 1 or 2, but got {dump_mode}")

    path = common.get("path", "")
    if not isinstance(path, str):
        fail("Dump config parse failed, path should be string type")
    if not path:
        path = os.environ.get("MS_DIAGNOSTIC_DATA_PATH", "")
        if not path:
            fail("Dump path is empty. Please set it in dump json file or environment variable "
                 "`MS_DIAGNOSTIC_DATA_PATH`.")
        path += "/debug_dump"
    if not all(c.isalnum() and c.isascii() or c in "-_/" for c in path):
        fail(f"Dump path only support alphabets, digit or {{'-', '_', '/'}}, but got:{path}")
    if not path.startswith("/"):
        fail("Dump path only support absolute path and should start with '/'")

    net_name = common["net_name"]
    if not isinstance(net_name, str):
        fail("Dump config parse failed, net_name should be string type")
    if not net_name or not all(c.isalnum() and c.isascii() or c in "-_" for c in net_name):
        fail(f"net_name only supports alphabetic, digit, or {{'-', '_'}}, but got: {net_name}")

    iteration = common["iteration"]
    if not isinstance(iteration, str):
        fail("Dump config parse failed, iteration should be string type")
    if iteration != "all" and (not iteration or not all(c.isdigit() or c in "-|" for c in iteration)):
        fail(f"iteration only supports digits, {{'-', '|'}}, or just \"all\" but got: {iteration}")

    input_output = _unsigned(common["input_output"], "input_output", fail)
    if input_output > 2:
        fail("Dump Json Parse Failed. input_output should be 0, 1, 2")

    kernels = common["kernels"]
    if not isinstance(kernels, list):
        fail("Dump config parse failed, kernels should be array type")
    names, types, regexes = set(), [], []
    if dump_mode == 1:
        for kernel in kernels:
            k = (kernel if isinstance(kernel, str) else json.dumps(kernel)).replace('"', "").replace(" ", "")
            if not k:
                continue
            if k.startswith("name-regex(") and k.endswith(")"):
                try:
                    regexes.append(re.compile(k[len("name-regex("):-1]))
                except re.error as e:
                    fail(f"Invalid regular expression in kernels entry '{kernel}': {e}")
            elif "/" not in k and "-op" not in k:
                types.append(k)
            else:
                names.add(k)

    if not isinstance(common["support_device"], list):
        fail("Dump config parse failed, support_device should be array type")
    for device in common["support_device"]:
        _unsigned(device, "support_device", fail)

    debug = _unsigned(common["op_debug_mode"], "op_debug_mode", fail) if "op_debug_mode" in common else 0
    if debug not in (0, 1, 2, 3, 4):
        fail("Dump Json Parse Failed. op_debug_mode should be 0, 3, 4")
    debug = 3 if debug in (1, 2) else debug
    if debug == 4:
        _log.warning("Abnormal dump is not supported on this backend, and none operator data would be saved when "
                     "abnormal dump is enabled.")
        iteration = "all"
    if debug == 3 and input_output != 0:
        _log.warning("When the `op_debug` mode is set to 3, `input_output` should be set to 0.")
        input_output = 0
    if debug and dump_mode != 0:
        _log.warning("Overflow dump or exception dump do not support specify kernels, the dump_mode is set to 0")
        dump_mode = 0
    saved = common.get("saved_data", "tensor")
    if not isinstance(saved, str):
        fail("Dump config parse failed, saved_data should be string type")
    if saved not in ("statistic", "tensor", "full"):
        fail(f"Dump Json parse failed, saved_data only supports statistic, tensor, or full, but got: {saved}. "
             f"Please set saved_data to either statistic, tensor, or full")
    if saved != "tensor":
        fail("Dump Json parse failed, storing statistic dump is not supported by mindspore_hl (MindSpore's CPU "
             "build refuses it too), please set saved_data to tensor")
    return DumpConfig(file=file, text=text, path=path, net_name=net_name, dump_mode=dump_mode,
                      iteration=iteration, input_output=input_output, op_debug_mode=debug,
                      kernel_names=frozenset(names), kernel_types=tuple(types), kernel_regexes=tuple(regexes))
