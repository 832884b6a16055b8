"""Record real MindSpore's ``unified_safetensors`` and the safetensors mode of ``transform_checkpoints``
(run with the MindSpore 2.10 interpreter; its CPU build runs them: they are file manipulation).

    python tools/oracle/record_dist_ckpt2.py   ->  tests/fixtures/oracle/dist_ckpt2.npz

Each case stores its inputs as files: the strategy file (written with MindSpore's ``node_strategy_pb2`` classes,
see ``record_dist_ckpt.strategy_bytes``) and every source ``rank_<id>/*.safetensors`` file (slices cut by
MindSpore's ``_load_tensor``), as bytes, so the replay writes the same files. The outputs are every file MindSpore
wrote: the tensors (and dtype) of each ``.safetensors`` file, its ``__metadata__``, and the text of
``param_name_map.json``; or the error raised.

``unified_safetensors`` starts a new part file every 3 GiB of parameters. The "parts" cases lower that limit by
giving the module a ``math`` whose ``ceil`` scales its argument (``PART_BYTES`` bytes per part instead of 3 GiB);
the replay sets the same limit.

MindSpore's ``transform_checkpoints`` to safetensors writes some slices wrongly: the ``safetensors`` package in its
environment stores a non-contiguous NumPy array's memory as if C-ordered. The replay takes those values from the
same transform written as ``.ckpt`` (see ``VALUES_FROM`` in the test).
"""
import json
import math
import os
import pathlib
import shutil
import sys
import tempfile
import types

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools" / "oracle"))
import mindspore as ms  # noqa: E402
from mindspore.parallel import transform_safetensors as ts  # noqa: E402
from oracle import FixtureWriter  # noqa: E402
from record_dist_ckpt import slices, strategy_bytes  # noqa: E402
from safetensors.numpy import save_file  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "oracle" / "dist_ckpt2.npz"
PART_BYTES = 96
rng = np.random.default_rng(182)


def rand(shape, dtype=np.float32):
    return (rng.standard_normal(shape) * 10).astype(dtype)


def rank_files(full, lay, n, extra=None, name="net", keep=None, metadata=None):
    """``{relpath: bytes}``: rank r's slices of ``full`` (``keep(r, name)`` filters them) plus ``extra``."""
    out = {}
    tmp = tempfile.mkdtemp()
    for r in range(n):
        params = {}
        for k, v in full.items():
            if keep is None or keep(r, k):
                params[k] = np.ascontiguousarray(np.asarray(slices(v, *lay[k], n)[r]))
        params.update(extra or {})
        path = os.path.join(tmp, f"{r}.safetensors")
        save_file(params, path, metadata=metadata or {"format": "ms"})
        stem = name.format(r=r) if "{r}" in name else f"{name}_{r}"
        out[f"rank_{r}/{stem}.safetensors"] = pathlib.Path(path).read_bytes()
    shutil.rmtree(tmp)
    return out


def read_tree(root):
    """Every file under ``root``: ``(relpath, kind, payload)``."""
    found = []
    for folder, _, names in sorted(os.walk(root)):
        for nm in sorted(names):
            path = os.path.join(folder, nm)
            rel = os.path.relpath(path, root)
            if nm.endswith(".safetensors"):
                raw = pathlib.Path(path).read_bytes()
                n = int.from_bytes(raw[:8], "little")
                header = json.loads(raw[8:8 + n])
                meta = header.pop("__metadata__", {})
                data = ts.load_file(path)
                found.append((rel, "safetensors", (meta, {k: data[k] for k in sorted(data)})))
            elif nm.endswith(".ckpt"):
                data = {k: v.asnumpy() for k, v in ms.load_checkpoint(path).items()}
                found.append((rel, "safetensors", ({}, {k: data[k] for k in sorted(data)})))
            else:
                found.append((rel, "text", pathlib.Path(path).read_text()))
    return found


