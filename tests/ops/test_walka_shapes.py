"""Issue 24 (walka): atleast_1d/2d/3d, dstack, tensor_split, hsplit/vsplit/dsplit,
split_with_sizes, fliplr/flipud, unflatten, sum_to_size and diagflat against PyTorch: values,
dtypes, grad_fn names, float64 gradients and errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from tests.ops.walka_harness import compare, compare_gradients

pytestmark = pytest.mark.torch


def x46(L: ModuleType) -> Any:
    return L.arange(24.0).reshape(4, 6).requires_grad_()


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "atleast_1d 0-d": lambda L: L.atleast_1d(L.tensor(2.0, requires_grad=True)),
    "atleast_1d 2-d": lambda L: L.atleast_1d(x46(L)),
    "atleast_2d 0-d": lambda L: L.atleast_2d(L.tensor(2.0, requires_grad=True)),
    "atleast_2d 1-d": lambda L: L.atleast_2d(L.ones(3, requires_grad=True)),
    "atleast_2d many": lambda L: L.atleast_2d(L.ones(2), L.tensor(1)),
    "atleast_3d 0-d": lambda L: L.atleast_3d(L.tensor(2.0, requires_grad=True)),
    "atleast_3d 1-d": lambda L: L.atleast_3d(L.ones(3, requires_grad=True)),
    "atleast_3d 2-d": lambda L: L.atleast_3d(x46(L)),
    "atleast_3d list": lambda L: L.atleast_3d([L.ones(2), L.ones(2, 3)]),
    "atleast_3d none": lambda L: L.atleast_3d(),
    "atleast_1d not tensor": lambda L: L.atleast_1d([1, 2]),
    "dstack": lambda L: L.dstack([x46(L), x46(L)]),
    "dstack 1-d": lambda L: L.dstack((L.ones(3), L.zeros(3, dtype=L.int64))),
    "dstack sizes": lambda L: L.dstack([L.ones(2), L.ones(3)]),
    "dstack tensor": lambda L: L.dstack(L.ones(2)),
    "dstack empty": lambda L: L.dstack([]),
    "tensor_split sections": lambda L: L.tensor_split(x46(L), 4, dim=1),
    "tensor_split indices": lambda L: L.tensor_split(x46(L), [1, 4], 1),
    "tensor_split method": lambda L: x46(L).tensor_split(3),
    "tensor_split tensor": lambda L: L.tensor_split(x46(L), L.tensor(3)),
    "tensor_split tensor indices": lambda L: x46(L).tensor_split(L.tensor([1, 3])),
    "tensor_split past the end": lambda L: L.tensor_split(x46(L), [3, 1, 9]),
    "tensor_split negative": lambda L: L.tensor_split(x46(L), [-1]),
    "tensor_split more than size": lambda L: L.tensor_split(L.arange(3), 5),
    "tensor_split 0": lambda L: L.tensor_split(x46(L), 0),
    "tensor_split 0-d": lambda L: L.tensor_split(L.tensor(1.0), 2),
    "tensor_split float": lambda L: L.tensor_split(x46(L), 2.0),
    "tensor_split float tensor": lambda L: L.tensor_split(x46(L), L.tensor([1.0])),
    "tensor_split 2-d tensor": lambda L: L.tensor_split(x46(L), L.tensor([[1]])),
    "hsplit": lambda L: L.hsplit(x46(L), 3),
    "hsplit indices": lambda L: x46(L).hsplit([1, 9]),
    "hsplit 1-d": lambda L: L.hsplit(L.arange(6), 2),
    "hsplit not divisible": lambda L: L.hsplit(x46(L), 4),
    "hsplit 0-d": lambda L: L.hsplit(L.tensor(1.0), 2),
    "vsplit": lambda L: x46(L).vsplit(2),
    "vsplit indices": lambda L: L.vsplit(x46(L), [1, 3]),
    "vsplit 1-d": lambda L: L.vsplit(L.ones(6), 2),
    "vsplit not divisible": lambda L: L.vsplit(x46(L), 3),
    "dsplit": lambda L: L.dsplit(x46(L).reshape(2, 2, 6), 3),
    "dsplit method": lambda L: x46(L).reshape(2, 2, 6).dsplit([2]),
    "dsplit 2-d": lambda L: L.dsplit(x46(L), 2),
    "split_with_sizes": lambda L: L.split_with_sizes(x46(L), [2, 4], 1),
    "split_with_sizes method": lambda L: x46(L).split_with_sizes([1, 3]),
    "split_with_sizes sum": lambda L: x46(L).split_with_sizes([1, 2]),
    "split_with_sizes negative": lambda L: x46(L).split_with_sizes([5, -1]),
    "fliplr": lambda L: L.fliplr(x46(L)),
    "fliplr method": lambda L: x46(L).reshape(2, 3, 4).fliplr(),
    "fliplr 1-d": lambda L: L.fliplr(L.ones(3)),
    "flipud": lambda L: L.flipud(x46(L)),
    "flipud method": lambda L: L.arange(4).flipud(),
    "flipud 0-d": lambda L: L.flipud(L.tensor(1.0)),
    "unflatten": lambda L: x46(L).unflatten(1, (2, 3)),
    "unflatten function": lambda L: L.unflatten(x46(L), 0, (2, -1)),
    "unflatten negative dim": lambda L: x46(L).unflatten(-1, (3, 1, 2)),
    "unflatten bad sizes": lambda L: x46(L).unflatten(1, (4, 2)),
    "unflatten empty sizes": lambda L: x46(L).unflatten(1, ()),
    "unflatten bad dim": lambda L: x46(L).unflatten(2, (1, 6)),
    "sum_to_size": lambda L: x46(L).reshape(2, 2, 6).sum_to_size(2, 1),
    "sum_to_size keep": lambda L: x46(L).sum_to_size(4, 1),
    "sum_to_size tuple": lambda L: x46(L).sum_to_size((1, 6)),
    "sum_to_size lead": lambda L: x46(L).sum_to_size(6),
    "sum_to_size same": lambda L: x46(L).sum_to_size(4, 6),
    "sum_to_size bad": lambda L: x46(L).sum_to_size(3, 1),
    "sum_to_size longer": lambda L: x46(L).sum_to_size(2, 4, 1),
    "diagflat": lambda L: L.diagflat(L.ones(3, requires_grad=True)),
    "diagflat matrix": lambda L: L.diagflat(x46(L)[:2, :2], 1),
    "diagflat method": lambda L: L.arange(3).diagflat(-1),
    "diagflat transposed": lambda L: x46(L)[:2, :3].t().diagflat(),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRAD_CASES: dict[str, Callable[[ModuleType, Any], Any]] = {
    "atleast_3d": lambda L, x: L.atleast_3d(x[0]),
    "dstack": lambda L, x: L.dstack([x, x * 2]),
    "tensor_split": lambda L, x: L.tensor_split(x, 3, 1),
    "hsplit": lambda L, x: L.hsplit(x, [1, 3]),
    "vsplit": lambda L, x: x.vsplit([2]),
    "dsplit": lambda L, x: x.reshape(3, 2, 2).dsplit(2),
    "split_with_sizes": lambda L, x: x.split_with_sizes([1, 3], 1),
    "fliplr": lambda L, x: L.fliplr(x),
    "flipud": lambda L, x: x.flipud(),
    "unflatten": lambda L, x: x.unflatten(1, (2, 2)),
    "sum_to_size": lambda L, x: x.sum_to_size(1, 4),
    "sum_to_size lead": lambda L, x: x.reshape(3, 2, 2).sum_to_size(2, 1),
    "diagflat": lambda L, x: L.diagflat(x, -2),
}


@pytest.mark.parametrize("case", list(GRAD_CASES))
def test_gradients_match_pytorch_in_float64(case: str, torch_module: ModuleType) -> None:
    compare_gradients(GRAD_CASES[case], torch_module)
