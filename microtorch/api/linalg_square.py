"""Square matrices: ``det``, ``slogdet``, ``inv``/``inverse``, ``solve``, ``cholesky``,
``matrix_exp`` and ``matrix_power`` (``torch.*``, ``torch.linalg.*`` and Tensor methods).

The public functions: argument checks and PyTorch's errors (non-square, singular, not
positive-definite, integer input) around the formulas in ``microtorch/ops/linalg_inverse.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api import shape as S
from microtorch.api._checks import expect_tensor
from microtorch.api.arguments import parsed
from microtorch.api.decomposition import LinAlgError
from microtorch.api.keywords import torch_keywords
from microtorch.api.linalg import matmul
from microtorch.api.return_types import return_type
from microtorch.autograd import node as _node
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.linalg_inverse import (
    LinalgCholeskyEx,
    LinalgDet,
    LinalgInvEx,
    LinalgMatrixExp,
    LinalgSlogdet,
    LinalgSolveEx,
)

__all__ = [
    "det", "torch_det", "slogdet", "linalg_slogdet", "inverse", "inv", "solve", "cholesky",
    "matrix_exp", "matrix_power", "torch_matrix_power", "check_square", "check_float",
]  # fmt: skip

slogdet_result = return_type("slogdet", ("sign", "logabsdet"))
linalg_slogdet_result = return_type("linalg_slogdet", ("sign", "logabsdet"))


def check_float(a: Any, op: str) -> None:
    """PyTorch's error for integer or boolean input to a linear-algebra routine."""
    if not a._dtype.is_floating_point:
        raise RuntimeError(
            f"{op}: Expected a floating point or complex tensor as input. Got "
            f"{a._dtype._legacy[:-6]} (Fix: convert it first, e.g. x.double())"
        )
    if a._dtype.name in ("float16", "bfloat16"):
        raise NotImplementedError(
            f"\"lu_cpu\" not implemented for '{a._dtype._legacy[:-6]}' (Fix: convert it "
            "first, e.g. x.float())"
        )


def check_square(a: Any, op: str, name: str = "input", position: int = 1) -> None:
    """A Tensor of at least 2 dims whose last two are equal, else PyTorch's error."""
    expect_tensor(a, name if "." not in op else op.split(".")[-1], name, position)
    nd = a._data.ndim
    if nd < 2:
        raise RuntimeError(f"{op}: The input tensor A must have at least 2 dimensions.")
    m, n = a._data.shape[-2:]
    if m != n:
        raise RuntimeError(
            f"{op}: A must be batches of square matrices, but they are {m} by {n} matrices"
        )


def _batch_prefix(a: np.ndarray, bad: np.ndarray) -> str:
    # PyTorch names the first failing matrix of a batch: "(Batch element 1): "
    if a.ndim <= 2:
        return ""
    return f"(Batch element {int(np.flatnonzero(bad.reshape(-1))[0])}): "


def _prepare(a: Any, op: str, name: str = "det") -> None:
    if not isinstance(a, _node.Tensor):
        expect_tensor(a, name)
    check_square(a, op)
    check_float(a, op)


@torch_keywords(out=True)
def det(A: Any) -> Any:  # noqa: N803 - PyTorch's name
    """The determinant of each square matrix (``torch.linalg.det``)."""
    _prepare(A, "linalg.det")
    return LinalgDet.apply(A)


@torch_keywords("input")
def torch_det(input: Any, **unexpected: Any) -> Any:  # noqa: A002
    """``torch.det``: the same as ``torch.linalg.det`` (without ``out=``)."""
    for name in unexpected:  # (PyTorch's torch.det takes no out=)
        raise TypeError(f"det() got an unexpected keyword argument '{name}'")
    if not isinstance(input, _node.Tensor):
        expect_tensor(input, "det")
    return det(input)


@parsed(
    "matrix_power",
    "Tensor input, int n, *, Tensor out=None",
)
def torch_matrix_power(input: Any, n: int) -> Any:  # noqa: A002
    """``torch.matrix_power``: ``torch.linalg.matrix_power`` with torch's own error names."""
    expect_tensor(input, "matrix_power")
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(
            f"matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}"
        )
    return matrix_power(input, n)


@torch_keywords("input")
def slogdet(A: Any) -> Any:  # noqa: N803
    """(sign, log|det|) of each square matrix, as ``torch.return_types.slogdet``."""
    _prepare(A, "linalg.slogdet", "slogdet")
    return slogdet_result(*LinalgSlogdet.apply(A))


def linalg_slogdet(A: Any) -> Any:  # noqa: N803
    """(sign, logabsdet) of each square matrix, as ``torch.return_types.linalg_slogdet``."""
    _prepare(A, "linalg.slogdet", "linalg_slogdet")
    return linalg_slogdet_result(*LinalgSlogdet.apply(A))


def _zero_pivot(m: np.ndarray) -> int:
    # LU with partial pivoting (as LAPACK's getrf): the 1-based index of the first exactly
    # zero pivot, 0 if none
    m = m.astype(np.float64, copy=True)
    n = m.shape[0]
    if not np.isfinite(m).all():
        return 0  # (LAPACK goes on with inf and nan: PyTorch's result is nan, no error)
    for k in range(n):
        p = k + int(np.argmax(np.abs(m[k:, k])))
        if m[p, k] == 0:
            return k + 1
        m[[k, p]] = m[[p, k]]
        m[k + 1 :, k:] -= np.outer(m[k + 1 :, k] / m[k, k], m[k, k:])
    return 0


def _singular(a: np.ndarray) -> np.ndarray:
    # which matrices of the batch have an exactly zero pivot
    flat = a.reshape(-1, *a.shape[-2:])
    return np.array([_zero_pivot(m) for m in flat]).reshape(a.shape[:-2])


