"""``torch.linalg``'s compositions of other ops: ``diagonal``, ``vander``, ``cond``,
``tensorinv`` and ``tensorsolve``, built as PyTorch builds them, so their graphs have
PyTorch's nodes (``CatBackward0``, ``NanToNumBackward0``, ``ReshapeAliasBackward0`` ...).

Imported on first use (see ``microtorch/linalg.py``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from microtorch.api import linalg_compose, linalg_square, linalg_triangular
from microtorch.api._checks import expect_tensor
from microtorch.api.decomposition import svdvals
from microtorch.api.diagonal import diagonal
from microtorch.api.join import cat
from microtorch.api.keywords import torch_keywords
from microtorch.autograd import node as _node

__all__ = ["linalg_diagonal", "vander", "cond", "tensorinv", "tensorsolve"]


def linalg_diagonal(A: Any, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:  # noqa: N803
    """``torch.diagonal`` with the last two dimensions as the default (a view)."""
    expect_tensor(A, "linalg_diagonal", "A")
    return diagonal(A, offset, dim1, dim2)


def vander(x: Any, *, N: int | None = None) -> Any:  # noqa: N803 - PyTorch's name
    """The Vandermonde matrix of the last dimension: column j is x ** j (j < N, N defaults to
    x.size(-1)); PyTorch's cat of ones and a cumulative product."""
    expect_tensor(x, "linalg_vander", "x")
    if x._dtype.name == "bool":
        raise RuntimeError(
            "linalg.vander supports floating point, complex, and integer tensors, but got Bool"
        )
    shape = list(x._data.shape)
    n = N if N is not None else (shape[-1] if shape else 0)
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    powers = x.unsqueeze(-1).expand(*shape, n - 1).cumprod(-1)
    ones = powers.new_ones((*shape, 1))
    return cat([ones, powers], -1)


def _ord_text(p: Any) -> str:
    # how PyTorch's C++ prints the order in its error (std::to_string of an int or a double)
    if isinstance(p, str):
        return p
    if isinstance(p, float) and math.isfinite(p):
        return f"{p:.6f}"
    return str(p)


@torch_keywords(out=True)
def cond(A: Any, p: Any = None) -> Any:  # noqa: N803
    """The condition number ``norm(A, p) * norm(inv(A), p)``; for p = None, 2, -2 the ratio of
    the largest and smallest singular values (A may then be rectangular)."""
    expect_tensor(A, "linalg_cond", "input")
    if A._data.ndim < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if not (p is None or isinstance(p, str) or (abs(p) in (1, 2, math.inf))):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if A._data.size == 0:  # (numpy's and PyTorch's answer for 0 x 0 matrices)
        linalg_square.check_square(A, f"linalg.cond(ord={_ord_text(p)})")
        return _node.plain_tensor(np.zeros(A._data.shape[:-2], A._data.dtype))
    if p is None or (not isinstance(p, str) and abs(p) == 2):
        s = svdvals(A)
        s_max, s_min = s.narrow(-1, 0, 1), s.narrow(-1, -1, 1)
        return (s_min / s_max if p == -2 else s_max / s_min).squeeze(-1)
    linalg_square.check_square(A, f"linalg.cond(ord={_ord_text(p)})")
    if p == "nuc":  # (from the singular values: sum(s) * sum(1 / s), as PyTorch's)
        s = svdvals(A)
        return s.sum(-1) * s.reciprocal().sum(-1)
    inverse, info = linalg_triangular.inv_ex(A)
    # (in place, as PyTorch's: so its backward fails as PyTorch's does, "modified by an
    # inplace operation", rather than give a gradient PyTorch does not)
    inverse.masked_fill_(info.unsqueeze(-1).unsqueeze(-1) > 0, math.inf)
    result = linalg_compose.matrix_norm(A, p) * linalg_compose.matrix_norm(inverse, p)
    return result.nan_to_num_(math.inf, math.inf, -math.inf)  # (0 * inf is inf, as numpy's)


def tensorinv(A: Any, ind: int = 2) -> Any:  # noqa: N803
    """The tensor B with tensordot(A, B, ind) the identity: A reshaped to a square matrix of
    rows prod(A.shape[:ind]), inverted, reshaped to A.shape[ind:] + A.shape[:ind]."""
    expect_tensor(A, "linalg_tensorinv", "input")
    if isinstance(ind, bool) or not isinstance(ind, int):
        raise TypeError(f"linalg_tensorinv(): argument 'ind' must be int, not {type(ind).__name__}")
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = tuple(A._data.shape)
    rows, cols = math.prod(shape[:ind]), math.prod(shape[ind:])
    if rows != cols:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == "
            f"prod(self.shape[:ind]), but got {cols} != {rows}"
        )
    return linalg_square.inv(A.reshape(rows, cols)).reshape(*shape[ind:], *shape[:ind])


def tensorsolve(A: Any, B: Any, dims: Any = None) -> Any:  # noqa: N803
    """X with tensordot(A, X, X.ndim) = B: A reshaped to a square matrix of rows B.numel()
    (``dims``: these dims of A moved to the end first)."""
    expect_tensor(A, "linalg_tensorsolve", "input")
    expect_tensor(B, "linalg_tensorsolve", "other", 2)
    if dims is not None:
        dims = [dims] if isinstance(dims, int) else list(dims)
        n = A._data.ndim
        A = A.movedim(dims, list(range(n - len(dims), n)))
    shape = tuple(A._data.shape)
    rest, rows = shape[B._data.ndim :], B._data.size
    cols = math.prod(rest)
    if rows != cols:
        raise RuntimeError(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
            f"prod(self.shape[:other.ndim]), but got {cols} != {rows}"
        )
    return linalg_square.solve(A.reshape(rows, cols), B.reshape(rows)).reshape(*rest)
