"""The singular value decomposition: ``torch.svd`` (U, S, V), ``torch.linalg.svd`` (U, S,
Vh) and ``torch.linalg.svdvals`` (S), around the formula in ``microtorch/ops/decomposition.py``.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from microtorch.api import shape as shape_ops
from microtorch.api._checks import expect_tensor
from microtorch.autograd import node as _node
from microtorch.ops.decomposition import LinalgSvd

__all__ = ["svd", "linalg_svd", "svdvals", "LinAlgError"]


class _LinAlgError(RuntimeError):
    """A linear-algebra routine failed (PyTorch's torch.linalg.LinAlgError)."""


LinAlgError = _LinAlgError

# what torch.svd and torch.linalg.svd return, named as PyTorch's torch.return_types are
svd_result = namedtuple("svd_result", ["U", "S", "V"])
linalg_svd_result = namedtuple("linalg_svd_result", ["U", "S", "Vh"])
svd_result.__name__ = svd_result.__qualname__ = "svd"
linalg_svd_result.__name__ = linalg_svd_result.__qualname__ = "linalg_svd"


def linalg_svd(A: Any, full_matrices: bool = True, *, driver: Any = None) -> Any:  # noqa: N803
    """U, S, Vh with A = U @ diag(S) @ Vh; S in decreasing order."""
    _check(A, "linalg_svd", "The input tensor A must have at least 2 dimensions.")
    return linalg_svd_result(*LinalgSvd.apply(A, full_matrices))


def svd(input: Any, some: bool = True, compute_uv: bool = True) -> Any:  # noqa: A002
    """U, S, V with input = U @ diag(S) @ V.T (V, not linalg.svd's Vh = V.T); ``some=False``
    gives the full square U and V; ``compute_uv=False`` gives zeros for them."""
    _check(input, "svd", "input should have at least 2 dimensions, but has "
           f"{getattr(getattr(input, '_data', None), 'ndim', 0)} dimensions instead")  # fmt: skip
    u, s, vh = LinalgSvd.apply(input, not some)
    if not compute_uv:
        m, n = input._data.shape[-2:]
        batch = input._data.shape[:-2]
        zeros = [np.zeros((*batch, k, k), input._data.dtype) for k in (m, n)]
        return svd_result(_node.plain_tensor(zeros[0]), s, _node.plain_tensor(zeros[1]))
    return svd_result(u, s, shape_ops.transpose(vh, -2, -1))


def svdvals(A: Any, *, driver: Any = None) -> Any:  # noqa: N803
    """The singular values of A, in decreasing order."""
    _check(A, "linalg_svdvals", "The input tensor A must have at least 2 dimensions.")
    return LinalgSvd.apply(A, False)[1]


def _check(a: Any, op: str, too_few: str) -> None:
    expect_tensor(a, op)
    if not a._dtype.is_floating_point:
        raise RuntimeError(
            "linalg.svd: Expected a floating point or complex tensor as input. Got "
            f"{a._dtype._legacy[:-6]}"
        )
    if a._data.ndim < 2:
        raise RuntimeError(f"linalg.svd: {too_few}")
    if np.isnan(a._data).any():
        raise _LinAlgError(
            "linalg.svd: The algorithm failed to converge because the input matrix contained "
            "non-finite values."
        )
