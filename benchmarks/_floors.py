"""Hand-written floors for the training benchmarks: LeNet5, ResNet50 and a deep MLP in plain JAX and in PyTorch.

The JAX floors are what someone would write directly, channels-last: ``lax.conv_general_dilated`` in NHWC/HWIO,
``lax.reduce_window`` for overlapping max pools (reshape + max for LeNet's 2x2 tiles), BatchNorm from batch
statistics with running averages, ``optax.sgd(lr, momentum)`` (= MindSpore's Momentum), one ``jax.jit`` step with
the state donated. They start from the MindSpore network's own weights (``ms_params``: name -> NumPy array).
The PyTorch floors are the usual eager NCHW modules with ``torch.optim.SGD(momentum=0.9)``; ``torch_available()``
is False when torch is not installed (it is never a project dependency).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax import lax

LR, MOMENTUM = 0.01, 0.9
RESNET50_STAGES = ((3, 256, 1), (4, 512, 2), (6, 1024, 2), (3, 2048, 2))  # (blocks, out channels, stride)
# (expansion, out channels, blocks, first stride): ModelZoo's MobileNetV2 at width 1.0
MOBILENETV2_STAGES = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                      (6, 320, 1, 1))


def ms_params(net: Any) -> dict[str, np.ndarray]:
    """``{name: NumPy array}`` of a mindspore_hl Cell (weights the floors start from)."""
    return {name: np.asarray(p.asnumpy()) for name, p in net.parameters_and_names()}


def _hwio(w: np.ndarray) -> jax.Array:
    return jnp.asarray(np.transpose(w, (2, 3, 1, 0)))  # OIHW -> HWIO


# ---- JAX: networks ---------------------------------------------------------------------------------------------
def _conv(x: jax.Array, w: jax.Array, stride: int = 1, padding: str = "SAME") -> jax.Array:
    return lax.conv_general_dilated(x, w, (stride, stride), padding, dimension_numbers=("NHWC", "HWIO", "NHWC"))


def lenet_jax_params(p: dict[str, np.ndarray]) -> tuple[dict[str, jax.Array], dict[str, jax.Array]]:
    """LeNet5 weights for the NHWC floor; fc1 is permuted so an NHWC flatten matches nn.Flatten's NCHW order."""
    fc1 = p["fc1.weight"].reshape(120, 16, 5, 5).transpose(0, 2, 3, 1).reshape(120, 400)
    return {"c1": _hwio(p["conv1.weight"]), "c2": _hwio(p["conv2.weight"]),
            "f1": jnp.asarray(fc1.T), "b1": jnp.asarray(p["fc1.bias"]),
            "f2": jnp.asarray(p["fc2.weight"].T), "b2": jnp.asarray(p["fc2.bias"]),
            "f3": jnp.asarray(p["fc3.weight"].T), "b3": jnp.asarray(p["fc3.bias"])}, {}