def record_case(w, case_id, fn, files, strategy, kwargs, part_bytes=None, src_as_file=None, dst_strategy=None):
    tmp = tempfile.mkdtemp()
    src, dst = os.path.join(tmp, "src"), os.path.join(tmp, "dst")
    for rel, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
        pathlib.Path(src, rel).write_bytes(data)
    os.makedirs(src, exist_ok=True)
    sp = os.path.join(tmp, "strategy.ckpt")
    pathlib.Path(sp).write_bytes(strategy)
    inputs = {"strategy": np.frombuffer(strategy, np.uint8)}
    dp = None
    if dst_strategy is not None:
        dp = os.path.join(tmp, "dst_strategy.ckpt")
        pathlib.Path(dp).write_bytes(dst_strategy)
        inputs["dst_strategy"] = np.frombuffer(dst_strategy, np.uint8)
    rels = sorted(files)
    for i, rel in enumerate(rels):
        inputs[f"f{i}"] = np.frombuffer(files[rel], np.uint8)
    meta = {"files": rels, "kwargs": {k: v for k, v in kwargs.items() if k != "choice_func"},
            "part_bytes": part_bytes, "fn": fn, "src_as_file": src_as_file}
    if part_bytes is not None:
        fake = types.SimpleNamespace(**{k: getattr(math, k) for k in dir(math) if not k.startswith("_")})
        fake.ceil = lambda x: math.ceil(x * 1024 ** 3 * 3 / part_bytes)
        ts.math = fake
    source = os.path.join(src, src_as_file) if src_as_file else src
    try:
        if fn == "unified_safetensors":
            ms.unified_safetensors(source, sp, dst, **kwargs)
        else:
            ms.transform_checkpoints(source, dst, "out", sp, dp, **kwargs)
    except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
        w.add(case_id, inputs=inputs, outputs=[], error=type(e).__name__, message=str(e).splitlines()[0], **meta)
        return
    finally:
        ts.math = math
    outs, index = [], []
    for rel, kind, payload in read_tree(dst):
        if kind == "text":
            index.append([rel, "text", payload])
            continue
        metadata, tensors = payload
        names = []
        for k, v in tensors.items():
            names.append([k, str(v.dtype)])
            outs.append(v)
        index.append([rel, "safetensors", metadata, names])
    w.add(case_id, inputs=inputs, outputs=outs, written=index, **meta)
    shutil.rmtree(tmp)


