"""Factorizations and what is built on them: ``linalg.qr``, ``eigh``, ``eigvalsh``,
``pinv``, ``lstsq``, ``matrix_rank`` and
``torch.cdist``.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/linalg_factor.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.api._checks import expect_tensor
from microtorch.api.decomposition import LinAlgError
from microtorch.api.keywords import torch_keywords
from microtorch.api.linalg_square import check_float, check_square
from microtorch.api.return_types import return_type
from microtorch.autograd import node as _node
from microtorch.ops._broadcast import broadcast_error
from microtorch.ops.linalg_factor import Cdist, LinalgEigh, LinalgLstsq, LinalgPinv, LinalgQr

__all__ = [
    "qr", "eigh", "eigvalsh", "pinv", "lstsq", "matrix_rank", "cdist",
]  # fmt: skip

linalg_qr_result = return_type("linalg_qr", ("Q", "R"))
linalg_eigh_result = return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_lstsq_result = return_type(
    "linalg_lstsq", ("solution", "residuals", "rank", "singular_values")
)


def _at_least_2d(a: Any, op: str) -> None:
    if a._data.ndim < 2:
        raise RuntimeError(f"{op}: The input tensor A must have at least 2 dimensions.")


def qr(A: Any, mode: str = "reduced") -> Any:  # noqa: N803 - PyTorch's name
    """Q, R with A = Q R, Q with orthonormal columns, R upper-triangular. ``mode``:
    ``'reduced'`` (k = min(m, n) columns), ``'complete'`` (square Q), ``'r'`` (R only)."""
    expect_tensor(A, "linalg_qr", "A")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(
            f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
            "'r', or 'complete'"
        )
    check_float(A, "linalg.qr")
    _at_least_2d(A, "linalg.qr")
    return linalg_qr_result(*LinalgQr.apply(A, mode))


def _eigh_checks(A: Any, op: str, UPLO: str) -> None:  # noqa: N803
    expect_tensor(A, op, "A")
    check_square(A, "linalg.eigh")
    if not A._dtype.is_floating_point:
        raise NotImplementedError(
            f"\"linalg_eigh_cpu\" not implemented for '{A._dtype._legacy[:-6]}' (Fix: convert "
            "it first, e.g. x.double())"
        )
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")


def eigh(A: Any, UPLO: str = "L") -> Any:  # noqa: N803
    """Eigenvalues (ascending) and orthonormal eigenvectors of each symmetric matrix,
    read from its lower (``UPLO='L'``) or upper triangle."""
    _eigh_checks(A, "linalg_eigh", UPLO)
    return linalg_eigh_result(*LinalgEigh.apply(A, UPLO, True))


def eigvalsh(A: Any, UPLO: str = "L") -> Any:  # noqa: N803
    """The eigenvalues (ascending) of each symmetric matrix."""
    _eigh_checks(A, "linalg_eigvalsh", UPLO)
    return LinalgEigh.apply(A, UPLO, False)[0]  # (V: an output of the node all the same)


def _no_nan(a: Any) -> None:
    # (the singular value decomposition underneath: PyTorch's error for nan)
    if np.isnan(a._data).any():
        raise LinAlgError(
            "linalg.svd: The algorithm failed to converge because the input matrix contained "
            "non-finite values."
        )


def _tolerances(atol: Any, rtol: Any) -> tuple[float, float | None]:
    for t in (atol, rtol):
        if isinstance(t, _node.Tensor):
            raise NotImplementedError(
                "microtorch's pinv and matrix_rank take atol and rtol as numbers, not tensors"
            )
    return (0.0 if atol is None else float(atol)), (None if rtol is None else float(rtol))


@torch_keywords(out=True)
def pinv(
    A: Any,  # noqa: N803
    *,
    atol: float | None = None,
    rtol: float | None = None,
    hermitian: bool = False,
) -> Any:
    """The Moore-Penrose pseudo-inverse, from the singular values above
    max(atol, rtol * largest) (rtol defaults to eps * max(m, n) when atol is not given)."""
    expect_tensor(A, "linalg_pinv", "input")
    if (
        not A._dtype.is_floating_point
        or A._data.ndim < 2
        or A._dtype.name
        in (
            "float16",
            "bfloat16",
        )
    ):
        dims = ", ".join(str(n) for n in A._data.shape)
        raise RuntimeError(
            f"linalg.pinv({A._dtype._legacy[:-6]}{{[{dims}]}}): expected a tensor with 2 or "
            "more dimensions of float, double, cfloat or cdouble types"
        )
    if not hermitian:
        _no_nan(A)
    return LinalgPinv.apply(A, *_tolerances(atol, rtol), bool(hermitian))


def matrix_rank(
    A: Any,  # noqa: N803
    *,
    atol: float | None = None,
    rtol: float | None = None,
    hermitian: bool = False,
) -> Any:
    """The number of singular values above max(atol, rtol * largest), as int64."""
    expect_tensor(A, "linalg_matrix_rank", "input")
    if A._data.ndim < 2:
        raise RuntimeError(
            "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions."
        )
    if A._dtype.name not in ("float32", "float64"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if not hermitian:
        _no_nan(A)
    a = A._data
    tol_a, tol_r = _tolerances(atol, rtol)
    if tol_r is None:
        tol_r = 0.0 if tol_a > 0 else np.finfo(a.dtype).eps * max(a.shape[-2:])
    if not np.isfinite(a).all():
        s = np.full((*a.shape[:-2], min(a.shape[-2:])), np.nan, a.dtype)  # (inf: nan values)
        big = s[..., :1]
    elif hermitian:
        s = np.abs(np.linalg.eigvalsh(a))
        big = s.max(axis=-1, keepdims=True) if s.shape[-1] else s
    else:
        s = np.linalg.svd(a, compute_uv=False)
        big = s[..., :1]
    rank = (s > np.maximum(tol_a, tol_r * big)).sum(-1)
    return _node.plain_tensor(np.asarray(rank, np.int64))


def lstsq(A: Any, B: Any, rcond: float | None = None, *, driver: str | None = None) -> Any:  # noqa: N803
    """The least-squares solution X of A X = B, as ``torch.return_types.linalg_lstsq``
    (solution, residuals, rank, singular_values) with PyTorch's CPU driver ``'gelsy'``:
    ``residuals`` and ``singular_values`` are empty."""
    expect_tensor(A, "linalg_lstsq", "self")
    expect_tensor(B, "linalg_lstsq", "b", 2)
    if driver not in (None, "gelsy"):
        raise NotImplementedError(
            f"microtorch's lstsq uses PyTorch's default CPU driver 'gelsy' only, not "
            f"driver={driver!r} (its residuals and singular values are not computed)"
        )
    if rcond is not None:
        raise NotImplementedError("microtorch's lstsq does not take rcond")
    check_float(A, "torch.linalg.lstsq")
    if A._dtype is not B._dtype:
        raise RuntimeError(
            "torch.linalg.lstsq: Expected input and other to have the same dtype, but got "
            f"input's dtype {A._dtype._legacy[:-6]} and other's dtype {B._dtype._legacy[:-6]}"
        )
    _at_least_2d(A, "torch.linalg.lstsq")
    _no_nan(A)
    a, b = A._data, B._data
    vector = b.ndim == a.ndim - 1
    if b.shape[-1 if vector else -2] != a.shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)")
    batch = b.shape[:-1] if vector else b.shape[:-2]
    try:
        np.broadcast_shapes(a.shape[:-2], batch)
    except ValueError:
        raise broadcast_error(a.shape[:-2], batch) from None
    x, residuals = LinalgLstsq.apply(A, B, vector)
    rank = matrix_rank(A) if A._dtype.name in ("float32", "float64") else None
    empty = _node.plain_tensor(np.zeros((0,), a.dtype))
    return linalg_lstsq_result(x, residuals, rank, empty)


def cdist(
    x1: Any, x2: Any, p: float = 2.0, compute_mode: str = "use_mm_for_euclid_dist_if_necessary"
) -> Any:
    """The p-norm distance between each row of x1 (..., P, M) and each of x2 (..., R, M):
    a (..., P, R) tensor."""
    expect_tensor(x1, "cdist", "x1")
    expect_tensor(x2, "cdist", "x2", 2)
    for name, x in (("X1", x1), ("X2", x2)):
        if x._data.ndim < 2:
            raise RuntimeError(
                f"cdist only supports at least 2D tensors, {name} got: {x._data.ndim}D"
            )
    c1, c2 = x1._data.shape[-1], x2._data.shape[-1]
    if c1 != c2:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {c1} X2: {c2}")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x._dtype.is_floating_point:
            raise RuntimeError(
                f"cdist only supports floating-point dtypes, {name} got: {x._dtype._legacy[:-6]}"
            )
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1._dtype is not x2._dtype:
        raise RuntimeError(
            f"expected scalar type {x1._dtype._legacy[:-6]} but found {x2._dtype._legacy[:-6]}"
        )
    try:
        np.broadcast_shapes(x1._data.shape[:-2], x2._data.shape[:-2])
    except ValueError:
        raise broadcast_error(x1._data.shape[:-2], x2._data.shape[:-2]) from None
    return Cdist.apply(x1, x2, float(p))
