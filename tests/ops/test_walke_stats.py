"""walke: cov and corrcoef (functions and Tensor methods) against PyTorch: values, dtypes,
grad_fn names (composed as PyTorch composes them), float64 gradients (of the input and of
aweights), finite differences, warnings and errors."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from microtorch.autograd import gradcheck
from tests.ops.test_issue13_operators import compare

pytestmark = pytest.mark.torch

DATA = [[1.0, 3.0, -2.0, 0.5, 4.0], [0.5, -1.0, 2.0, 0.0, 1.5], [2.0, 2.5, 1.0, -3.0, 0.25]]
FW = [1, 2, 3, 1, 2]
AW = [0.5, 1.0, 0.25, 2.0, 0.75]


def x(L: ModuleType) -> Any:
    return L.tensor(DATA, dtype=L.float64).requires_grad_()


def fw(L: ModuleType) -> Any:
    return L.tensor(FW)


def aw(L: ModuleType) -> Any:
    return L.tensor(AW, dtype=L.float64)


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "cov": lambda L: L.cov(x(L)),
    "cov correction=0": lambda L: L.cov(x(L), correction=0),
    "cov correction=2": lambda L: L.cov(x(L), correction=2),
    "cov fweights": lambda L: L.cov(x(L), fweights=fw(L)),
    "cov aweights": lambda L: L.cov(x(L), aweights=aw(L)),
    "cov both": lambda L: L.cov(x(L), fweights=fw(L), aweights=aw(L)),
    "cov both correction=0": lambda L: L.cov(x(L), correction=0, fweights=fw(L), aweights=aw(L)),
    "cov both correction=3": lambda L: L.cov(x(L), correction=3, fweights=fw(L), aweights=aw(L)),
    "cov 0-d fweights": lambda L: L.cov(x(L)[:, :1].clone(), fweights=L.tensor(4)),
    "cov 1-d": lambda L: L.cov(x(L)[0]),
    "cov 0-d": lambda L: L.cov(L.tensor(2.0)),
    "cov one row": lambda L: L.cov(x(L)[:1]),
    "cov int": lambda L: L.cov(L.tensor([[1, 2, 3], [4, 5, 7]])),
    "cov float32 aweights float64": lambda L: L.cov(
        L.tensor([[1.0, 2.0, 4.0]]), aweights=L.tensor([1.0, 2.0, 1.0], dtype=L.float64)
    ),
    "cov method": lambda L: x(L).cov(correction=0, aweights=aw(L)),
    "corrcoef": lambda L: L.corrcoef(x(L)),
    "corrcoef 1-d": lambda L: L.corrcoef(x(L)[1]),
    "corrcoef constant row": lambda L: L.corrcoef(L.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]])),
    "corrcoef int": lambda L: L.corrcoef(L.tensor([[1, 2, 3], [3, 1, 2]])),
    "corrcoef method": lambda L: x(L).corrcoef(),
    # errors
    "cov 3-d": lambda L: L.cov(L.ones(2, 2, 2)),
    "cov bool": lambda L: L.cov(L.ones(2, 2) > 0),
    "cov list": lambda L: L.cov([1.0, 2.0]),
    "cov fweights float": lambda L: L.cov(x(L), fweights=aw(L)),
    "cov fweights 2-d": lambda L: L.cov(x(L), fweights=fw(L).view(1, 5)),
    "cov fweights numel": lambda L: L.cov(x(L), fweights=L.tensor([1, 2])),
    "cov fweights negative": lambda L: L.cov(x(L), fweights=L.tensor([1, -2, 3, 1, 1])),
    "cov aweights long": lambda L: L.cov(x(L), aweights=fw(L)),
    "cov aweights negative": lambda L: L.cov(x(L), aweights=-aw(L)),
    "cov weights sum to zero": lambda L: L.cov(x(L), fweights=L.zeros(5, dtype=L.int64)),
    "corrcoef 3-d": lambda L: L.corrcoef(L.ones(2, 2, 2)),
    "corrcoef list": lambda L: L.corrcoef([1.0, 2.0]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRADS: dict[str, Callable[[ModuleType, Any, Any], Any]] = {
    "cov": lambda L, t, w: L.cov(t),
    "cov correction=0": lambda L, t, w: L.cov(t, correction=0),
    "cov fweights": lambda L, t, w: L.cov(t, fweights=fw(L)),
    "cov aweights": lambda L, t, w: L.cov(t, aweights=w),
    "cov both correction=2": lambda L, t, w: L.cov(t, correction=2, fweights=fw(L), aweights=w),
    "cov 1-d": lambda L, t, w: L.cov(t[0], aweights=w),
    "corrcoef": lambda L, t, w: L.corrcoef(t),
    "corrcoef 1-d": lambda L, t, w: L.corrcoef(t[2]),
}


@pytest.mark.parametrize("case", list(GRADS))
def test_float64_gradients(case: str, torch_module: ModuleType) -> None:
    grads = []
    for L in (microtorch, torch_module):
        t, w = x(L), aw(L).requires_grad_()
        r = GRADS[case](L, t, w)
        weights = np.linspace(-1.0, 2.0, r.numel()).reshape(tuple(r.shape))
        (r * L.tensor(weights, dtype=L.float64)).sum().backward()
        grads.append((t.grad.numpy(), None if w.grad is None else w.grad.numpy()))
    np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-12, atol=1e-14)
    assert (grads[0][1] is None) == (grads[1][1] is None)
    if grads[1][1] is not None:
        np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("case", list(GRADS))
def test_finite_differences(case: str) -> None:
    t, w = x(microtorch), aw(microtorch).requires_grad_()
    assert gradcheck(lambda a, b: GRADS[case](microtorch, a, b), (t, w))


def test_cov_warns_as_pytorch_does(torch_module: ModuleType) -> None:
    results = []
    for L in (microtorch, torch_module):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            r = L.cov(L.tensor([[1.0], [2.0]]))
        results.append((r.numpy(), [str(c.message).split(" (Triggered")[0] for c in caught]))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    assert results[0][1] == results[1][1]
    assert len(results[0][1]) == 1


def test_cov_of_no_observations(torch_module: ModuleType) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compare(lambda L: L.cov(L.ones(2, 0)), torch_module)
        compare(lambda L: L.cov(L.ones(2, 0), fweights=L.ones(0, dtype=L.int64)), torch_module)


# renorm

R = np.linspace(-2.0, 3.0, 24).reshape(3, 4, 2) ** 2 - 1.5


def r(L: ModuleType) -> Any:
    return L.tensor(R, dtype=L.float64).requires_grad_()


RENORM: dict[str, Callable[[ModuleType], Any]] = {
    "renorm p=2": lambda L: L.renorm(r(L), 2, 0, 3.0),
    "renorm p=1": lambda L: L.renorm(r(L), 1, 1, 2.0),
    "renorm p=3 dim=-1": lambda L: L.renorm(r(L), 3, -1, 4.0),
    "renorm p=0.5": lambda L: L.renorm(r(L), 0.5, 1, 5.0),
    "renorm p=inf": lambda L: L.renorm(r(L), float("inf"), 0, 2.0),
    "renorm maxnorm=0": lambda L: L.renorm(r(L), 2, 0, 0),
    "renorm large maxnorm": lambda L: L.renorm(r(L), 2, 0, 100.0),
    "renorm float32": lambda L: L.renorm(L.tensor(R, dtype=L.float32), 2, 2, 1.5),
    "renorm float16": lambda L: L.renorm(L.tensor(R, dtype=L.float16), 2, 1, 1.5),
    "renorm keywords": lambda L: L.renorm(input=r(L), p=2, dim=0, maxnorm=1.0),
    "renorm method": lambda L: r(L).renorm(2, 1, 1.0),
    "renorm_ method": lambda L: (r(L) * 1).renorm_(2, 1, 1.0),
    "renorm_ leaf": lambda L: r(L).renorm_(2, 1, 1.0),
    "renorm_ plain": lambda L: L.tensor(R).renorm_(1, 0, 1.0),
    # errors
    "renorm p=0": lambda L: L.renorm(r(L), 0, 0, 1.0),
    "renorm p<0": lambda L: L.renorm(r(L), -2, 0, 1.0),
    "renorm maxnorm<0": lambda L: L.renorm(r(L), 2, 0, -1.5),
    "renorm 1-d": lambda L: L.renorm(L.ones(3), 2, 0, 1.0),
    "renorm 0-d": lambda L: L.renorm(L.tensor(1.0), 2, 0, 1.0),
    "renorm dim": lambda L: L.renorm(r(L), 2, 3, 1.0),
    "renorm long": lambda L: L.renorm(L.ones(3, 2, dtype=L.int64), 2, 0, 1.0),
    "renorm bool": lambda L: L.renorm(L.ones(3, 2) > 0, 2, 0, 1.0),
    "renorm str maxnorm": lambda L: L.renorm(r(L), 2, 0, "a"),
    "renorm float dim": lambda L: L.renorm(r(L), 2, 0.5, 1.0),
    "renorm list": lambda L: L.renorm([[1.0]], 2, 0, 1.0),
}


@pytest.mark.parametrize("case", list(RENORM))
def test_renorm_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(RENORM[case], torch_module)


RENORM_GRADS: dict[str, tuple[float, int, float]] = {
    "p=2": (2, 0, 3.0),
    "p=1": (1, 1, 2.0),
    "p=3": (3, 2, 4.0),
    "p=0.5": (0.5, 1, 5.0),
    "p=inf": (float("inf"), 0, 2.0),
    "maxnorm=0": (2, 0, 0.0),
    "some slices unchanged": (2, 1, 4.0),
}


@pytest.mark.parametrize("case", list(RENORM_GRADS))
def test_renorm_float64_gradients(case: str, torch_module: ModuleType) -> None:
    p, dim, maxnorm = RENORM_GRADS[case]
    grads = []
    for L in (microtorch, torch_module):
        t = r(L)
        out = L.renorm(t, p, dim, maxnorm)
        weights = np.linspace(-1.0, 2.0, out.numel()).reshape(tuple(out.shape))
        (out * L.tensor(weights, dtype=L.float64)).sum().backward()
        grads.append(t.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("case", list(RENORM_GRADS))
def test_renorm_finite_differences(case: str) -> None:
    p, dim, maxnorm = RENORM_GRADS[case]
    assert gradcheck(lambda a: microtorch.renorm(a, p, dim, maxnorm), (r(microtorch),))


def test_renorm_some_slices_are_scaled_and_some_not() -> None:
    norms = np.sqrt((R**2).sum(axis=(0, 2)))
    assert (norms > 4.0).any() and (norms < 4.0).any()  # (the case above covers both branches)


# nanmedian

NAN = float("nan")
M = [[1.0, NAN, 2.0, 2.0, 3.0, NAN], [NAN, NAN, NAN, NAN, NAN, NAN], [4.0, 0.5, NAN, 0.5, 4.0, 0.5]]


def m(L: ModuleType) -> Any:
    return L.tensor(M, dtype=L.float64).requires_grad_()


def ties(L: ModuleType, n: int, seed: int) -> Any:
    # rows of few distinct values and many nans (and one row all nan): ties everywhere
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, size=(4, n)).astype(np.float64)
    a[rng.random((4, n)) < 0.4] = np.nan
    a[1] = np.nan
    return L.tensor(a)


NANMEDIAN: dict[str, Callable[[ModuleType], Any]] = {
    "nanmedian": lambda L: L.nanmedian(m(L)),
    "nanmedian all nan": lambda L: L.nanmedian(L.tensor([NAN, NAN]).requires_grad_()),
    "nanmedian no nan": lambda L: L.nanmedian(L.tensor([3.0, 1.0, 2.0, 5.0])),
    "nanmedian int": lambda L: L.nanmedian(L.tensor([3, 1, 2, 5])),
    "nanmedian empty": lambda L: L.nanmedian(L.ones(2, 0)),
    "nanmedian empty int": lambda L: L.nanmedian(L.ones(0, dtype=L.int64)),
    "nanmedian dim=1": lambda L: L.nanmedian(m(L), 1),
    "nanmedian dim=0 keepdim": lambda L: L.nanmedian(m(L), 0, keepdim=True),
    "nanmedian dim=-1 keywords": lambda L: L.nanmedian(input=m(L), dim=-1, keepdim=True),
    "nanmedian 0-d dim": lambda L: L.nanmedian(L.tensor(2.0), 0),
    "nanmedian int dim": lambda L: L.nanmedian(L.tensor([[3, 1, 1], [2, 2, 5]]), 1),
    "nanmedian method": lambda L: m(L).nanmedian(),
    "nanmedian method dim": lambda L: m(L).nanmedian(dim=1),
    "nanmedian ties 5": lambda L: L.nanmedian(ties(L, 5, 0), 1),
    "nanmedian ties 17": lambda L: L.nanmedian(ties(L, 17, 1), 1),
    "nanmedian ties 40": lambda L: L.nanmedian(ties(L, 40, 2), 1),
    "nanmedian ties 101 dim=0": lambda L: L.nanmedian(ties(L, 101, 3).t(), 0),
    # errors
    "nanmedian bool": lambda L: L.nanmedian(L.ones(2) > 0),
    "nanmedian bool dim": lambda L: L.nanmedian(L.ones(2) > 0, 0),
    "nanmedian empty dim": lambda L: L.nanmedian(L.ones(2, 0), 1),
    "nanmedian dim out of range": lambda L: L.nanmedian(L.ones(2), 2),
    "nanmedian list": lambda L: L.nanmedian([1.0]),
}


def _parts(result: Any) -> list[Any]:
    return list(result) if isinstance(result, tuple) else [result]


@pytest.mark.parametrize("case", list(NANMEDIAN))
def test_nanmedian_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    mine = compare(lambda L: _parts(NANMEDIAN[case](L))[0], torch_module)
    if mine is not None:
        compare(lambda L: _parts(NANMEDIAN[case](L))[-1], torch_module)  # (the indices)
        assert (
            type(NANMEDIAN[case](microtorch)).__name__
            == type(NANMEDIAN[case](torch_module)).__name__
        )


def test_nanmedian_indices_of_all_nan_rows(torch_module: ModuleType) -> None:
    for n in range(1, 130):
        found = [
            int(L.nanmedian(L.full((1, n), NAN), 1).indices[0]) for L in (microtorch, torch_module)
        ]
        assert found[0] == found[1], n


@pytest.mark.parametrize(
    "case",
    ["nanmedian", "nanmedian all nan", "nanmedian dim=1", "nanmedian dim=0 keepdim"],
)
def test_nanmedian_float64_gradients(case: str, torch_module: ModuleType) -> None:
    grads = []
    for L in (microtorch, torch_module):
        values = _parts(NANMEDIAN[case](L))[0]
        t = values.grad_fn.next_functions[0][0].variable
        weights = np.linspace(-1.0, 2.0, values.numel()).reshape(tuple(values.shape))
        (values * L.tensor(weights, dtype=values.dtype)).sum().backward()
        grads.append(t.grad.numpy())
    np.testing.assert_array_equal(grads[0], grads[1])


def test_nanmedian_finite_differences() -> None:
    t = microtorch.tensor([[1.0, 5.0, 2.5, NAN], [0.5, NAN, -1.0, 3.0]], dtype=microtorch.float64)
    finite = t[:, :3].clone().requires_grad_()  # (no ties, so the median has a derivative)
    assert gradcheck(lambda a: microtorch.nanmedian(a, 1).values, (finite,))
    assert gradcheck(lambda a: microtorch.nanmedian(a), (finite,))
