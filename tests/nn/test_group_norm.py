"""``GroupNorm`` and ``F.group_norm`` against PyTorch 2.13: values, graphs, gradients (input,
weight, bias), float64 finite differences and second derivatives, reprs, errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
import microtorch.nn.functional as F
from microtorch.autograd import gradcheck, gradgradcheck
from tests.nn.layer_parity import compare_call, compare_layer, error_of

RNG = np.random.default_rng(17)
X4 = (RNG.standard_normal((3, 6, 4, 5)) * 2 + 1).astype(np.float32)
X3 = RNG.standard_normal((2, 4, 7)).astype(np.float32)
X2 = RNG.standard_normal((5, 6)).astype(np.float32)
W6 = RNG.standard_normal(6).astype(np.float32)

LAYERS: dict[str, tuple[Callable[[ModuleType], Any], np.ndarray]] = {
    "4d_three_groups": (lambda L: L.nn.GroupNorm(3, 6), X4),
    "4d_one_group": (lambda L: L.nn.GroupNorm(1, 6, eps=1e-3), X4),
    "4d_one_channel_per_group": (lambda L: L.nn.GroupNorm(6, 6), X4),
    "3d_no_affine": (lambda L: L.nn.GroupNorm(2, 4, affine=False), X3),
    "2d_no_bias": (lambda L: L.nn.GroupNorm(2, 6, bias=False), X2),
    "float64": (lambda L: L.nn.GroupNorm(2, 4, dtype=L.float64), X3.astype(np.float64)),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_group_norm_layer_matches_torch(torch_module: ModuleType, name: str) -> None:
    make, x = LAYERS[name]

    def trained(lib: ModuleType) -> Any:  # weights away from 1 and 0, so they matter
        layer = make(lib)
        with lib.no_grad():
            for p in layer.parameters():
                p.copy_(lib.tensor(np.linspace(-1.5, 2, p.numel()).astype(x.dtype)))
        return layer

    compare_layer(torch_module, trained, x, steps=2)
    compare_layer(torch_module, make, x)  # (the initial weights: ones and zeros)


def test_group_norm_functional_matches_torch(torch_module: ModuleType) -> None:
    compare_call(torch_module, lambda L, x: L.nn.functional.group_norm(x, 2), X4)
    compare_call(
        torch_module,
        lambda L, x: L.nn.functional.group_norm(x, 3, L.tensor(W6), L.tensor(W6 * 0.5), 1e-2),
        X2,
    )
    compare_call(torch_module, lambda L, x: L.nn.functional.group_norm(x, 3, bias=L.tensor(W6)), X2)


def test_group_norm_finite_differences() -> None:
    x = microtorch.tensor(RNG.standard_normal((2, 6, 3)), requires_grad=True)
    w = microtorch.tensor(RNG.standard_normal(6), requires_grad=True)
    b = microtorch.tensor(RNG.standard_normal(6), requires_grad=True)
    assert gradcheck(lambda x, w, b: F.group_norm(x, 3, w, b), (x, w, b))
    assert gradgradcheck(lambda x, w, b: F.group_norm(x, 3, w, b), (x, w, b))
    assert gradgradcheck(lambda x: F.group_norm(x, 2), (x,))


def test_group_norm_second_derivative_matches_torch(torch_module: ModuleType) -> None:
    results = []
    for lib in (microtorch, torch_module):
        x = lib.tensor(X3.astype(np.float64), requires_grad=True)
        w = lib.tensor(np.linspace(0.5, 2, 4), requires_grad=True)
        out = lib.nn.functional.group_norm(x, 2, w)
        up = lib.tensor(np.random.default_rng(3).standard_normal(tuple(out.shape)))
        gx, gw = lib.autograd.grad((out * up).sum(), (x, w), create_graph=True)
        hx, hw = lib.autograd.grad((gx * gx).sum() + (gw * gw).sum(), (x, w))
        results.append([t.detach().numpy() for t in (gx, gw, hx, hw)])
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-10)


ERRORS: dict[str, Callable[[ModuleType], Any]] = {
    "channels_not_divisible_module": lambda L: L.nn.GroupNorm(4, 6),
    "channels_not_divisible": lambda L: L.nn.functional.group_norm(L.ones(2, 5, 3), 2),
    "one_dimension": lambda L: L.nn.functional.group_norm(L.ones(6), 2),
    "one_value_per_group": lambda L: L.nn.functional.group_norm(L.ones(1, 2), 2),
    "weight_size": lambda L: L.nn.functional.group_norm(L.ones(2, 6), 2, L.ones(3)),
    "bias_size": lambda L: L.nn.functional.group_norm(L.ones(2, 6), 2, None, L.ones(2, 3)),
    "bias_size_with_weight": lambda L: L.nn.functional.group_norm(
        L.ones(2, 6), 2, L.ones(6), L.ones(3)
    ),
    "integer_input": lambda L: L.nn.functional.group_norm(L.ones(2, 6, dtype=L.int64), 2),
    "input_size_vs_layer": lambda L: L.nn.GroupNorm(2, 4)(L.ones(2, 6, 3)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_group_norm_errors_match_torch(torch_module: ModuleType, name: str) -> None:
    theirs = error_of(lambda: ERRORS[name](torch_module))
    assert theirs[0] != "no error"
    assert error_of(lambda: ERRORS[name](microtorch)) == theirs
