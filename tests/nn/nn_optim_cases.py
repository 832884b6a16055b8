"""Optimizer cases recorded by tools/oracle/record_nn_optim.py and replayed by test_oracle_optim.py (NumPy only)."""
import numpy as np


def decode(kwargs):
    return {k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}


def data(case):
    """Seeded initial values of fc.weight / fc.bias and three steps of gradients."""
    rng = np.random.default_rng(case.get("seed", 0))
    init = {"fc.weight": rng.standard_normal((3, 4)).astype(np.float32),
            "fc.bias": rng.standard_normal(4).astype(np.float32)}
    grads = [[rng.standard_normal(v.shape).astype(np.float32) for v in init.values()] for _ in range(3)]
    return init, grads


def _c(cls, kwargs=None, tag="default"):
    return dict(id=f"{cls}/{tag}", cls=cls, kwargs=kwargs or {})


CASES = [
    _c("Momentum", {"learning_rate": 0.1, "momentum": 0.9}),
    # (Nesterov: MindSpore 2.10's CPU kernel uses the accumulation from before the step, unlike its documented
    # formula and its GPU/Ascend kernels; the documented formula is kept and tested in tests/nn/optim.)
    _c("Momentum", {"learning_rate": [0.1, 0.05, 0.02], "momentum": 0.8, "weight_decay": 0.01}, "list_wd"),
    _c("RMSProp", {"learning_rate": 0.01, "momentum": 0.5}),
    _c("Adagrad", {"learning_rate": 0.1}),
    _c("Adam", {"learning_rate": 0.01}),
    _c("Adadelta", {"learning_rate": 0.5}), _c("Adadelta", {"learning_rate": 1.0, "rho": 0.8, "epsilon": 1e-4,
                                                            "weight_decay": 0.1}, "rho"),
    _c("AdaMax", {"learning_rate": 0.01}), _c("AdaMax", {"learning_rate": 0.02, "beta1": 0.8, "beta2": 0.9,
                                                         "eps": 1e-6}, "betas"),
    _c("FTRL", {"learning_rate": 0.1}), _c("FTRL", {"learning_rate": 0.05, "initial_accum": 0.2}, "accum"),
    _c("ProximalAdagrad", {"learning_rate": 0.1}), _c("ProximalAdagrad", {"learning_rate": 0.1, "l1": 0.05,
                                                                          "l2": 0.1, "accum": 0.3}, "l1l2"),
    _c("Rprop", {"learning_rate": 0.1}), _c("Rprop", {"learning_rate": 0.05, "etas": [0.3, 1.5],
                                                      "step_sizes": [0.01, 0.1]}, "etas"),
    _c("ASGD", {"learning_rate": 0.1}), _c("ASGD", {"learning_rate": 0.05, "lambd": 0.01, "alpha": 0.5,
                                                    "t0": 1.0}, "t0"),
    _c("LazyAdam", {"learning_rate": 0.01}),
]

# PyTorch-style optimizers (experimental.optim; mod='mint.optim' for mint's).
TORCH_STYLE = [
    _c("SGD", {"lr": 0.1}), _c("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01},
                               "momentum"),
    _c("SGD", {"lr": 0.05, "momentum": 0.8, "nesterov": True, "maximize": True}, "nesterov_max"),
    _c("Adam", {"lr": 0.01}), _c("Adam", {"lr": 0.01, "weight_decay": 0.1, "amsgrad": True}, "amsgrad_wd"),
    _c("AdamW", {"lr": 0.01}), _c("AdamW", {"lr": 0.02, "betas": [0.8, 0.9], "amsgrad": True}, "amsgrad"),
    _c("Adamax", {"lr": 0.01}), _c("Adadelta", {"lr": 1.0, "weight_decay": 0.1}),
    _c("Adagrad", {"lr": 0.1, "lr_decay": 0.1, "initial_accumulator_value": 0.2}),
    _c("RAdam", {"lr": 0.01}), _c("RAdam", {"lr": 0.01, "betas": [0.5, 0.6], "weight_decay": 0.1}, "rectified"),
    _c("NAdam", {"lr": 0.01}), _c("NAdam", {"lr": 0.02, "momentum_decay": 0.1, "weight_decay": 0.05}, "decay"),
    dict(_c("Adam", {"lr": 0.01}, "mint"), mod="mint.optim"), dict(_c("SGD", {"lr": 0.1, "momentum": 0.9}, "mint"),
                                                                   mod="mint.optim"),
    # (mint.optim.FusedAdamW: no CPU kernel in MindSpore 2.10; here it is AdamW.)
]