def record(w):
    full = {"w": rand((4, 8)), "b": rand((8,)), "e": rand((6, 4), np.float16), "i": np.arange(12, dtype=np.int32)}
    lay = {"w": ([2, 2], [1, 0]), "b": ([2, 2], [-1]), "e": ([2, 2], [0, -1]), "i": ([2, 2], [1])}
    sb = strategy_bytes(lay)
    lr = {"learning_rate": np.array(0.1, np.float32), "global_step": np.array([7], np.int32)}
    files = rank_files(full, lay, 4, lr)
    record_case(w, "unified_safetensors/basic", "unified_safetensors", files, sb, {})
    record_case(w, "unified_safetensors/one_process", "unified_safetensors", files, sb, {"max_process_num": 1})
    # only some ranks are needed when a layout repeats slices
    lay2 = {"w": ([2, 2], [-1, 0]), "b": ([2, 2], [0])}
    files2 = rank_files({"w": full["w"], "b": full["b"]}, lay2, 4, {"accu_grads.w": np.zeros(3, np.float32)})
    record_case(w, "unified_safetensors/redundant", "unified_safetensors", files2, strategy_bytes(lay2), {})
    files2b = {k: v for k, v in files2.items() if not k.startswith(("rank_1/", "rank_3/"))}
    record_case(w, "unified_safetensors/redundant_ranks_absent", "unified_safetensors", files2b,
                strategy_bytes(lay2), {})
    # choice_func: rename one parameter, drop another (it goes to hyper_param.safetensors)
    choice = {"w": "model.w", "e": False}
    record_case(w, "unified_safetensors/choice_func", "unified_safetensors", files, sb,
                {"choice_func": lambda name: choice.get(name, True)})
    # de-duplicated files: each rank holds only the parameters remove_param_redundancy gives it
    from mindspore.train._utils import get_parameter_redundancy, remove_param_redundancy
    tmp = tempfile.mkdtemp()
    sp = os.path.join(tmp, "s.ckpt")
    pathlib.Path(sp).write_bytes(strategy_bytes(lay2))
    single = remove_param_redundancy(get_parameter_redundancy(sp, 0))
    dedup = rank_files({"w": full["w"], "b": full["b"]}, lay2, 4, None, keep=lambda r, k: k in single.get(r, ()),
                       metadata={"format": "ms", "remove_redundancy": "True"})
    record_case(w, "unified_safetensors/dedup_flag_in_files", "unified_safetensors", dedup, strategy_bytes(lay2), {})
    record_case(w, "unified_safetensors/dedup_false", "unified_safetensors", dedup, strategy_bytes(lay2),
                {"merge_with_redundancy": False})
    # several part files (PART_BYTES per part) and split_dst_file
    big = {"w": rand((4, 8)), "v": rand((4, 4)), "b": rand((8,)), "c": rand((2,)), "d": rand((6,))}
    layb = {"w": ([2, 1], [1, 0]), "v": ([2, 1], [-1, 1]), "b": ([2, 1], [1]), "c": ([2, 1], [-1]), "d": ([2, 1], [0])}
    files3 = rank_files(big, layb, 2, {"learning_rate": np.array(0.5, np.float32)})
    for tag, kw in (("parts", {}), ("parts_split_1of2", {"split_dst_file": (1, 2)}),
                    ("parts_split_2of2", {"split_dst_file": (2, 2)}), ("parts_one_process", {"max_process_num": 1})):
        record_case(w, f"unified_safetensors/{tag}", "unified_safetensors", files3, strategy_bytes(layb), kw,
                    part_bytes=PART_BYTES)
    record_case(w, "unified_safetensors/split_2of2_one_part", "unified_safetensors", files, sb,
                {"split_dst_file": (2, 2)})
    # several files in a rank folder: the newest by its last two numbers, or the one file_suffix names
    multi = {}
    for suffix, scale in (("1-1_4", 1), ("11-1_4", 2), ("1-2_8", 3), ("1-10_2", 4)):
        for rel, data in rank_files({k: v * scale for k, v in full.items()}, lay, 4, None,
                                    name=f"net_{{r}}_{suffix}").items():
            multi[rel] = data
    record_case(w, "unified_safetensors/latest_file", "unified_safetensors", multi, sb, {})
    for tag, suffix in (("task_epoch_step", "1-1_4"), ("epoch_step", "2_8"), ("dash_epoch_step", "-1_4"),
                        ("step", "_4"), ("no_match", "zz"), ("ambiguous", "_1_4")):
        record_case(w, f"unified_safetensors/file_suffix_{tag}", "unified_safetensors", multi, sb,
                    {"file_suffix": suffix})
    # errors
    record_case(w, "unified_safetensors/missing_rank", "unified_safetensors",
                {k: v for k, v in files.items() if not k.startswith("rank_2/")}, sb, {})
    record_case(w, "unified_safetensors/src_is_file", "unified_safetensors", files, sb, {},
                src_as_file="rank_0/net_0.safetensors")
    mixed = dict(files)
    mixed["rank_0/old.ckpt"] = b"x"
    record_case(w, "unified_safetensors/mixed_formats", "unified_safetensors", mixed, sb, {})
    record_case(w, "unified_safetensors/empty", "unified_safetensors", {}, sb, {})
    # transform_checkpoints of safetensors directories
    dst_lay = {"w": ([4], [-1, 0]), "b": ([4], [0]), "e": ([4], [-1, -1]), "i": ([4], [0])}
    db = strategy_bytes(dst_lay)
    tc = "transform_checkpoints"
    record_case(w, "transform_checkpoints/safetensors", tc, files, sb, {"output_format": "safetensors"},
                dst_strategy=db)
    record_case(w, "transform_checkpoints/safetensors_to_ckpt", tc, files, sb, {"output_format": "ckpt"},
                dst_strategy=db)
    record_case(w, "transform_checkpoints/safetensors_default_format", tc, files, sb, {}, dst_strategy=db)
    record_case(w, "transform_checkpoints/safetensors_to_whole", tc, files, sb, {"output_format": "safetensors"})
    record_case(w, "transform_checkpoints/safetensors_processes", tc, files, sb,
                {"output_format": "safetensors", "process_num": 2}, dst_strategy=db)
    lay8 = {"w": ([2, 2, 2], [2, 0]), "b": ([2, 2, 2], [1])}
    files8 = rank_files({"w": full["w"], "b": full["b"]}, lay8, 8, {"learning_rate": np.array(0.1, np.float32)})
    record_case(w, "transform_checkpoints/safetensors_8_to_4", tc, files8, strategy_bytes(lay8),
                {"output_format": "safetensors"}, dst_strategy=strategy_bytes({k: dst_lay[k] for k in lay8}))
    record_case(w, "transform_checkpoints/safetensors_missing_rank", tc,
                {k: v for k, v in files.items() if not k.startswith("rank_1/")}, sb,
                {"output_format": "safetensors"}, dst_strategy=db)
    record_case(w, "transform_checkpoints/safetensors_bad_format", tc, files, sb, {"output_format": "npz"},
                dst_strategy=db)
    record_case(w, "transform_checkpoints/mixed_formats", tc, mixed, sb, {"output_format": "safetensors"},
                dst_strategy=db)


