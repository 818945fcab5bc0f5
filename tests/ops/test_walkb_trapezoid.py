"""walkb: trapezoid, trapz and cumulative_trapezoid against PyTorch: values, dtypes, grad_fn
names (composed as PyTorch composes them), float64 gradients and errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import compare

pytestmark = pytest.mark.torch


def y(L: ModuleType) -> Any:
    return L.tensor(
        [[1.0, 3.0, 6.0, 10.0], [0.5, -1.0, 2.0, 0.0]], dtype=L.float64
    ).requires_grad_()


def pts(L: ModuleType) -> Any:
    return L.tensor([0.0, 1.0, 3.0, 4.5], dtype=L.float64)


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "trapezoid": lambda L: L.trapezoid(y(L)),
    "trapezoid dx": lambda L: L.trapezoid(y(L), dx=2.0),
    "trapezoid dim": lambda L: L.trapezoid(y(L), dim=0),
    "trapezoid x": lambda L: L.trapezoid(y(L), pts(L)),
    "trapezoid x 2-d": lambda L: L.trapezoid(y(L), pts(L).expand(2, 4) * 2),
    "trapezoid int": lambda L: L.trapezoid(L.tensor([1, 2, 3])),
    "trapezoid float32": lambda L: L.trapezoid(L.arange(5.0) ** 2),
    "trapezoid 0-d": lambda L: L.trapezoid(L.tensor(1.0)),
    "trapezoid one point": lambda L: L.trapezoid(L.tensor([2.0])),
    "trapz": lambda L: L.trapz(y(L)),
    "trapz dx": lambda L: L.trapz(y(L), dx=0.5),
    "trapz x": lambda L: L.trapz(y(L), pts(L)),
    "cumulative_trapezoid": lambda L: L.cumulative_trapezoid(y(L)),
    "cumulative_trapezoid dx": lambda L: L.cumulative_trapezoid(y(L), dx=2.0),
    "cumulative_trapezoid x": lambda L: L.cumulative_trapezoid(y(L), pts(L)),
    "cumulative_trapezoid dim": lambda L: L.cumulative_trapezoid(y(L), dim=0),
    "cumulative_trapezoid int": lambda L: L.cumulative_trapezoid(L.tensor([1, 2, 3])),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRADS: dict[str, Callable[[ModuleType, Any], Any]] = {
    "trapezoid": lambda L, t: L.trapezoid(t),
    "trapezoid dx": lambda L, t: L.trapezoid(t, dx=2.0),
    "trapezoid x": lambda L, t: L.trapezoid(t, pts(L)),
    "cumulative_trapezoid": lambda L, t: L.cumulative_trapezoid(t),
    "cumulative_trapezoid x": lambda L, t: L.cumulative_trapezoid(t, pts(L)),
}


@pytest.mark.parametrize("case", list(GRADS))
def test_float64_gradients(case: str, torch_module: ModuleType) -> None:
    grads = []
    for L in (microtorch, torch_module):
        t = y(L)
        r = GRADS[case](L, t)
        weights = np.linspace(-1.0, 2.0, r.numel()).reshape(tuple(r.shape))
        (r * L.tensor(weights, dtype=L.float64)).sum().backward()
        grads.append(t.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12)
