"""Record real MindSpore 2.10's checks in ``Model.infer_train_layout`` / ``Model.infer_predict_layout`` into
tests/fixtures/oracle/infer_layout.npz.

Run with the oracle interpreter, from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_infer_layout.py

MindSpore's CPU build cannot compile a SEMI_AUTO_PARALLEL graph ("Invalid communication backend: CPU"), so the
layouts themselves are not recorded here (tests/model/test_infer_layout.py checks them against the strategy file
the same step writes). What is recorded: the error each parallel mode other than semi_auto / auto parallel gives,
and the argument checks that run before compiling in SEMI_AUTO_PARALLEL (type and message of each error).
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import mindspore as ms  # noqa: E402
import mindspore.dataset as ds  # noqa: E402
from mindspore import Tensor, nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")


def _model():
    net = nn.Dense(4, 2)
    return ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params()))


def _data():
    return ds.NumpySlicesDataset({"x": np.ones((4, 4), np.float32), "y": np.ones((4, 2), np.float32)},
                                 shuffle=False).batch(2)


X = np.ones((2, 4), np.float32)
MODE_CASES = {
    "predict": lambda m: m.infer_predict_layout(Tensor(X)),
    "train": lambda m: m.infer_train_layout(_data()),
}
# checks that run before compiling (SEMI_AUTO_PARALLEL)
ARG_CASES = {
    "train/sink_mode_false": lambda m: m.infer_train_layout(_data(), dataset_sink_mode=False),
    "train/sink_mode_int": lambda m: m.infer_train_layout(_data(), dataset_sink_mode=1),
    "train/sink_size_zero": lambda m: m.infer_train_layout(_data(), sink_size=0),
    "train/sink_size_minus_two": lambda m: m.infer_train_layout(_data(), sink_size=-2),
    "train/sink_size_float": lambda m: m.infer_train_layout(_data(), sink_size=1.5),
    "predict/numpy_input": lambda m: m.infer_predict_layout(X),
    "predict/numpy_in_list": lambda m: m.infer_predict_layout([Tensor(X), X]),
}


def _record(w, case_id, fn, **meta):
    try:
        fn(_model())
        w.add(case_id, name="Model.infer_layout", error=None, **meta)
    except Exception as err:  # noqa: BLE001  (the type and message are what is recorded)
        w.add(case_id, name="Model.infer_layout", error=type(err).__name__,
              message=str(err).splitlines()[0] if str(err) else "", **meta)


def main():
    out_path = ROOT / "tests" / "fixtures" / "oracle" / "infer_layout.npz"
    with FixtureWriter(out_path) as w:
        for mode in ("stand_alone", "data_parallel", "hybrid_parallel"):
            ms.reset_auto_parallel_context()
            ms.set_auto_parallel_context(parallel_mode=mode, device_num=8 if mode != "stand_alone" else 1)
            for api, fn in MODE_CASES.items():
                _record(w, f"{api}/{mode}", fn, mode=mode)
        ms.reset_auto_parallel_context()
        ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel", device_num=8, global_rank=0)
        for case_id, fn in ARG_CASES.items():
            _record(w, case_id, fn, mode="semi_auto_parallel")


if __name__ == "__main__":
    main()
