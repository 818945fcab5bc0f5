"""Triangular and Cholesky solves, the ``_ex`` variants that report failure in ``info``, and
PyTorch's older names: ``linalg.solve_triangular``, ``triangular_solve``, ``cholesky_solve``,
``cholesky_inverse``, ``cholesky``, ``linalg.cholesky_ex``/``inv_ex``/``solve_ex``,
``logdet``, ``pinverse``, ``qr``.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/linalg_triangular.py``. Imported on first use (see ``microtorch/linalg.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch._warn import warn
from microtorch.api import linalg_factor, linalg_square
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import expect_bool
from microtorch.api.decomposition import LinAlgError
from microtorch.api.elementwise import where
from microtorch.api.keywords import torch_keywords
from microtorch.api.return_types import return_type
from microtorch.autograd import node as _node
from microtorch.dtypes import from_numpy_dtype
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.linalg_triangular import (
    Cholesky,
    CholeskyInverse,
    CholeskySolve,
    LinalgCholeskyExInfo,
    LinalgInvExInfo,
    LinalgSolveExInfo,
    LinalgSolveTriangular,
    TriangularSolve,
)

__all__ = [
    "solve_triangular", "triangular_solve", "cholesky_solve", "cholesky_inverse", "cholesky",
    "cholesky_ex", "inv_ex", "solve_ex", "logdet", "pinverse", "qr",
]  # fmt: skip

triangular_solve_result = return_type("triangular_solve", ("solution", "cloned_coefficient"))
cholesky_ex_result = return_type("linalg_cholesky_ex", ("L", "info"))
inv_ex_result = return_type("linalg_inv_ex", ("inverse", "info"))
solve_ex_result = return_type("linalg_solve_ex", ("result", "info"))
qr_result = return_type("qr", ("Q", "R"))
_warned: set[str] = set()  # (PyTorch warns once per process for each deprecated function)


def _deprecated(name: str, text: str) -> None:
    if name not in _warned:
        _warned.add(name)
        warn(text)


def _kernel_dtype(x: Any, kernel: str) -> None:
    # PyTorch's error for integer input to a LAPACK kernel
    if not x._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"{kernel}\" not implemented for '{x._dtype._legacy[:-6]}' (Fix: convert it "
            "first, e.g. x.double())"
        )


def _two_dims(x: Any, op: str, name: str) -> None:
    if x._data.ndim < 2:
        raise RuntimeError(f"{op}: The input tensor {name} must have at least 2 dimensions.")


def _batch(a: Any, b: Any) -> None:
    try:
        np.broadcast_shapes(a._data.shape[:-2], b._data.shape[:-2])
    except ValueError:
        raise broadcast_error(a._data.shape[:-2], b._data.shape[:-2]) from None


@torch_keywords(out=True)
def solve_triangular(
    A: Any,  # noqa: N803 - PyTorch's names
    B: Any,  # noqa: N803
    *,
    upper: Any = None,
    left: bool = True,
    unitriangular: bool = False,
) -> Any:
    """X with T X = B (``left=False``: X T = B), T the upper or lower triangle of A (with ones
    on its diagonal if ``unitriangular``); the other triangle of A is not read."""
    expect_tensor(A, "linalg_solve_triangular", "input")
    expect_tensor(B, "linalg_solve_triangular", "B", 2)
    if upper is None:  # (PyTorch's upper= has no default)
        raise TypeError(
            'linalg_solve_triangular() missing 1 required positional arguments: "upper"'
        )
    op = "linalg.solve_triangular"
    for x in (A, B):
        _kernel_dtype(x, "triangular_solve_cpu")
    _two_dims(A, op, "A")
    _two_dims(B, op, "B")
    linalg_square.check_square(A, op)
    n, (p, q) = A._data.shape[-1], B._data.shape[-2:]
    if (p if left else q) != n:
        equation = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"{op}: Incompatible shapes of A and B for the equation {equation} ({n}x{n} and "
            f"{p}x{q})"
        )
    _batch(A, B)
    if A._dtype is not B._dtype:  # (PyTorch promotes here)
        dt = np.result_type(A._data, B._data)
        A, B = (x if x._data.dtype == dt else x.to(from_numpy_dtype(dt)) for x in (A, B))
    return LinalgSolveTriangular.apply(A, B, bool(upper), bool(left), bool(unitriangular))


def triangular_solve(
    input: Any,  # noqa: A002
    A: Any,  # noqa: N803
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
) -> Any:
    """Deprecated: X with op(T) X = ``input`` (op the transpose if ``transpose``), and a copy
    of A; ``torch.linalg.solve_triangular(A, B, upper=...)`` is the new name."""
    _deprecated(
        "triangular_solve",
        "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will "
        "be removed in a future PyTorch release.\ntorch.linalg.solve_triangular has its "
        "arguments reversed and does not return a copy of one of the inputs.\nX = "
        "torch.triangular_solve(B, A).solution\nshould be replaced with\nX = "
        "torch.linalg.solve_triangular(A, B).",
    )
    expect_tensor(input, "triangular_solve", "input")
    expect_tensor(A, "triangular_solve", "A", 2)
    for x in (input, A):
        _kernel_dtype(x, "triangular_solve_cpu")
    for x, name in ((input, "b"), (A, "A")):
        if x._data.ndim < 2:
            raise RuntimeError(
                f"torch.triangular_solve: Expected {name} to have at least 2 dimensions, but it "
                f"has {x._data.ndim} dimensions instead"
            )
    _same_sizes(input, A, "triangular_solve")
    _batch(input, A)
    x, m = TriangularSolve.apply(input, A, bool(upper), bool(transpose), bool(unitriangular))
    return triangular_solve_result(x, m)


def _same_sizes(b: Any, a: Any, op: str) -> None:
    m, n = a._data.shape[-2:]
    if m != n:
        raise RuntimeError(
            f"A must be batches of square matrices, but they are {m} by {n} matrices"
        )
    if b._data.shape[-2] != n:
        p, q = b._data.shape[-2:]
        raise RuntimeError(
            f"Incompatible matrix sizes for {op}: each A matrix is {n} by {n} but each b matrix "
            f"is {p} by {q}"
        )


@torch_keywords("input", "input2", out=True)
def cholesky_solve(input: Any, input2: Any, upper: bool = False) -> Any:  # noqa: A002
    """X with A X = ``input``, A = L L^T given by its Cholesky factor L = ``input2``
    (``upper=True``: A = U^T U)."""
    expect_tensor(input, "cholesky_solve", "input")
    expect_tensor(input2, "cholesky_solve", "input2", 2)
    for x in (input, input2):
        _kernel_dtype(x, "cholesky_solve_cpu")
    for x, name in ((input, "b"), (input2, "A")):
        if x._data.ndim < 2:
            raise RuntimeError(
                f"{name} should have at least 2 dimensions, but has {x._data.ndim} dimensions "
                "instead"
            )
    if input._dtype is not input2._dtype:
        raise RuntimeError(
            "Expected b and A to have the same dtype, but found b of type "
            f"{input._dtype._legacy[:-6]} and A of type {input2._dtype._legacy[:-6]} instead."
        )
    _same_sizes(input, input2, "cholesky_solve")
    _batch(input, input2)
    return CholeskySolve.apply(input, input2, bool(upper))


@torch_keywords("input", out=True)
def cholesky_inverse(input: Any, upper: bool = False) -> Any:  # noqa: A002
    """inv(A) of A = L L^T given by its Cholesky factor L = ``input`` (``upper``: A = U^T U)."""
    expect_tensor(input, "cholesky_inverse", "input")
    _kernel_dtype(input, "cholesky_inverse_out_cpu")
    _two_dims(input, "cholesky_inverse", "A")
    linalg_square.check_square(input, "cholesky_inverse")
    return CholeskyInverse.apply(input, bool(upper))


@torch_keywords("input", out=True)
def cholesky(input: Any, upper: bool = False) -> Any:  # noqa: A002
    """Deprecated: ``torch.linalg.cholesky`` (``upper=True``: its ``.mH``), with PyTorch's
    older node ``CholeskyBackward0``."""
    _deprecated(
        "cholesky",
        "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
        "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
        "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
        "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results "
        "for all valid (symmetric positive definite) inputs.",
    )
    expect_tensor(input, "cholesky", "input")
    _kernel_dtype(input, "cholesky_cpu")
    try:
        linalg_square.cholesky(input)  # (its checks and errors, named after torch.cholesky)
    except (RuntimeError, LinAlgError) as error:
        text = str(error).replace("linalg.cholesky: ", "cholesky: ", 1)
        raise type(error)(text) from None
    return Cholesky.apply(input, bool(upper))


def _info(bad: np.ndarray) -> Any:
    return _node.plain_tensor(np.asarray(bad, np.int32))


@torch_keywords(out=True)
def cholesky_ex(A: Any, *, upper: bool = False, check_errors: bool = False) -> Any:  # noqa: N803
    """``linalg.cholesky`` that reports failure instead of raising: (L, info), info 0 or the
    order of the first leading minor that is not positive-definite (a failed matrix's L is
    nan here, LAPACK's partial work in PyTorch: unspecified by both)."""
    expect_tensor(A, "linalg_cholesky_ex", "A")
    linalg_square.check_square(A, "linalg.cholesky")
    linalg_square.check_float(A, "linalg.cholesky")
    a = np.tril(A._data)
    a = a + np.swapaxes(np.tril(a, -1), -1, -2)
    flat = a.reshape(-1, *a.shape[-2:])
    orders = np.array([linalg_square._not_positive_definite(m) for m in flat], np.int32)
    orders = orders.reshape(a.shape[:-2])
    if check_errors and orders.any():
        try:
            linalg_square.cholesky(A)
        except LinAlgError as error:
            raise LinAlgError(
                str(error).replace("linalg.cholesky:", "linalg.cholesky_ex:")
            ) from None
    return cholesky_ex_result(
        LinalgCholeskyExInfo.apply(A, bool(upper), orders != 0), _info(orders)
    )


def _pivots(A: Any) -> np.ndarray:  # noqa: N803
    return (
        linalg_square._singular(A._data).astype(np.int32)
        if A._data.size
        else np.zeros(A._data.shape[:-2], np.int32)
    )


@torch_keywords(out=True)
def inv_ex(A: Any, *, check_errors: bool = False) -> Any:  # noqa: N803
    """``linalg.inv`` that reports failure instead of raising: (inverse, info), info 0 or the
    (1-based) index of the first zero pivot (a singular matrix's inverse is nan here, LAPACK's
    inf and nan in PyTorch)."""
    expect_tensor(A, "linalg_inv_ex", "A")
    linalg_square.check_square(A, "linalg.inv")
    linalg_square.check_float(A, "linalg.inv")
    pivots = _pivots(A)
    if check_errors and pivots.any():
        try:
            linalg_square.inv(A)
        except LinAlgError as error:
            raise LinAlgError(str(error).replace("linalg.inv:", "linalg.inv_ex:", 1)) from None
    return inv_ex_result(LinalgInvExInfo.apply(A, pivots != 0), _info(pivots))


@torch_keywords(out=True)
def solve_ex(A: Any, B: Any, *, left: bool = True, check_errors: bool = False) -> Any:  # noqa: N803
    """``linalg.solve`` that reports a singular A instead of raising: (result, info), info as
    ``inv_ex``'s (a singular matrix's solution is nan here, LAPACK's inf and nan in PyTorch)."""
    expect_tensor(A, "linalg_solve_ex", "A")
    expect_tensor(B, "linalg_solve_ex", "B", 2)
    pivots = _pivots(A) if A._data.ndim >= 2 else np.zeros(0, np.int32)
    try:
        x = linalg_square.solve(A, B, left=left)
    except LinAlgError as error:
        if check_errors:
            raise LinAlgError(str(error).replace("linalg.solve:", "linalg.solve_ex:", 1)) from None
        a, b = A._data, B._data
        vector = left and (b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1]))
        x = LinalgSolveExInfo.apply(A, B, bool(left), vector, pivots != 0)
    return solve_ex_result(x, _info(pivots))