def unified_dir(files, strategy, part_bytes=None):
    """``{relpath: bytes}`` of what ``unified_safetensors`` writes for these rank files."""
    tmp = tempfile.mkdtemp()
    for rel, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, "src", rel)), exist_ok=True)
        pathlib.Path(tmp, "src", rel).write_bytes(data)
    pathlib.Path(tmp, "s.ckpt").write_bytes(strategy)
    if part_bytes is not None:
        fake = types.SimpleNamespace(**{k: getattr(math, k) for k in dir(math) if not k.startswith("_")})
        fake.ceil = lambda x: math.ceil(x * 1024 ** 3 * 3 / part_bytes)
        ts.math = fake
    try:
        ms.unified_safetensors(os.path.join(tmp, "src"), os.path.join(tmp, "s.ckpt"), os.path.join(tmp, "u"))
    finally:
        ts.math = math
    return {nm: pathlib.Path(tmp, "u", nm).read_bytes() for nm in sorted(os.listdir(os.path.join(tmp, "u")))}


class LoadNet(ms.nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.zeros((4, 8), np.float32)), name="w")
        self.b = ms.Parameter(ms.Tensor(np.zeros((8,), np.float32)), name="b")
        self.e = ms.Parameter(ms.Tensor(np.zeros((6, 4), np.float16)), name="e")
        self.x = ms.Parameter(ms.Tensor(np.zeros((2,), np.float32)), name="x")


def record_load(w, case_id, folder_files, predict, kwargs, network=False):
    """``load_distributed_checkpoint(format='safetensors')`` of a unified directory."""
    tmp = tempfile.mkdtemp()
    folder = os.path.join(tmp, "unified")
    os.makedirs(folder)
    inputs = {}
    rels = sorted(folder_files)
    for i, rel in enumerate(rels):
        pathlib.Path(folder, rel).write_bytes(folder_files[rel])
        inputs[f"f{i}"] = np.frombuffer(folder_files[rel], np.uint8)
    sp = None
    if predict is not None:
        sp = os.path.join(tmp, "predict.ckpt")
        pathlib.Path(sp).write_bytes(predict)
        inputs["strategy"] = np.frombuffer(predict, np.uint8)
    dst = os.path.join(tmp, "dst")
    meta = {"files": rels, "kwargs": dict(kwargs), "network": network, "fn": "load_distributed_checkpoint"}
    net = LoadNet() if network else None
    args = {"format": "safetensors", "unified_safetensors_dir": folder, "predict_strategy": sp, **kwargs}
    if not network and "dst_safetensors_dir" not in kwargs:
        args["dst_safetensors_dir"] = dst
    try:
        res = ms.load_distributed_checkpoint(net, **args)
    except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
        w.add(case_id, inputs=inputs, outputs=[], error=type(e).__name__, message=str(e).splitlines()[0], **meta)
        return
    outs, index = [], []
    if network:
        if isinstance(res, dict):
            meta["returned"] = sorted(res)
            for k in sorted(res):
                outs.append(res[k].asnumpy())
        else:
            meta["returned"] = [sorted(res[0]), sorted(res[1])]
            for k, v in sorted(net.parameters_dict().items()):
                outs.append(v.asnumpy())
                index.append(k)
        meta["net_params"] = index
    else:
        meta["returned"] = res
        for rel, kind, payload in read_tree(dst):
            metadata, tensors = payload
            names = []
            for k, v in tensors.items():
                names.append([k, str(v.dtype)])
                outs.append(v)
            index.append([rel, kind, metadata, names])
        meta["written"] = index
    w.add(case_id, inputs=inputs, outputs=outs, **meta)
    shutil.rmtree(tmp)