def lenet_jax_forward(params: dict[str, jax.Array], stats: dict[str, jax.Array],
                      x: jax.Array) -> tuple[jax.Array, dict[str, jax.Array]]:
    # 2x2 windows tile the input: reshape + max (faster than reduce_window on XLA:CPU)
    def pool(h: jax.Array) -> jax.Array:
        n, hh, ww, c = h.shape
        return h.reshape(n, hh // 2, 2, ww // 2, 2, c).max(axis=(2, 4))
    h = pool(jax.nn.relu(_conv(x, params["c1"], padding="VALID")))
    h = pool(jax.nn.relu(_conv(h, params["c2"], padding="VALID")))
    h = h.reshape(h.shape[0], -1)
    h = jax.nn.relu(h @ params["f1"] + params["b1"])
    h = jax.nn.relu(h @ params["f2"] + params["b2"])
    return h @ params["f3"] + params["b3"], stats


def resnet50_jax_params(p: dict[str, np.ndarray]) -> tuple[dict[str, jax.Array], dict[str, jax.Array]]:
    """(trainable, BatchNorm statistics) of ModelZoo ResNet50 for the NHWC floor, keyed by MindSpore names."""
    params, stats = {}, {}
    for name, v in p.items():
        if name.endswith(("moving_mean", "moving_variance")):
            stats[name] = jnp.asarray(v)
        else:
            params[name] = _hwio(v) if v.ndim == 4 else jnp.asarray(v)
    return params, stats


def _bn(params: dict[str, jax.Array], stats: dict[str, jax.Array], new_stats: dict[str, jax.Array], prefix: str,
        x: jax.Array, eps: float = 1e-4, keep: float = 0.9) -> jax.Array:
    """Training-mode BatchNorm, computed in float32 whatever ``x``'s dtype (as amp O2 keeps it); returns ``x``'s."""
    dtype, x = x.dtype, x.astype(jnp.float32)
    mean = jnp.mean(x, axis=(0, 1, 2))
    var = jnp.mean(jnp.square(x - mean), axis=(0, 1, 2))
    n = x.size // x.shape[-1]
    new_stats[prefix + "moving_mean"] = keep * stats[prefix + "moving_mean"] + (1 - keep) * mean
    new_stats[prefix + "moving_variance"] = keep * stats[prefix + "moving_variance"] + (1 - keep) * var * n / (n - 1)
    scale = lax.rsqrt(var + eps) * params[prefix + "gamma"].astype(jnp.float32)
    return ((x - mean) * scale + params[prefix + "beta"].astype(jnp.float32)).astype(dtype)


def resnet50_jax_forward(params: dict[str, jax.Array], stats: dict[str, jax.Array],
                         x: jax.Array) -> tuple[jax.Array, dict[str, jax.Array]]:
    """ResNet50 v1.5 (stride on the 3x3 convolution), training-mode BatchNorm; returns (logits, new stats)."""
    new: dict[str, jax.Array] = {}
    h = jax.nn.relu(_bn(params, stats, new, "bn1.", _conv(x, params["conv1.weight"], 2)))
    h = lax.reduce_window(h, np.array(-np.inf, h.dtype), lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")
    for s, (blocks, _, stride) in enumerate(RESNET50_STAGES):
        for b in range(blocks):
            pre = f"layer{s + 1}.{b}."
            st = stride if b == 0 else 1
            out = jax.nn.relu(_bn(params, stats, new, pre + "bn1.", _conv(h, params[pre + "conv1.weight"])))
            out = jax.nn.relu(_bn(params, stats, new, pre + "bn2.", _conv(out, params[pre + "conv2.weight"], st)))
            out = _bn(params, stats, new, pre + "bn3.", _conv(out, params[pre + "conv3.weight"]))
            if pre + "down_sample_layer.0.weight" in params:
                h = _bn(params, stats, new, pre + "down_sample_layer.1.",
                        _conv(h, params[pre + "down_sample_layer.0.weight"], st))
            h = jax.nn.relu(out + h)
    h = jnp.mean(h, axis=(1, 2))
    return h @ params["end_point.weight"].T + params["end_point.bias"], new


def mlp_jax_params(p: dict[str, np.ndarray], depth: int) -> tuple[list[tuple[jax.Array, jax.Array]], dict[str, Any]]:
    return [(jnp.asarray(p[f"layers.{i}.weight"].T), jnp.asarray(p[f"layers.{i}.bias"])) for i in range(depth)], {}


def mlp_jax_forward(params: list[tuple[jax.Array, jax.Array]], stats: dict[str, Any],
                    x: jax.Array) -> tuple[jax.Array, dict[str, Any]]:
    for i, (w, b) in enumerate(params):
        x = x @ w + b
        if i < len(params) - 1:
            x = jax.nn.relu(x)
    return x, stats


JAX_NETS = {"lenet5": (lenet_jax_params, lenet_jax_forward), "resnet50": (resnet50_jax_params, resnet50_jax_forward)}


class JaxFloor:
    """One jitted, state-donating train step of ``forward`` (softmax cross-entropy, SGD with momentum).

    Args:
        params, stats: trainable pytree and non-trainable statistics; forward(params, stats, x) -> (logits, stats).
        compute_dtype: mixed precision as usually written in JAX: float32 master weights and optimizer, the
            weights and the input cast to this dtype for the forward (BatchNorm in float32, see ``_bn``), the
            logits back to float32 for the loss. None: float32 throughout.
    """

    def __init__(self, params: Any, stats: Any, forward: Callable[[Any, Any, jax.Array], tuple[jax.Array, Any]],
                 compute_dtype: Any = None) -> None:
        opt = optax.sgd(LR, momentum=MOMENTUM)

        def loss_fn(p: Any, s: Any, x: jax.Array, y: jax.Array) -> tuple[jax.Array, Any]:
            if compute_dtype is not None:
                p, x = jax.tree_util.tree_map(lambda a: a.astype(compute_dtype), (p, x))
            logits, new_stats = forward(p, s, x)
            logits = logits.astype(jnp.float32)
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean(), new_stats

        def step(state: Any, x: jax.Array, y: jax.Array) -> tuple[Any, jax.Array]:
            # JAX's own default precision (TF32 products on GPUs), whatever mindspore_hl set for its ops
            with jax.default_matmul_precision("default"):
                p, s, o = state
                (loss, s), grads = jax.value_and_grad(loss_fn, has_aux=True)(p, s, x, y)
                updates, o = opt.update(grads, o, p)
                return (optax.apply_updates(p, updates), s, o), loss

        self.state = (params, stats, opt.init(params))
        self.jitted: Any = jax.jit(step, donate_argnums=0)  # (callers may swap in the AOT-compiled step)
        self.loss: jax.Array | None = None

    def step(self, x: Any, y: Any) -> None:
        """One train step on the batch ``(x, y)`` (asynchronous: see :meth:`sync`)."""
        self.state, self.loss = self.jitted(self.state, x, y)

    def sync(self) -> None:
        """Wait until the device has finished the steps issued so far."""
        jax.block_until_ready(self.state)

    def memory_bytes(self, x: Any, y: Any) -> int:
        """XLA's peak estimate for one step: arguments + outputs + temporaries (donated buffers counted once)."""
        m: Any = self.jitted.lower(self.state, x, y).compile().memory_analysis()
        return int(m.argument_size_in_bytes + m.output_size_in_bytes - m.alias_size_in_bytes + m.temp_size_in_bytes)


# ---- PyTorch eager ---------------------------------------------------------------------------------------------
def torch_available() -> bool:
    """Whether PyTorch can be imported (it is never a project dependency)."""
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def torch_cuda_available() -> bool:
    """Whether PyTorch is installed with CUDA and sees a GPU."""
    if not torch_available():
        return False
    import torch
    return bool(torch.cuda.is_available())


def _torch_lenet(nn: Any) -> Any:
    return nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5), nn.ReLU(),
                         nn.MaxPool2d(2), nn.Flatten(), nn.Linear(400, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(),
                         nn.Linear(84, 10))


def _torch_resnet50(nn: Any) -> Any:
    def bn(c: int) -> Any:
        return nn.BatchNorm2d(c, eps=1e-4, momentum=0.1)

    class Bottleneck(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int) -> None:
            super().__init__()
            mid = cout // 4
            self.body = nn.Sequential(nn.Conv2d(cin, mid, 1, bias=False), bn(mid), nn.ReLU(),
                                      nn.Conv2d(mid, mid, 3, stride, 1, bias=False), bn(mid), nn.ReLU(),
                                      nn.Conv2d(mid, cout, 1, bias=False), bn(cout))
            self.down = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), bn(cout))
                         if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x: Any) -> Any:
            return (self.body(x) + self.down(x)).relu()

    layers, cin = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), bn(64), nn.ReLU(), nn.MaxPool2d(3, 2, 1)], 64
    for blocks, cout, stride in RESNET50_STAGES:
        for b in range(blocks):
            layers.append(Bottleneck(cin, cout, stride if b == 0 else 1))
            cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(2048, 10)]
    return nn.Sequential(*layers)


