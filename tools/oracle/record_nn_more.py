"""Record real MindSpore 2.10's special-function, image and PyTorch-style ``*Ext`` nn layers into
tests/fixtures/oracle/nn_more.npz (replayed by tests/nn/test_oracle_more.py).

Run with the oracle interpreter (real MindSpore installed), from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_nn_more.py

Same recording as ``record_nn.py`` (seeded Parameters, outputs, gradients of ``sum(out * sens)``), other cases.
"""
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "oracle"))

import mindspore as ms  # noqa: E402

import record_nn  # noqa: E402
from oracle import FixtureWriter  # noqa: E402
from nn_cases import _c  # noqa: E402

X4 = [["x", [2, 3, 4, 5], "n"]]
# "graph": recorded compiled (MindSpore's image layers fail in PYNATIVE on a ScalarCast of a float32).
IMG = [["img1", [2, 2, 12, 12], "u"], ["img2", [2, 2, 12, 12], "u"]]

CASES = [
    _c("LGamma", [["x", [3, 4], "pos"]]), _c("DiGamma", [["x", [3, 4], "pos"]]),
    _c("IGamma", [["a", [3, 4], "pos"], ["x", [3, 4], "pos"]], grad=False),
    _c("LBeta", [["x", [3, 4], "pos"], ["y", [3, 4], "pos"]]),
    _c("ImageGradients", X4),
    _c("PSNR", IMG, graph=True), _c("PSNR", IMG, {"max_val": 2}, "max2", graph=True),
    _c("SSIM", IMG, graph=True), _c("SSIM", IMG, {"filter_size": 5, "filter_sigma": 1.0, "k1": 0.02}, "f5", graph=True),
    _c("MSSSIM", [["img1", [1, 2, 16, 16], "u"], ["img2", [1, 2, 16, 16], "u"]],
       {"power_factors": [0.4, 0.6], "filter_size": 3}, graph=True),
    _c("DropoutExt", X4, {"p": 0.3}, "eval"),
    _c("PReLUExt", X4, {"num_parameters": 3}),
    # indices ("const": literal values), one per pooling window and unique per plane as max pooling gives them
    _c("MaxUnpool1d", [["x", [1, 2, 3], "n"], ["indices", [[[1, 2, 5], [0, 3, 4]]], "const"]], {"kernel_size": 2}),
    _c("MaxUnpool2d", [["x", [1, 2, 2, 2], "n"], ["indices", [[[[5, 2], [12, 11]], [[0, 7], [9, 15]]]], "const"]],
       {"kernel_size": 2}),
    _c("MaxUnpool2d", [["x", [1, 1, 2, 2], "n"], ["indices", [[[[0, 2], [6, 8]]]], "const"]],
       {"kernel_size": 3, "stride": 2, "padding": 1}, "strided"),
    _c("MaxUnpool3d", [["x", [1, 1, 1, 2, 2], "n"], ["indices", [[[[[0, 7], [25, 30]]]]], "const"]],
       {"kernel_size": 2}),
    # MindSpore 2.10's CPU build has no kernel for MatrixDiag/MatrixDiagPart/MatrixSetDiag, LayerNormExt,
    # EmbeddingExt, MaxPool2dExt, AvgPool2dExt, LogSoftmaxExt, L1LossExt: test_oracle_more.py checks those
    # against NumPy.
]


def main():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    path = ROOT / "tests" / "fixtures" / "oracle" / "nn_more.npz"
    with FixtureWriter(path) as w:
        for case in CASES:
            # MindSpore 2.10's image layers only run compiled (their ScalarCast fails in PYNATIVE).
            ms.set_context(mode=ms.GRAPH_MODE if case.get("graph") else ms.PYNATIVE_MODE)
            try:
                record_nn._record(w, case)
            except Exception as e:  # noqa: BLE001 -- a case MindSpore's CPU build cannot run is reported, not kept
                print(f"SKIP {case['id']}: {type(e).__name__}: {str(e)[:300]}")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
