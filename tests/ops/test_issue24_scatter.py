"""Issue 24: gather, scatter (and the one-hot ``scatter_``), scatter_add and scatter_reduce,
functions, methods and in-place twins, against PyTorch: values, dtypes, grad_fn names,
float64 gradients and errors. (Random-input gradients: tests/ops/optable.py.)
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


def x23(L: ModuleType, **kw: Any) -> Any:
    return L.arange(6.0, **kw).reshape(2, 3)


def i(L: ModuleType, rows: Any) -> Any:
    return L.tensor(rows)


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "gather": lambda L: x23(L).gather(1, i(L, [[0, 0], [2, 1]])),
    "gather dim 0": lambda L: L.gather(x23(L), 0, i(L, [[1, 0, 1]])),
    "gather dim -1": lambda L: x23(L).gather(-1, i(L, [[0], [2]])),
    "gather int32 index": lambda L: x23(L).gather(1, i(L, [[0], [2]]).int()),
    "gather int input": lambda L: L.arange(6).reshape(2, 3).gather(1, i(L, [[2], [0]])),
    "gather keywords": lambda L: L.gather(input=x23(L), dim=1, index=i(L, [[1], [1]])),
    "gather wider": lambda L: x23(L).gather(1, i(L, [[0, 0, 0, 0]])),
    "gather empty": lambda L: x23(L).gather(1, L.zeros(2, 0, dtype=L.long)),
    "gather out of bounds": lambda L: x23(L).gather(1, i(L, [[5]])),
    "gather negative index": lambda L: x23(L).gather(1, i(L, [[-1]])),
    "gather float index": lambda L: x23(L).gather(1, i(L, [[0.0]])),
    "gather ndim": lambda L: x23(L).gather(1, i(L, [[[0]]])),
    "gather too big": lambda L: x23(L).gather(1, i(L, [[0], [1], [2]])),
    "gather bad dim": lambda L: x23(L).gather(2, i(L, [[0]])),
    "gather not a tensor": lambda L: L.gather([1.0], 0, i(L, [0])),
    "gather out=": lambda L: L.gather(x23(L), 1, i(L, [[0], [1]]), out=L.empty(2, 1)),
    "one-hot scatter_": lambda L: L.zeros(4, 3).scatter_(1, i(L, [1, 0, 2, 1]).unsqueeze(1), 1),
    "scatter value": lambda L: L.zeros(2, 3).scatter(1, i(L, [[0], [2]]), 1.5),
    "scatter value=": lambda L: L.zeros(2, 3).scatter(1, i(L, [[0], [2]]), value=2),
    "scatter value into long": lambda L: L.zeros(2, 3, dtype=L.long).scatter(
        1, i(L, [[0], [2]]), 1.5
    ),
    "scatter src": lambda L: L.zeros(2, 3).scatter(0, i(L, [[1, 0, 1]]), L.ones(1, 3) * 7),
    "scatter src larger": lambda L: L.zeros(2, 3).scatter(1, i(L, [[0, 2]]), x23(L)),
    "scatter function": lambda L: L.scatter(L.zeros(3), 0, i(L, [2]), L.tensor([5.0])),
    "scatter_ returns self": lambda L: (lambda t: t.scatter_(0, i(L, [1]), 3.0) is t)(L.zeros(2)),
    "scatter src dtype": lambda L: L.zeros(2, 3).scatter(
        1, i(L, [[0], [2]]), L.ones(2, 1, dtype=L.float64)
    ),
    "scatter out of bounds": lambda L: L.zeros(2, 3).scatter(1, i(L, [[3], [0]]), 1),
    "scatter float index": lambda L: L.zeros(2, 3).scatter(1, i(L, [[0.0]]), 1),
    "scatter src too small": lambda L: L.zeros(2, 3).scatter(1, i(L, [[0], [2]]), L.ones(1, 1)),
    "scatter src ndim": lambda L: L.zeros(2, 3).scatter(1, i(L, [[0], [2]]), L.ones(2)),
    "scatter 0-d src": lambda L: L.zeros(2, 3).scatter(1, i(L, [[0], [2]]), L.tensor(2.0)),
    "scatter str": lambda L: L.zeros(2, 3).scatter(1, i(L, [[0]]), "a"),
    "scatter bad dim": lambda L: L.zeros(2, 3).scatter(5, i(L, [[0]]), 1),
    "scatter leaf": lambda L: L.zeros(2, requires_grad=True).scatter_(0, i(L, [1]), 1.0),
    "scatter_add": lambda L: L.ones(2, 3).scatter_add(1, i(L, [[0, 0, 2]]), x23(L)[:1]),
    "scatter_add_": lambda L: L.zeros(5).scatter_add_(0, i(L, [0, 1, 0, 4]), L.ones(4)),
    "scatter_add int": lambda L: L.zeros(3, dtype=L.long).scatter_add(
        0, i(L, [0, 0]), i(L, [2, 3])
    ),
    "scatter_add number": lambda L: L.zeros(2, 3).scatter_add(1, i(L, [[0]]), 1),
    "scatter_add dtype": lambda L: L.zeros(3).scatter_add(0, i(L, [0]), L.ones(1).double()),
}
for _reduce in ("sum", "prod", "mean", "amax", "amin"):
    for _self in (True, False):
        CASES[f"scatter_reduce {_reduce} include_self={_self}"] = (
            lambda L, r=_reduce, s=_self: (x23(L) + 1).scatter_reduce(
                1, i(L, [[0, 0, 2, 0], [1, 1, 1, 0]]), L.tensor([[3.0, -1, 4, 2], [5, 6, -2, 7]]),
                r, include_self=s,
            )
        )  # fmt: skip
    CASES[f"scatter_reduce {_reduce} int"] = lambda L, r=_reduce: L.tensor(
        [[1, 2, 3], [4, 5, 6]]
    ).scatter_reduce(1, i(L, [[0, 0], [2, 2]]), L.tensor([[7, 2], [-3, 4]]), r)
CASES |= {
    "scatter_reduce_": lambda L: L.zeros(3).scatter_reduce_(0, i(L, [0, 0]), L.ones(2), "sum"),
    "scatter_reduce bad reduce": lambda L: L.zeros(3).scatter_reduce(0, i(L, [0]), L.ones(1), "x"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRAD_CASES: dict[str, Callable[[ModuleType, Any, Any], Any]] = {
    "gather repeated": lambda L, x, s: x.gather(1, i(L, [[0, 0, 0], [2, 1, 2]])),
    "scatter": lambda L, x, s: x.scatter(1, i(L, [[2, 0, 1], [0, 1, 2]]), s),
    "scatter value": lambda L, x, s: x.scatter(1, i(L, [[2], [0]]), 0.25),
    "scatter_add repeated": lambda L, x, s: x.scatter_add(0, i(L, [[1, 1, 0], [1, 0, 0]]), s),
    "scatter_reduce sum": lambda L, x, s: x.scatter_reduce(1, i(L, [[0, 0, 2]] * 2), s, "sum"),
    "scatter_reduce mean": lambda L, x, s: x.scatter_reduce(1, i(L, [[0, 0, 2]] * 2), s, "mean"),
    "scatter_reduce mean without self": lambda L, x, s: x.scatter_reduce(
        1, i(L, [[0, 0, 2]] * 2), s, "mean", include_self=False
    ),
    "scatter_reduce sum without self": lambda L, x, s: x.scatter_reduce(
        0, i(L, [[1, 1, 0], [1, 0, 0]]), s, "sum", include_self=False
    ),
    "scatter_ on a graph tensor": lambda L, x, s: (x * 1).scatter_(1, i(L, [[1], [0]]), s[:, :1]),
}


@pytest.mark.parametrize("case", list(GRAD_CASES))
def test_gradients_match_pytorch_in_float64(case: str, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> tuple[Any, ...]:
        x = L.tensor([[0.5, -1.0, 2.0], [3.0, 0.25, -2.0]], dtype=L.float64, requires_grad=True)
        s = L.tensor([[1.5, 2.5, -0.5], [4.0, -3.0, 1.0]], dtype=L.float64, requires_grad=True)
        out = GRAD_CASES[case](L, x, s)
        weights = L.arange(out.numel(), dtype=L.float64).reshape(out.shape) - 2.5
        (out * weights).sum().backward()
        return out, out.grad_fn.name(), x.grad, s.grad

    mt, t = run(microtorch), run(torch_module)
    np.testing.assert_allclose(mt[0].detach().numpy(), t[0].detach().numpy(), rtol=1e-12)
    assert mt[1] == t[1]
    for m_grad, t_grad in zip(mt[2:], t[2:]):
        assert (m_grad is None) == (t_grad is None)
        if t_grad is not None:
            np.testing.assert_allclose(m_grad.numpy(), t_grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("reduce", ["prod", "amax", "amin"])
def test_scatter_reduce_without_a_gradient_formula_refuses_a_graph(reduce: str) -> None:
    x = microtorch.ones(3, requires_grad=True)
    with pytest.raises(NotImplementedError, match=reduce):
        x.scatter_reduce(0, microtorch.tensor([0]), microtorch.ones(1), reduce)
    with microtorch.no_grad():
        assert x.scatter_reduce(0, microtorch.tensor([0]), microtorch.ones(1), reduce).shape == (3,)


def test_zero_dimensional_tensors_are_refused_clearly() -> None:
    with pytest.raises(NotImplementedError, match="one or more dimensions"):
        microtorch.tensor(1.0).gather(0, microtorch.tensor(0))