@torch_keywords(out=True)
def inv(A: Any) -> Any:  # noqa: N803
    """The inverse of each square matrix; a singular one raises PyTorch's LinAlgError."""
    _prepare(A, "linalg.inv", "inv")
    pivots = _singular(A._data) if A._data.size else np.zeros(0)
    if (pivots != 0).any():
        k = int(pivots.reshape(-1)[np.flatnonzero(pivots.reshape(-1))[0]])
        raise LinAlgError(
            f"linalg.inv: {_batch_prefix(A._data, pivots != 0)}The diagonal element {k} is "
            "zero, the inversion could not be completed because the input matrix is singular."
        )
    return LinalgInvEx.apply(A)


@torch_keywords(out=True)
def inverse(input: Any) -> Any:  # noqa: A002
    """``torch.inverse``: the same as ``torch.linalg.inv``."""
    if not isinstance(input, _node.Tensor):
        expect_tensor(input, "inverse")
    return inv(input)


@torch_keywords(out=True)
def solve(A: Any, B: Any, *, left: bool = True) -> Any:  # noqa: N803
    """X with A X = B (``left=False``: X A = B); B may be a vector or a batch of them."""
    expect_tensor(A, "linalg_solve", "A")
    expect_tensor(B, "linalg_solve", "B", 2)
    for x in (A, B):
        check_float(x, "linalg.solve")
    if A._dtype is not B._dtype:
        raise RuntimeError(
            "linalg.solve: Expected A and B to have the same dtype, but found A of type "
            f"{A._dtype._legacy[:-6]} and B of type {B._dtype._legacy[:-6]} instead (Fix: "
            "convert one, e.g. B.to(A.dtype))"
        )
    check_square(A, "linalg.solve")
    a, b = A._data, B._data
    n = a.shape[-1]
    vector = left and (b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1]))
    bm = b.shape + (1,) if vector else b.shape
    if b.ndim < 1 or (bm[-2] if left else bm[-1]) != n:
        raise RuntimeError(
            "linalg.solve: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({a.shape[-2]}x{n} and {bm[-2]}x{bm[-1]})"
        )
    try:
        np.broadcast_shapes(a.shape[:-2], bm[:-2])
    except ValueError:
        raise broadcast_error(a.shape[:-2], bm[:-2]) from None
    pivots = _singular(a) if a.size else np.zeros(0)
    if (pivots != 0).any():
        raise LinAlgError(
            f"torch.linalg.solve: {_batch_prefix(a, pivots != 0)}The solver failed because "
            "the input matrix is singular."
        )
    return LinalgSolveEx.apply(A, B, left, vector)


def _not_positive_definite(m: np.ndarray) -> int:
    # the order of the first leading minor that is not positive-definite (0 if none); as
    # LAPACK's, a nan pivot fails (numpy's own Cholesky returns nan), and an infinite one fails
    # the minor after it (inf - inf)
    infinite = False
    for k in range(1, m.shape[0] + 1):
        try:
            with np.errstate(invalid="ignore"):
                factor = np.linalg.cholesky(m[:k, :k])
        except np.linalg.LinAlgError:
            return k
        if infinite or np.isnan(factor).any():
            return k
        infinite = bool(np.isinf(factor).any())
    return 0


@torch_keywords(out=True)
def cholesky(A: Any, *, upper: bool = False) -> Any:  # noqa: N803
    """L with A = L L^T (``upper=True``: U with A = U^T U), A symmetric positive-definite
    (only its lower triangle is read)."""
    _prepare(A, "linalg.cholesky", "linalg_cholesky")
    a = np.tril(A._data)
    a = a + np.swapaxes(np.tril(a, -1), -1, -2)
    flat = a.reshape(-1, *a.shape[-2:])
    orders = np.array([_not_positive_definite(m) for m in flat])
    if (orders != 0).any():
        first = int(np.flatnonzero(orders)[0])
        raise LinAlgError(
            f"linalg.cholesky: {_batch_prefix(a, orders != 0)}The factorization could not be "
            "completed because the input is not positive-definite (the leading minor of "
            f"order {orders[first]} is not positive-definite)."
        )
    return LinalgCholeskyEx.apply(A, upper)


@torch_keywords(("input", "A"), out=True)
def matrix_exp(A: Any) -> Any:  # noqa: N803
    """exp(A) = I + A + A^2 / 2! + ... of each square matrix."""
    _prepare(A, "linalg.matrix_exp", "linalg_matrix_exp")
    return LinalgMatrixExp.apply(A)


@torch_keywords(out=True)
def matrix_power(A: Any, n: int) -> Any:  # noqa: N803
    """A @ A @ ... (n times; n = 0 the identity, n < 0 powers of the inverse), by repeated
    squaring as PyTorch, so the graph has PyTorch's ``MmBackward0`` nodes."""
    expect_tensor(A, "linalg_matrix_power", "input")
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(
            f"linalg_matrix_power(): argument 'n' (position 2) must be int, not {type(n).__name__}"
        )
    check_square(A, "linalg.matrix_power")
    if n == 0:
        eye = np.broadcast_to(np.eye(A._data.shape[-1], dtype=A._data.dtype), A._data.shape)
        return S.clone(A).copy_(_node.plain_tensor(eye.copy()))  # (CopyBackwards, as PyTorch)
    if n == 1:
        return S.clone(A)
    if n < 0:
        A, n = inv(A), -n
        if n == 1:
            return A
    if n == 2:
        return matmul(A, A)
    if n == 3:
        return matmul(matmul(A, A), A)
    z = result = None
    while n > 0:
        bit, n = n % 2, n // 2
        z = A if z is None else matmul(z, z)
        if bit:
            result = z if result is None else matmul(result, z)
    return result
