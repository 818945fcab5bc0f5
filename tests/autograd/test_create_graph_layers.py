"""create_graph=True through the layers tests/nn/cases.py leaves out: pooling, convolution,
normalization, padding and the other activations and losses, against torch 2.13 in float64.

For each case, the gradient of ``out`` by ``x`` against an upstream gradient ``v`` that
requires grad is taken with create_graph=True; its recorded nodes (two levels) must be
torch's, and its values and its derivatives by ``x`` and by ``v`` torch's (celu's first
derivative for an alpha that float32 does not hold exactly, too: PyTorch's backward rounds it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import microtorch

torch = pytest.importorskip("torch")

_rng = np.random.default_rng(0)
X = _rng.standard_normal((2, 3, 6, 6))
W = _rng.standard_normal((4, 3, 3, 3))
W1 = _rng.standard_normal((4, 3, 3))


def _f(lib: Any) -> Any:
    return lib.nn.functional


def _c(lib: Any, a: Any) -> Any:
    return lib.tensor(a, dtype=lib.float64)


def _conv_module(lib: Any) -> Any:
    m = lib.nn.Conv2d(3, 2, 3).double()
    with lib.no_grad():
        m.weight.copy_(_c(lib, W[:2]))
        m.bias.copy_(_c(lib, [0.1, -0.2]))
    return m


CASES = {
    "max_pool2d": lambda L, x: _f(L).max_pool2d(x, 2),
    "max_pool2d_overlap": lambda L, x: _f(L).max_pool2d(x, 3, stride=1, padding=1),
    "max_pool2d_ceil": lambda L, x: _f(L).max_pool2d(x, 4, stride=3, ceil_mode=True),
    "max_pool2d_dilation": lambda L, x: _f(L).max_pool2d(x, 2, dilation=2),
    "max_pool2d_unbatched": lambda L, x: _f(L).max_pool2d(x[0], 2),
    "max_pool2d_module": lambda L, x: L.nn.MaxPool2d(2)(x) * x[:, :, ::2, ::2],
    "avg_pool2d": lambda L, x: _f(L).avg_pool2d(x, 2) ** 2,
    "avg_pool2d_padding": lambda L, x: _f(L).avg_pool2d(
        x, 3, stride=2, padding=1, count_include_pad=False
    ),
    "adaptive_avg_pool2d": lambda L, x: _f(L).adaptive_avg_pool2d(x, (4, 3)) ** 2,
    "conv2d": lambda L, x: _f(L).conv2d(x, _c(L, W), padding=1) ** 2,
    "conv2d_same_even": lambda L, x: _f(L).conv2d(x, _c(L, W[:, :, :2, :2]), padding="same"),
    "conv2d_weight": lambda L, x: _f(L).conv2d(_c(L, X), x[:, :, :3, :3].repeat(2, 1, 1, 1)) ** 2,
    "conv2d_both": lambda L, x: (
        _f(L).conv2d(x, x[:2, :, 1:4, 2:5] * 1, _c(L, [0.5, -1.0]), stride=2, padding=1) ** 2
    ),
    "conv2d_groups": lambda L, x: (
        _f(L).conv2d(x, x[:1].repeat(3, 1, 1, 1)[:, :1, 1:4, 2:5], groups=3, dilation=2) ** 2
    ),
    "conv1d": lambda L, x: _f(L).conv1d(x[:, :, 0], _c(L, W1), stride=2) ** 2,
    "conv2d_module": lambda L, x: _conv_module(L)(x) ** 2,
    "layer_norm": lambda L, x: _f(L).layer_norm(x, (6,)),
    "layer_norm_affine": lambda L, x: _f(L).layer_norm(x, (6, 6), x[0, 0] * 1, x[1, 1] * 1),
    "batch_norm": lambda L, x: _f(L).batch_norm(x, None, None, training=True),
    "batch_norm_module": lambda L, x: L.nn.BatchNorm2d(3).double()(x),
    "batch_norm_eval": lambda L, x: (
        _f(L).batch_norm(
            x, _c(L, [0.1, 0.2, 0.3]), _c(L, [1.0, 2.0, 0.5]), x[0, :, 0, 0] * 1, training=False
        )
        ** 2
    ),
    "huber_loss": lambda L, x: _f(L).huber_loss(x, L.zeros_like(x), delta=0.5),
    "smooth_l1_loss": lambda L, x: _f(L).smooth_l1_loss(x, _c(L, X[::-1].copy()), beta=0.7),
    "elu": lambda L, x: _f(L).elu(x),
    "celu": lambda L, x: _f(L).celu(x, 0.7),
    "selu": lambda L, x: _f(L).selu(x),
    "softplus": lambda L, x: _f(L).softplus(x, beta=2.0),
    "hardtanh": lambda L, x: _f(L).hardtanh(x, -0.5, 0.5) * x,
    "relu6": lambda L, x: _f(L).relu6(x * 4) * x,
    "hardswish": lambda L, x: _f(L).hardswish(x * 3),
    "logsigmoid": lambda L, x: _f(L).logsigmoid(x),
    "prelu": lambda L, x: _f(L).prelu(x, _c(L, [0.1, 0.2, 0.3])) * x,
    "prelu_weight": lambda L, x: _f(L).prelu(_c(L, X), x[0, :, 0, 0] * 1) ** 2,
    "gelu": lambda L, x: _f(L).gelu(x),  # (erf inside its formula: recorded as torch.erf)
    "gelu_tanh": lambda L, x: _f(L).gelu(x, approximate="tanh"),
    "mish": lambda L, x: _f(L).mish(x),
    "upsample_nearest": lambda L, x: L.nn.Upsample(scale_factor=2)(x) ** 2,
}

# What differs, and why: microtorch's formula records the ops it is written with, where
# PyTorch's C++ formula records others (values are equal: checked below all the same)
NAME_DIFFERENCES = {
    "conv2d_same_even": "the crop of padding='same' records a slice and a copy; PyTorch "
    "pads its gradient by negative amounts (ConstantPadNdBackward0)",
    "conv2d_weight": "repeat's formula: reshape then sum (ViewBackward0); PyTorch's sum, view",
    "conv2d_groups": "as conv2d_weight",
    "layer_norm": "NativeLayerNormBackwardBackward0: PyTorch's has edges for weight=None and "
    "bias=None, microtorch's node none for an input left out",
    "batch_norm": "NativeBatchNormBackwardBackward0: PyTorch's has an edge for weight=None",
}


def _tree(fn: Any, depth: int) -> Any:
    if fn is None or depth == 0:
        return None if fn is None else fn.name()
    return (fn.name(), tuple(_tree(f, depth - 1) for f, _ in fn.next_functions))


def _run(lib: Any, name: str) -> tuple[Any, list[Any]]:
    lib.manual_seed(0)
    x = lib.tensor(X, dtype=lib.float64, requires_grad=True)
    out = CASES[name](lib, x)
    rng = np.random.default_rng(1)
    v = lib.tensor(rng.standard_normal(tuple(out.shape)), dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(out, x, v, create_graph=True)
    names = (g.requires_grad, _tree(g.grad_fn, 2))
    w = lib.tensor(rng.standard_normal(tuple(g.shape)), dtype=lib.float64)
    second = lib.autograd.grad((g * w).sum(), [x, v], allow_unused=True)
    return names, [None if h is None else np.array(h.detach().numpy()) for h in (g, *second)]


@pytest.mark.filterwarnings("ignore:Using padding='same'")  # (both warn, as they should)
@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivative_through_layers_matches_torch(name: str) -> None:
    theirs, mine = _run(torch, name), _run(microtorch, name)
    for m, t, shape in zip(mine[1], theirs[1], [X.shape, X.shape, None]):
        shape = shape or (t if t is not None else m).shape
        m = np.zeros(shape) if m is None else m
        t = np.zeros(shape) if t is None else t
        np.testing.assert_allclose(m, t, rtol=1e-10, atol=1e-12)
    if name in NAME_DIFFERENCES:
        assert mine[0] != theirs[0] and mine[0][0] == theirs[0][0]  # (fixed? off the list)
    else:
        assert mine[0] == theirs[0]


def _hardsigmoid(lib: Any) -> Any:
    x = lib.tensor([-4.0, -1.0, 0.5, 3.5], dtype=lib.float64, requires_grad=True)
    (g,) = lib.autograd.grad(_f(lib).hardsigmoid(x).sum(), x, create_graph=True)
    with pytest.raises(RuntimeError) as info:
        lib.autograd.grad(g.sum(), x)
    return g.grad_fn.name(), str(info.value).splitlines()[0], g.detach().numpy().tolist()


def test_hardsigmoid_has_no_second_derivative_as_in_torch() -> None:
    assert _hardsigmoid(microtorch) == _hardsigmoid(torch)


def _leaky_relu_changed(lib: Any, inplace: bool) -> str:
    # leaky_relu saves its input (leaky_relu_ its result), as PyTorch's: changed, it raises
    x = lib.tensor([1.0, -2.0], requires_grad=True)
    a = x * 1
    y = _f(lib).leaky_relu(a, 0.1, inplace=inplace)
    a.mul_(2)
    with pytest.raises(RuntimeError) as info:
        y.sum().backward()
    return str(info.value).split(", is at version")[0].replace("microtorch.", "torch.")


@pytest.mark.parametrize("inplace", [False, True])
def test_leaky_relu_saves_what_torch_saves(inplace: bool) -> None:
    assert _leaky_relu_changed(microtorch, inplace) == _leaky_relu_changed(torch, inplace)
