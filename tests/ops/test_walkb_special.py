"""walkb: i0 (function, method, in-place), torch.special's i0, i0e, i1, i1e, ndtri, log_ndtr
and erfcx, against PyTorch: values over wide ranges and at the edges, dtypes for int and bool
inputs, float64 gradients with grad_fn names.
"""

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

EDGES = [0.0, -0.0, float("inf"), -float("inf"), float("nan"), 1e-300, -1e-30, 35.0, -40.0]


def x(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([0.25, -0.5, 1.5, 2.0, -7.25, 30.0, 45.0, -3.0], **kw).requires_grad_()


def p(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([0.25, 0.5, 0.01, 0.999, 1e-10, 0.75], **kw).requires_grad_()


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "i0": lambda L: L.i0(x(L)),
    "i0 method": lambda L: x(L, dtype=L.float64).i0(),
    "i0 int": lambda L: L.i0(L.arange(-2, 4)),
    "i0 bool": lambda L: L.tensor([True, False]).i0(),
    "i0 edges": lambda L: L.i0(L.tensor(EDGES + [713.0, -720.0], dtype=L.float64)),
    "i0_": lambda L: L.i0_(L.tensor([0.5, 3.0])),
    "i0_ method": lambda L: L.tensor([0.5, 3.0]).i0_(),
    "i0_ int": lambda L: L.arange(3).i0_(),
    "special.i0": lambda L: L.special.i0(x(L)),
    "i0e": lambda L: L.special.i0e(x(L)),
    "i0e edges": lambda L: L.special.i0e(L.tensor(EDGES, dtype=L.float64)),
    "i0e int": lambda L: L.special.i0e(L.arange(3)),
    "i1": lambda L: L.special.i1(x(L, dtype=L.float64)),
    "i1 edges": lambda L: L.special.i1(L.tensor(EDGES, dtype=L.float64)),
    "i1 int": lambda L: L.special.i1(L.tensor([True, False])),
    "i1e": lambda L: L.special.i1e(x(L)),
    "i1e edges": lambda L: L.special.i1e(L.tensor(EDGES, dtype=L.float64)),
    "ndtri": lambda L: L.special.ndtri(p(L)),
    "ndtri float64": lambda L: L.special.ndtri(p(L, dtype=L.float64)),
    "ndtri edges": lambda L: L.special.ndtri(L.tensor([0.0, 1.0, -0.5, 1.5, float("nan"), 1e-300])),
    "ndtri int": lambda L: L.special.ndtri(L.arange(3)),
    "log_ndtr": lambda L: L.special.log_ndtr(x(L)),
    "log_ndtr edges": lambda L: L.special.log_ndtr(L.tensor(EDGES + [-1e5], dtype=L.float64)),
    "log_ndtr int": lambda L: L.special.log_ndtr(L.arange(-2, 2)),
    "erfcx": lambda L: L.special.erfcx(x(L)),
    "erfcx edges": lambda L: L.special.erfcx(L.tensor(EDGES + [-30.0, 1e10], dtype=L.float64)),
    "erfcx int": lambda L: L.special.erfcx(L.tensor([1])),
    "erfcx out": lambda L: L.special.erfcx(L.tensor([1.0]), out=L.empty(1)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRADS: dict[str, Callable[[ModuleType, Any], Any]] = {
    "i0": lambda L, t: L.i0(t),
    "i0e": lambda L, t: L.special.i0e(t),
    "i1": lambda L, t: L.special.i1(t),
    "i1e": lambda L, t: L.special.i1e(t),
    "log_ndtr": lambda L, t: L.special.log_ndtr(t * 5),
    "erfcx": lambda L, t: L.special.erfcx(t * 3),
    "ndtri": lambda L, t: L.special.ndtri(t.abs() / 31),
}


@pytest.mark.parametrize("case", list(GRADS))
def test_float64_gradients(case: str, torch_module: ModuleType) -> None:
    values = [0.25, -0.5, 1.5, 2.0, -7.25, 30.0, 0.0, -3.0]
    weights = np.linspace(-1.0, 2.0, len(values))
    grads = []
    for L in (microtorch, torch_module):
        t = L.tensor(values, dtype=L.float64, requires_grad=True)
        y = GRADS[case](L, t)
        (y * L.tensor(weights, dtype=L.float64)).sum().backward()
        grads.append((y.grad_fn.name(), t.grad.numpy()))
    assert grads[0][0] == grads[1][0]
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-9, atol=1e-300)
    t = microtorch.tensor([v + 0.1 for v in values], dtype=microtorch.float64, requires_grad=True)
    assert gradcheck(lambda v: GRADS[case](microtorch, v), (t,))


def _relative(mine: np.ndarray, theirs: np.ndarray) -> float:
    finite = np.isfinite(theirs)
    assert np.array_equal(np.isfinite(mine), finite)
    assert np.array_equal(mine[~finite], theirs[~finite], equal_nan=True)
    scale = np.maximum(np.abs(theirs[finite]), 1e-300)
    return float(np.max(np.abs(mine[finite] - theirs[finite]) / scale))


def _wide(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.concatenate(
        [
            rng.uniform(-50, 50, 4000),
            10 ** rng.uniform(-10, 2.85, 4000),
            -(10 ** rng.uniform(-10, 2.85, 4000)),
        ]
    )


# the largest relative difference from PyTorch allowed (float64; measured: about 2e-15; erfcx 6e-14
# near x = -26 where PyTorch's exp(x * x) loses x**2 * 1e-16 and microtorch's does not)
BOUNDS = {"i0": 5e-15, "i0e": 5e-15, "i1": 5e-15, "i1e": 5e-15, "log_ndtr": 5e-15, "erfcx": 1e-13}


@pytest.mark.parametrize("name", list(BOUNDS))
def test_float64_over_wide_ranges(name: str, torch_module: ModuleType) -> None:
    v = _wide(len(name))
    lib = [microtorch, torch_module]
    f = [getattr(L.special, name) for L in lib]
    mine, theirs = (fn(L.tensor(v)).numpy() for fn, L in zip(f, lib))
    assert _relative(mine, theirs) < BOUNDS[name]


def test_ndtri_float64_over_wide_ranges(torch_module: ModuleType) -> None:
    rng = np.random.default_rng(3)
    v = np.concatenate(
        [
            rng.uniform(0, 1, 4000),
            10 ** rng.uniform(-300, 0, 4000),
            1 - 10 ** rng.uniform(-16, 0, 4000),
        ]
    )
    mine = microtorch.special.ndtri(microtorch.tensor(v)).numpy()
    theirs = torch_module.special.ndtri(torch_module.tensor(v)).numpy()
    assert _relative(mine, theirs) < 5e-15


J_CASES: dict[str, Callable[[ModuleType], Any]] = {
    "bessel_j0": lambda L: L.special.bessel_j0(x(L)),
    "bessel_j0 edges": lambda L: L.special.bessel_j0(L.tensor(EDGES, dtype=L.float64)),
    "bessel_j0 int": lambda L: L.special.bessel_j0(L.tensor([True, False])),
    "bessel_j1": lambda L: L.special.bessel_j1(x(L, dtype=L.float64)),
    "bessel_j1 edges": lambda L: L.special.bessel_j1(L.tensor(EDGES, dtype=L.float64)),
    "bessel_j1 int": lambda L: L.special.bessel_j1(L.arange(-3, 3)),
    "bessel_j1 out": lambda L: L.special.bessel_j1(L.tensor([1.0]), out=L.empty(1)),
}


@pytest.mark.parametrize("case", list(J_CASES))
def test_bessel_j_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    # (values to 1e-6 relative: PyTorch's own J0 and J1 are off by up to 4e-7 just past 5)
    result = compare(J_CASES[case], torch_module)
    assert result is None or not result.requires_grad  # (no gradient, as in PyTorch)


@pytest.mark.parametrize("n", [0, 1])
def test_bessel_j_float64_over_wide_ranges(n: int, torch_module: ModuleType) -> None:
    rng = np.random.default_rng(n)
    v = np.concatenate(
        [
            rng.uniform(-40, 40, 4000),
            10 ** rng.uniform(-8, 4, 3000),
            -(10 ** rng.uniform(-8, 4, 3000)),
        ]
    )
    name = f"bessel_j{n}"
    mine = getattr(microtorch.special, name)(microtorch.tensor(v)).numpy()
    theirs = getattr(torch_module.special, name)(torch_module.tensor(v)).numpy()
    np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)


def test_bessel_j_against_mpmath() -> None:
    # PyTorch's J0 and J1 are the less accurate ones near x = 5: check microtorch's with
    # mpmath (installed with PyTorch, through sympy)
    mpmath = pytest.importorskip("mpmath")
    v = np.concatenate([np.linspace(-30, 30, 301), [1e-8, 5.0126792357, 24.99, 25.01, 100.5, 1e3]])
    for n in (0, 1):
        mine = getattr(microtorch.special, f"bessel_j{n}")(
            microtorch.tensor(v, dtype=microtorch.float64)
        ).numpy()
        exact = np.array([float(mpmath.besselj(n, float(t))) for t in v])
        np.testing.assert_allclose(mine, exact, rtol=0, atol=2e-16 * 50)
