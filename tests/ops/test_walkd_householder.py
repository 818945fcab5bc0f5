"""Issue 24 (walkd): torch.linalg.householder_product, torch.orgqr, torch.geqrf and their
Tensor methods against PyTorch 2.13: values, grad_fn names, float64 gradients (against PyTorch
and by finite differences) and errors.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue24_linalg_more import _grads, compare, d, f, g

pytestmark = pytest.mark.torch

RNG = np.random.default_rng(99)
A = RNG.standard_normal((5, 3))
AB = RNG.standard_normal((2, 4, 4))
TAU = RNG.random(3)
TAUB = RNG.random((2, 4))
WIDE = RNG.standard_normal((3, 5))

CASES: dict[str, Callable[[ModuleType], Any]] = {
    "householder_product": lambda L: L.linalg.householder_product(g(L, A), g(L, TAU)),
    "householder_product batch": lambda L: L.linalg.householder_product(g(L, AB), g(L, TAUB)),
    "householder_product fewer tau": lambda L: L.linalg.householder_product(f(L, A), f(L, TAU[:2])),
    "householder_product wide": lambda L: L.linalg.householder_product(d(L, WIDE), d(L, TAU)),
    "householder_product long tau": lambda L: L.linalg.householder_product(d(L, A), d(L, RNG.random(4))),
    "householder_product tau ndim": lambda L: L.linalg.householder_product(d(L, A), d(L, TAUB)),
    "householder_product dtypes": lambda L: L.linalg.householder_product(f(L, A), d(L, TAU)),
    "householder_product int": lambda L: L.linalg.householder_product(L.ones(3, 2, dtype=L.int64), L.ones(2, dtype=L.int64)),
    "householder_product 1-d": lambda L: L.linalg.householder_product(d(L, TAU), d(L, TAU[:1])),
    "orgqr": lambda L: L.orgqr(g(L, A), g(L, TAU)),
    "orgqr method": lambda L: g(L, AB).orgqr(g(L, TAUB)),
    "geqrf": lambda L: L.geqrf(g(L, A)),
    "geqrf batch float32": lambda L: L.geqrf(f(L, AB)),
    "geqrf wide": lambda L: g(L, WIDE).geqrf(),
    "geqrf int": lambda L: L.geqrf(L.ones(2, 2, dtype=L.int64)),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


def test_geqrf_then_householder_product_is_qr(torch_module: ModuleType) -> None:
    a, tau = microtorch.geqrf(microtorch.tensor(A))
    q = microtorch.linalg.householder_product(a, tau)
    np.testing.assert_allclose((q @ a.triu()[:3]).numpy(), A, atol=1e-6)


def test_geqrf_has_no_derivative_as_in_pytorch(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        a, tau = L.geqrf(g(L, A))
        with pytest.raises(NotImplementedError, match="^the derivative for 'geqrf' is not"):
            a.sum().backward()


GRADS: dict[str, tuple[Callable[..., Any], tuple[np.ndarray, ...]]] = {
    "householder_product": (lambda L, a, t: L.linalg.householder_product(a, t), (A, TAU)),
    "householder_product batch": (lambda L, a, t: L.linalg.householder_product(a, t), (AB, TAUB)),
    "householder_product fewer tau": (lambda L, a, t: L.linalg.householder_product(a, t), (A, TAU[:2])),
    "orgqr": (lambda L, a, t: L.orgqr(a, t), (AB[0], TAUB[0])),
}  # fmt: skip


@pytest.mark.parametrize("case", list(GRADS))
def test_gradients_match_pytorch(case: str, torch_module: ModuleType) -> None:
    fn, arrays = GRADS[case]
    for m, t in zip(_grads(microtorch, fn, arrays), _grads(torch_module, fn, arrays)):
        np.testing.assert_allclose(m, t, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("case", list(GRADS))
def test_gradients_by_finite_differences(case: str) -> None:
    fn, arrays = GRADS[case]
    xs = tuple(microtorch.tensor(a, dtype=microtorch.float64, requires_grad=True) for a in arrays)
    assert microtorch.autograd.gradcheck(lambda *t: fn(microtorch, *t), xs)


# ruff: noqa: E501 - the case tables: one case per line
