"""Record real MindSpore 2.10's ``mindspore.amp.custom_mixed_precision`` into tests/fixtures/oracle/custom_amp.npz.

Run with the oracle interpreter, from the repository root:

    ../ms-oracle/bin/python tools/oracle/record_custom_amp.py

Three small networks (a Dense-ReLU-Dense MLP, a Dense-BatchNorm1d-Dense net in inference mode, and a Cell that
calls ``ops.MatMul`` / ``ops.Add`` Primitives held as attributes) with fixed weights (stored as the case inputs)
run under white / black lists in float16 (MindSpore's CPU kernels have no bfloat16 MatMul / ReLU); each
case keeps the output (its dtype included) and the float32 output of the unconverted net (``ref``), so a
replay can tell that low precision really happened.
Validation cases record the exception type and message.
"""
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import mindspore as ms  # noqa: E402
from mindspore import Parameter, Tensor, amp, nn, ops  # noqa: E402
from oracle import FixtureWriter  # noqa: E402

ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


class BNNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.bn = nn.BatchNorm1d(8)
        self.fc2 = nn.Dense(8, 3)

    def construct(self, x):
        return self.fc2(self.bn(self.fc1(x)))


class MatNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.add = ops.Add()
        self.w = Parameter(Tensor(np.zeros((4, 3), np.float32)), name="w")
        self.b = Parameter(Tensor(np.zeros((3,), np.float32)), name="b")

    def construct(self, x):
        y = self.matmul(x, self.w)
        return self.add(y, self.b)


NETS = {"mlp": MLP, "bn": BNNet, "mat": MatNet}
# (case, net, list kind, list, dtype)
CASES = [
    ("mlp/white_dense_fp16", "mlp", "white_list", [nn.Dense], ms.float16),
    ("mlp/white_relu_fp16", "mlp", "white_list", [nn.ReLU], ms.float16),
    ("mlp/black_dense_fp16", "mlp", "black_list", [nn.Dense], ms.float16),
    ("mlp/black_relu_fp16", "mlp", "black_list", [nn.ReLU], ms.float16),
    ("bn/white_default_fp16", "bn", "white_list", "white", ms.float16),
    ("bn/black_default_fp16", "bn", "black_list", "black", ms.float16),
    ("bn/black_dense_fp16", "bn", "black_list", [nn.Dense], ms.float16),
    ("mat/white_matmul_fp16", "mat", "white_list", [ops.MatMul], ms.float16),
    ("mat/white_add_fp16", "mat", "white_list", [ops.Add], ms.float16),
]


def _params(net, rng):
    """Fixed values for every Parameter, by name (BatchNorm statistics included)."""
    values = {}
    for p in net.get_parameters():
        v = rng.standard_normal(p.shape).astype(np.float32)
        if "variance" in p.name:
            v = np.abs(v) + 0.5
        p.set_data(Tensor(v))
        values[p.name] = v
    return values


def main():
    rng = np.random.default_rng(0)
    out_path = ROOT / "tests" / "fixtures" / "oracle" / "custom_amp.npz"
    with FixtureWriter(out_path) as w:
        for case_id, net_name, kind, lst, dtype in CASES:
            x = (rng.standard_normal((5, 4)) * 3).astype(np.float32)
            net = NETS[net_name]()
            net.set_train(False)
            values = _params(net, rng)
            ref = net(Tensor(x)).asnumpy()
            if lst == "white":
                lst = amp.get_white_list()
            elif lst == "black":
                lst = amp.get_black_list()
            out = amp.custom_mixed_precision(net, **{kind: lst}, dtype=dtype)
            out.set_train(False)
            try:
                y = out(Tensor(x))
                y_np = y.float().asnumpy()
            except (TypeError, RuntimeError) as err:  # a low-precision kernel MindSpore's CPU lacks: no case
                print(f"{case_id}: not recorded, {str(err).splitlines()[0]}")
                continue
            w.add(case_id, inputs=dict(x=x, **{f"param/{k}": v for k, v in values.items()}),
                  outputs=[y_np, ref], name="amp.custom_mixed_precision", net=net_name,
                  kind=kind, classes=[c.__name__ for c in lst], dtype=str(dtype), out_dtype=str(y.dtype))

        errors = {
            "not_cell": lambda: amp.custom_mixed_precision(lambda x: x, white_list=[nn.Dense]),
            "neither_list": lambda: amp.custom_mixed_precision(MLP()),
            "both_lists": lambda: amp.custom_mixed_precision(MLP(), white_list=[nn.Dense], black_list=[nn.ReLU]),
            "dtype_float32": lambda: amp.custom_mixed_precision(MLP(), white_list=[nn.Dense], dtype=ms.float32),
            "white_tuple": lambda: amp.custom_mixed_precision(MLP(), white_list=(nn.Dense,)),
            "white_instance": lambda: amp.custom_mixed_precision(MLP(), white_list=[nn.Dense(2, 2)]),
            "white_not_cell": lambda: amp.custom_mixed_precision(MLP(), white_list=[int]),
            "black_primitive": lambda: amp.custom_mixed_precision(MLP(), black_list=[ops.MatMul]),
            "black_not_list": lambda: amp.custom_mixed_precision(MLP(), black_list=nn.Dense),
            "positional_list": lambda: amp.custom_mixed_precision(MLP(), [nn.Dense]),
        }
        for name, fn in errors.items():
            try:
                fn()
                w.add(f"error/{name}", name="amp.custom_mixed_precision", error=None)
            except Exception as err:  # noqa: BLE001  (the type and message are what is recorded)
                w.add(f"error/{name}", name="amp.custom_mixed_precision", error=type(err).__name__,
                      message=str(err).splitlines()[0] if str(err) else "")


if __name__ == "__main__":
    main()
