"""walkg: torch.histogramdd (bins as one number, one per dimension, or edge tensors; range,
weight, density) against PyTorch: counts, edges, dtypes, the return type's name and fields,
grad_fn names, the backward error, and PyTorch's argument errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from tests.ops.walka_harness import compare

pytestmark = pytest.mark.torch

X = [[0.0, 1.0], [1.0, 0.5], [2.0, 2.0], [0.5, 1.5], [3.0, -1.0], [1.5, 0.25]]
P3 = np.random.default_rng(0).normal(size=(40, 3)).round(3).tolist()


def x(L: ModuleType, dtype: str = "float32") -> Any:
    return L.tensor(X, dtype=getattr(L, dtype))


def e(L: ModuleType, values: list[float], dtype: str = "float32") -> Any:
    return L.tensor(values, dtype=getattr(L, dtype))


CASES: dict[str, Callable[[ModuleType], Any]] = {
    "bins list": lambda L: L.histogramdd(x(L), bins=[2, 3]),
    "bins int": lambda L: L.histogramdd(x(L), bins=2),
    "bins positional": lambda L: L.histogramdd(x(L), [3, 1]),
    "range": lambda L: L.histogramdd(x(L), bins=[2, 2], range=[0.0, 2.0, 0.0, 2.0]),
    "range tuple": lambda L: L.histogramdd(x(L), bins=[4, 2], range=(0.5, 2.5, -1.0, 2.0)),
    "density": lambda L: L.histogramdd(x(L), bins=[2, 2], density=True),
    "weight": lambda L: L.histogramdd(x(L), bins=[2, 2], weight=L.tensor([1.0, 2, 3, 4, 5, 6])),
    "weight density": lambda L: L.histogramdd(
        x(L), bins=[3, 2], weight=L.tensor([1.0, 2, 3, 4, 5, 0.5]), density=True
    ),
    "edges": lambda L: L.histogramdd(x(L), bins=[e(L, [0.0, 1, 3]), e(L, [-1.0, 0, 2])]),
    "edges uneven density": lambda L: L.histogramdd(
        x(L), bins=[e(L, [0.0, 0.5, 3]), e(L, [-1.0, 1, 1.5, 2])], density=True
    ),
    "float64": lambda L: L.histogramdd(x(L, "float64"), bins=[2, 2]),
    "3-d points": lambda L: L.histogramdd(L.tensor(P3), bins=[3, 2, 4]),
    "3-d points density": lambda L: L.histogramdd(L.tensor(P3, dtype=L.float64), 3, density=True),
    "batched input": lambda L: L.histogramdd(x(L).reshape(2, 3, 2), bins=[2, 2]),
    "one dimension": lambda L: L.histogramdd(x(L)[:, :1], bins=[4]),
    "empty": lambda L: L.histogramdd(L.ones(0, 2), bins=[2, 2]),
    "equal values": lambda L: L.histogramdd(L.ones(3, 2), bins=[2, 2]),
    "requires grad": lambda L: L.histogramdd(x(L).requires_grad_(), bins=[2, 2]),
    "requires grad range": lambda L: L.histogramdd(
        x(L).requires_grad_(), bins=[2, 2], range=[0.0, 2.0, 0.0, 2.0]
    ),
    "requires grad edges": lambda L: L.histogramdd(
        x(L).requires_grad_(),
        bins=[e(L, [0.0, 1, 3]).requires_grad_(), e(L, [-1.0, 0, 2]).requires_grad_()],
    ),
    "requires grad plain edges": lambda L: L.histogramdd(
        x(L).requires_grad_(), bins=[e(L, [0.0, 1, 3]), e(L, [-1.0, 0, 2]).requires_grad_()]
    ),
    "requires grad weight": lambda L: L.histogramdd(
        x(L).requires_grad_(), bins=[2, 2], weight=L.ones(6, requires_grad=True)
    ),
    "requires grad plain weight": lambda L: L.histogramdd(
        x(L).requires_grad_(), bins=[e(L, [0.0, 1, 3]), e(L, [-1.0, 0, 2])], weight=L.ones(6)
    ),
    "fields": lambda L: L.histogramdd(x(L), bins=[2, 2]).bin_edges[1] * 1,
    "backward": lambda L: L.histogramdd(x(L).requires_grad_(), bins=[2, 2]).hist.sum().backward(),
    "backward edges": lambda L: (
        L.histogramdd(x(L).requires_grad_(), bins=[e(L, [0.0, 1, 3]), e(L, [-1.0, 0, 2])])
        .hist.sum()
        .backward()
    ),
    # errors
    "long": lambda L: L.histogramdd(x(L).long(), bins=[2, 2]),
    "1-d input": lambda L: L.histogramdd(x(L)[:, 0], bins=[3]),
    "0-d input": lambda L: L.histogramdd(L.tensor(1.0), bins=[2]),
    "bins length": lambda L: L.histogramdd(x(L), bins=[2, 2, 2]),
    "bins 0": lambda L: L.histogramdd(x(L), bins=[0, 2]),
    "bins negative": lambda L: L.histogramdd(x(L), bins=[2, -1]),
    "range length": lambda L: L.histogramdd(x(L), bins=[2, 2], range=[0.0, 1.0]),
    "range min > max": lambda L: L.histogramdd(x(L), bins=[2, 2], range=[0.0, 1.0, 1.0, 0.5]),
    "weight shape": lambda L: L.histogramdd(x(L), bins=[2, 2], weight=L.ones(4)),
    "weight dtype": lambda L: L.histogramdd(x(L), bins=[2, 2], weight=L.ones(6).double()),
    "edges dtype": lambda L: L.histogramdd(x(L), bins=[e(L, [0.0, 1], "float64"), e(L, [0.0, 1])]),
    "edges empty": lambda L: L.histogramdd(x(L), bins=[e(L, [0.0, 1]), L.ones(0)]),
    "bins float": lambda L: L.histogramdd(x(L), bins=[2.5, 2]),
    "bins mixed": lambda L: L.histogramdd(x(L), bins=[e(L, [0.0, 1, 3]), 2]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


def test_return_type(torch_module: ModuleType) -> None:
    import microtorch  # noqa: PLC0415

    r, t = (L.histogramdd(x(L), bins=[2, 2]) for L in (microtorch, torch_module))
    assert type(r).__name__ == type(t).__name__ == "histogramdd"
    assert len(r) == len(t) == 2 and r[0] is r.hist and t[0] is t.hist
    assert type(r.bin_edges) is type(t.bin_edges) is tuple
    assert repr(r).split("(")[0].split(".")[1:] == repr(t).split("(")[0].split(".")[1:]
