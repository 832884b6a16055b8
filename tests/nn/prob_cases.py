"""Distribution and bijector cases shared by tools/oracle/record_nn_probability.py and
tests/nn/test_oracle_probability.py (plain data)."""

METHODS = ["prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival"]
STATS = ["mean", "var", "sd", "mode", "entropy"]

DISTRIBUTIONS = [
    ("Normal", {"mean": [0.5, -1.0], "sd": [1.5, 0.7]}, [[0.2, -1.3], [2.0, 0.0]],
     {"mean": [0.0, 1.0], "sd": [1.0, 2.0]}),
    ("Uniform", {"low": [0.0, -1.0], "high": [2.0, 3.0]}, [[0.5, 1.0], [1.9, -0.5]],
     {"low": [-1.0, -2.0], "high": [3.0, 4.0]}),
    ("Exponential", {"rate": [0.5, 2.0]}, [[0.3, 1.2], [2.0, 0.1]], {"rate": [1.0, 0.7]}),
    ("Gamma", {"concentration": [2.0, 3.5], "rate": [1.5, 0.5]}, [[0.3, 1.2], [2.0, 4.0]],
     {"concentration": [1.5, 2.0], "rate": [1.0, 1.0]}),
    ("Beta", {"concentration1": [2.0, 0.8], "concentration0": [3.0, 1.5]}, [[0.3, 0.6], [0.9, 0.1]], None),
    ("Poisson", {"rate": [0.5, 3.0]}, [[0.0, 2.0], [3.0, 5.0]], None),
    ("Geometric", {"probs": [0.3, 0.7]}, [[0.0, 2.0], [3.0, 1.0]], {"probs": [0.5, 0.2]}),
    ("Bernoulli", {"probs": [0.3, 0.8]}, [[0.0, 1.0], [1.0, 0.0]], {"probs": [0.5, 0.6]}),
    ("LogNormal", {"loc": [0.2, -0.5], "scale": [0.8, 1.2]}, [[0.5, 1.5], [2.0, 0.3]],
     {"loc": [0.0, 0.0], "scale": [1.0, 1.0]}),
    ("Gumbel", {"loc": [0.5, -1.0], "scale": [1.5, 0.7]}, [[0.2, -1.3], [2.0, 0.0]], None),
    ("Logistic", {"loc": [0.5, -1.0], "scale": [1.5, 0.7]}, [[0.2, -1.3], [2.0, 0.0]], None),
    ("Cauchy", {"loc": [0.5, -1.0], "scale": [1.5, 0.7]}, [[0.2, -1.3], [2.0, 0.0]],
     {"loc": [0.0, 1.0], "scale": [1.0, 2.0]}),
    ("HalfNormal", {"mean": [0.0, 0.5], "sd": [1.5, 0.7]}, [[0.2, 1.3], [2.0, 0.6]], None),
    ("Laplace", {"mean": [0.5, -1.0], "sd": [1.5, 0.7]}, [[0.2, -1.3], [2.0, 0.0]], None),
    ("StudentT", {"df": [3.0, 5.0], "mean": [0.5, -1.0], "sd": [1.5, 0.7]}, [[0.2, -1.3], [2.0, 0.0]], None),
    ("Categorical", {"probs": [0.2, 0.5, 0.3]}, [[0.0, 2.0], [1.0, 1.0]], {"probs": [0.4, 0.4, 0.2]}),
]

BIJECTORS = [
    ("Exp", {}, [0.5, -1.0, 2.0]), ("PowerTransform", {"power": 0.5}, [0.5, 1.0, 2.0]),
    ("ScalarAffine", {"scale": 2.0, "shift": -1.0}, [0.5, -1.0, 2.0]),
    ("Softplus", {"sharpness": 2.0}, [0.5, 1.0, 2.0]),
    ("GumbelCDF", {"loc": 0.5, "scale": 2.0}, [0.2, 0.5, 0.9]),
]
