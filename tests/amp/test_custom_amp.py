"""``amp.custom_mixed_precision`` replayed against real MindSpore 2.10 (tests/fixtures/oracle/custom_amp.npz,
recorded by tools/oracle/record_custom_amp.py): outputs and their dtype under white / black lists, and the
validation errors with MindSpore's messages."""
import copy

import numpy as np
import pytest

import mindspore_hl as ms
from mindspore_hl import Parameter, Tensor, amp, nn, ops
from tests.oracle import assert_close, case_params

FIXTURE = "custom_amp.npz"


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
        return self.add(self.matmul(x, self.w), self.b)


NETS = {"mlp": MLP, "bn": BNNet, "mat": MatNet}
CLASSES = {"Dense": nn.Dense, "ReLU": nn.ReLU, "BatchNorm1d": nn.BatchNorm1d, "MatMul": ops.MatMul, "Add": ops.Add}
CASES = case_params(FIXTURE)


def _classes(meta):
    if meta["kind"] == "white_list" and "GRUCell" in meta["classes"]:
        return amp.get_white_list()
    if meta["kind"] == "black_list" and "LayerNorm" in meta["classes"]:
        return amp.get_black_list()
    return [CLASSES[name] for name in meta["classes"]]


@pytest.mark.parametrize("case", [c for c in CASES if not c.values[0].id.startswith("error/")])
def test_custom_mixed_precision_outputs(case):
    meta = case.meta
    net = NETS[meta["net"]]()
    net.set_train(False)
    params = {p.name: p for p in net.get_parameters()}
    for key, value in case.inputs.items():
        if key.startswith("param/"):
            params[key[len("param/"):]].set_data(Tensor(value))
    x = Tensor(case.inputs["x"])
    assert_close(net(x), case.outputs[1], what="float32 reference")
    low = ms.float16 if meta["dtype"] == "Float16" else ms.bfloat16
    out = amp.custom_mixed_precision(net, **{meta["kind"]: _classes(meta)}, dtype=low)
    out.set_train(False)
    y = out(x)
    assert str(y.dtype) == meta["out_dtype"]
    # Compare in float16 ulps of the recorded value: low precision moves MindSpore's output 2-13 ulps away from
    # the float32 one, the replay lands within 2 ulps of it. Exception: a float16 BatchNorm feeding a float32
    # Dense (bn/black_dense_fp16) -- MindSpore's CPU BatchNorm kernel rounds its float16 result differently
    # (no float16 model of it reproduces it to < 5 ulps), so there only the dtype and a 32-ulp bound are checked.
    rec, ref = case.outputs
    ulp = np.spacing(np.abs(rec).astype(np.float16)).astype(np.float32)
    assert (np.abs(ref - rec) / ulp).max() >= 2
    bound = 32 if case.id == "bn/black_dense_fp16" else 2
    assert_close(y, rec, rtol=0, atol=float(ulp.max()) * bound)
    assert (np.abs(y.asnumpy() - rec) / ulp).max() <= bound


def _call(name):
    calls = {
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
    return calls[name]


# Messages that embed a class's repr differ by module path; the rest match MindSpore's text.
_REPR_IN_MESSAGE = {"white_instance", "black_primitive"}


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].id.startswith("error/")])
def test_custom_mixed_precision_errors(case):
    name = case.id.split("/", 1)[1]
    with pytest.raises(Exception) as info:
        _call(name)()
    assert type(info.value).__name__ == case.error
    message = str(info.value)
    if name in _REPR_IN_MESSAGE:
        assert message.split(", but got")[0] == case.meta["message"].split(", but got")[0]
    elif name != "positional_list":
        assert message == case.meta["message"]


def test_white_listed_primitive_keeps_its_attributes():
    net = MatNet()
    net.matmul = ops.MatMul(transpose_b=True)
    amp.custom_mixed_precision(net, white_list=[ops.MatMul])
    assert isinstance(net.matmul, ops.Primitive) and net.matmul.transpose_b is True
    copied = copy.deepcopy(net.matmul)
    a, b = Tensor(np.ones((2, 4), np.float32)), Tensor(np.ones((3, 4), np.float32))
    assert copied.transpose_b is True and copied(a, b).dtype == ms.float32
    assert np.array_equal(copied(a, b).asnumpy(), np.full((2, 3), 4, np.float32))
