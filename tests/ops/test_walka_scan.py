"""Issue 24 (walka): cummax, cummin, logcumsumexp, aminmax (with their return types),
bucketize, searchsorted and isin against PyTorch: values, dtypes, grad_fn names, float64
gradients and errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.walka_harness import compare, compare_gradients

pytestmark = pytest.mark.torch

NAN, INF = float("nan"), float("inf")


def r(L: ModuleType, *shape: int) -> Any:
    n = int(np.prod(shape))
    values = np.cos(np.arange(n) * 1.3).reshape(shape)
    return L.tensor(values, dtype=L.float64, requires_grad=True)


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "cummax": lambda L: L.cummax(r(L, 3, 4), 1),
    "cummax method": lambda L: r(L, 3, 4).cummax(dim=0),
    "cummax no dim": lambda L: L.cummax(r(L, 3, 4)),
    "cummax 0-d": lambda L: L.cummax(L.tensor(2.0), 0),
    "cummax int": lambda L: L.cummax(L.tensor([1, 3, 2, 3]), 0),
    "cummax ties": lambda L: L.cummax(L.tensor([1.0, 3, 3, 2, 3]), 0),
    "cummax nan": lambda L: L.cummax(L.tensor([1.0, NAN, 3, NAN, 0]), 0),
    "cummax bool": lambda L: L.cummax(L.tensor([False, True, False]), 0),
    "cummax bad dim": lambda L: L.cummax(r(L, 3), 1),
    "cummin": lambda L: L.cummin(r(L, 3, 4), -1),
    "cummin ties": lambda L: r(L, 5).detach().round().cummin(0),
    "cummin nan": lambda L: L.cummin(L.tensor([3.0, 1, NAN, 0]), 0),
    "logcumsumexp": lambda L: L.logcumsumexp(r(L, 3, 4), 1),
    "logcumsumexp method": lambda L: (r(L, 3, 4) * 300).logcumsumexp(0),
    "logcumsumexp -inf": lambda L: L.logcumsumexp(L.tensor([-INF, 0.0, -INF]), 0),
    "logcumsumexp 0-d": lambda L: L.logcumsumexp(L.tensor(2.0), 0),
    "logcumsumexp int": lambda L: L.logcumsumexp(L.arange(3), 0),
    "aminmax": lambda L: L.aminmax(r(L, 3, 4)),
    "aminmax dim": lambda L: L.aminmax(r(L, 3, 4), dim=1),
    "aminmax keepdim": lambda L: r(L, 3, 4).aminmax(dim=0, keepdim=True),
    "aminmax int": lambda L: L.aminmax(L.tensor([1, 3, 2])),
    "aminmax 0-d": lambda L: L.aminmax(L.tensor(2.0), dim=0),
    "aminmax positional": lambda L: L.aminmax(r(L, 3, 4), 1),
    "aminmax empty": lambda L: L.aminmax(L.ones(0, 3)),
    "bucketize": lambda L: L.bucketize(L.tensor([1, 5, 9]), L.tensor([1, 3, 5, 7])),
    "bucketize right int32": lambda L: L.bucketize(
        L.tensor([[1, 5], [9, 0]]), L.tensor([1, 3, 5, 7]), right=True, out_int32=True
    ),
    "bucketize number": lambda L: L.bucketize(4, L.tensor([1, 3, 5, 7])),
    "bucketize floats": lambda L: L.bucketize(L.tensor([1.5, -2.0]), L.tensor([1, 3])),
    "bucketize 2-d": lambda L: L.bucketize(L.tensor([1]), L.tensor([[1, 3]])),
    "searchsorted": lambda L: L.searchsorted(L.tensor([1, 3, 5]), L.tensor([3, 6])),
    "searchsorted rows": lambda L: L.searchsorted(
        L.tensor([[1, 3, 5], [2, 4, 6]]), L.tensor([[3, 6], [1, 7]])
    ),
    "searchsorted right": lambda L: L.searchsorted(
        L.tensor([1, 3, 5]), L.tensor([3, 6]), right=True
    ),
    "searchsorted side": lambda L: L.searchsorted(L.tensor([1, 3, 5]), L.tensor([3]), side="right"),
    "searchsorted bad side": lambda L: L.searchsorted(L.tensor([1, 3]), L.tensor([3]), side="up"),
    "searchsorted opposites": lambda L: L.searchsorted(
        L.tensor([1, 3]), L.tensor([3]), side="left", right=True
    ),
    "searchsorted sorter": lambda L: L.searchsorted(
        L.tensor([5, 1, 3]), L.tensor([3, 6]), sorter=L.tensor([1, 2, 0])
    ),
    "searchsorted number": lambda L: L.searchsorted(L.tensor([1, 3, 5]), 3),
    "searchsorted int32": lambda L: L.searchsorted(
        L.tensor([1.0, 3, 5]), L.tensor([3.0, 6]), out_int32=True
    ),
    "searchsorted shapes": lambda L: L.searchsorted(L.tensor([[1, 3, 5]]), L.tensor([3, 6])),
    "searchsorted rows mismatch": lambda L: L.searchsorted(
        L.tensor([[1, 3, 5], [1, 2, 3]]), L.tensor([[3, 6]])
    ),
    "isin": lambda L: L.isin(L.tensor([[1, 2], [3, 4]]), L.tensor([2, 3])),
    "isin invert": lambda L: L.isin(L.tensor([[1, 2], [3, 4]]), L.tensor([2, 3]), invert=True),
    "isin number": lambda L: L.isin(L.tensor([1, 2]), 2),
    "isin number first": lambda L: L.isin(2, L.tensor([1, 2])),
    "isin numbers": lambda L: L.isin(2, 3),
    "isin mixed": lambda L: L.isin(L.tensor([1.0, 2.5]), L.tensor([1, 2])),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRAD_CASES: dict[str, Callable[[ModuleType, Any], Any]] = {
    "cummax": lambda L, x: L.cummax(x, 1),
    "cummax dim 0": lambda L, x: x.cummax(0),
    "cummin": lambda L, x: L.cummin(x, -1),
    "logcumsumexp": lambda L, x: L.logcumsumexp(x, 1),
    "logcumsumexp large": lambda L, x: (x * 200).logcumsumexp(0),
    "aminmax": lambda L, x: L.aminmax(x),
    "aminmax dim": lambda L, x: x.aminmax(dim=1, keepdim=True),
}


@pytest.mark.parametrize("case", list(GRAD_CASES))
def test_gradients_match_pytorch_in_float64(case: str, torch_module: ModuleType) -> None:
    compare_gradients(GRAD_CASES[case], torch_module)


def test_gradients_at_ties_match_pytorch(torch_module: ModuleType) -> None:
    # cummax sends each gradient to the (last) place holding the max; aminmax shares it
    def run(L: ModuleType) -> tuple[Any, ...]:
        x = L.tensor([[1.0, 3.0, 3.0, 2.0], [2.0, 2.0, 0.0, 2.0]], dtype=L.float64)
        x.requires_grad_()
        values, _ = x.cummax(1)
        low, high = x.aminmax(dim=1)
        w = L.arange(8, dtype=L.float64).reshape(2, 4)
        ((values * w).sum() + (low * 3 + high * 5).sum()).backward()
        return (x.grad.numpy(),)

    np.testing.assert_allclose(run(microtorch)[0], run(torch_module)[0])


def test_return_types_are_exported() -> None:
    r = microtorch.cummin(microtorch.tensor([2.0, 1.0]), 0)
    assert isinstance(r, microtorch.return_types.cummin) and r.indices.tolist() == [0, 1]
    assert microtorch.aminmax(microtorch.tensor([2.0, 1.0])).max.item() == 2.0
