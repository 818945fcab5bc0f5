"""``torch.linalg.ldl_factor``, ``ldl_factor_ex`` and ``ldl_solve``: A = P L D L^T P^T of a
symmetric (possibly indefinite) matrix, in LAPACK's ``sytrf`` storage.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/ldl.py``. Imported on first use (see ``microtorch/linalg.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import linalg_square
from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.api.return_types import return_type
from microtorch.autograd import node as _node
from microtorch.ops.ldl import LinalgLdlFactorEx, LinalgLdlSolve
from microtorch.ops.ldl import ldl_factor as _factor

__all__ = ["ldl_factor", "ldl_factor_ex", "ldl_solve"]

ldl_factor_result = return_type("linalg_ldl_factor", ("LD", "pivots"))
ldl_factor_ex_result = return_type("linalg_ldl_factor_ex", ("LD", "pivots", "info"))


def _factored(A: Any, op: str, name: str) -> tuple[Any, Any, Any]:  # noqa: N803
    expect_tensor(A, name, "input")
    linalg_square.check_square(A, op, "A")
    if not A._dtype.is_floating_point:
        raise RuntimeError(
            f"{op}: Expected a floating point or complex tensor as input. Got "
            f"{A._dtype._legacy[:-6]} (Fix: convert it first, e.g. A.double())"
        )
    ld, pivots, info = _factor(A._data)
    return LinalgLdlFactorEx.apply(A, ld), _node.plain_tensor(pivots), _node.plain_tensor(info)


def _singular_text(op: str, info: np.ndarray) -> str:
    # (PyTorch 2.13 reaches an internal assert here: "Unknown error code")
    first = int(info.reshape(-1)[np.flatnonzero(info.reshape(-1))[0]])
    return (
        f"{op}: Unknown error code: {first}. (LAPACK's sytrf: D[{first - 1}, {first - 1}] is "
        "exactly zero, so A is singular and ldl_solve would divide by zero; "
        "ldl_factor_ex(A) returns info instead of raising)"
    )


@torch_keywords(out=True)
def ldl_factor_ex(A: Any, *, hermitian: bool = False, check_errors: bool = False) -> Any:  # noqa: N803
    """(LD, pivots, info): A = P L D L^T P^T as LAPACK's sytrf (lower triangle of A read;
    ``hermitian`` changes nothing for real A); info > 0: D has a zero diagonal block there."""
    ld, pivots, info = _factored(A, "torch.linalg.ldl_factor_ex", "linalg_ldl_factor_ex")
    if check_errors and info._data.any():
        raise RuntimeError(_singular_text("torch.linalg.ldl_factor_ex", info._data))
    return ldl_factor_ex_result(ld, pivots, info)


@torch_keywords(out=True)
def ldl_factor(A: Any, *, hermitian: bool = False) -> Any:  # noqa: N803
    """(LD, pivots) of A = P L D L^T P^T (LAPACK's sytrf storage); a singular D raises
    (``ldl_factor_ex`` returns info instead)."""
    ld, pivots, info = _factored(A, "torch.linalg.ldl_factor_ex", "linalg_ldl_factor")
    if info._data.any():
        raise RuntimeError(_singular_text("torch.linalg.ldl_factor", info._data))
    return ldl_factor_result(ld, pivots)


@torch_keywords(out=True)
def ldl_solve(LD: Any, pivots: Any, B: Any, *, hermitian: bool = False) -> Any:  # noqa: N803
    """X with A X = B, A given by ``ldl_factor``'s LD and pivots."""
    op = "torch.linalg.ldl_solve"
    expect_tensor(LD, "linalg_ldl_solve", "LD")
    expect_tensor(pivots, "linalg_ldl_solve", "pivots", 2)
    expect_tensor(B, "linalg_ldl_solve", "B", 3)
    linalg_square.check_square(LD, op, "LD")
    if pivots._dtype.is_floating_point or pivots._dtype.name == "bool":
        raise RuntimeError(
            f"{op}: Expected pivots to be integers. Got {pivots._dtype._legacy[:-6]} (Fix: "
            "pass the pivots ldl_factor returned)"
        )
    if B._data.ndim < 2:
        raise IndexError(
            f"Dimension out of range (expected to be in range of [-{max(B._data.ndim, 1)}, "
            f"{max(B._data.ndim, 1) - 1}], but got -2) (Fix: B is a matrix: B.unsqueeze(-1))"
        )
    n, (p, q) = LD._data.shape[-1], B._data.shape[-2:]
    if p != n:
        raise RuntimeError(
            f"Incompatible matrix sizes for {op}: each A matrix is {n} by {n} but each b matrix "
            f"is {p} by {q}"
        )
    if LD._dtype is not B._dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type "
            f"{B._dtype._legacy[:-6]} and A of type {LD._dtype._legacy[:-6]} instead. (Fix: "
            "B.to(LD.dtype))"
        )
    return LinalgLdlSolve.apply(LD, pivots, B)