def _torch_mobilenetv2(nn: Any) -> Any:
    def conv_bn_relu6(cin: int, cout: int, k: int = 3, stride: int = 1, groups: int = 1) -> list[Any]:
        return [nn.Conv2d(cin, cout, k, stride, (k - 1) // 2, groups=groups, bias=False), nn.BatchNorm2d(cout),
                nn.ReLU6()]

    class InvertedResidual(nn.Module):
        def __init__(self, cin: int, cout: int, stride: int, expansion: int) -> None:
            super().__init__()
            hidden = cin * expansion
            layers = conv_bn_relu6(cin, hidden, 1) if expansion != 1 else []
            layers += conv_bn_relu6(hidden, hidden, 3, stride, groups=hidden)
            self.body = nn.Sequential(*layers, nn.Conv2d(hidden, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.residual = stride == 1 and cin == cout

        def forward(self, x: Any) -> Any:
            return x + self.body(x) if self.residual else self.body(x)

    layers, cin = conv_bn_relu6(3, 32, 3, 2), 32
    for expansion, cout, blocks, stride in MOBILENETV2_STAGES:
        for b in range(blocks):
            layers.append(InvertedResidual(cin, cout, stride if b == 0 else 1, expansion))
            cin = cout
    layers += conv_bn_relu6(cin, 1280, 1) + [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(1280, 10)]
    return nn.Sequential(*layers)


def _torch_mlp(nn: Any, depth: int, width: int) -> Any:
    layers = []
    for i in range(depth):
        layers.append(nn.Linear(width, width))
        if i < depth - 1:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class TorchFloor:
    """PyTorch eager training (float32, default threads): forward, cross-entropy, backward, SGD momentum step.

    Args:
        name: 'lenet5', 'resnet50', 'mobilenetv2' or 'mlp' (with depth/width).
        autocast_bf16: run the forward and the loss under ``torch.autocast(device, dtype=torch.bfloat16)``,
            PyTorch's mixed precision (weights and the optimizer stay float32).
        device: 'cpu', or 'cuda' to train on the GPU as users do: batches stay in pinned host memory and each
            step copies its batch to the GPU (``non_blocking``), as a DataLoader with ``pin_memory=True`` feeds it.
        channels_last: weights and inputs in ``torch.channels_last`` memory format (NHWC), PyTorch's advice for
            convolutions under mixed precision on GPUs.
    """

    def __init__(self, name: str, depth: int = 100, width: int = 128, autocast_bf16: bool = False,
                 device: str = "cpu", channels_last: bool = False) -> None:
        import torch
        from torch import nn
        self.torch = torch
        self.autocast_bf16 = autocast_bf16
        self.device = device
        self.memory_format = torch.channels_last if channels_last else torch.contiguous_format
        torch.manual_seed(0)
        self.net = {"lenet5": lambda: _torch_lenet(nn), "resnet50": lambda: _torch_resnet50(nn),
                    "mobilenetv2": lambda: _torch_mobilenetv2(nn),
                    "mlp": lambda: _torch_mlp(nn, depth, width)}[name]().to(device, memory_format=self.memory_format)
        self.net.train()
        self.opt = torch.optim.SGD(self.net.parameters(), lr=LR, momentum=MOMENTUM)
        self.loss_fn = nn.CrossEntropyLoss()
        self.loss: Any = None

    def convert(self, x: np.ndarray, y: np.ndarray) -> tuple[Any, Any]:
        """NumPy batch -> torch tensors (labels as int64), pinned when training on the GPU."""
        xt, yt = self.torch.from_numpy(np.ascontiguousarray(x)), self.torch.from_numpy(y.astype(np.int64))
        return (xt.pin_memory(), yt.pin_memory()) if self.device != "cpu" else (xt, yt)

    def step(self, x: Any, y: Any) -> None:
        """One eager train step (asynchronous on the GPU: see :meth:`sync`)."""
        if self.device != "cpu":
            x, y = x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)
        x = x.contiguous(memory_format=self.memory_format) if x.dim() == 4 else x
        self.opt.zero_grad(set_to_none=True)
        with self.torch.autocast(self.device, dtype=self.torch.bfloat16, enabled=self.autocast_bf16):
            loss = self.loss_fn(self.net(x), y)
        loss.backward()
        self.opt.step()
        self.loss = loss

    def sync(self) -> None:
        """Wait until the device has finished the steps issued so far (eager CPU ops finish as they return)."""
        if self.device != "cpu":
            self.torch.cuda.synchronize()

