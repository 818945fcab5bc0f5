"""walkb: lgamma, digamma, polygamma, mvlgamma (functions, methods, in-place twins) and
torch.special's digamma, psi, gammaln, polygamma, multigammaln and zeta, against PyTorch:
values over wide ranges and at the edges (0, -0, poles, inf, nan), dtypes for int and bool
inputs, float64 gradients with grad_fn names, and errors.
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

EDGES = [0.0, -0.0, -1.0, -2.0, 1.0, 2.0, float("inf"), -float("inf"), float("nan"), 1e-300]


def x(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([0.25, 0.5, 1.5, 2.0, 7.25, 30.0, -0.5, -2.5], **kw).requires_grad_()


def pos(L: ModuleType) -> Any:
    return L.tensor([0.25, 0.5, 2.0, 7.25, 30.0], requires_grad=True)


def x64(L: ModuleType) -> Any:
    return x(L, dtype=L.float64)


def _out(L: ModuleType, fn: Callable[..., Any], *args: Any) -> Any:
    out = L.empty(0)
    fn(*args, out=out)
    return out


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "lgamma": lambda L: L.lgamma(x(L)),
    "lgamma float64": lambda L: x64(L).lgamma(),
    "lgamma int": lambda L: L.lgamma(L.arange(-2, 4)),
    "lgamma bool": lambda L: L.tensor([True, False]).lgamma(),
    "lgamma edges": lambda L: L.lgamma(L.tensor(EDGES)),
    "lgamma_": lambda L: L.tensor([0.5, 3.0]).lgamma_(),
    "lgamma_ int": lambda L: L.arange(3).lgamma_(),
    "lgamma out": lambda L: _out(L, L.lgamma, L.tensor([0.5, 3.0])),
    "lgamma list": lambda L: L.lgamma([1.0]),
    # (float32: PyTorch computes in float32, microtorch in float64 then rounds; they differ
    # by more than 1e-6 where digamma is near 0, so those values are in float64 only)
    "digamma": lambda L: L.digamma(pos(L)),
    "digamma float64": lambda L: x64(L).digamma(),
    "digamma int": lambda L: L.arange(-2, 4).digamma(),
    "digamma edges": lambda L: L.digamma(L.tensor(EDGES, dtype=L.float64)),
    "digamma_": lambda L: L.tensor([0.5, 3.0]).digamma_(),
    "polygamma 0": lambda L: L.polygamma(0, pos(L)),
    "polygamma 1": lambda L: L.polygamma(1, x64(L)),
    "polygamma 3": lambda L: L.polygamma(3, x64(L)),
    "polygamma method": lambda L: x(L).polygamma(2),
    "polygamma keywords": lambda L: L.polygamma(n=2, input=x(L)),
    "polygamma int": lambda L: L.polygamma(1, L.arange(1, 4)),
    "polygamma edges": lambda L: L.polygamma(2, L.tensor(EDGES[:-3] + [3.5, -3.5])),
    "polygamma trigamma poles": lambda L: L.polygamma(
        1, L.tensor([0.0, -1.0, -3.0, 4.0], dtype=L.float64)
    ),
    "polygamma_": lambda L: L.tensor([0.5, 3.0]).polygamma_(2),
    "polygamma out": lambda L: _out(L, L.polygamma, 2, L.tensor([0.5, 3.0])),
    "polygamma negative n": lambda L: L.polygamma(-1, x(L)),
    "polygamma float n": lambda L: L.polygamma(1.0, x(L)),
    "mvlgamma": lambda L: L.mvlgamma(x(L) + 3, 2),
    "mvlgamma p=1": lambda L: L.mvlgamma(x64(L), p=1),
    "mvlgamma p=4": lambda L: x64(L).mvlgamma(4),
    "mvlgamma int": lambda L: L.mvlgamma(L.arange(3, 6), 2),
    "mvlgamma small": lambda L: L.mvlgamma(L.tensor([0.5, 0.25]), 2),
    "mvlgamma p=0": lambda L: L.mvlgamma(x(L), 0),
    "mvlgamma bool": lambda L: L.mvlgamma(L.tensor([True]), 1),
    "lgamma_ bool": lambda L: L.tensor([True]).lgamma_(),
    "polygamma_ bool": lambda L: L.tensor([True]).polygamma_(1),
    "polygamma bool": lambda L: L.polygamma(1, L.tensor([True])),
    "mvlgamma_": lambda L: L.tensor([3.5, 4.0]).mvlgamma_(3),
    "mvlgamma_ int": lambda L: L.arange(3, 5).mvlgamma_(2),
    "mvlgamma_ bool": lambda L: L.tensor([True]).mvlgamma_(1),
    "special.digamma": lambda L: L.special.digamma(pos(L)),
    "special.psi": lambda L: L.special.psi(x64(L)),
    "special.gammaln": lambda L: L.special.gammaln(x(L)),
    "special.polygamma": lambda L: L.special.polygamma(2, x64(L)),
    "special.multigammaln": lambda L: L.special.multigammaln(x64(L) + 3, 3),
    "zeta": lambda L: L.special.zeta(x64(L).abs() + 1, x64(L).abs()),
    "zeta number q": lambda L: L.special.zeta(x64(L).abs() + 1, 2.0),
    "zeta number s": lambda L: L.special.zeta(3, x64(L)),
    "zeta int": lambda L: L.special.zeta(L.tensor([2, 3]), L.tensor([1, 2])),
    "zeta edges": lambda L: L.special.zeta(
        L.tensor([1.0, 0.5, 2.0, 2.0, 3.0, 2.5, float("inf"), 2.0]),
        L.tensor([1.0, 1.0, 0.0, -1.5, -2.5, -1.5, 2.0, float("inf")]),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRADS: dict[str, Callable[[ModuleType, Any], Any]] = {
    "lgamma": lambda L, t: L.lgamma(t),
    "digamma": lambda L, t: t.digamma(),
    "polygamma 0": lambda L, t: L.polygamma(0, t),
    "polygamma 1": lambda L, t: L.polygamma(1, t),
    "polygamma 2": lambda L, t: t.polygamma(2),
    "mvlgamma": lambda L, t: L.mvlgamma(t + 3.1, 3),
    "gammaln": lambda L, t: L.special.gammaln(t),
    "multigammaln": lambda L, t: L.special.multigammaln(t + 2.6, 2),
}


@pytest.mark.parametrize("case", list(GRADS))
def test_float64_gradients(case: str, torch_module: ModuleType) -> None:
    values = [0.25, 0.5, 1.5, 2.0, 7.25, 30.0, -0.5, -2.5]
    weights = np.linspace(-1.0, 2.0, len(values))
    grads = []
    for L in (microtorch, torch_module):
        t = L.tensor(values, dtype=L.float64, requires_grad=True)
        y = GRADS[case](L, t)
        (y * L.tensor(weights)).sum().backward()
        grads.append((y.grad_fn.name(), t.grad.numpy()))
    assert grads[0][0] == grads[1][0]
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-8)
    t = microtorch.tensor(values, dtype=microtorch.float64, requires_grad=True)
    assert gradcheck(lambda v: GRADS[case](microtorch, v), (t,))


def test_zeta_has_no_derivative(torch_module: ModuleType) -> None:
    for L in (microtorch, torch_module):
        t = L.tensor([2.0, 3.0], dtype=L.float64, requires_grad=True)
        with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not impl"):
            L.special.zeta(t, 2.0).sum().backward()


@pytest.mark.parametrize("s_kind", ["number", "tensor"])
def test_zeta_has_a_derivative_for_q(torch_module: ModuleType, s_kind: str) -> None:
    # d zeta(s, q) / dq = -s * zeta(s + 1, q); the s tensor (broadcast) does not require grad
    grads = []
    for L in (microtorch, torch_module):
        q = L.tensor([[0.7, 1.5, 3.0]], dtype=L.float64, requires_grad=True)
        s = 3.0 if s_kind == "number" else L.tensor([[2.5], [4.0]], dtype=L.float64)
        (L.special.zeta(s, q) * L.tensor([[1.0, -2.0, 0.5]], dtype=L.float64)).sum().backward()
        grads.append(np.array(q.grad.numpy()))
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12)
    q = microtorch.tensor([0.7, 1.5, 3.0], dtype=microtorch.float64, requires_grad=True)
    assert gradcheck(lambda v: microtorch.special.zeta(3.0, v), (q,))


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
            rng.uniform(-20, 20, 3000),
            10 ** rng.uniform(-8, 8, 3000),
            -(10 ** rng.uniform(-8, 3, 3000)),
        ]
    )


@pytest.mark.parametrize(
    ("n", "bound"), [(0, 1e-10), (1, 1e-9), (2, 1e-12), (3, 1e-13), (5, 1e-13)]
)
def test_polygamma_float64_over_wide_ranges(n: int, bound: float, torch_module: ModuleType) -> None:
    # (digamma near its poles at large negative x, and PyTorch's own trigamma, which keeps
    # fewer terms of its series, differ by more than the last bits)
    v = _wide(n)
    mine = microtorch.polygamma(n, microtorch.tensor(v)).numpy()
    theirs = torch_module.polygamma(n, torch_module.tensor(v)).numpy()
    assert _relative(mine, theirs) < bound


def test_lgamma_and_zeta_float64_over_wide_ranges(torch_module: ModuleType) -> None:
    v = _wide(7)
    mine = microtorch.lgamma(microtorch.tensor(v)).numpy()
    theirs = torch_module.lgamma(torch_module.tensor(v)).numpy()
    # (near its zeros 1 and 2 lgamma's relative error is not meaningful: compare absolutely)
    np.testing.assert_allclose(mine, theirs, rtol=1e-13, atol=1e-15)
    rng = np.random.default_rng(8)
    s, q = rng.uniform(1.01, 40, 5000), rng.uniform(1e-6, 1e3, 5000)
    mine = microtorch.special.zeta(microtorch.tensor(s), microtorch.tensor(q)).numpy()
    theirs = torch_module.special.zeta(torch_module.tensor(s), torch_module.tensor(q)).numpy()
    assert _relative(mine, theirs) < 5e-15
    for p in (1, 2, 5):
        v = rng.uniform((p - 1) / 2 + 0.01, 100, 2000)
        mine = microtorch.mvlgamma(microtorch.tensor(v), p).numpy()
        theirs = torch_module.mvlgamma(torch_module.tensor(v), p).numpy()
        np.testing.assert_allclose(mine, theirs, rtol=1e-12, atol=1e-14)
