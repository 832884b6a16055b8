"""Record real MindSpore's weight obfuscation, ``obfuscate_ckpt`` and ``load_obf_params_into_net`` (run with the
MindSpore 2.10 interpreter).

    python tools/oracle/record_obfuscate.py   ->  tests/fixtures/oracle/obfuscate.npz

Each scenario is described in JSON (kept in the case's meta, so the replay rebuilds it from there): a network
(``{attr: ["dense", in, out] | ["list", [...]] | {nested}}``), the files of the checkpoint directory (their arrays
are the case inputs ``"<file>|<param>"``), the call's keyword arguments (``"$SRC"`` / ``"$OUT"`` / ``"$FILE"`` /
``"$MISSING"`` stand for the source directory, the output directory, a plain file and a missing path;
``{"__tuple__": [...]}`` for a tuple) and the NumPy seed set before the call. MindSpore draws its ratios with
``np.random``, so the seed fixes them. Outputs: the returned metadata (``"meta|<name>"``), every written file's
arrays (``"<file>|<param>"``) and the next ``np.random.randint`` draw (how many numbers the call consumed); or the
error type. ``forward`` cases also record the network's outputs before and after loading the obfuscated checkpoint
and calling ``load_obf_params_into_net``.
"""
import os
import pathlib
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import mindspore as ms  # noqa: E402
from mindspore import nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "oracle" / "obfuscate.npz"
rng = np.random.default_rng(18)

MLP = {"backbone": {"fc1": ["dense", 4, 3], "fc2": ["dense", 3, 2]}}
FLAT = {"fc1": ["dense", 4, 3], "fc2": ["dense", 3, 2]}
BLOCK = {"attention": {"dense1": ["dense", 2, 2], "dense2": ["dense", 2, 2]}}
BLOCKS = {"backbone": {"blocks": ["list", [BLOCK, BLOCK, BLOCK]]}}
PAIR = {"backbone": ["dense", 2, 2], "head": ["dense", 2, 2]}
TM = ["backbone", "fc1|fc2"]


class Spec(nn.Cell):
    def __init__(self, spec):
        super().__init__()
        for name, sub in spec.items():
            setattr(self, name, build(sub))


def build(spec):
    if isinstance(spec, dict):
        return Spec(spec)
    if spec[0] == "dense":
        return nn.Dense(spec[1], spec[2])
    return nn.CellList([build(s) for s in spec[1]])


def decode(value, paths):
    if isinstance(value, str) and value in paths:
        return paths[value]
    if isinstance(value, dict):
        if "__tuple__" in value:
            return tuple(decode(v, paths) for v in value["__tuple__"])
        return {k: decode(v, paths) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v, paths) for v in value]
    return value


def write_files(files, net, src):
    """Write the checkpoint directory; returns the arrays written (the case inputs)."""
    inputs = {}
    params = {p.name: p.asnumpy() for p in net.get_parameters()}
    for rel, kind in files:
        path = os.path.join(src, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if kind == "text":
            with open(path, "w") as f:
                f.write("not a checkpoint")
            continue
        arrays = dict(params)
        if kind == "float16":
            arrays = {k: (rng.standard_normal(v.shape) * 2).astype(np.float16) for k, v in params.items()}
        elif kind == "wide":
            arrays = {"w": rng.standard_normal((3, 64)).astype(np.float32)}
        ms.save_checkpoint([{"name": k, "data": ms.Tensor(v)} for k, v in arrays.items()], path)
        inputs.update({f"{rel}|{k}": v for k, v in arrays.items()})
    return inputs


def written(out_dir):
    names, arrays = [], []
    for dirpath, _, files in os.walk(out_dir):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), out_dir)
            if rel.endswith("_obf.ckpt"):
                names.append(rel)
    names.sort()
    keys = []
    for rel in names:
        for k, v in ms.load_checkpoint(os.path.join(out_dir, rel)).items():
            keys.append(f"{rel}|{k}")
            arrays.append(v.asnumpy())
    return names, keys, arrays


