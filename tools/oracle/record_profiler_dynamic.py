"""Record real MindSpore's ``DynamicProfilerMonitor``, ``EnvProfiler`` and ``mstx`` on its CPU build.

    python tools/oracle/record_profiler_dynamic.py   ->  tests/fixtures/oracle/profiler_dynamic.npz

* ``dynamic/default_file``: the config file written when ``cfg_path`` has none (text and file mode);
* ``dynamic/config/<case>``: the checked config (``DynamicProfilerConfigContext.to_dict``) and the Profiler
  options it maps to, for valid, legacy-int and wrongly typed values;
* ``dynamic/train/<case>`` / ``dynamic/loop/<case>``: a small ``Model.train`` with the monitor as callback (or a
  loop calling ``step()``): the folders under the output path (session folders as ``*_ascend_ms``, and
  whether each was analysed, i.e. holds ``ASCEND_PROFILER_OUTPUT/trace_view.json``), the config file after
  training, and the ``[Dynamic Profiler]`` lines printed. Each scenario runs in its own process: MindSpore shares
  one monitor per host and hour through shared memory;
* ``env/<case>``: ``MS_PROFILER_OPTIONS`` read at import (the session folders written at exit);
* ``mstx/cpu``: what ``mstx.mark`` / ``range_start`` / ``range_end`` return on CPU.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "fixtures" / "oracle" / "profiler_dynamic.npz"

CONFIGS = {
    "empty": {},
    "valid": {"start_step": 2, "stop_step": 5, "activities": ["CPU"], "profiler_level": "Level1",
              "export_type": ["text", "db"], "aic_metrics": "Memory", "analyse": True, "analyse_mode": 0,
              "host_sys": ["cpu", "mem"], "prof_path": "./x"},
    "legacy_ints": {"start_step": 1, "stop_step": 1, "activities": 1, "profiler_level": -1, "export_type": 2,
                    "aic_metrics": 3},
    "wrong_types": {"start_step": "2", "stop_step": 3.0, "profile_memory": 1, "analyse": "true", "with_stack": None,
                    "activities": "CPU", "profiler_level": True, "export_type": {"a": 1}, "prof_path": 5,
                    "host_sys": "cpu", "data_simplification": 0, "mstx_domain_include": "x"},
    "bad_enum_values": {"start_step": 1, "stop_step": 2, "activities": ["CPU", "TPU"], "profiler_level": "Level9",
                        "aic_metrics": "Nope", "export_type": ["csv"], "host_sys": ["cpu", "gpu"]},
    "bools_as_steps": {"start_step": True, "stop_step": False},
}

TRAIN = {   # config written before the monitor is created, 6 steps of training
    "window": {"start_step": 2, "stop_step": 3, "analyse": True, "activities": ["CPU"]},
    "not_analysed": {"start_step": 2, "stop_step": 2},
    "start_after_stop": {"start_step": 3, "stop_step": 2, "analyse": True},
    "start_zero": {"start_step": 0, "stop_step": 2, "analyse": True},
    "open_at_end": {"start_step": 5, "stop_step": 9, "analyse": True},
    "prof_path": {"start_step": 1, "stop_step": 1, "analyse": True, "prof_path": "PROF"},
    "invalid_json": "{not json",
    "no_file": None,
}


def _tree(root):
    """Paths under root, '/'-joined and sorted; session folders (host_pid_time) become '*_ascend_ms'."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        for name in dirnames + filenames:
            p = os.path.normpath(os.path.join(rel, name))
            p = re.sub(r"[^/]+_\d+_\d+_ascend_ms", "*_ascend_ms", p)
            parts = p.split("/")
            # keep the layout down to the analysed trace; leave out MindSpore's raw FRAMEWORK and log files
            if "FRAMEWORK" in parts or "logs" in parts or "PROF_" in p:
                continue
            out.append(p)
    return sorted(set(out))


def _scenario(kind, name, cfg, work):
    """Run in a child process (see the module docstring); prints one JSON line."""
    import time

    import mindspore as ms
    import mindspore.dataset as ds
    import numpy as np
    from mindspore import nn
    from mindspore.profiler import DynamicProfilerMonitor

    os.chdir(work)
    os.makedirs("cfg", exist_ok=True)
    if isinstance(cfg, dict):
        cfg = dict(cfg)
        if cfg.get("prof_path") == "PROF":
            cfg["prof_path"] = os.path.join(work, "prof")
        with open("cfg/profiler_config.json", "w") as f:
            json.dump(cfg, f)
    elif isinstance(cfg, str):
        with open("cfg/profiler_config.json", "w") as f:
            f.write(cfg)
    mon = DynamicProfilerMonitor(cfg_path="cfg", output_path="out", poll_interval=1)
    time.sleep(1.5)   # the monitor's reader process reads the file on its first poll

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = nn.Dense(2, 2)

        def construct(self, x):
            return self.fc(x)

    def gen():
        for _ in range(6):
            yield np.ones([2, 2], np.float32), np.ones([2], np.int32)

    net = Net()
    if kind == "train":
        model = ms.train.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
        model.train(1, ds.GeneratorDataset(gen, ["data", "label"]), callbacks=[mon], dataset_sink_mode=False)
    else:
        for _ in range(6):
            net(ms.Tensor(np.ones([2, 2], np.float32))).asnumpy()
            mon.step()
        mon._clean_resource()   # MindSpore leaves this to atexit; call it so the tree below is final
    with open("cfg/profiler_config.json") as f:
        after = f.read()
    print("RESULT " + json.dumps({"out": _tree("out"), "prof": _tree("prof"), "config_after": after,
                                  "cfg_files": sorted(os.listdir("cfg"))}))


