"""Issue 24 (walka): rot90, take, take_along_dim, put/put_, index_put/index_put_,
masked_scatter/masked_scatter_, fill_diagonal_, fill/fill_ and block_diag against PyTorch:
values, dtypes, grad_fn names, float64 gradients and errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests.ops.walka_harness import compare, compare_gradients

pytestmark = pytest.mark.torch


def r(L: ModuleType, *shape: int, grad: bool = True) -> Any:
    n = int(np.prod(shape))
    values = np.cos(np.arange(n) * 1.3).reshape(shape)
    return L.tensor(values, dtype=L.float64, requires_grad=grad)


def idx(L: ModuleType, *values: Any) -> Any:
    return L.tensor(list(values))


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "rot90": lambda L: L.rot90(r(L, 3, 4)),
    "rot90 twice": lambda L: r(L, 3, 4).rot90(2),
    "rot90 negative": lambda L: L.rot90(r(L, 3, 4), -1),
    "rot90 five": lambda L: L.rot90(r(L, 3, 4), 5, [1, 0]),
    "rot90 dims": lambda L: L.rot90(r(L, 2, 3, 4), 1, [0, 2]),
    "rot90 0": lambda L: L.rot90(r(L, 3, 4), 0),
    "rot90 one dim": lambda L: L.rot90(r(L, 2, 3), 1, [0]),
    "rot90 same dims": lambda L: L.rot90(r(L, 2, 3), 1, [0, 0]),
    "rot90 1-d": lambda L: L.rot90(r(L, 3)),
    "rot90 bad dim": lambda L: L.rot90(r(L, 2, 3), 1, [0, 5]),
    "take": lambda L: L.take(r(L, 3, 4), idx(L, 0, 5, 5)),
    "take negative 2-d": lambda L: r(L, 3, 4).take(L.tensor([[-1, 0]])),
    "take int": lambda L: L.take(L.arange(6).reshape(2, 3), idx(L, 4)),
    "take out of range": lambda L: L.take(r(L, 3, 4), idx(L, 12)),
    "take float index": lambda L: L.take(r(L, 3, 4), L.tensor([1.0])),
    "take int32 index": lambda L: L.take(r(L, 3, 4), L.tensor([1], dtype=L.int32)),
    "take_along_dim": lambda L: L.take_along_dim(r(L, 3, 4), L.tensor([[0], [1], [2]]), dim=1),
    "take_along_dim argsort": lambda L: r(L, 3, 4).take_along_dim(r(L, 3, 4).argsort(0), 0),
    "take_along_dim broadcast": lambda L: L.take_along_dim(r(L, 3, 4), L.tensor([[0, 2]]), 1),
    "take_along_dim flat": lambda L: L.take_along_dim(r(L, 3, 4), L.tensor([[0, 11]])),
    "take_along_dim sizes": lambda L: L.take_along_dim(r(L, 3, 4), L.tensor([[0, 1]]), dim=0),
    "take_along_dim ndim": lambda L: L.take_along_dim(r(L, 3, 4), idx(L, 0, 1), dim=0),
    "take_along_dim float": lambda L: L.take_along_dim(r(L, 3, 4), L.tensor([[0.0]]), 1),
    "put": lambda L: r(L, 3, 4).put(idx(L, 0, 5), r(L, 2)),
    "put accumulate": lambda L: r(L, 3, 4).put(idx(L, 0, 0), r(L, 2), accumulate=True),
    "torch.put": lambda L: L.put(r(L, 3, 4), L.tensor([[1]]), r(L, 1, 1)),
    "put counts": lambda L: r(L, 3, 4).put(idx(L, 0, 5), r(L, 3)),
    "put out of range": lambda L: r(L, 3, 4).put(idx(L, 12), r(L, 1)),
    "put dtypes": lambda L: r(L, 3, 4).put(idx(L, 1), L.ones(1)),
    "put_": lambda L: (r(L, 3, 4) * 1).put_(idx(L, 1, -1), r(L, 2)),
    "put_ leaf": lambda L: r(L, 3, 4).put_(idx(L, 1), r(L, 1)),
    "put_ int": lambda L: L.arange(6).put_(idx(L, 1, 1), idx(L, 5, 7), True),
    "index_put": lambda L: r(L, 3, 4).index_put((idx(L, 0, 1),), r(L, 4)),
    "index_put accumulate": lambda L: r(L, 3, 4).index_put(
        (idx(L, 0, 1, 0), idx(L, 1, 1, 1)), r(L, 3), accumulate=True
    ),
    "torch.index_put list": lambda L: L.index_put(r(L, 3, 4), [idx(L, 2)], r(L, 4)),
    "index_put mask": lambda L: L.index_put(
        r(L, 3, 4), (r(L, 3, 4) > 0,), L.tensor(1.0, dtype=L.float64)
    ),
    "index_put tensor": lambda L: r(L, 3, 4).index_put(idx(L, 0, 1), r(L, 4)),
    "index_put shapes": lambda L: r(L, 3, 4).index_put((idx(L, 0, 1),), r(L, 3)),
    "index_put dtypes": lambda L: r(L, 3, 4).index_put((idx(L, 0, 1),), L.ones(4)),
    "index_put_": lambda L: (r(L, 3, 4) * 1).index_put_((idx(L, 0, 1),), r(L, 4)),
    "index_put_ accumulate": lambda L: (r(L, 3, 4) * 1).index_put_(
        (idx(L, 0, 0),), r(L, 4), accumulate=True
    ),
    "torch.index_put_": lambda L: L.index_put_(r(L, 3, 4, grad=False), (idx(L, 1),), r(L, 4)),
    "masked_scatter": lambda L: r(L, 3, 4).masked_scatter(r(L, 3, 4) > 0, r(L, 12)),
    "masked_scatter broadcast": lambda L: L.masked_scatter(
        r(L, 3, 4), L.tensor([True, False, True, False]), r(L, 3, 4)
    ),
    "masked_scatter short": lambda L: r(L, 3, 4).masked_scatter(r(L, 3, 4) > -10, r(L, 5)),
    "masked_scatter float mask": lambda L: r(L, 3, 4).masked_scatter(L.ones(3, 4), r(L, 12)),
    "masked_scatter dtypes": lambda L: r(L, 3, 4).masked_scatter(r(L, 3, 4) > 0, L.ones(12)),
    "masked_scatter_": lambda L: (r(L, 3, 4) * 1).masked_scatter_(r(L, 3, 4) > 0, r(L, 12)),
    "masked_scatter_ mask bigger": lambda L: (r(L, 4) * 1).masked_scatter_(
        r(L, 3, 4) > 0, r(L, 12)
    ),
    "fill_diagonal_": lambda L: (r(L, 3, 4) * 1).fill_diagonal_(2.0),
    "fill_diagonal_ tall": lambda L: L.zeros(7, 3).fill_diagonal_(5),
    "fill_diagonal_ wrap": lambda L: L.zeros(7, 3).fill_diagonal_(5, wrap=True),
    "fill_diagonal_ wrap grad": lambda L: (r(L, 7, 3) * 1).fill_diagonal_(5, wrap=True),
    "fill_diagonal_ cube": lambda L: L.zeros(3, 3, 3).fill_diagonal_(5),
    "fill_diagonal_ unequal": lambda L: L.zeros(3, 2, 3).fill_diagonal_(5),
    "fill_diagonal_ 1-d": lambda L: L.zeros(3).fill_diagonal_(5),
    "fill_diagonal_ int": lambda L: L.zeros(3, 3, dtype=L.int64).fill_diagonal_(2.7),
    "fill": lambda L: L.fill(r(L, 3, 4), 2),
    "fill tensor": lambda L: L.fill(r(L, 3, 4), L.tensor(2.0)),
    "fill 1-d tensor": lambda L: L.fill(r(L, 3, 4), L.tensor([2.0])),
    "fill int": lambda L: L.fill(L.arange(3), 2.7),
    "fill_": lambda L: L.fill_(r(L, 3, 4) * 1, 2),
    "fill_ leaf": lambda L: L.fill_(r(L, 3, 4), 2),
    "block_diag": lambda L: L.block_diag(r(L, 2), r(L, 2, 3), L.tensor(2.0, dtype=L.float64)),
    "block_diag dtypes": lambda L: L.block_diag(L.ones(2, dtype=L.int64), L.ones(1, 1)),
    "block_diag ints": lambda L: L.block_diag(L.arange(4).reshape(2, 2), L.arange(3)),
    "block_diag 3-d": lambda L: L.block_diag(r(L, 2, 2, 2)),
    "block_diag none": lambda L: L.block_diag(),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRAD_CASES: dict[str, Callable[[ModuleType, Any], Any]] = {
    "rot90": lambda L, x: L.rot90(x, 1),
    "rot90 3": lambda L, x: x.rot90(3, [1, 0]),
    "take": lambda L, x: L.take(x, L.tensor([[0, 5], [5, -1]])),
    "take_along_dim": lambda L, x: L.take_along_dim(x, L.tensor([[0, 1, 1, 2]]), 0),
    "take_along_dim flat": lambda L, x: L.take_along_dim(x, L.tensor([3, 3, 7])),
    "put": lambda L, x: L.put(x, L.tensor([0, 5]), x[2, :2] * 2),
    "put accumulate": lambda L, x: x.put(L.tensor([1, 1]), x[0, :2] * 3, accumulate=True),
    "put_": lambda L, x: (x * 1).put_(L.tensor([4]), x[0, :1] * 3),
    "index_put": lambda L, x: x.index_put((L.tensor([0, 2]),), x[1] * 2),
    "index_put accumulate": lambda L, x: x.index_put(
        (L.tensor([0, 0]), L.tensor([3, 3])), x[1, :2] * 2, accumulate=True
    ),
    "index_put_": lambda L, x: (x * 1).index_put_((L.tensor([1]),), x[0] * 2),
    "masked_scatter": lambda L, x: x.masked_scatter(x > 0, x.flip(0) * 2),
    "masked_scatter_": lambda L, x: (x * 1).masked_scatter_(x < 0.5, x * 3),
    "fill_diagonal_": lambda L, x: (x * 1).fill_diagonal_(0.5),
    "fill": lambda L, x: L.fill(x, 2.0) + x,
    "fill_": lambda L, x: L.fill_(x * 1, 3.0),
    "block_diag": lambda L, x: L.block_diag(x, x[0], x[1, 1]),
}


@pytest.mark.parametrize("case", list(GRAD_CASES))
def test_gradients_match_pytorch_in_float64(case: str, torch_module: ModuleType) -> None:
    compare_gradients(GRAD_CASES[case], torch_module)
