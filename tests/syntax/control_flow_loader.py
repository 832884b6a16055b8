"""Load ``control_flow_corpus.py`` against a framework (mindspore_hl here, real MindSpore in the oracle
recorder), and the one convention both sides use to flatten results into a list of NumPy arrays."""
import importlib.util
import pathlib
import sys

import numpy as np

CORPUS = pathlib.Path(__file__).resolve().parent / "control_flow_corpus.py"


def load(framework):
    """The corpus module with ``ms``/``nn``/``ops``/``Tensor``/``Parameter`` taken from ``framework``."""
    name = f"control_flow_corpus_{framework.__name__}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, CORPUS)
    module = importlib.util.module_from_spec(spec)
    module.ms, module.nn, module.ops = framework, framework.nn, framework.ops
    module.Tensor, module.Parameter = framework.Tensor, framework.Parameter
    sys.modules[name] = module  # inspect (both frameworks read the source) looks classes up here
    spec.loader.exec_module(module)
    return module


def flat(value):
    """Every Tensor in a (nested) tuple/list as NumPy arrays, in order."""
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flat(v)]
    return [np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)]


def float_positions(inputs):
    return tuple(i for i, v in enumerate(inputs.values()) if np.asarray(v).dtype.kind == "f")
