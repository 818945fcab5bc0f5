"""Issue 24: clamp_min / clamp_max (and their ``_`` twins, as functions and methods) with a
tensor bound, against PyTorch 2.13: values (ties and nan), broadcasting, type promotion,
grad_fn names (ClampMinBackward1 for a tensor bound, ClampMinBackward0 for a number), the
gradient to the input where the bound does not bind and to the bound where it does, the
in-place forms, PyTorch's errors, and second derivatives (create_graph=True).
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

NAN = float("nan")


def x6(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([1.0, NAN, 3.0, 2.0, -1.0, 0.5], **kw)


def m6(L: ModuleType, **kw: Any) -> Any:  # (ties with x6 at 2.0, a nan bound at 3.0)
    return L.tensor([2.0, 2.0, NAN, 2.0, -2.0, 0.5], **kw)


def rg(L: ModuleType, values: Any, dtype: str = "float32") -> Any:
    return L.tensor(values, dtype=getattr(L, dtype), requires_grad=True)


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "clamp_min": lambda L: L.clamp_min(x6(L), m6(L)),
    "clamp_max": lambda L: L.clamp_max(x6(L), m6(L)),
    "clamp_min keyword": lambda L: L.clamp_min(input=x6(L), min=m6(L)),
    "clamp_max method keyword": lambda L: x6(L).clamp_max(max=m6(L)),
    "clamp_min method": lambda L: x6(L).clamp_min(m6(L)),
    "clamp_min grad_fn": lambda L: L.clamp_min(rg(L, [1.0, 3.0]), rg(L, [2.0, 2.0])),
    "clamp_max grad_fn": lambda L: L.clamp_max(rg(L, [1.0, 3.0]), L.tensor([2.0, 2.0])),
    "clamp_min bound alone requires grad": lambda L: L.clamp_min(L.ones(2), rg(L, [2.0, 0.0])),
    "clamp_min number still Backward0": lambda L: L.clamp_min(rg(L, [1.0, 3.0]), 2.0),
    "broadcast": lambda L: L.clamp_min(L.tensor([1.0, 2.0, 3.0]), L.tensor([[1.5], [2.5]])),
    "broadcast bound smaller": lambda L: L.clamp_max(L.ones(2, 3), L.tensor([0.5, 1.0, 2.0])),
    "0-d bound": lambda L: L.clamp_max(L.tensor([1.0, 5.0]), L.tensor(3.0)),
    "int input float bound": lambda L: L.clamp_min(L.tensor([1, 2, 3]), L.tensor([2.5])),
    "int input 0-d float64 bound": lambda L: L.clamp_min(
        L.tensor([1, 2, 3]), L.tensor(2.5, dtype=L.float64)
    ),
    "int32 input 0-d int64 bound": lambda L: L.clamp_max(
        L.tensor([1, 5], dtype=L.int32), L.tensor(2)
    ),
    "uint8 input": lambda L: L.clamp_max(L.tensor([1, 5], dtype=L.uint8), L.tensor(3)),
    "float16 and float64": lambda L: L.clamp_max(
        L.tensor([1.0, 5.0], dtype=L.float16), L.tensor([3.0], dtype=L.float64)
    ),
    "float16 and 0-d float64": lambda L: L.clamp_min(
        L.tensor([1.0, 1.0], dtype=L.float16), L.tensor(1.0001, dtype=L.float64)
    ),
    "float input int bound": lambda L: L.tensor([1.0, 2.5]).clamp_max(L.tensor(2, dtype=L.int32)),
    "bool and int": lambda L: L.clamp_max(L.tensor([True, False]), L.tensor([1])),
    "int and bool": lambda L: L.clamp_max(L.tensor([1, 2, 3]), L.tensor([True])),
    "non-contiguous": lambda L: L.clamp_min(L.arange(6.0).reshape(2, 3).t(), L.tensor([1.0, 4.0])),
    "out=": lambda L: L.clamp_max(L.tensor([1.0, 5.0]), L.tensor(3.0), out=L.empty(2)),
    "out= int": lambda L: L.clamp_max(
        L.tensor([1.0, 5.0]), L.tensor(3.0), out=L.empty(2, dtype=L.int64)
    ),
    "sizes clash": lambda L: L.clamp_min(L.tensor([1.0, 2.0, 3.0]), L.tensor([1.0, 2.0])),
    "bound a str": lambda L: L.clamp_max(L.ones(2), "a"),
    "bound None": lambda L: L.clamp_max(L.ones(2), None),
    "bound a list": lambda L: L.clamp_min(L.ones(2), [1.0, 2.0]),
    "method bound a str": lambda L: L.ones(2).clamp_min("a"),
    # in place
    "clamp_min_": lambda L: L.tensor([1.0, 2.0, 3.0]).clamp_min_(L.tensor([2.5, 0.0, 3.5])),
    "clamp_max_ function": lambda L: L.clamp_max_(L.tensor([1.0, 2.0, 3.0]), L.tensor(2.5)),
    "clamp_min_ keyword": lambda L: L.tensor([1.0, 2.0]).clamp_min_(min=L.tensor([1.5, 1.5])),
    "clamp_min_ int": lambda L: L.tensor([1, 2, 3]).clamp_min_(L.tensor([2])),
    "clamp_min_ int float bound": lambda L: L.tensor([1, 2, 3]).clamp_min_(L.tensor(2.5)),
    "clamp_max_ int float64 bound": lambda L: L.clamp_max_(
        L.tensor([1, 2, 3]), L.tensor([2.5], dtype=L.float64)
    ),
    "clamp_min_ float64 bound into float32": lambda L: L.tensor([1.0, 3.0]).clamp_min_(
        L.tensor([2.5], dtype=L.float64)
    ),
    "clamp_min_ broadcast shape": lambda L: L.tensor([1.0, 2.0, 3.0]).clamp_min_(
        L.tensor([[1.0], [2.5]])
    ),
    "clamp_max_ graph": lambda L: (rg(L, [1.0, 5.0]) * 1).clamp_max_(rg(L, [3.0])),
    "clamp_max_ leaf": lambda L: rg(L, [1.0, 5.0]).clamp_max_(L.tensor([3.0])),
    "clamp_min_ bound a str": lambda L: L.clamp_min_(L.ones(2), "a"),
    "clamp_max_ method bound None": lambda L: L.ones(2).clamp_max_(None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


def test_the_grad_fn_names(torch_module: ModuleType) -> None:
    # (a tensor bound: Backward1; a number: Backward0; clamp with a tensor: ClampBackward0)
    for L in (microtorch, torch_module):
        x = L.tensor([1.0, 3.0], requires_grad=True)
        names = [
            L.clamp_min(x, L.tensor(2.0)).grad_fn.name(),
            L.clamp_max(x, L.tensor(2.0)).grad_fn.name(),
            x.clamp_min(2.0).grad_fn.name(),
            x.clamp_max(2.0).grad_fn.name(),
        ]
        assert names == [
            "ClampMinBackward1", "ClampMaxBackward1", "ClampMinBackward0", "ClampMaxBackward0"
        ]  # fmt: skip


GRADS: dict[str, tuple[Callable[..., Any], tuple[int, ...]]] = {
    # (fn, the bound's shape): x is (2, 3), with ties at 0.5 and 2.0
    "clamp_min": (lambda L, x, m: L.clamp_min(x, m), (2, 3)),
    "clamp_max": (lambda L, x, m: L.clamp_max(x, m), (2, 3)),
    "clamp_min broadcast": (lambda L, x, m: L.clamp_min(x, m), (3,)),
    "clamp_max broadcast column": (lambda L, x, m: x.clamp_max(m), (2, 1)),
    "clamp_min 0-d": (lambda L, x, m: x.clamp_min(m), ()),
    "clamp_max_ in place": (lambda L, x, m: (x * 1).clamp_max_(m), (3,)),
    "clamp_min_ function": (lambda L, x, m: L.clamp_min_(x * 1, m), (2, 3)),
}
BOUNDS = {
    (2, 3): [[0.5, 0.0, 2.5], [2.0, -1.0, 1.0]],
    (3,): [0.5, 0.0, 2.5],
    (2, 1): [[0.2], [2.0]],
    (): 1.0,
}


@pytest.mark.parametrize("case", list(GRADS))
def test_gradients_to_the_input_and_the_bound(case: str, torch_module: ModuleType) -> None:
    fn, shape = GRADS[case]

    def run(L: ModuleType) -> tuple[Any, ...]:
        x = L.tensor([[0.5, -1.0, 2.0], [3.0, 0.0, -2.0]], dtype=L.float64, requires_grad=True)
        m = L.tensor(BOUNDS[shape], dtype=L.float64, requires_grad=True)
        out = fn(L, x, m)
        weights = L.arange(out.numel(), dtype=L.float64).reshape(out.shape) + 1.0
        (out * weights).sum().backward()
        return out.detach().numpy(), out.grad_fn.name(), x.grad.numpy(), m.grad.numpy()

    mt, t = run(microtorch), run(torch_module)
    np.testing.assert_array_equal(mt[0], t[0])
    assert mt[1] == t[1]
    np.testing.assert_array_equal(mt[2], t[2])
    np.testing.assert_array_equal(mt[3], t[3])


def test_gradients_at_ties_and_nan(torch_module: ModuleType) -> None:
    # a tie goes to the input; a nan on either side sends nothing to either
    for name in ("clamp_min", "clamp_max"):
        got = []
        for L in (microtorch, torch_module):
            x, m = x6(L, requires_grad=True), m6(L, requires_grad=True)
            getattr(L, name)(x, m).backward(L.arange(1.0, 7.0))
            got.append((x.grad.tolist(), m.grad.tolist()))
        assert got[0] == got[1], name


def test_each_gradient_in_its_inputs_dtype(torch_module: ModuleType) -> None:
    got = []
    for L in (microtorch, torch_module):
        w = L.tensor([1.0, 5.0], dtype=L.float16, requires_grad=True)
        b = L.tensor([3.0], dtype=L.float64, requires_grad=True)
        out = L.clamp_max(w, b)
        out.backward(L.ones(2, dtype=out.dtype))
        nodes = [n.name().split("::")[-1] for n, _ in out.grad_fn.next_functions]
        got.append((str(out.dtype)[-7:], str(w.grad.dtype)[-7:], str(b.grad.dtype)[-7:], nodes))
        got[-1] += (w.grad.tolist(), b.grad.tolist())
    assert got[0] == got[1]  # (no ToCopyBackward0 in between, as in PyTorch)


SECOND: dict[str, Callable[..., Any]] = {
    "clamp_min": lambda L, x, m: L.clamp_min(x, m),
    "clamp_max": lambda L, x, m: L.clamp_max(x, m),
    "clamp_min_ in place": lambda L, x, m: (x * 1).clamp_min_(m),
}


@pytest.mark.parametrize("case", list(SECOND))
def test_second_derivatives_match_pytorch(case: str, torch_module: ModuleType) -> None:
    def run(L: ModuleType) -> tuple[Any, ...]:
        x = L.tensor([[1.0, 2.0, 3.0], [0.5, 2.5, -1.0]], dtype=L.float64, requires_grad=True)
        m = L.tensor([2.0, 2.0, 2.5], dtype=L.float64, requires_grad=True)
        g = L.tensor([[1.0, 10.0, 100.0], [2.0, 3.0, 4.0]], dtype=L.float64, requires_grad=True)
        gx, gm = L.autograd.grad(SECOND[case](L, x, m), (x, m), g, create_graph=True)
        names = (gx.grad_fn.name(), gm.grad_fn.name())
        (hg,) = L.autograd.grad((gx * gx).sum() + (gm**3).sum(), (g,))
        return names, gx.tolist(), gm.tolist(), hg.tolist()

    assert run(microtorch) == run(torch_module)  # (WhereBackward0, then a sum to m's shape)


@pytest.mark.parametrize("name", ["clamp_min", "clamp_max"])
def test_gradcheck_and_gradgradcheck(name: str) -> None:
    fn = getattr(microtorch, name)
    x = microtorch.tensor([1.0, 2.6, 3.0], dtype=microtorch.float64, requires_grad=True)
    m = microtorch.tensor([[2.0], [2.9]], dtype=microtorch.float64, requires_grad=True)
    assert microtorch.autograd.gradcheck(fn, (x, m))
    assert microtorch.autograd.gradgradcheck(fn, (x, m))