def logdet(input: Any) -> Any:  # noqa: A002
    """log det(A): log|det A| where det A > 0, nan where it is negative, -inf where it is 0
    (PyTorch's ``where`` of ``slogdet``: node ``WhereBackward0``)."""
    expect_tensor(input, "logdet", "input")
    linalg_square.check_square(input, "logdet")
    linalg_square.check_float(input, "logdet")
    sign, logabsdet = linalg_square.slogdet(input)
    return where(sign == -1, float("nan"), logabsdet)


def pinverse(input: Any, rcond: float = 1e-15) -> Any:  # noqa: A002
    """``torch.linalg.pinv(input, rtol=rcond)``: singular values below rcond times the largest
    count as zero."""
    expect_tensor(input, "pinverse", "input")
    return linalg_factor.pinv(input, rtol=rcond)


@torch_keywords("input", out=True)
def qr(input: Any, some: bool = True) -> Any:  # noqa: A002
    """Deprecated: ``torch.linalg.qr(input, 'reduced' if some else 'complete')``."""
    _deprecated(
        "qr",
        "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future "
        "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string parameter "
        "'mode'.\nQ, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, "
        "'reduced' if some else 'complete')",
    )
    expect_tensor(input, "qr", "input")
    expect_bool(some, "qr(): argument 'some'")
    return qr_result(*linalg_factor.qr(input, "reduced" if some else "complete"))
