"""Issue 24 (walkd): torch.linalg.lu_factor, lu_factor_ex, lu, lu_solve, torch.lu_unpack,
torch.lu_solve, Tensor.lu and Tensor.lu_solve against PyTorch 2.13: values, pivots, info,
named results, grad_fn names, float64 gradients (against PyTorch and by finite differences)
and errors.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue24_linalg_more import _grads, compare, d, f, g

pytestmark = pytest.mark.torch

RNG = np.random.default_rng(1413)
A = RNG.standard_normal((4, 4))
AB = RNG.standard_normal((2, 3, 3))
B = RNG.standard_normal((4, 2))
BB = RNG.standard_normal((2, 3, 2))
WIDE = RNG.standard_normal((3, 5))
TALL = RNG.standard_normal((5, 3))
SING = [[1.0, 2.0], [2.0, 4.0]]


def _lu(L: ModuleType, a: Any) -> Any:
    return L.linalg.lu_factor(a)


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "lu_factor": lambda L: L.linalg.lu_factor(g(L, A)),
    "lu_factor batch float32": lambda L: L.linalg.lu_factor(f(L, AB)),
    "lu_factor wide": lambda L: L.linalg.lu_factor(g(L, WIDE)),
    "lu_factor tall": lambda L: L.linalg.lu_factor(g(L, TALL)),
    "lu_factor singular": lambda L: L.linalg.lu_factor(d(L, SING)),
    "lu_factor int": lambda L: L.linalg.lu_factor(L.eye(2, dtype=L.int64)),
    "lu_factor_ex": lambda L: L.linalg.lu_factor_ex(g(L, AB)),
    "lu_factor_ex singular": lambda L: L.linalg.lu_factor_ex(d(L, SING)),
    "lu_factor_ex check": lambda L: L.linalg.lu_factor_ex(d(L, SING), check_errors=True),
    "lu": lambda L: L.linalg.lu(g(L, A)),
    "lu batch": lambda L: L.linalg.lu(g(L, AB)),
    "lu wide": lambda L: L.linalg.lu(d(L, WIDE)),
    "lu tall": lambda L: L.linalg.lu(d(L, TALL)),
    "lu_unpack": lambda L: L.lu_unpack(*_lu(L, g(L, AB))),
    "lu_unpack wide": lambda L: L.lu_unpack(*_lu(L, g(L, WIDE))),
    "lu_unpack no data": lambda L: L.lu_unpack(*_lu(L, g(L, AB)), unpack_data=False),
    "lu_unpack no pivots": lambda L: L.lu_unpack(*_lu(L, g(L, AB)), unpack_pivots=False),
    "lu_unpack neither": lambda L: L.lu_unpack(*_lu(L, g(L, WIDE)), False, False),
    "lu_solve": lambda L: L.linalg.lu_solve(*_lu(L, g(L, A)), g(L, B)),
    "lu_solve batch": lambda L: L.linalg.lu_solve(*_lu(L, g(L, AB)), g(L, BB)),
    "lu_solve adjoint": lambda L: L.linalg.lu_solve(*_lu(L, g(L, A)), g(L, B), adjoint=True),
    "lu_solve right": lambda L: L.linalg.lu_solve(*_lu(L, g(L, A)), g(L, B.T), left=False),
    "lu_solve dtypes": lambda L: L.linalg.lu_solve(*_lu(L, d(L, A)), f(L, B)),
    "torch.lu_solve": lambda L: L.lu_solve(g(L, B), *_lu(L, g(L, A))),
    "Tensor.lu_solve": lambda L: g(L, BB).lu_solve(*_lu(L, g(L, AB))),
    "Tensor.lu": lambda L: g(L, A).lu(),
    "Tensor.lu get_infos": lambda L: g(L, AB).lu(get_infos=True),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare(CASES[case], torch_module)


def test_p_l_u_give_back_a() -> None:
    for a in (A, AB, WIDE, TALL):
        p, low, up = microtorch.linalg.lu(microtorch.tensor(a))
        np.testing.assert_allclose((p @ low @ up).numpy(), a, atol=1e-6)


GRADS: dict[str, tuple[Callable[..., Any], tuple[np.ndarray, ...]]] = {
    "lu_factor": (lambda L, a: L.linalg.lu_factor(a).LU, (A,)),
    "lu_factor_ex batch": (lambda L, a: L.linalg.lu_factor_ex(a).LU, (AB,)),
    "lu": (lambda L, a: L.linalg.lu(a)[1:], (A,)),
    "lu batch": (lambda L, a: L.linalg.lu(a)[1:], (AB,)),
    "lu_unpack": (lambda L, a: L.lu_unpack(*L.linalg.lu_factor(a))[1:], (AB,)),
    "lu_unpack wide": (lambda L, lu: L.lu_unpack(lu, L.linalg.lu_factor(lu.detach()).pivots)[1:], (WIDE,)),
    "lu_solve": (lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b), (A, B)),
    "lu_solve batch": (lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b), (AB, BB)),
    "lu_solve adjoint": (lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b, adjoint=True), (A, B)),
    "lu_solve right": (lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b, left=False), (A, B.T)),
    "lu_solve right adjoint": (
        lambda L, a, b: L.linalg.lu_solve(*L.linalg.lu_factor(a), b, left=False, adjoint=True), (AB, BB.transpose(0, 2, 1)),
    ),
}  # fmt: skip


@pytest.mark.parametrize("case", list(GRADS))
def test_gradients_match_pytorch(case: str, torch_module: ModuleType) -> None:
    fn, arrays = GRADS[case]
    for m, t in zip(_grads(microtorch, fn, arrays), _grads(torch_module, fn, arrays)):
        assert (m is None) == (t is None)
        if m is not None:
            np.testing.assert_allclose(m, t, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("case", [c for c in GRADS if c != "lu_unpack wide"])
def test_gradients_by_finite_differences(case: str) -> None:
    fn, arrays = GRADS[case]
    xs = tuple(microtorch.tensor(a, dtype=microtorch.float64, requires_grad=True) for a in arrays)
    assert microtorch.autograd.gradcheck(lambda *t: fn(microtorch, *t), xs)


def test_non_square_gradient_is_refused_not_wrong() -> None:
    a = microtorch.tensor(WIDE, requires_grad=True)
    with pytest.raises(NotImplementedError, match="non-square"):
        microtorch.linalg.lu_factor(a).LU.sum().backward()


def test_deprecated_lu_warns_once() -> None:
    from microtorch.api import linalg_triangular

    linalg_triangular._warned.discard("lu")
    with pytest.warns(UserWarning, match=r"^torch.lu is deprecated"):
        microtorch.tensor(A).lu()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        microtorch.tensor(A).lu()


# ruff: noqa: E501 - the case tables: one case per line
