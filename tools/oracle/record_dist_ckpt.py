"""Record real MindSpore's distributed-checkpoint tools (run with the MindSpore 2.10 interpreter).

    python tools/oracle/record_dist_ckpt.py   ->  tests/fixtures/oracle/dist_ckpt.npz

MindSpore's CPU build cannot compile a semi-auto-parallel graph ("only support Ascend/GPU backend"), so it cannot
write a strategy file itself. The strategy files here are (a) ``tests/fixtures/mindspore/engine_strategy.ckpt``,
written by mindspore_hl's engine from a sharded train step and parsed here by MindSpore's own reader, and (b)
files this script writes with MindSpore's generated ``node_strategy_pb2`` classes (their bytes are stored in the
cases, so the replay reads the same files). Checkpoint slices are cut by MindSpore's own ``_load_tensor`` and
saved by ``ms.save_checkpoint``; the outputs are what ``rank_list_for_transform`` / ``transform_checkpoint_by_rank``
/ ``transform_checkpoints`` / ``load_distributed_checkpoint`` / ``merge_pipeline_strategys`` /
``restore_group_info_list`` / ``build_searched_strategy`` return or write.
"""
import glob
import os
import pathlib
import random
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore as ms  # noqa: E402
from mindspore import nn  # noqa: E402
from mindspore.parallel._tensor import _load_tensor  # noqa: E402
from mindspore.train import node_strategy_pb2 as pb  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "oracle" / "dist_ckpt.npz"
ENGINE_FILE = ROOT / "tests" / "fixtures" / "mindspore" / "engine_strategy.ckpt"
TMP = tempfile.mkdtemp()
rng = np.random.default_rng(18)


def strategy_bytes(layouts, stage=0):
    """A ParallelStrategyMap: ``layouts`` = {name: (dev_matrix, tensor_map)}."""
    m = pb.ParallelStrategyMap(current_stage=1)
    for name, (_, tmap) in layouts.items():
        item = m.parallel_strategy_item.add(node_name=f"Default/{name}-op0")
        item.parallel_strategys.stage = stage
        item.parallel_strategys.parallel_strategy.add().dim.extend([1] * len(tmap))
    for name, (dev, tmap) in layouts.items():
        lay = m.parallel_layout_item.add(param_name=name).parallel_layouts
        lay.dev_matrix.add().dim.extend(dev)
        lay.tensor_map.add().dim.extend(tmap)
        lay.param_split_shape.add()
        lay.indices_offset.add()
        lay.field, lay.opt_weight_shard_step, lay.opt_weight_shard_size = 0, 0, 0
    return m.SerializeToString()


def put(name, data):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


def as_bytes(data):
    return np.frombuffer(data, dtype=np.uint8)


def layout_meta(strategy):
    return {k: [list(v.dev_matrix[0].dim), list(v.tensor_map[0].dim), list(v.param_split_shape[0].dim), v.field,
                v.opt_weight_shard_step, v.opt_weight_shard_size] for k, v in strategy.items()}


def attempt(w, case_id, fn, *args, **meta):
    """``fn(*args)``, or None after recording the error type and message it raised."""
    try:
        res = fn(*args)
    except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
        w.add(case_id, outputs=[], error=type(e).__name__, message=str(e).splitlines()[0], **meta)
        return None
    return res


def ints(xs):
    return [int(x) for x in xs]


DEVS = [[2], [4], [8], [2, 2], [4, 2], [2, 4], [2, 2, 2], [1, 4], [4, 1], [8, 1], [2, 1, 2]]


def random_layout(r, ndim):
    dev = r.choice(DEVS)
    axes = list(range(len(dev)))
    r.shuffle(axes)
    return list(dev), [axes.pop() if axes and r.random() < 0.6 else -1 for _ in range(ndim)]


def slices(full, dev, tmap, n):
    t = ms.Tensor(full)
    return {r: _load_tensor(t, dev, tmap, list(full.shape), r) for r in range(n)}


def save_rank_ckpt(path, params):
    ms.save_checkpoint([{"name": k, "data": ms.Tensor(v)} for k, v in params.items()], path)


