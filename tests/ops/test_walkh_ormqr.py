"""Issue 24 (walkh): torch.ormqr and Tensor.ormqr against PyTorch 2.13: values (left, right,
transposed, batched, float32, wide input), OrmqrBackward0, float64 gradients of input, tau
and other (against PyTorch and by finite differences) and the argument errors in PyTorch's
order.
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

RNG = np.random.default_rng(5)
A = RNG.standard_normal((5, 3))
TAU = RNG.random(3)
C = RNG.standard_normal((5, 2))
CR = RNG.standard_normal((2, 5))
AB = RNG.standard_normal((2, 4, 4))
TAUB = RNG.random((2, 4))
CB = RNG.standard_normal((2, 4, 3))
WIDE = RNG.standard_normal((3, 5))

CASES: dict[str, Callable[[ModuleType], Any]] = {
    "left": lambda L: L.ormqr(g(L, A), g(L, TAU), g(L, C)),
    "left transpose": lambda L: L.ormqr(g(L, A), g(L, TAU), g(L, C), transpose=True),
    "right": lambda L: L.ormqr(g(L, A), g(L, TAU), g(L, CR), left=False),
    "right transpose": lambda L: L.ormqr(g(L, A), g(L, TAU), g(L, CR), False, True),
    "batch": lambda L: L.ormqr(d(L, AB), d(L, TAUB), d(L, CB)),
    "method": lambda L: g(L, AB).ormqr(g(L, TAUB), g(L, CB), transpose=True),
    "keywords": lambda L: L.ormqr(input=d(L, A), input2=d(L, TAU), input3=d(L, C)),
    "wide input": lambda L: L.ormqr(g(L, WIDE), g(L, TAU), g(L, C[:3])),
    "other 1-d": lambda L: L.ormqr(d(L, A), d(L, TAU), d(L, C[:, 0])),
    "input 1-d": lambda L: L.ormqr(d(L, TAU), d(L, TAU), d(L, C)),
    "other rows": lambda L: L.ormqr(d(L, A), d(L, TAU), d(L, CR)),
    "other columns": lambda L: L.ormqr(d(L, A), d(L, TAU), d(L, C), left=False),
    "tau too long": lambda L: L.ormqr(d(L, A), d(L, RNG.random(4)), d(L, C)),
    "tau too short": lambda L: L.ormqr(d(L, A), d(L, TAU[:2]), d(L, CR), left=False),
    "tau ndim": lambda L: L.ormqr(d(L, A), d(L, TAU[None]), d(L, C)),
    "other ndim": lambda L: L.ormqr(d(L, A), d(L, TAU), d(L, C[None])),
    "tau batch": lambda L: L.ormqr(d(L, AB), d(L, RNG.random((3, 4))), d(L, CB)),
    "other batch": lambda L: L.ormqr(d(L, AB), d(L, TAUB), d(L, RNG.random((3, 4, 3)))),
    "tau dtype": lambda L: L.ormqr(d(L, A), f(L, TAU), d(L, C)),
    "other dtype": lambda L: L.ormqr(d(L, A), d(L, TAU), f(L, C)),
    "int": lambda L: L.ormqr(L.ones(3, 2, dtype=L.int64), L.ones(2, dtype=L.int64), L.ones(3, 1, dtype=L.int64)),
    "list": lambda L: L.ormqr([[1.0]], d(L, TAU), d(L, C)),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRADS = {
    "left": (lambda L, a, t, c: L.ormqr(a, t, c), (A, TAU, C)),
    "left transpose": (lambda L, a, t, c: L.ormqr(a, t, c, transpose=True), (A, TAU, C)),
    "right": (lambda L, a, t, c: L.ormqr(a, t, c, left=False), (A, TAU, CR)),
    "right transpose": (lambda L, a, t, c: L.ormqr(a, t, c, False, True), (A, TAU, CR)),
    "batch": (lambda L, a, t, c: a.ormqr(t, c), (AB, TAUB, CB)),
    "wide input": (lambda L, a, t, c: L.ormqr(a, t, c, transpose=True), (WIDE, TAU, C[:3])),
}


@pytest.mark.parametrize("case", list(GRADS))
def test_gradients_match_pytorch(case: str, torch_module: ModuleType) -> None:
    fn, arrays = GRADS[case]
    for mine, theirs in zip(_grads(microtorch, fn, arrays), _grads(torch_module, fn, arrays)):
        np.testing.assert_allclose(mine, theirs, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("case", ["left", "right transpose", "wide input"])
def test_gradients_by_finite_differences(case: str) -> None:
    fn, arrays = GRADS[case]
    xs = [microtorch.tensor(a, dtype=microtorch.float64, requires_grad=True) for a in arrays]
    assert microtorch.autograd.gradcheck(lambda *t: fn(microtorch, *t), tuple(xs))


def test_float32_to_rounding(torch_module: ModuleType) -> None:
    # (float32 sums in another order than LAPACK's: a few ulps of the largest entry apart)
    mine, theirs = (
        L.ormqr(f(L, AB), f(L, TAUB), f(L, CB), left=True) for L in (microtorch, torch_module)
    )
    assert mine.dtype == microtorch.float32 and mine.stride() == theirs.stride()
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=0, atol=8 * 2.0**-23 * 4)


def test_is_geqrf_q_times_other() -> None:
    a, tau = microtorch.geqrf(microtorch.tensor(A))
    y = microtorch.ormqr(a, tau, microtorch.tensor(C), transpose=True)
    q, _ = np.linalg.qr(A, mode="complete")
    # (Q^T C; Q from numpy may differ in column signs: compare |Q^T C| on the first 3 rows)
    np.testing.assert_allclose(np.abs(y.numpy()[:3]), np.abs((q.T @ C)[:3]), atol=1e-12)


# ruff: noqa: E501 - the case tables: one case per line