def _run_child(kind, name, cfg, env=None):
    with tempfile.TemporaryDirectory() as work:
        args = [sys.executable, __file__, "--child", kind, name, json.dumps(cfg), work]
        p = subprocess.run(args, capture_output=True, text=True, timeout=600, env=env)
        lines = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")]
        if not lines:
            raise RuntimeError(f"{kind}/{name} failed:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}")
        res = json.loads(lines[-1][len("RESULT "):])
        # absolute paths of this temporary folder become relative ones: the fixture holds no machine's paths
        res["printed"] = [re.sub(r"/(?:[^/\s]+/)*?(cfg|out|prof)/", r"\1/", ln) for ln in p.stdout.splitlines()
                          if ln.startswith("[Dynamic Profiler]")]
        res["config_after"] = res["config_after"].replace(os.path.realpath(work) + "/", "").replace(work + "/", "")
        return res


def _env_child(work):
    import mindspore as ms
    import numpy as np
    from mindspore.profiler import EnvProfiler

    os.chdir(work)
    started = EnvProfiler.profiler is not None
    (ms.Tensor(np.ones(4, np.float32)) * 2).asnumpy()
    print("RESULT " + json.dumps({"started": started}))


def main():
    sys.path.insert(0, str(ROOT / "tests"))
    from mindspore.profiler import mstx
    from mindspore.profiler.dynamic_profile.dynamic_profiler_config_context import DynamicProfilerConfigContext
    from oracle import FixtureWriter

    def plain(v):
        if isinstance(v, list):
            return [plain(x) for x in v]
        return v.value if hasattr(v, "value") else v

    with FixtureWriter(OUT) as w:
        with tempfile.TemporaryDirectory() as work:
            res = _run_child("train", "no_file", None)
            w.add("dynamic/default_file", name="DynamicProfilerMonitor", text=res["config_after"],
                  keys=list(json.loads(res["config_after"])))
            probe = os.path.join(work, "probe")
            subprocess.run([sys.executable, "-c", "from mindspore.profiler import DynamicProfilerMonitor as D; "
                            f"D(cfg_path={probe!r})"], check=True, capture_output=True, timeout=300)
            mode = os.stat(os.path.join(probe, "profiler_config.json")).st_mode & 0o777
            w.add("dynamic/default_file_mode", name="DynamicProfilerMonitor", mode=mode)
        for case, cfg in CONFIGS.items():
            ctx = DynamicProfilerConfigContext(dict(cfg, is_valid=True))
            checked = ctx.to_dict()
            args = {k: plain(v) for k, v in ctx.args.items() if k not in ("is_dyno", "json_dict")}
            w.add(f"dynamic/config/{case}", name="DynamicProfilerMonitor", kwargs=cfg, checked=checked,
                  args=args, analyse_mode=ctx.analyse_mode)
        for case, cfg in TRAIN.items():
            w.add(f"dynamic/train/{case}", name="DynamicProfilerMonitor", kwargs={"config": cfg},
                  **_run_child("train", case, cfg))
        for case in ("window", "not_analysed"):
            w.add(f"dynamic/loop/{case}", name="DynamicProfilerMonitor", kwargs={"config": TRAIN[case]},
                  **_run_child("loop", case, TRAIN[case]))
        for case, opts in {"start": {"start": True, "activities": ["CPU"]}, "not_started": {},
                           "bad_json": "{oops"}.items():
            with tempfile.TemporaryDirectory() as work:
                text = opts if isinstance(opts, str) else json.dumps(dict(opts, output_path=os.path.join(work, "o")))
                env = dict(os.environ, MS_PROFILER_OPTIONS=text)
                p = subprocess.run([sys.executable, __file__, "--env-child", work], capture_output=True, text=True,
                                   timeout=300, env=env)
                line = [ln for ln in p.stdout.splitlines() if ln.startswith("RESULT ")][-1]
                w.add(f"env/{case}", name="EnvProfiler", kwargs={"options": opts},
                      started=json.loads(line[7:])["started"], out=_tree(os.path.join(work, "o")))
        w.add("mstx/cpu", name="mstx", mark=mstx.mark("m"), range_start=mstx.range_start("r"),
              range_end=mstx.range_end(1), enabled=bool(mstx.enable))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        _scenario(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), sys.argv[5])
    elif sys.argv[1:2] == ["--env-child"]:
        _env_child(sys.argv[2])
    else:
        main()
