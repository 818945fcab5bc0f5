"""LU factorization: ``torch.linalg.lu_factor``, ``lu_factor_ex``, ``lu``, ``lu_solve``,
``torch.lu_unpack``, the deprecated ``torch.lu_solve`` and ``Tensor.lu``.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/linalg_lu.py``. Imported on first use (see ``microtorch/linalg.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import linalg_square
from microtorch.api._checks import expect_tensor
from microtorch.api.keywords import torch_keywords
from microtorch.api.linalg_triangular import _deprecated, _kernel_dtype
from microtorch.api.return_types import return_type
from microtorch.autograd import node as _node
from microtorch.ops.linalg_lu import (
    LinalgLu,
    LinalgLuFactorEx,
    LinalgLuSolve,
    LuUnpack,
    permutation,
    unpack,
)
from microtorch.ops.linalg_lu import (
    lu_factor as _factor,
)

__all__ = [
    "lu_factor",
    "lu_factor_ex",
    "lu",
    "lu_solve",
    "lu_unpack",
    "torch_lu_solve",
    "tensor_lu",
]

lu_factor_result = return_type("linalg_lu_factor", ("LU", "pivots"))
lu_factor_ex_result = return_type("linalg_lu_factor_ex", ("LU", "pivots", "info"))
lu_result = return_type("linalg_lu", ("P", "L", "U"))
lu_unpack_result = return_type("lu_unpack", ("P", "L", "U"))


def _checks(A: Any, op: str, name: str) -> None:  # noqa: N803
    expect_tensor(A, name, "A")
    if A._data.ndim < 2:
        raise RuntimeError(f"{op}: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A._data.shape)} instead")  # fmt: skip
    _kernel_dtype(A, "lu_cpu")


def _no_pivot(pivot: bool, op: str) -> None:
    if not pivot:
        raise RuntimeError(
            f"{op}: LU without pivoting is not implemented on the CPU (Fix: pivot=True, the "
            "default)"
        )


@torch_keywords(out=True)
def lu_factor_ex(A: Any, *, pivot: bool = True, check_errors: bool = False) -> Any:  # noqa: N803
    """(LU, pivots, info): A = P L U packed in one matrix, LAPACK's 1-based row swaps, and the
    first zero pivot (0 if none)."""
    _checks(A, "torch.lu_factor_ex", "linalg_lu_factor_ex")
    _no_pivot(pivot, "linalg.lu_factor")
    lu, pivots, info = _factored(A)
    if check_errors and info._data.any():
        raise RuntimeError(_singular_text("torch.linalg.lu_factor_ex", info._data))
    return lu_factor_ex_result(lu, pivots, info)


def _factored(A: Any) -> tuple[Any, Any, Any]:  # noqa: N803
    lu, pivots, info = _factor(A._data)
    out = LinalgLuFactorEx.apply(A, lu, pivots)
    return out, _node.plain_tensor(pivots), _node.plain_tensor(info)


def _singular_text(op: str, info: np.ndarray) -> str:
    flat = info.reshape(-1)
    first = int(np.flatnonzero(flat)[0])
    batch = f"(Batch element {first}): " if info.ndim else ""
    return (
        f"{op}: {batch}U[{flat[first]},{flat[first]}] is zero and using it on lu_solve would "
        "result in a division by zero. If you still want to perform the factorization, consider "
        "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"
    )


@torch_keywords(out=True)
def lu_factor(A: Any, *, pivot: bool = True) -> Any:  # noqa: N803
    """(LU, pivots) of A = P L U; a singular A raises PyTorch's error (``lu_factor_ex`` does
    not)."""
    _checks(A, "torch.lu_factor", "linalg_lu_factor")
    _no_pivot(pivot, "linalg.lu_factor")
    lu, pivots, info = _factored(A)
    if info._data.any():
        raise RuntimeError(_singular_text("torch.linalg.lu_factor", info._data))
    return lu_factor_result(lu, pivots)


@torch_keywords(out=True)
def lu(A: Any, *, pivot: bool = True) -> Any:  # noqa: N803
    """(P, L, U) with A = P L U: P a permutation, L unit lower-triangular (m x k), U upper
    (k x n), k = min(m, n)."""
    _checks(A, "linalg.lu", "linalg_lu")
    _no_pivot(pivot, "linalg.lu")
    lu, pivots, _ = _factor(A._data)
    low, up = unpack(lu)
    p = permutation(pivots, A._data.shape[-2], A._data.dtype)
    return lu_result(_node.plain_tensor(p), *LinalgLu.apply(A, p, low, up))


def _pivots_ok(LU: Any, pivots: Any, op: str) -> None:  # noqa: N803
    if pivots._dtype.name != "int32":
        what = "pivots should be a Tensor of scalar type torch.int32"
        if op == "torch.lu_unpack":
            what = "LU_pivots is expected to be a contiguous tensor of torch.int32 dtype."
        raise RuntimeError(f"{op}: {what} (Fix: pass the pivots lu_factor returned)")
    if tuple(pivots._data.shape) != LU._data.shape[:-2] + (min(LU._data.shape[-2:]),):
        raise RuntimeError(
            f"{op}: Expected LU.shape[:-1] == pivots.shape (Fix: pass the pivots lu_factor "
            "returned with this LU)"
        )


def lu_unpack(LU_data: Any, LU_pivots: Any, unpack_data: bool = True,  # noqa: N803
              unpack_pivots: bool = True) -> Any:  # fmt: skip
    """(P, L, U) from ``lu_factor``'s LU and pivots; P (``unpack_pivots=False``) or L and U
    (``unpack_data=False``) are empty tensors when not asked for, as in PyTorch."""
    expect_tensor(LU_data, "lu_unpack", "LU_data")
    expect_tensor(LU_pivots, "lu_unpack", "LU_pivots", 2)
    _pivots_ok(LU_data, LU_pivots, "torch.lu_unpack")
    p = np.zeros(0, LU_data._data.dtype)
    if unpack_pivots:
        p = permutation(LU_pivots._data, LU_data._data.shape[-2], LU_data._data.dtype)
    return lu_unpack_result(_node.plain_tensor(p), *LuUnpack.apply(LU_data, bool(unpack_data)))


@torch_keywords(out=True)
def lu_solve(LU: Any, pivots: Any, B: Any, *, left: bool = True, adjoint: bool = False) -> Any:  # noqa: N803
    """X with A X = B (``adjoint``: A^T X = B; ``left=False``: X A = B), A = P L U given by
    ``lu_factor``'s LU and pivots."""
    expect_tensor(LU, "linalg_lu_solve", "LU")
    expect_tensor(pivots, "linalg_lu_solve", "pivots", 2)
    expect_tensor(B, "linalg_lu_solve", "B", 3)
    linalg_square.check_square(LU, "linalg.lu_solve")
    _pivots_ok(LU, pivots, "linalg.lu_solve")
    if B._data.ndim < 2:
        raise RuntimeError("linalg.lu_solve: The input tensor B must have at least 2 dimensions.")
    n, (p, q) = LU._data.shape[-1], B._data.shape[-2:]
    if (p if left else q) != n:
        side = "number of rows" if left else "number of columns"
        raise RuntimeError(
            f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {p}x{q}) (Fix: B's {side} must be {n})"
        )
    if LU._dtype is not B._dtype:
        raise RuntimeError(
            "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
            f"{LU._dtype._legacy[:-6]} and B of type {B._dtype._legacy[:-6]} instead"
        )
    return LinalgLuSolve.apply(LU, pivots, B, bool(left), bool(adjoint))