def scenario(w, case_id, *, net=MLP, files=(("net.ckpt", "net"),), kwargs, seed=5, api="obfuscate_ckpt",
             forward=False):
    ms.set_seed(1)
    cell = build(net)
    src, out = tempfile.mkdtemp(), tempfile.mkdtemp()
    plain = os.path.join(tempfile.mkdtemp(), "plain.txt")
    open(plain, "w").close()
    paths = {"$SRC": src, "$OUT": out, "$FILE": plain, "$MISSING": os.path.join(src, "missing")}
    inputs = write_files(files, cell, src)
    call = decode(kwargs, paths)
    if call.pop("network", None) == "not_cell":
        call["network"] = 3
    else:
        call["network"] = cell
    meta = dict(net=net, files=[list(f) for f in files], kwargs=kwargs, seed=seed, api=api)
    np.random.seed(seed)
    try:
        res = getattr(ms, api)(**call)
    except Exception as e:  # noqa: BLE001  (the error type is the recorded result)
        w.add(case_id, inputs=inputs, outputs=[], name=api, error=type(e).__name__,
              message=str(e).splitlines()[0][:200], **meta)
        return
    draw = int(np.random.randint(0, 2 ** 31 - 1))
    if api == "load_obf_params_into_net":
        w.add(case_id, inputs=inputs, outputs=[], name=api, same_object=res is cell, next_draw=draw, **meta)
        return
    names, keys, arrays = written(out if "saved_path" not in kwargs or kwargs["saved_path"] == "$OUT" else src)
    meta_names = sorted(res)
    outputs = [np.asarray(res[k]) for k in meta_names] + arrays
    if forward:
        x = rng.standard_normal((2, 4)).astype(np.float32)
        inputs["x"] = x
        outputs.append(cell.backbone.fc2(cell.backbone.fc1(ms.Tensor(x))).asnumpy())
        obf_net = build(net)
        ms.load_checkpoint(os.path.join(out, "net_obf.ckpt"), obf_net)
        obf_net = ms.load_obf_params_into_net(obf_net, TM, obf_ratios=ms.Tensor(res["obf_metadata"]))
        outputs.append(obf_net.backbone.fc2(obf_net.backbone.fc1(ms.Tensor(x))).asnumpy())
    w.add(case_id, inputs=inputs, outputs=outputs, name=api, metadata=meta_names, written=names, keys=keys,
          next_draw=draw, forward=forward, **meta)


def metadata(name="obf_metadata", shape=(1,), kind="random", save=True, op="invert", **extra):
    cfg = {"name": name, "shape": list(shape), "type": kind, "save_metadata": save, **extra}
    if op is not None:
        cfg["metadata_op"] = op
    return cfg


def weight(target, *ops, **extra):
    return {"target": target, "weight_obf_ops": list(ops), **extra}


def mul(y="obf_metadata"):
    return {"name": "mul", "input_x": "weight", "input_y": y}


def config(metas, weights):
    return {"obf_metadata_config": metas, "weight_obf_config": weights}


