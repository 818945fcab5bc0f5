"""walkb: igamma and igammac (functions, methods, in-place twins) against PyTorch: values
over wide ranges and at the edges, dtypes, the gradient for ``other`` (float64) and PyTorch's
error for ``input``'s; and against mpmath, where microtorch is the closer of the two."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck
from tests.ops.test_issue13_operators import compare

pytestmark = pytest.mark.torch

A = [0.0, 0.0, 1.0, 1.0, -1.0, 1.0, float("inf"), float("inf"), 2.0, 2.0, float("nan"), 0.5]
X = [0.0, 1.0, 0.0, -1.0, 1.0, float("inf"), 1.0, float("inf"), float("inf"), 1e300, 1.0, 0.2]


def a(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([0.5, 1.0, 2.5, 10.0, 30.0, 0.01], **kw)


def x(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([0.2, 1.5, 2.0, 12.0, 25.0, 3.0], **kw).requires_grad_()


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "igamma": lambda L: L.igamma(a(L), x(L)),
    "igamma float64": lambda L: L.igamma(a(L, dtype=L.float64), x(L, dtype=L.float64)),
    "igamma method": lambda L: a(L).igamma(x(L)),
    "igamma broadcast": lambda L: L.igamma(a(L)[:4].reshape(4, 1), L.tensor([0.5, 4.0])),
    "igamma promotes": lambda L: L.igamma(a(L), x(L, dtype=L.float64)),
    "igamma edges": lambda L: L.igamma(L.tensor(A), L.tensor(X)),
    "igamma int": lambda L: L.igamma(L.tensor([1, 2]), L.tensor([1, 2])),
    "igamma number": lambda L: L.igamma(a(L), 2.0),
    "igamma shapes": lambda L: L.igamma(L.ones(2), L.ones(3)),
    "igamma_": lambda L: L.tensor([1.0, 2.0]).igamma_(L.tensor([0.5, 3.0])),
    "igamma out": lambda L: L.igamma(L.ones(2), L.ones(2), out=L.empty(2)),
    "igammac": lambda L: L.igammac(a(L), x(L)),
    "igammac method": lambda L: a(L, dtype=L.float64).igammac(x(L, dtype=L.float64)),
    "igammac edges": lambda L: L.igammac(L.tensor(A), L.tensor(X)),
    "igammac_": lambda L: L.tensor([1.0, 2.0]).igammac_(L.tensor([0.5, 3.0])),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_gradient_for_other(name: str, torch_module: ModuleType) -> None:
    weights = np.linspace(-1.0, 2.0, 6)
    grads = []
    for L in (microtorch, torch_module):
        t = x(L, dtype=L.float64)
        y = getattr(L, name)(a(L, dtype=L.float64), t)
        (y * L.tensor(weights, dtype=L.float64)).sum().backward()
        grads.append((y.grad_fn.name(), t.grad.numpy()))
    assert grads[0][0] == grads[1][0]
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-9)
    fixed = a(microtorch, dtype=microtorch.float64)
    f = getattr(microtorch, name)
    assert gradcheck(lambda v: f(fixed, v), (x(microtorch, dtype=microtorch.float64),))


@pytest.mark.parametrize("name", ["igamma", "igammac"])
def test_no_gradient_for_input(name: str, torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        t = a(L, dtype=L.float64).requires_grad_()
        with pytest.raises(NotImplementedError, match=f"the derivative for '{name}: input' is"):
            getattr(L, name)(t, x(L, dtype=L.float64)).sum().backward()


def test_float64_over_wide_ranges(torch_module: ModuleType) -> None:
    rng = np.random.default_rng(0)
    av = 10 ** rng.uniform(-3, 3, 5000)
    xv = av * 10 ** rng.uniform(-1, 1, 5000)
    for name in ("igamma", "igammac"):
        mine = getattr(microtorch, name)(microtorch.tensor(av), microtorch.tensor(xv)).numpy()
        theirs = getattr(torch_module, name)(torch_module.tensor(av), torch_module.tensor(xv))
        # (PyTorch's own error reaches 2e-9 near a ~ 20: see the mpmath test)
        np.testing.assert_allclose(mine, theirs.numpy(), rtol=5e-9, atol=1e-300)


def test_against_mpmath() -> None:
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 30
    rng = np.random.default_rng(1)
    av = 10 ** rng.uniform(-3, 3, 200)
    xv = av * 10 ** rng.uniform(-1, 1, 200)
    p = microtorch.igamma(microtorch.tensor(av), microtorch.tensor(xv)).numpy()
    q = microtorch.igammac(microtorch.tensor(av), microtorch.tensor(xv)).numpy()
    for u, v, mine_p, mine_q in zip(av, xv, p, q):
        exact_p = float(mpmath.gammainc(u, 0, v, regularized=True))
        exact_q = float(mpmath.gammainc(u, v, mpmath.inf, regularized=True))
        assert abs(mine_p - exact_p) <= 5e-12 * exact_p + 1e-300
        assert abs(mine_q - exact_q) <= 5e-12 * exact_q + 1e-300
