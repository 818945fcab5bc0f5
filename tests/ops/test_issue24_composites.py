"""Issue 24: broadcast_to, narrow, movedim/moveaxis, hstack/vstack/column_stack, outer,
count_nonzero, argwhere, clamp_min/clamp_max (+ twins) and nan_to_num (+ twin), against
PyTorch: values, dtypes, grad_fn names (and the graph's next nodes), float64 gradients, errors.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.test_issue13_operators import compare

pytestmark = pytest.mark.torch


def x23(L: ModuleType) -> Any:
    return L.tensor([[0.5, -1.0, 2.0], [3.0, 0.0, -2.0]], requires_grad=True)


INF, NAN = float("inf"), float("nan")
CASES: dict[str, Callable[[ModuleType], Any]] = {
    "broadcast_to": lambda L: L.broadcast_to(x23(L), (4, 2, 3)),
    "broadcast_to method": lambda L: L.tensor([1, 2]).broadcast_to((3, 2)),
    "broadcast_to bad": lambda L: L.broadcast_to(x23(L), (2, 4)),
    "narrow": lambda L: x23(L).narrow(1, 0, 2),
    "narrow function": lambda L: L.narrow(x23(L), 0, 1, 1),
    "narrow negative start": lambda L: x23(L).narrow(1, -1, 1),
    "narrow start out of range": lambda L: x23(L).narrow(1, 5, 1),
    "narrow too long": lambda L: x23(L).narrow(1, 1, 3),
    "movedim": lambda L: L.movedim(L.ones(2, 3, 4), 0, -1).shape,
    "movedim several": lambda L: L.movedim(L.ones(2, 3, 4), (0, 1), (2, 0)).shape,
    "moveaxis": lambda L: L.moveaxis(x23(L), 0, 1),
    "movedim method": lambda L: x23(L).movedim(1, 0),
    "movedim bad dim": lambda L: L.movedim(x23(L), 0, 3),
    "hstack": lambda L: L.hstack([x23(L), x23(L)]),
    "hstack 1-d": lambda L: L.hstack((L.ones(2), L.zeros(3))),
    "hstack empty": lambda L: L.hstack([]),
    "vstack": lambda L: L.vstack([x23(L), x23(L)[0]]),
    "vstack 1-d": lambda L: L.vstack([L.ones(3), L.zeros(3)]),
    "vstack sizes": lambda L: L.vstack([x23(L), L.ones(2)]),
    "column_stack": lambda L: L.column_stack([x23(L)[0], x23(L)[1]]),
    "column_stack mixed": lambda L: L.column_stack([x23(L).T, L.ones(3)]),
    "outer": lambda L: L.outer(x23(L)[0], x23(L)[1]),
    "outer method": lambda L: L.arange(3).outer(L.arange(2)),
    "count_nonzero": lambda L: L.count_nonzero(L.tensor([[0, 1], [2, 0]])),
    "count_nonzero dim": lambda L: L.count_nonzero(L.tensor([[0, 1], [2, 0.5]]), dim=1),
    "count_nonzero method": lambda L: L.tensor([True, False, True]).count_nonzero(),
    "argwhere": lambda L: L.argwhere(L.tensor([[0, 1], [2, 0]])),
    "argwhere method": lambda L: L.tensor([0.0, 3.0]).argwhere(),
    "clamp_min": lambda L: x23(L).clamp_min(0.0),
    "clamp_max": lambda L: L.clamp_max(x23(L), 0.5),
    "clamp_min int": lambda L: L.tensor([-2, 3]).clamp_min(0),
    "clamp_min int float bound": lambda L: L.tensor([-2, 3]).clamp_min(0.5),
    "clamp_min_": lambda L: L.tensor([-1.0, 2.0]).clamp_min_(0),
    "clamp_max_": lambda L: L.tensor([-1.0, 2.0]).clamp_max_(1),
    "nan_to_num": lambda L: L.nan_to_num(L.tensor([NAN, INF, -INF, 1.5])),
    "nan_to_num values": lambda L: L.tensor([NAN, INF, -INF]).nan_to_num(1.0, 2.0, -3.0),
    "nan_to_num float64": lambda L: L.nan_to_num(L.tensor([INF, -INF], dtype=L.float64)),
    "nan_to_num int": lambda L: L.nan_to_num(L.tensor([1, 2])),
    "nan_to_num grad": lambda L: L.nan_to_num(L.tensor([NAN, 2.0], requires_grad=True)),
    "nan_to_num_": lambda L: L.tensor([NAN, 1.0]).nan_to_num_(),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> Any:
        out = CASES[case](L)
        return L.tensor(list(out)) if type(out).__name__ == "Size" else out

    compare(run, torch_module)


GRAD_CASES: dict[str, Callable[[ModuleType, Any], Any]] = {
    "broadcast_to": lambda L, x: L.broadcast_to(x, (4, 2, 3, 2)),
    "narrow": lambda L, x: x.narrow(1, 1, 2),
    "movedim": lambda L, x: L.movedim(x, (0, 2), (2, 1)),
    "hstack": lambda L, x: L.hstack([x, x * 2]),
    "vstack": lambda L, x: L.vstack([x[0], x[1, 0]]),
    "column_stack": lambda L, x: L.column_stack([x[0, 0], x[1, 1]]),
    "outer": lambda L, x: L.outer(x[0, 0], x[1, 2]),
    "clamp_min": lambda L, x: x.clamp_min(0.1),
    "clamp_max": lambda L, x: x.clamp_max(-0.2),
    "clamp_min at a tie": lambda L, x: x.clamp_min(x.detach()[0, 0, 1].item()),
    "nan_to_num": lambda L, x: (x / (x - x.detach()[0, 0, 0])).nan_to_num(),
}


@pytest.mark.parametrize("case", list(GRAD_CASES))
def test_gradients_match_pytorch_in_float64(case: str, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> tuple[Any, ...]:
        x = L.tensor(np.linspace(-1.5, 2.0, 12).reshape(2, 3, 2), dtype=L.float64)
        x.requires_grad_()
        out = GRAD_CASES[case](L, x)
        weights = L.arange(out.numel(), dtype=L.float64).reshape(out.shape) - 2.5
        (out * weights).sum().backward()
        names = [n.name() if n is not None else None for n, _ in out.grad_fn.next_functions]
        return out.detach().numpy(), out.grad_fn.name(), names, x.grad.numpy()

    mt, t = run(microtorch), run(torch_module)
    np.testing.assert_allclose(mt[0], t[0], rtol=1e-12)
    assert mt[1] == t[1]
    assert [n.split("::")[-1] if n else n for n in mt[2]] == [
        n.split("::")[-1] if n else n for n in t[2]
    ]
    np.testing.assert_allclose(mt[3], t[3], rtol=1e-12)