@torch_keywords("input", "LU_data", "LU_pivots")
def torch_lu_solve(b: Any, LU_data: Any, LU_pivots: Any) -> Any:  # noqa: N803
    """Deprecated: ``torch.linalg.lu_solve(LU_data, LU_pivots, b)``."""
    _deprecated(
        "lu_solve",
        "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
        "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\n"
        "X = torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = "
        "torch.linalg.lu_solve(LU, pivots, B)",
    )
    expect_tensor(b, "lu_solve", "input")
    return lu_solve(LU_data, LU_pivots, b)


def tensor_lu(A: Any, pivot: bool = True, get_infos: bool = False) -> Any:  # noqa: N803
    """Deprecated ``Tensor.lu``: (LU, pivots), with ``get_infos`` also info (a plain tuple)."""
    _deprecated(
        "lu",
        "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex "
        "and will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, "
        "compute_pivots)\nshould be replaced with\nLU, pivots = torch.linalg.lu_factor(A, "
        "compute_pivots)\nand\nLU, pivots, infos = torch.lu(A, compute_pivots, get_infos=True)\n"
        "should be replaced with\nLU, pivots, infos = torch.linalg.lu_factor_ex(A, "
        "compute_pivots)",
    )
    out = lu_factor_ex(A, pivot=pivot)
    return tuple(out) if get_infos else (out.LU, out.pivots)