def record_loads(w):
    full = {"w": rand((4, 8)), "b": rand((8,)), "e": rand((6, 4), np.float16), "i": np.arange(12, dtype=np.int32)}
    lay = {"w": ([2, 2], [1, 0]), "b": ([2, 2], [-1]), "e": ([2, 2], [0, -1]), "i": ([2, 2], [1])}
    files = rank_files(full, lay, 4, {"learning_rate": np.array(0.1, np.float32)})
    one = unified_dir(files, strategy_bytes(lay))
    parts = unified_dir(files, strategy_bytes(lay), part_bytes=96)
    bare = unified_dir(rank_files(full, lay, 4), strategy_bytes(lay))  # one weight file, no hyper parameters
    predict = strategy_bytes({"w": ([4], [-1, 0]), "b": ([4], [0]), "e": ([2, 2], [1, 0])})
    ld = "load_distributed_checkpoint"
    record_load(w, f"{ld}/all_ranks", one, predict, {})
    record_load(w, f"{ld}/parts_all_ranks", parts, predict, {})
    record_load(w, f"{ld}/rank_2", parts, predict, {"rank_id": 2})
    record_load(w, f"{ld}/to_ckpt", one, predict, {"output_format": "ckpt", "rank_id": 1})
    record_load(w, f"{ld}/no_strategy", parts, None, {})
    record_load(w, f"{ld}/name_map", bare, None, {"name_map": {"model.w": "w"}})
    record_load(w, f"{ld}/network", parts, None, {}, network=True)
    record_load(w, f"{ld}/network_dict", parts, None, {"return_param_dict": True}, network=True)
    record_load(w, f"{ld}/no_unified_dir", parts, None, {"unified_safetensors_dir": None})
    record_load(w, f"{ld}/strict_load", parts, None, {"strict_load": True})
    record_load(w, f"{ld}/no_dst_dir", parts, None, {"dst_safetensors_dir": None})
    record_load(w, f"{ld}/with_ckpt_files", parts, None, {"checkpoint_filenames": ["a.ckpt"]})


def record_owners(w):
    """``get_parameter_redundancy`` of a layout dict and ``remove_param_redundancy`` (``parameter_broadcast``'s
    owners), over random layouts."""
    from mindspore.train._utils import get_parameter_redundancy, remove_param_redundancy
    r = np.random.default_rng(5)
    devs = [[2], [4], [2, 2], [4, 2], [2, 4], [2, 2, 2], [1, 4], [8]]
    for i in range(12):
        layout = {}
        for k in range(int(r.integers(1, 6))):
            dev = devs[int(r.integers(len(devs)))]
            tmap = [int(a) if r.random() < 0.5 else -1 for a in r.permutation(len(dev))[:int(r.integers(1, 3))]]
            layout[f"p{k}"] = [dev, tmap, [], 0, False, ""]
        initial = int(r.choice([0, 8]))
        red = get_parameter_redundancy(layout, initial)
        own = remove_param_redundancy(red)
        w.add(f"parameter_broadcast_owners/{i}", outputs=[], layout=layout, initial_rank=initial,
              redundancy={k: [list(g) for g in v] for k, v in red.items()},
              owned={str(k): sorted(v) for k, v in own.items()})


if __name__ == "__main__":
    with FixtureWriter(OUT) as writer:
        record(writer)
        record_owners(writer)
        record_loads(writer)
    print("wrote", OUT)
