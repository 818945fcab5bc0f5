"""walkg: torch.nn.functional.conv_tbc against PyTorch: values, dtypes, the ConvTbcBackward0
node, float64 gradients of input, weight and bias, finite differences, and errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.walka_harness import compare

pytestmark = pytest.mark.torch

RNG = np.random.default_rng(0)
X, W, B = RNG.normal(size=(6, 2, 3)), RNG.normal(size=(3, 3, 4)), RNG.normal(size=4)


def args(L: ModuleType, dtype: str = "float64", rg: bool = True) -> tuple[Any, Any, Any]:
    kind = getattr(L, dtype)
    return tuple(L.tensor(v, dtype=kind, requires_grad=rg) for v in (X, W, B))  # type: ignore[return-value]


def F(L: ModuleType) -> Any:  # noqa: N802
    return L.nn.functional


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "pad 0": lambda L: F(L).conv_tbc(*args(L)),
    "pad 1": lambda L: F(L).conv_tbc(*args(L), 1),
    "pad 3 keyword": lambda L: F(L).conv_tbc(*args(L), pad=3),
    "float32": lambda L: F(L).conv_tbc(*args(L, "float32", False), 2),
    "kernel 1": lambda L: F(L).conv_tbc(args(L)[0], args(L)[1][:1], args(L)[2]),
    "empty time": lambda L: F(L).conv_tbc(args(L)[0][:2], *args(L)[1:]),
    "no grad": lambda L: F(L).conv_tbc(*args(L, rg=False)),
    # errors
    "2-d input": lambda L: F(L).conv_tbc(args(L)[0][0], *args(L)[1:]),
    "2-d weight": lambda L: F(L).conv_tbc(args(L)[0], args(L)[1][0], args(L)[2]),
    "bias size": lambda L: F(L).conv_tbc(*args(L)[:2], args(L)[2][:3]),
    "channels": lambda L: F(L).conv_tbc(args(L)[0], args(L)[1][:, :2], args(L)[2]),
    "bias None": lambda L: F(L).conv_tbc(*args(L)[:2], None),
    "time too short": lambda L: F(L).conv_tbc(args(L)[0][:1], *args(L)[1:]),
    "dtypes": lambda L: F(L).conv_tbc(args(L)[0], *args(L, "float32")[1:]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


@pytest.mark.parametrize("pad", [0, 1, 2])
def test_float64_gradients(pad: int, torch_module: ModuleType) -> None:
    grads = []
    for L in (microtorch, torch_module):
        x, w, b = args(L)
        y = F(L).conv_tbc(x, w, b, pad)
        (y * L.tensor(np.linspace(-1, 2, y.numel()).reshape(tuple(y.shape)))).sum().backward()
        grads.append([t.grad.numpy() for t in (x, w, b)])
    for m, t in zip(*grads):
        np.testing.assert_allclose(m, t, rtol=1e-12, atol=1e-13)


def test_finite_differences() -> None:
    x, w, b = args(microtorch)
    assert microtorch.autograd.gradcheck(
        lambda a, c, d: microtorch.nn.functional.conv_tbc(a, c, d, 1), (x, w, b)
    )
