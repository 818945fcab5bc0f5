"""walkg: torch.gradient in all its forms (spacing unset, a number, one number per dim, sample
points per dim; dim None, an int, a list; edge_order 1 and 2) against PyTorch: values, dtypes,
grad_fn names (the graph PyTorch composes), float64 gradients (of the samples and of the
sample points), finite differences, and PyTorch's errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import microtorch
from tests.ops.walka_harness import compare, compare_gradients

pytestmark = pytest.mark.torch

Y = np.linspace(-1.0, 2.0, 20).reshape(4, 5) ** 3 + np.cos(np.arange(20)).reshape(4, 5)
XS = [0.0, 0.5, 1.75, 2.0, 3.5]


def y(L: ModuleType, dtype: str = "float64") -> Any:
    return L.tensor(Y, dtype=getattr(L, dtype)).requires_grad_(dtype != "int64")


def pts(L: ModuleType, values: list[float] = XS, dtype: str = "float64") -> Any:
    return L.tensor(values, dtype=getattr(L, dtype))


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "default": lambda L: L.gradient(y(L)),
    "float32": lambda L: L.gradient(y(L, "float32")),
    "float16": lambda L: L.gradient(y(L, "float16")),
    "int64": lambda L: L.gradient(L.tensor([[1, 4, 9, 16], [2, 3, 5, 8]])),
    "int64 spacing int": lambda L: L.gradient(L.tensor([1, 4, 9, 16, 25]), spacing=2),
    "int64 edge_order=2": lambda L: L.gradient(L.tensor([1, 4, 9, 16, 25]), edge_order=2),
    "int32 points": lambda L: L.gradient(
        L.tensor([1, 4, 9, 16, 25], dtype=L.int32), spacing=(pts(L, dtype="int64"),)
    ),
    "1-d": lambda L: L.gradient(y(L)[1]),
    "3-d": lambda L: L.gradient(y(L).reshape(2, 2, 5)[:, :, 1:]),
    "0-d": lambda L: L.gradient(L.tensor(2.0)),
    "spacing number": lambda L: L.gradient(y(L), spacing=0.5),
    "spacing int": lambda L: L.gradient(y(L), spacing=3),
    "spacing 0-d tensor": lambda L: L.gradient(y(L), spacing=L.tensor(2.0)),
    "spacing list": lambda L: L.gradient(y(L), spacing=[2.0, 0.25]),
    "spacing tuple mixed": lambda L: L.gradient(y(L), spacing=(2, 0.25)),
    "dim int": lambda L: L.gradient(y(L), dim=1),
    "dim -1": lambda L: L.gradient(y(L), dim=-1),
    "dim list": lambda L: L.gradient(y(L), dim=[1, 0]),
    "dim tuple spacing": lambda L: L.gradient(y(L), spacing=0.5, dim=(0,)),
    "dim list spacing list": lambda L: L.gradient(y(L), spacing=[0.5, 2.0], dim=[1, 0]),
    "dim int spacing list": lambda L: L.gradient(y(L), spacing=[0.5], dim=0),
    "dim empty": lambda L: L.gradient(y(L), dim=[]),
    "edge_order=2": lambda L: L.gradient(y(L), edge_order=2),
    "edge_order=2 spacing": lambda L: L.gradient(y(L), spacing=[0.5, 3.0], edge_order=2),
    "edge_order=2 size 3": lambda L: L.gradient(y(L)[:3, :3], edge_order=2),
    "size 2": lambda L: L.gradient(y(L)[:2, :2]),
    "points": lambda L: L.gradient(y(L), spacing=(pts(L, XS[:4]), pts(L))),
    "points dim": lambda L: L.gradient(y(L), spacing=[pts(L)], dim=1),
    "points dim list": lambda L: L.gradient(y(L), spacing=[pts(L), pts(L, XS[:4])], dim=[1, 0]),
    "points edge_order=2": lambda L: L.gradient(y(L), spacing=[pts(L)], dim=1, edge_order=2),
    "points edge_order=2 both": lambda L: L.gradient(
        y(L), spacing=[pts(L, [0.0, 1.0, 3.0, 3.5]), pts(L)], edge_order=2
    ),
    "points float32 of float64": lambda L: L.gradient(
        y(L), spacing=[pts(L, dtype="float32")], dim=1
    ),
    "points float64 of float32": lambda L: L.gradient(y(L, "float32"), spacing=[pts(L)], dim=1),
    "points uneven 3": lambda L: L.gradient(y(L)[0, :3], spacing=[pts(L, [0.0, 0.1, 2.0])]),
    # errors
    "uint8": lambda L: L.gradient(L.ones(5, dtype=L.uint8)),
    "bool": lambda L: L.gradient(L.ones(5) > 0),
    "edge_order=3": lambda L: L.gradient(y(L), edge_order=3),
    "edge_order=0": lambda L: L.gradient(y(L), edge_order=0),
    "too short": lambda L: L.gradient(L.ones(1, 5)),
    "too short edge_order=2": lambda L: L.gradient(L.ones(2, 5), edge_order=2),
    "too short dim": lambda L: L.gradient(L.ones(1, 5), dim=0),
    "dim out of range": lambda L: L.gradient(y(L), dim=2),
    "dim list out of range": lambda L: L.gradient(y(L), dim=[0, -3]),
    "dim repeated": lambda L: L.gradient(y(L), dim=[1, -1]),
    "spacing list too long": lambda L: L.gradient(y(L), spacing=[1.0, 2.0, 3.0]),
    "spacing list vs dim": lambda L: L.gradient(y(L), spacing=[1.0, 2.0], dim=1),
    "spacing list vs dim list": lambda L: L.gradient(y(L), spacing=[1.0], dim=[0, 1]),
    "points 0-d": lambda L: L.gradient(y(L), spacing=[L.tensor(1.0), L.tensor(2.0)]),
    "points 2-d": lambda L: L.gradient(y(L), spacing=[L.ones(4, 1), pts(L)]),
    "spacing tensor": lambda L: L.gradient(y(L), spacing=pts(L)),
    "spacing str": lambda L: L.gradient(y(L), spacing="a"),
    "dim float": lambda L: L.gradient(y(L), dim=1.5),
    "positional spacing": lambda L: L.gradient(y(L), 2.0),
    "list input": lambda L: L.gradient([1.0, 2.0, 3.0]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


GRADS: dict[str, Callable[[ModuleType, Any], Any]] = {
    "default": lambda L, t: L.gradient(t),
    "spacing": lambda L, t: L.gradient(t, spacing=[0.5, 2.0]),
    "dim": lambda L, t: L.gradient(t, dim=0),
    "edge_order=2": lambda L, t: L.gradient(t, edge_order=2),
    "edge_order=2 spacing": lambda L, t: L.gradient(t, spacing=0.25, dim=[1], edge_order=2),
    "points": lambda L, t: L.gradient(t, spacing=[pts(L, XS[:4]), pts(L)]),
    "points edge_order=2": lambda L, t: L.gradient(
        t, spacing=[pts(L, [0.0, 0.5, 2.0, 2.25]), pts(L)], edge_order=2
    ),
}


@pytest.mark.parametrize("case", list(GRADS))
def test_float64_gradients(case: str, torch_module: ModuleType) -> None:
    compare_gradients(GRADS[case], torch_module, shape=(4, 5))


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_of_the_sample_points(edge_order: int, torch_module: ModuleType) -> None:
    grads = []
    for L in (microtorch, torch_module):
        x = pts(L).requires_grad_()
        (out,) = L.gradient(y(L), spacing=[x], dim=1, edge_order=edge_order)
        w = L.tensor(np.linspace(-1.0, 2.0, out.numel()).reshape(4, 5), dtype=L.float64)
        (out * w).sum().backward()
        grads.append(x.grad.numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-10, atol=1e-12)
