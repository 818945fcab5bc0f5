"""walkg: torch.index_reduce, Tensor.index_reduce and Tensor.index_reduce_ (prod, mean, amax,
amin; include_self) against PyTorch: values, dtypes, grad_fn names, float64 gradients of the
input and of source (zeros in prod, ties in amax/amin), finite differences, and errors."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.walka_harness import compare

pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore:index_reduce")]

A = np.array([[1.5, -2.0, 0.5, 3.0], [0.0, 1.0, -1.5, 2.0], [2.5, 0.25, 1.0, -0.5]])
S = np.array([[2.0, 0.0, -1.0, 0.5], [-3.0, 1.5, 0.0, 2.0], [0.5, 0.0, 4.0, -2.0]])
IDX = [0, 2, 0]
REDUCES = ["prod", "mean", "amax", "amin"]


def a(L: ModuleType, dtype: str = "float64") -> Any:
    return L.tensor(A, dtype=getattr(L, dtype))


def s(L: ModuleType, dtype: str = "float64") -> Any:
    return L.tensor(S, dtype=getattr(L, dtype))


def idx(L: ModuleType, values: list[int] = IDX) -> Any:
    return L.tensor(values)


CASES: dict[str, Callable[[ModuleType], Any]] = {
    **{
        f"{r} include_self={inc}": (
            lambda L, r=r, inc=inc: L.index_reduce(a(L), 0, idx(L), s(L), r, include_self=inc)
        )
        for r in REDUCES
        for inc in (True, False)
    },
    **{
        f"{r} dim=1": (
            lambda L, r=r: L.index_reduce(a(L), 1, idx(L, [3, 1, 3, 0]), s(L)[:, [1, 0, 2, 3]], r)
        )
        for r in REDUCES
    },
    "dim=-1 include_self=False": lambda L: L.index_reduce(
        a(L), -1, idx(L, [1, 1]), s(L)[:, :2], "mean", include_self=False
    ),
    "float32": lambda L: L.index_reduce(a(L, "float32"), 0, idx(L), s(L, "float32"), "prod"),
    "float16 mean": lambda L: L.index_reduce(a(L, "float16"), 0, idx(L), s(L, "float16"), "mean"),
    "int32 index": lambda L: L.index_reduce(a(L), 0, idx(L).int(), s(L), "amax"),
    "int64 mean": lambda L: L.index_reduce(
        L.tensor([5, 7, 9, -5]), 0, idx(L, [0, 0, 1, 3, 3]), L.tensor([2, 3, -4, -4, 0]), "mean"
    ),
    "int64 mean include_self=False": lambda L: L.index_reduce(
        L.tensor([5, 7, 9, -5]),
        0,
        idx(L, [0, 0, 3, 3]),
        L.tensor([2, 3, -4, -5]),
        "mean",
        include_self=False,
    ),
    "int64 prod": lambda L: L.index_reduce(
        L.tensor([2, 3]), 0, idx(L, [1, 1]), L.tensor([4, 5]), "prod"
    ),
    "bool 2-d amax": lambda L: L.index_reduce(a(L) > 0, 0, idx(L), s(L) > 0, "amax"),
    "bool 2-d amin": lambda L: L.index_reduce(a(L) > 0, 1, idx(L, [1]), s(L)[:, :1] > 0, "amin"),
    "bool 1-d amax": lambda L: L.index_reduce(
        L.tensor([True, False]), 0, idx(L, [1]), L.tensor([True]), "amax"
    ),
    "1-d": lambda L: L.index_reduce(a(L)[0], 0, idx(L, [3, 3, 0]), s(L)[1, :3], "amin"),
    "0-d": lambda L: L.index_reduce(L.tensor(1.5), 0, idx(L, [0]), L.tensor(2.0), "prod"),
    "empty index": lambda L: L.index_reduce(
        a(L), 0, idx(L, []), L.ones(0, 4, dtype=L.float64), "prod"
    ),
    "keywords": lambda L: L.index_reduce(
        input=a(L), dim=0, index=idx(L), source=s(L), reduce="amax", include_self=False
    ),
    "out=": lambda L: L.index_reduce(
        a(L), 0, idx(L), s(L), "mean", out=L.empty(3, 4, dtype=L.float64)
    ),
    "method": lambda L: a(L).index_reduce(0, idx(L), s(L), "amin"),
    "method keywords": lambda L: a(L).index_reduce(dim=0, index=idx(L), source=s(L), reduce="mean"),
    "in-place": lambda L: a(L).index_reduce_(0, idx(L), s(L), "prod", include_self=False),
    "in-place non-leaf": lambda L: (a(L).requires_grad_() * 1).index_reduce_(
        0, idx(L), s(L), "amax"
    ),
    "requires grad": lambda L: L.index_reduce(a(L).requires_grad_(), 0, idx(L), s(L), "prod"),
    "source requires grad": lambda L: L.index_reduce(
        a(L), 0, idx(L), s(L).requires_grad_(), "mean"
    ),
    # errors
    "reduce sum": lambda L: L.index_reduce(a(L), 0, idx(L), s(L), "sum"),
    "reduce int": lambda L: L.index_reduce(a(L), 0, idx(L), s(L), 3),
    "float index": lambda L: L.index_reduce(a(L), 0, idx(L).double(), s(L), "prod"),
    "2-d index": lambda L: L.index_reduce(a(L), 0, L.tensor([[0, 2, 0]]), s(L), "prod"),
    "index too large": lambda L: L.index_reduce(a(L), 0, idx(L, [0, 3, 0]), s(L), "prod"),
    "index negative": lambda L: L.index_reduce(a(L), 0, idx(L, [0, -1, 0]), s(L), "prod"),
    "number of indices": lambda L: L.index_reduce(a(L), 0, idx(L, [0, 1]), s(L), "prod"),
    "number of indices dim=1": lambda L: L.index_reduce(a(L), 1, idx(L), s(L), "prod"),
    "dim out of range": lambda L: L.index_reduce(a(L), 2, idx(L), s(L), "prod"),
    "dtypes differ": lambda L: L.index_reduce(a(L), 0, idx(L), s(L, "float32"), "prod"),
    "shapes differ": lambda L: L.index_reduce(a(L), 0, idx(L), s(L)[:, :3], "prod"),
    "source 0-d": lambda L: L.index_reduce(
        a(L)[0], 0, idx(L, [0]), L.tensor(2.0, dtype=L.float64), "prod"
    ),
    "source list": lambda L: L.index_reduce(a(L), 0, idx(L), [1.0], "prod"),
    "dim float": lambda L: L.index_reduce(a(L), 0.5, idx(L), s(L), "prod"),
    "include_self int": lambda L: L.index_reduce(a(L), 0, idx(L), s(L), "prod", include_self=1),
    "include_self positional": lambda L: L.index_reduce(a(L), 0, idx(L), s(L), "prod", True),
    "in-place leaf": lambda L: a(L).requires_grad_().index_reduce_(0, idx(L), s(L), "amax"),
    "in-place reduce": lambda L: a(L).index_reduce_(0, idx(L), s(L), "max"),
    "method list source": lambda L: a(L).index_reduce(0, idx(L), [1.0], "max"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


TIES = np.array([[2.0, 1.0, -1.0, 0.5], [2.0, 1.5, -1.0, 2.0], [0.5, 1.0, 4.0, 2.0]])

GRADS: dict[str, tuple[str, bool, Any, Any, int]] = {
    # name: (reduce, include_self, input, source, dim)
    **{f"{r} include_self={inc}": (r, inc, A, S, 0) for r in REDUCES for inc in (True, False)},
    "prod two zeros at one place": ("prod", True, A, S, 0),
    "prod zero in input": ("prod", False, A, S + 5.0, 0),
    "amax ties": ("amax", True, np.maximum(A, 2.0), TIES, 0),
    "amin ties include_self=False": ("amin", False, A, -TIES, 0),
    "amax ties with input": ("amax", True, np.full((3, 4), 2.0), TIES, 0),
    "mean dim=1": ("mean", True, A, S, 1),
}


def _run(L: ModuleType, case: str) -> tuple[Any, Any, Any]:
    reduce, include_self, values, source, dim = GRADS[case]
    t = L.tensor(values, dtype=L.float64).requires_grad_()
    src = L.tensor(source, dtype=L.float64).requires_grad_()
    index = idx(L) if dim == 0 else idx(L, [3, 1, 3, 0])
    out = L.index_reduce(t, dim, index, src, reduce, include_self=include_self)
    w = L.tensor(np.linspace(-1.0, 2.0, out.numel()).reshape(3, 4), dtype=L.float64)
    (out * w).sum().backward()
    return out, t.grad.numpy(), src.grad.numpy()


@pytest.mark.parametrize("case", list(GRADS))
def test_float64_gradients(case: str, torch_module: ModuleType) -> None:
    (m_out, m_a, m_s), (t_out, t_a, t_s) = _run(microtorch, case), _run(torch_module, case)
    np.testing.assert_allclose(m_out.detach().numpy(), t_out.detach().numpy(), rtol=1e-12)
    np.testing.assert_allclose(m_a, t_a, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(m_s, t_s, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
def test_finite_differences(reduce: str, include_self: bool) -> None:
    rng = np.random.default_rng(1)  # distinct values: no ties, no zeros
    t = microtorch.tensor(rng.normal(size=(3, 4)), dtype=microtorch.float64).requires_grad_()
    src = microtorch.tensor(rng.normal(size=(3, 4)), dtype=microtorch.float64).requires_grad_()
    index = idx(microtorch)

    def fn(x: Any, y: Any) -> Any:
        return microtorch.index_reduce(x, 0, index, y, reduce, include_self=include_self)

    assert microtorch.autograd.gradcheck(fn, (t, src))


def test_in_place_gradient_flows_to_the_input(torch_module: ModuleType) -> None:
    grads = []
    for L in (microtorch, torch_module):
        t = a(L).requires_grad_()
        src = s(L).requires_grad_()
        out = (t * 2).index_reduce_(0, idx(L), src, "prod")
        (out * L.arange(12, dtype=L.float64).reshape(3, 4)).sum().backward()
        grads.append((t.grad.numpy(), src.grad.numpy(), out.grad_fn.name()))
    np.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-12)
    np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-12)
    assert grads[0][2] == grads[1][2]


def test_prod_second_derivative_refused_as_pytorch_where_two_zeros_meet(
    torch_module: ModuleType,
) -> None:
    # PyTorch's first derivative is fine; its second, for source, raises (a DelayedError)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = torch_module.tensor(A).requires_grad_()
        src = torch_module.tensor(S).requires_grad_()
        out = torch_module.index_reduce(t, 0, torch_module.tensor(IDX), src, "prod")
        (g,) = torch_module.autograd.grad(out.sum(), src, create_graph=True)
        with pytest.raises(RuntimeError, match="Double backward is unsupported"):
            g.sum().backward()
    m_t, m_src = a(microtorch).requires_grad_(), s(microtorch).requires_grad_()
    out = microtorch.index_reduce(m_t, 0, idx(microtorch), m_src, "prod")
    with pytest.raises(RuntimeError):
        (g,) = microtorch.autograd.grad(out.sum(), m_src, create_graph=True)
        g.sum().backward()
