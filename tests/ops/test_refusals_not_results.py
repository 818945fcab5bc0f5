"""Calls PyTorch refuses that microtorch once answered (silently: a value where PyTorch raises).

- ``addmm`` with a bias of another dtype than the matrices returned a promoted result; PyTorch
  checks the dtypes first ("self and mat2 must have the same dtype").
- ``linalg.cholesky`` of a matrix with a nan (or an infinite pivot) returned nan or inf, as
  numpy's does; PyTorch's LAPACK call reports the leading minor that failed.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import microtorch

pytestmark = pytest.mark.torch

NAN, INF = float("nan"), float("inf")


def _addmm(bias: str, mat1: str, mat2: str) -> Callable[[ModuleType], Any]:
    def call(L: ModuleType) -> Any:
        return L.addmm(
            L.ones(2, dtype=getattr(L, bias)),
            L.ones(2, 3, dtype=getattr(L, mat1)),
            L.ones(3, 2, dtype=getattr(L, mat2)),
        )

    return call


def _cholesky(matrix: list[list[float]]) -> Callable[[ModuleType], Any]:
    return lambda L: L.linalg.cholesky(L.tensor(matrix))


CASES = {
    "addmm float64 bias": _addmm("float64", "float32", "float32"),
    "addmm int64 bias": _addmm("int64", "float32", "float32"),
    "addmm float64 mat1": _addmm("float32", "float64", "float32"),
    "addmm float64 mat2": _addmm("float32", "float32", "float64"),
    "addmm float64 bias, shapes wrong too": lambda L: L.addmm(
        L.ones(2, dtype=L.float64), L.ones(2, 3), L.ones(4, 2)
    ),
    "cholesky nan pivot": _cholesky([[NAN, 0.0], [0.0, 1.0]]),
    "cholesky infinite pivot": _cholesky([[INF, 0.0], [0.0, 1.0]]),
    "cholesky nan last pivot": _cholesky([[1.0, 0.0], [0.0, NAN]]),
    "cholesky nan off the diagonal": _cholesky([[1.0, NAN], [NAN, 1.0]]),
}


@pytest.mark.parametrize("name", CASES)
def test_pytorchs_refusal_with_its_first_line(name: str, torch_module: ModuleType) -> None:
    with pytest.raises(Exception) as theirs:
        CASES[name](torch_module)
    with pytest.raises(Exception) as ours:
        CASES[name](microtorch)
    assert type(ours.value).__name__.lstrip("_") == type(theirs.value).__name__.lstrip("_")
    assert str(ours.value).startswith(str(theirs.value).splitlines()[0])


def test_a_finite_positive_definite_matrix_still_factors(torch_module: ModuleType) -> None:
    matrix = [[4.0, 2.0], [2.0, 3.0]]
    ours = microtorch.linalg.cholesky(microtorch.tensor(matrix)).flatten().tolist()
    theirs = torch_module.linalg.cholesky(torch_module.tensor(matrix)).flatten().tolist()
    assert ours == pytest.approx(theirs)
