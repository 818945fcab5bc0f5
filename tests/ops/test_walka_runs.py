"""Issue 24 (walka): combinations and unique_consecutive against PyTorch: values, dtypes,
grad_fn names, float64 gradients (combinations) and errors."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import microtorch
from tests.ops.walka_harness import compare, compare_gradients

pytestmark = pytest.mark.torch

RUNS = [1, 1, 2, 2, 3, 1, 1, 2]

CASES: dict[str, Callable[[ModuleType], Any]] = {
    "combinations": lambda L: L.combinations(L.tensor([1, 2, 3])),
    "combinations grad": lambda L: L.combinations(L.tensor([1.0, 2, 3], requires_grad=True)),
    "combinations 3": lambda L: L.combinations(L.tensor([1.0, 2, 3, 4]), 3),
    "combinations replacement": lambda L: L.combinations(
        L.tensor([1.0, 2, 3]), with_replacement=True
    ),
    "combinations 3 replacement": lambda L: L.combinations(L.arange(3), 3, True),
    "combinations 0": lambda L: L.combinations(L.tensor([1.0, 2, 3]), 0),
    "combinations 1": lambda L: L.combinations(L.tensor([1.0, 2, 3]), 1),
    "combinations too many": lambda L: L.combinations(L.tensor([1.0, 2, 3], requires_grad=True), 4),
    "combinations 2-d": lambda L: L.combinations(L.ones(2, 2)),
    "combinations negative": lambda L: L.combinations(L.tensor([1.0, 2, 3]), -1),
    "unique_consecutive": lambda L: L.unique_consecutive(L.tensor(RUNS)),
    "unique_consecutive all": lambda L: L.tensor(RUNS).unique_consecutive(
        return_inverse=True, return_counts=True
    ),
    "unique_consecutive 2-d": lambda L: L.unique_consecutive(
        L.tensor([[1, 1], [2, 2]]), return_inverse=True
    ),
    "unique_consecutive dim 0": lambda L: L.unique_consecutive(
        L.tensor([[1, 1], [1, 1], [2, 3]]), dim=0, return_counts=True
    ),
    "unique_consecutive dim 1": lambda L: L.unique_consecutive(
        L.tensor([[1, 1, 2], [1, 1, 3]]), dim=1, return_inverse=True
    ),
    "unique_consecutive float": lambda L: L.unique_consecutive(
        L.tensor([0.5, 0.5, -1.0], requires_grad=True)
    ),
    "unique_consecutive 0-d": lambda L: L.unique_consecutive(
        L.tensor(1), return_inverse=True, return_counts=True
    ),
    "unique_consecutive 0-d dim": lambda L: L.unique_consecutive(L.tensor(1), dim=0),
    "unique_consecutive empty": lambda L: L.unique_consecutive(L.ones(0), return_counts=True),
    "unique_consecutive bad dim": lambda L: L.unique_consecutive(L.ones(3), dim=1),
    "unique_consecutive backward": lambda L: (
        L.unique_consecutive(L.tensor([1.0, 1, 2], requires_grad=True)).sum().backward()
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_matches_pytorch(case: str, torch_module: ModuleType) -> None:
    compare(CASES[case], torch_module)


@pytest.mark.parametrize("r, replace", [(2, False), (3, False), (2, True)])
def test_combinations_gradients_match_pytorch(
    r: int, replace: bool, torch_module: ModuleType
) -> None:
    compare_gradients(lambda L, x: L.combinations(x[0], r, replace), torch_module)


def test_combinations_graph_is_pytorchs(torch_module: ModuleType) -> None:
    # Stack <- MaskedSelect <- Expand (meshgrid) <- View, as PyTorch records it
    def chain(L: ModuleType) -> list[str]:
        node = L.combinations(L.tensor([1.0, 2, 3], requires_grad=True)).grad_fn
        names = []
        while node is not None and node.next_functions:
            names.append(node.name())
            node = node.next_functions[0][0]
        return names

    assert chain(microtorch) == chain(torch_module)