def record(w):
    # --- the engine's file, read by MindSpore ---------------------------------------------------------------
    engine = ENGINE_FILE.read_bytes()
    path = put("engine.ckpt", engine)
    w.add("build_searched_strategy/engine", inputs={"file": as_bytes(engine)}, outputs=[],
          layouts=layout_meta(ms.build_searched_strategy(path)))
    w.add("rank_list_for_transform/engine_to_none", inputs={"src": as_bytes(engine)}, outputs=[],
          ranks=[ints(ms.rank_list_for_transform(r, path, None)) for r in range(8)])
    # --- rank lists over random layout pairs ----------------------------------------------------------------
    r = random.Random(18)
    for i in range(40):
        ndim = 2 if i < 25 else 3
        src, dst = random_layout(r, ndim), random_layout(r, ndim)
        sb, db = strategy_bytes({"w": src, "b": (src[0], [src[1][0]])}), strategy_bytes({"w": dst, "b": (dst[0], [-1])})
        sp, dp = put(f"s{i}.ckpt", sb), put(f"d{i}.ckpt", db)
        n = int(np.prod(dst[0]))
        res = attempt(w, f"rank_list_for_transform/random{i}",
                      lambda a, b, count: [ints(ms.rank_list_for_transform(k, a, b)) for k in range(count)],
                      sp, dp, n, src_layout=src, dst_layout=dst)
        if res is not None:
            w.add(f"rank_list_for_transform/random{i}", inputs={"src": as_bytes(sb), "dst": as_bytes(db)}, outputs=[],
                  ranks=res, src_layout=src, dst_layout=dst)
    attempt(w, "rank_list_for_transform/bad_rank", lambda: ms.rank_list_for_transform("0", sp, dp))
    w.add("rank_list_for_transform/no_src", outputs=[], ranks=ints(ms.rank_list_for_transform(3, None, dp)))
    attempt(w, "build_searched_strategy/missing", lambda: ms.build_searched_strategy(os.path.join(TMP, "nope.ckpt")))
    attempt(w, "build_searched_strategy/not_str", lambda: ms.build_searched_strategy(3))
    # --- transform_checkpoint_by_rank -----------------------------------------------------------------------
    pairs = [((8, 12), ([2, 2], [1, 0]), ([4, 1], [-1, 1])),
             ((8, 12), ([4, 2], [0, 1]), ([2], [-1, 0])),
             ((4, 6, 8), ([2, 2], [-1, 1, 0]), ([8], [-1, -1, 0])),
             ((8, 4), ([8], [0, -1]), ([2, 2], [-1, -1])),
             ((16, 4), ([2, 2, 2], [2, 0]), ([2, 4], [0, 1]))]
    for i, (shape, src, dst) in enumerate(pairs):
        full = rng.normal(size=shape).astype(np.float32)
        bias = rng.normal(size=(shape[0],)).astype(np.float32)
        layouts_s, layouts_d = {"w": src, "b": (src[0], [src[1][0]])}, {"w": dst, "b": (dst[0], [dst[1][0]])}
        sb, db = strategy_bytes(layouts_s), strategy_bytes(layouts_d)
        sp, dp = put(f"ts{i}.ckpt", sb), put(f"td{i}.ckpt", db)
        n_src, n_dst = int(np.prod(src[0])), int(np.prod(dst[0]))
        ws, bs = slices(full, *src, n_src), slices(bias, src[0], [src[1][0]], n_src)
        files, inputs = {}, {"src": as_bytes(sb), "dst": as_bytes(db), "full": full, "bias": bias}
        for k in range(n_src):
            lr = np.array(0.01 * (k + 1), np.float32)
            files[k] = os.path.join(TMP, f"t{i}", f"rank_{k}", "net.ckpt")
            os.makedirs(os.path.dirname(files[k]), exist_ok=True)
            save_rank_ckpt(files[k], {"w": ws[k], "b": bs[k], "learning_rate": lr})
            inputs[f"w{k}"], inputs[f"b{k}"], inputs[f"lr{k}"] = ws[k], bs[k], lr
        outs, names = [], []
        for k in range(n_dst):
            need = ints(ms.rank_list_for_transform(k, sp, dp))
            dst_file = os.path.join(TMP, f"t{i}_out{k}.ckpt")
            ms.transform_checkpoint_by_rank(k, {q: files[q] for q in need}, dst_file, sp, dp)
            loaded = ms.load_checkpoint(dst_file)
            names.append(list(loaded))
            outs += [loaded[n].asnumpy() for n in loaded]
        w.add(f"transform_checkpoint_by_rank/pair{i}", inputs=inputs, outputs=outs, names=names, n_src=n_src,
              n_dst=n_dst, shape=list(shape))
        if i == 0:
            attempt(w, "transform_checkpoint_by_rank/missing_rank",
                    ms.transform_checkpoint_by_rank, 0, {0: files[0]}, os.path.join(TMP, "x.ckpt"), sp, dp)
            attempt(w, "transform_checkpoint_by_rank/bad_name",
                    ms.transform_checkpoint_by_rank, 0, files, os.path.join(TMP, "x.bin"), sp, dp)
            # the whole directory, to the destination strategy and to no strategy (whole tensors)
            for tag, dst_arg in (("to_dst", dp), ("to_full", None)):
                out_dir = os.path.join(TMP, f"dir_{tag}")
                ms.transform_checkpoints(os.path.join(TMP, "t0"), out_dir, "new", sp, dst_arg)
                got, got_names = [], []
                for f in sorted(glob.glob(os.path.join(out_dir, "rank_*", "*.ckpt"))):
                    loaded = ms.load_checkpoint(f)
                    got_names.append([os.path.relpath(f, out_dir), list(loaded)])
                    got += [loaded[n].asnumpy() for n in loaded]
                w.add(f"transform_checkpoints/{tag}", inputs=inputs, outputs=got, files=got_names,
                      dst=dst_arg is not None, n_src=n_src)
            # a source strategy holding only 'w' (one pipeline stage of the destination's parameters)
            only_w = strategy_bytes({"w": src})
            out_dir = os.path.join(TMP, "dir_stage")
            ms.transform_checkpoints(os.path.join(TMP, "t0"), out_dir, "new", put("only_w.ckpt", only_w), dp)
            got, got_names = [], []
            for f in sorted(glob.glob(os.path.join(out_dir, "rank_*", "*.ckpt"))):
                loaded = ms.load_checkpoint(f)
                got_names.append([os.path.relpath(f, out_dir), list(loaded)])
                got += [loaded[n].asnumpy() for n in loaded]
            w.add("transform_checkpoints/one_stage", inputs=dict(inputs, only_w=as_bytes(only_w)), outputs=got,
                  files=got_names, dst=True, n_src=n_src)
            # load_distributed_checkpoint into a network holding 'w' and 'b'
            net = nn.Cell()
            net.w = ms.Parameter(ms.Tensor(np.zeros(shape, np.float32)), "w")
            net.b = ms.Parameter(ms.Tensor(np.zeros((shape[0],), np.float32)), "b")
            ms.load_distributed_checkpoint(net, [files[k] for k in range(n_src)], None, sp)
            w.add("load_distributed_checkpoint/pair0", inputs=inputs, outputs=[net.w.asnumpy(), net.b.asnumpy()],
                  n_src=n_src)
            attempt(w, "load_distributed_checkpoint/too_few_files",
                    ms.load_distributed_checkpoint, net, [files[0], files[1]], None, sp)
    # --- merge_pipeline_strategys + a rank list across stages -----------------------------------------------
    stage_dir = os.path.join(TMP, "stages")
    s0 = strategy_bytes({"a": ([2, 2], [1, 0]), "c": ([2, 2], [-1, 0])}, stage=0)
    s1 = strategy_bytes({"b": ([2, 2], [0, -1]), "c": ([2, 2], [0, -1])}, stage=1)
    put("stages/stage0.ckpt", s0)
    put("stages/stage1.ckpt", s1)
    merged = os.path.join(TMP, "merged", "merged.ckpt")
    ms.merge_pipeline_strategys(stage_dir, merged)
    dst = strategy_bytes({"a": ([2], [-1, 0]), "b": ([2], [0, -1]), "c": ([2], [-1, -1])})
    dpath = put("pp_dst.ckpt", dst)
    w.add("merge_pipeline_strategys/two_stages", inputs={"s0": as_bytes(s0), "s1": as_bytes(s1), "dst": as_bytes(dst)},
          outputs=[], layouts=layout_meta(ms.build_searched_strategy(merged)),
          ranks=[ints(ms.rank_list_for_transform(k, merged, dpath)) for k in range(2)],
          ranks_back=[ints(ms.rank_list_for_transform(k, dpath, merged)) for k in range(8)])
    attempt(w, "merge_pipeline_strategys/not_a_dir",
            lambda: ms.merge_pipeline_strategys(os.path.join(TMP, "nope"), merged))
    # --- restore_group_info_list ----------------------------------------------------------------------------
    g = pb.ParallelGroupMap()
    item = g.parallel_group_item.add(group_name="4-6301172352641561019")
    item.parallel_group_ranks.dim.extend([0, 2, 4, 6])
    g.ckpt_restore_rank_list.dim.extend([0, 2, 4, 6])
    gpath = put("group_info.pb", g.SerializeToString())
    w.add("restore_group_info_list/four", inputs={"file": as_bytes(g.SerializeToString())}, outputs=[],
          ranks=ints(ms.restore_group_info_list(gpath)))
    g2 = pb.ParallelGroupMap()
    g2.ckpt_restore_rank_list.SetInParent()
    g2path = put("group_empty.pb", g2.SerializeToString())
    res = attempt(w, "restore_group_info_list/empty", lambda: ints(ms.restore_group_info_list(g2path)))
    if res is not None:
        w.add("restore_group_info_list/empty", inputs={"file": as_bytes(g2.SerializeToString())}, outputs=[],
              ranks=res)
    attempt(w, "restore_group_info_list/not_str", lambda: ms.restore_group_info_list(1))
    # --- parameter redundancy and get_ckpt_path_with_strategy (get_rank() answered for each rank) -------------
    import mindspore.train._utils as train_utils  # noqa: PLC0415
    import mindspore.train.serialization as serialization  # noqa: PLC0415
    red_files = {"engine": engine,
                 "mixed": strategy_bytes({"w": ([2, 2], [1, -1]), "v": ([2, 2], [-1, 0]), "u": ([4, 2], [0, 1])}),
                 "repl": strategy_bytes({"w": ([2, 4], [-1, -1]), "v": ([2, 4], [1, -1])})}
    opt = pb.ParallelStrategyMap()
    opt.ParseFromString(strategy_bytes({"w": ([4, 2], [0, -1]), "v": ([8], [-1, -1])}))
    opt.parallel_layout_item[0].parallel_layouts.opt_weight_shard_step = 2
    opt.parallel_layout_item[0].parallel_layouts.opt_weight_shard_size = 2
    opt.parallel_layout_item[1].parallel_layouts.opt_weight_shard_step = 1
    opt.parallel_layout_item[1].parallel_layouts.opt_weight_shard_size = -1
    red_files["opt_shard"] = opt.SerializeToString()
    for tag, data in red_files.items():
        path = put(f"red_{tag}.ckpt", data)
        res = attempt(w, f"parameter_redundancy/{tag}", train_utils.get_parameter_redundancy, path, 8)
        if res is not None:
            w.add(f"parameter_redundancy/{tag}", inputs={"file": as_bytes(data)}, outputs=[],
                  groups={k: [list(g) for g in v] for k, v in res.items()})
    path = put("red_mixed.ckpt", red_files["mixed"])
    for k in (0, 3):
        put(f"ckpts/rank_{k}/net.ckpt", b"x")
    found = []
    for k in range(8):
        serialization.get_rank = train_utils.get_rank = (lambda k=k: k)
        got = serialization.get_ckpt_path_with_strategy(os.path.join(TMP, "ckpts", f"rank_{k}", "net.ckpt"), path)
        found.append(None if got is None else os.path.relpath(got, TMP))
    w.add("get_ckpt_path_with_strategy/mixed", inputs={"file": as_bytes(red_files["mixed"])}, outputs=[],
          found=found, existing=[0, 3])
    # --- strategy_ckpt_config and strategy_ckpt_save_file are one setting ---------------------------------------
    seen = [ms.get_auto_parallel_context("strategy_ckpt_config")]
    ms.set_auto_parallel_context(strategy_ckpt_save_file=os.path.join(TMP, "a", "s.ckpt"))
    seen.append(ms.get_auto_parallel_context("strategy_ckpt_config"))
    ms.set_auto_parallel_context(strategy_ckpt_config={"save_file": os.path.join(TMP, "b.ckpt"),
                                                       "only_trainable_params": False})
    seen.append(ms.get_auto_parallel_context("strategy_ckpt_config"))
    ms.set_auto_parallel_context(strategy_ckpt_config={"load_file": os.path.join(TMP, "c.ckpt")})
    seen.append(ms.get_auto_parallel_context("strategy_ckpt_config"))
    seen.append(ms.get_auto_parallel_context("strategy_ckpt_save_file"))
    w.add("set_auto_parallel_context/strategy_ckpt_config", outputs=[], tmp=TMP,
          seen=[{k: (v.replace(TMP, "<tmp>") if isinstance(v, str) else v) for k, v in d.items()}
                if isinstance(d, dict) else d.replace(TMP, "<tmp>") for d in seen])
    attempt(w, "set_auto_parallel_context/strategy_ckpt_config_bad_key",
            lambda: ms.set_auto_parallel_context(strategy_ckpt_config={"save": "x"}))
    attempt(w, "set_auto_parallel_context/strategy_ckpt_config_bad_type",
            lambda: ms.set_auto_parallel_context(strategy_ckpt_config={"only_trainable_params": 1}))


if __name__ == "__main__":
    with FixtureWriter(OUT) as writer:
        record(writer)
    print("wrote", OUT)
