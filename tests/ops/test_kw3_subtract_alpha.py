"""Issue 24: torch.subtract / Tensor.subtract / Tensor.subtract_ take ``alpha`` by position
after a number, as PyTorch's overload ``subtract(Tensor input, Number other, Number
alpha=1)`` does (``SubBackward1``), against PyTorch 2.13; ``sub`` keeps its own signature
(its deprecated overload ``sub(x, 2, 3)``, alpha before other, is not covered).
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


def x2(L: ModuleType, **kw: Any) -> Any:
    return L.tensor([1.0, 2.0], **kw)


def i2(L: ModuleType, dtype: str = "int64") -> Any:
    return L.tensor([1, 2], dtype=getattr(L, dtype))


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "function": lambda L: L.subtract(x2(L), 2, 3),
    "method": lambda L: x2(L).subtract(2, 3),
    "in place": lambda L: x2(L).subtract_(2, 3),
    "a float alpha": lambda L: L.subtract(x2(L), 2, 3.5),
    "numpy numbers": lambda L: L.subtract(x2(L), np.float64(2), np.int64(3)),
    "a 0-d tensor other": lambda L: L.subtract(x2(L), L.tensor(2.0), 3),
    "method a 0-d tensor other": lambda L: x2(L).subtract(L.tensor(2.0), 3),
    "a 0-d float64 tensor other, int input": lambda L: L.subtract(
        i2(L), L.tensor(2.5, dtype=L.float64), 3
    ),
    "a 0-d int64 tensor other, int32 input": lambda L: L.subtract(i2(L, "int32"), L.tensor(2), 3),
    "int": lambda L: L.subtract(i2(L), 2, 3),
    "int in place": lambda L: i2(L).subtract_(2, 3),
    "int minus a float": lambda L: L.subtract(i2(L), 2.5, 3),
    "int32 minus a float": lambda L: L.subtract(i2(L, "int32"), 2.5, 3),
    "float16": lambda L: L.subtract(x2(L, dtype=L.float16), 2, 3),
    "grad_fn": lambda L: L.subtract(x2(L, requires_grad=True), 2, 3),
    "method grad_fn": lambda L: x2(L, requires_grad=True).subtract(2, 3),
    "in place grad_fn": lambda L: (x2(L, requires_grad=True) * 1).subtract_(2, 3),
    "keyword alpha still SubBackward0": lambda L: L.subtract(x2(L, requires_grad=True), 2, alpha=3),
    "keywords": lambda L: L.subtract(input=x2(L), other=2, alpha=3),
    "method keywords": lambda L: x2(L).subtract(other=2, alpha=3),
    "in place keywords": lambda L: x2(L).subtract_(other=2, alpha=3),
    "in place tensor other keyword alpha": lambda L: x2(L).subtract_(x2(L), alpha=3),
    # errors
    "int, a float alpha": lambda L: L.subtract(i2(L), 2, 3.5),
    "int in place, a float alpha": lambda L: i2(L).subtract_(2, 3.5),
    "a bool alpha": lambda L: L.subtract(x2(L), 2, True),
    "a bool other": lambda L: L.subtract(x2(L), True, 3),
    "bool input": lambda L: L.subtract(x2(L).bool(), 2, 3),
    "bool and bool": lambda L: L.subtract(L.tensor([True]), True, True),
    "a tensor other, alpha by position": lambda L: L.subtract(x2(L), x2(L), 3),
    "method a tensor other, alpha by position": lambda L: x2(L).subtract(x2(L), 3),
    "in place a tensor other, alpha by position": lambda L: x2(L).subtract_(x2(L), 3),
    "a 0-d tensor requiring grad is no number": lambda L: L.subtract(
        x2(L), L.tensor(2.0, requires_grad=True), 3
    ),
    "a 1-d tensor other": lambda L: L.subtract(x2(L), L.tensor([2.0, 2.0]), 3),
    "a str alpha": lambda L: L.subtract(x2(L), 2, "a"),
    "in place a str": lambda L: x2(L).subtract_("a"),
    "four by position": lambda L: L.subtract(x2(L), 2, 3, 4),
    # sub keeps its own signature
    "sub keyword alpha": lambda L: L.sub(x2(L), 2, alpha=3),
    "bool alpha keyword": lambda L: L.sub(x2(L), 2, alpha=False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


def test_the_gradient_through_subtract_with_alpha_by_position(torch_module: ModuleType) -> None:
    got = []
    for L in (microtorch, torch_module):
        x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64, requires_grad=True)
        out = L.subtract(x, 0.5, 3)
        y = (x * 1).subtract_(0.25, -2)
        (out * L.tensor([1.0, 2.0, 3.0], dtype=L.float64) + y).sum().backward()
        nodes = [n.name() if n else None for n, _ in y.grad_fn.next_functions]
        got.append((out.tolist(), y.tolist(), x.grad.tolist(), len(out.grad_fn.next_functions)))
        got[-1] += (nodes,)
    assert got[0] == got[1]


def test_subtract_is_still_sub_behind_its_own_parser() -> None:
    import inspect

    # (the alias invariant of tests/test_api_coverage.py: the same op, sub, underneath)
    assert inspect.unwrap(microtorch.subtract) is inspect.unwrap(microtorch.sub)
    assert inspect.unwrap(microtorch.Tensor.subtract) is inspect.unwrap(microtorch.Tensor.sub)
