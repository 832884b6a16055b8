"""Record what real MindSpore 2.10 (CPU build) dumps with MINDSPORE_DUMP_CONFIG into tests/fixtures/oracle/dump.npz.

Run with the oracle interpreter (real MindSpore installed), from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_dump.py

MindSpore reads the dump configuration once per process, so each case runs a child process (this script with
``--child``) on a small GRAPH_MODE network (``Conv2d`` with bias, ``ReLU``, ``Flatten``, ``Dense``, ``ReLU``,
fixed weights) called ``runs`` times. Recorded per case: every dumped file as ``[iteration, op_type, op_name,
io, slot, dtype]`` (``files``), the execution order CSV, and for case ``all`` the arrays of iteration 0 (outputs,
named by ``arrays``), for case ``train`` (one ``TrainOneStepCell`` SGD step of a ``Dense``) the Parameter
files of iteration 0; for a configuration MindSpore rejects, its message (``message``).
"""
import copy
import glob
import json
import os
import pathlib
import subprocess
import sys
import tempfile

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

BASE = {"common_dump_settings": {"op_debug_mode": 0, "dump_mode": 0, "path": "", "net_name": "Net",
                                 "iteration": "all", "saved_data": "tensor", "input_output": 0, "kernels": [],
                                 "support_device": [0, 1, 2, 3, 4, 5, 6, 7]},
        "e2e_dump_settings": {"enable": True, "trans_flag": True}}


def weights():
    rng = np.random.default_rng(7)
    return {"x": rng.standard_normal((1, 1, 4, 4)).astype(np.float32),
            "conv_weight": rng.standard_normal((2, 1, 3, 3)).astype(np.float32),
            "conv_bias": rng.standard_normal((2,)).astype(np.float32),
            "fc_weight": rng.standard_normal((3, 8)).astype(np.float32),
            "fc_bias": rng.standard_normal((3,)).astype(np.float32)}


def child(runs, kind):
    import mindspore as ms
    from mindspore import nn
    ms.set_context(mode=ms.GRAPH_MODE)
    w = weights()
    if kind == "train":  # one SGD step of a Dense under TrainOneStepCell: Parameters are dumped after the update
        dense = nn.Dense(8, 3, weight_init=ms.Tensor(w["fc_weight"]), bias_init=ms.Tensor(w["fc_bias"]))
        step = nn.TrainOneStepCell(nn.WithLossCell(dense, nn.MSELoss()), nn.SGD(dense.trainable_params(), 0.1))
        for _ in range(runs):
            step(ms.Tensor(w["x"].reshape(2, 8)), ms.Tensor(np.zeros((2, 3), np.float32))).asnumpy()
        return

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 2, 3, pad_mode="valid", has_bias=True,
                                  weight_init=ms.Tensor(w["conv_weight"]), bias_init=ms.Tensor(w["conv_bias"]))
            self.relu = nn.ReLU()
            self.flatten = nn.Flatten()
            self.fc = nn.Dense(8, 3, weight_init=ms.Tensor(w["fc_weight"]), bias_init=ms.Tensor(w["fc_bias"]))
            self.out = nn.ReLU()

        def construct(self, x):
            return self.out(self.fc(self.flatten(self.relu(self.conv(x)))))

    net = Net()
    for _ in range(runs):
        net(ms.Tensor(w["x"])).asnumpy()


def _set(section, **fields):
    def change(cfg):
        for key, value in fields.items():
            if value is KeyError:
                del cfg[section][key]
            else:
                cfg[section][key] = value
    return change