def main():
    base = {"ckpt_files": "$SRC", "saved_path": "$OUT"}
    with FixtureWriter(OUT) as w:
        # target_modules: one ratio r for every target's weight and bias; metadata 1/r (float16).
        scenario(w, "obfuscate_ckpt/tm_backbone",
                 files=(("net.ckpt", "net"), ("rank_0/net.ckpt", "net"), ("notes.txt", "text")),
                 kwargs=dict(base, target_modules=TM), forward=True)
        scenario(w, "obfuscate_ckpt/tm_missing_target", kwargs=dict(base, target_modules=["backbone", "fc1|nope"]))
        scenario(w, "obfuscate_ckpt/tm_scale_3", kwargs=dict(base, target_modules=TM, obfuscate_scale=3), seed=2)
        scenario(w, "obfuscate_ckpt/tm_scale_float", kwargs=dict(base, target_modules=TM, obfuscate_scale=7.5))
        scenario(w, "obfuscate_ckpt/tm_same_dir", kwargs={"ckpt_files": "$SRC", "saved_path": "$SRC",
                                                           "target_modules": TM})
        # path '' gives targets '/fc1/weight', which no checkpoint name matches: files written unchanged.
        scenario(w, "obfuscate_ckpt/tm_top_path", net=FLAT, kwargs=dict(base, target_modules=["", "fc1|fc2"]))
        # 'obfuscate_layers': one draw per layer, no entry matches: files unchanged, last draw returned.
        for n in ("2", "all"):
            scenario(w, f"obfuscate_ckpt/tm_layers_{n}", net=BLOCKS, seed=3, kwargs=dict(
                base, target_modules=["backbone/blocks/attention", "dense1|dense2", f"obfuscate_layers:{n}"]))
        # obf_config: broadcasting mul, row permutation, permutation-matrix matmul, a file named a.b.ckpt.
        ops_cfg = config(
            [metadata(shape=(2,)), metadata("perm", (2,), "rearrange", op=None),
             metadata("obf_metadata_pm", (2, 2), "rearrange", save=False, op=None),
             metadata("inv_perm", (3,), "rearrange")],
            [weight("backbone/weight", mul()),
             weight("backbone/bias", {"name": "permuate", "input_x": "perm", "input_y": "x"}),
             weight("head/weight", {"name": "matmul", "input_x": "obf_metadata_pm", "input_y": "weight",
                                    "transpose_a": True}),
             weight("head/bias", mul(), mul())])
        scenario(w, "obfuscate_ckpt/cfg_ops", net=PAIR, files=(("a.b.ckpt", "net"),), seed=4,
                 kwargs=dict(base, obf_config=ops_cfg))
        scenario(w, "obfuscate_ckpt/cfg_float16", net=PAIR, files=(("h.ckpt", "float16"),), seed=6,
                 kwargs=dict(base, obf_config=config([metadata(shape=(2,))], [weight("backbone/weight", mul())])))
        scenario(w, "obfuscate_ckpt/cfg_wide_scale", net=PAIR, files=(("w.ckpt", "wide"),), seed=7,
                 kwargs=dict(base, obfuscate_scale=2049,
                             obf_config=config([metadata(shape=(64,))], [weight("w", mul())])))
        layered = config([metadata("obf_metadata_${layer}", layers=[0, 1])],
                         [weight("backbone/blocks/${layer}/attention/dense1/weight", mul("obf_metadata_${layer}"),
                                 layers=[0, 1])])
        scenario(w, "obfuscate_ckpt/cfg_layers", net=BLOCKS, kwargs=dict(base, obf_config=layered))
        dup = config([metadata(), metadata(op=None)], [weight("backbone/weight", mul())])
        scenario(w, "obfuscate_ckpt/cfg_duplicate_name", net=PAIR, kwargs=dict(base, obf_config=dup))
        # A failing op skips the file (nothing written, an error logged); a corrupt file is skipped too.
        scenario(w, "obfuscate_ckpt/cfg_unknown_op", net=PAIR, kwargs=dict(base, obf_config=config(
            [metadata()], [weight("head/bias", {"name": "add", "input_x": "weight", "input_y": "obf_metadata"})])))
        scenario(w, "obfuscate_ckpt/cfg_missing_factor", net=PAIR, files=(("a.ckpt", "net"), ("b.ckpt", "net")),
                 kwargs=dict(base, obf_config=config([metadata()], [weight("head/bias", mul("obf_metadata_9"))])))
        scenario(w, "obfuscate_ckpt/corrupt_file_skipped", net=PAIR, files=(("bad.ckpt", "text"), ("ok.ckpt", "net")),
                 kwargs=dict(base, obf_config=config([metadata()], [weight("head/bias", mul())])))
        errors = {
            "network": dict(base, network="not_cell", target_modules=TM),
            "ckpt_files_int": {"ckpt_files": 3, "target_modules": TM},
            "ckpt_files_missing": {"ckpt_files": "$MISSING", "target_modules": TM},
            "ckpt_files_file": {"ckpt_files": "$FILE", "target_modules": TM},
            "saved_path_missing": {"ckpt_files": "$SRC", "saved_path": "$MISSING", "target_modules": TM},
            "tm_none": base,
            "tm_tuple": dict(base, target_modules={"__tuple__": TM}),
            "tm_short": dict(base, target_modules=["backbone"]),
            "tm_not_str": dict(base, target_modules=["backbone", 3]),
            "tm_empty_targets": dict(base, target_modules=["backbone", ""]),
            "tm_bad_chars": dict(base, target_modules=["back.bone", "fc1"]),
            "tm_bad_path": dict(base, target_modules=["backbone/nope", "fc1"]),
            "tm_not_cell_path": dict(base, target_modules=["training", "fc1"]),
            "tm_no_target": dict(base, target_modules=["backbone", "x|y"]),
            "tm_bad_layers": dict(base, target_modules=["backbone", "fc1", "layers:2"]),
            "tm_bad_layers_count": dict(base, target_modules=["backbone", "fc1", "obfuscate_layers:x"]),
            "cfg_list": dict(base, obf_config=[1]),
            "cfg_empty": dict(base, obf_config={}),
            "cfg_unknown_key": dict(base, obf_config={"obf_metadata_config": [], "weight_obf_config": [], "x": []}),
            "cfg_no_weights": dict(base, obf_config={"obf_metadata_config": [metadata()]}),
            "cfg_shape_tuple": dict(base, obf_config=config([dict(metadata(), shape=2)], [])),
            "cfg_bad_type": dict(base, obf_config=config([metadata(kind="gauss")], [])),
            "cfg_op_not_str": dict(base, obf_config=config([metadata()], [weight("a", {"name": 1})])),
            "cfg_empty_ops": dict(base, obf_config=config([metadata()], [weight("head/bias")])),
            "cfg_metadata_op_mul": dict(base, obf_config=config([metadata(op="mul")], [])),
            "cfg_metadata_op_bad": dict(base, obf_config=config([metadata(op="exp")], [])),
            "scale_1": dict(base, target_modules=TM, obfuscate_scale=1),
            "scale_str": dict(base, target_modules=TM, obfuscate_scale="3"),
            "scale_none": dict(base, target_modules=TM, obfuscate_scale=None),
            "scale_no_random": dict(base, obfuscate_scale=1, obf_config=config(
                [metadata(kind="rearrange", shape=(2,), op=None)], [])),
        }
        for key, kwargs in errors.items():
            scenario(w, f"obfuscate_ckpt/err_{key}", net=PAIR if key.startswith("cfg_empty_ops") else MLP,
                     kwargs=kwargs)
        net_cfg = {"network_obf_config": [{"module": "/backbone", "target": "fc1",
                                           "insert_ops": [{"name": "mul", "input_x": "weight",
                                                           "input_y": "obf_metadata"}]}]}
        loads = {
            "ok_tm": {"target_modules": TM, "obf_ratios": "anything", "ignored_func_decorators": ["x"]},
            "ok_cfg": {"obf_config": net_cfg, "data_parallel_num": 2},
            "ok_bool_dp": {"target_modules": TM, "data_parallel_num": True},
            "err_network": {"network": "not_cell", "target_modules": TM},
            "err_tm_none": {},
            "err_tm_bad_path": {"target_modules": ["nope", "fc1"]},
            "err_cfg_list": {"obf_config": [1]},
            "err_cfg_empty": {"obf_config": {}},
            "err_cfg_weights_only": {"obf_config": {"weight_obf_config": []}},
            "err_cfg_no_module": {"obf_config": {"network_obf_config": [{"target": "fc1"}]}},
            "err_dp_zero": {"target_modules": TM, "data_parallel_num": 0},
            "err_dp_float": {"target_modules": TM, "data_parallel_num": 1.0},
        }
        for key, kwargs in loads.items():
            scenario(w, f"load_obf_params_into_net/{key}", kwargs=kwargs, api="load_obf_params_into_net")
    print("wrote", OUT, os.path.getsize(OUT), "bytes")


if __name__ == "__main__":
    main()