C = "common_dump_settings"
CASES = {  # name: (change to BASE, runs)
    "all": (_set(C), 2),
    "train": (_set(C), 1),
    "iteration": (_set(C, iteration="0|2-3"), 5),
    "input_only": (_set(C, input_output=1), 1),
    "output_only": (_set(C, input_output=2), 1),
    "kernels_type": (_set(C, dump_mode=1, kernels=["ReLU"]), 1),
    "kernels_regex": (_set(C, dump_mode=1, kernels=["name-regex(Default/fc.*)"]), 1),
    "kernels_name": (_set(C, dump_mode=1, kernels=["Default/relu-ReLU/ReLU-op0"]), 1),
    "exception_dump": (_set(C, op_debug_mode=4), 1),
    "overflow_dump": (_set(C, op_debug_mode=3, input_output=1, dump_mode=1, kernels=["ReLU"]), 1),
    "file_format_not_read": (_set(C, file_format="xyz"), 1),
    "dump_mode_2": (_set(C, dump_mode=2), 1),
    "missing_iteration": (_set(C, iteration=KeyError), 1),
    "missing_kernels": (_set(C, kernels=KeyError), 1),
    "bad_iteration": (_set(C, iteration="abc"), 1),
    "iteration_not_str": (_set(C, iteration=3), 1),
    "relative_path": (_set(C, path="rel/out"), 1),
    "bad_path_char": (_set(C, path="/tmp/a b"), 1),
    "bad_dump_mode": (_set(C, dump_mode=5), 1),
    "dump_mode_str": (_set(C, dump_mode="0"), 1),
    "bad_input_output": (_set(C, input_output=5), 1),
    "kernels_not_list": (_set(C, kernels="MatMul"), 1),
    "bad_net_name": (_set(C, net_name="a/b"), 1),
    "bad_saved_data": (_set(C, saved_data="xx"), 1),
    "statistic": (_set(C, saved_data="statistic"), 1),
    "no_common": (lambda cfg: cfg.pop(C), 1),
}


def _files(root):
    out = []
    for f in sorted(glob.glob(os.path.join(root, "rank_0", "Net", "*", "*", "*.npy"))):
        iteration = int(f.split(os.sep)[-2])
        parts = os.path.basename(f).split(".")
        if parts[0] == "Parameter":  # Parameter.{name}.0.0.{ts}.output.0.DefaultFormat.{dtype}.npy
            op_type, op_name, io, slot, dtype = parts[0], parts[1], parts[5], parts[6], parts[8]
        else:  # {op_type}.{op_name}.{task}.{stream}.{ts}.{io}.{slot}.{format}.{dtype}.npy
            op_type, op_name, io, slot, dtype = parts[0], parts[1], parts[5], parts[6], parts[8]
        out.append((iteration, op_type, op_name, io, int(slot), dtype, f))
    return out


def main():
    from oracle import FixtureWriter
    target = ROOT / "tests" / "fixtures" / "oracle" / "dump.npz"
    with FixtureWriter(target) as writer, tempfile.TemporaryDirectory() as tmp:
        for name, (change, runs) in CASES.items():
            cfg = copy.deepcopy(BASE)
            out = os.path.join(tmp, name.replace("_", "-"), "out")
            if C in cfg:
                cfg[C]["path"] = out
            change(cfg)
            cfg_file = os.path.join(tmp, f"{name}.json")
            with open(cfg_file, "w") as f:
                json.dump(cfg, f)
            r = subprocess.run([sys.executable, __file__, "--child", str(runs), name], capture_output=True, text=True,
                               env=dict(os.environ, MINDSPORE_DUMP_CONFIG=cfg_file, GLOG_v="3"))
            if r.returncode != 0:
                lines = [ln for ln in r.stderr.splitlines() if ln.startswith("RuntimeError: ")]
                message = lines[-1][len("RuntimeError: "):] if lines else r.stderr.strip().splitlines()[-1]
                writer.add(f"dump/{name}", name="dump", error="RuntimeError", message=message, config=cfg,
                           runs=runs)
                print(name, "->", message)
                continue
            files = _files(out)
            order_csv = os.path.join(out, "rank_0", "execution_order", "ms_execution_order_graph_0.csv")
            with open(order_csv) as f:
                order = f.read().split()[1:]
            arrays, names = [], []
            if name in ("all", "train"):
                for it, op_type, op_name, io, slot, _, path in files:
                    if it == 0 and (name == "all" or op_type == "Parameter"):
                        arrays.append(np.load(path))
                        names.append([op_type, op_name, io, slot])
            inputs = weights() if name in ("all", "train") else None
            writer.add(f"dump/{name}", inputs=inputs, outputs=arrays, name="dump", files=[list(f[:6]) for f in files],
                       execution_order=order, arrays=names, config=cfg, runs=runs)
            print(name, "->", len(files), "files")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(int(sys.argv[2]), sys.argv[3])
    else:
        main()
