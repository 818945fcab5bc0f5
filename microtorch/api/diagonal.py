"""diagonal, diag, diag_embed and trace.

The public functions: argument checks and PyTorch's errors around the formulas in
``microtorch/ops/diagonal.py``. ``x.diagonal()`` is a view (writing into it writes into x);
``torch.diag(matrix)`` is a copy, and ``torch.diag(vector)`` the square matrix with it on
the diagonal.
"""

from __future__ import annotations

from typing import Any

from microtorch.api._checks import expect_tensor, views_first
from microtorch.api.arguments import expect_int, parsed
from microtorch.api.keywords import torch_keywords
from microtorch.api.reduction import normalize_dims
from microtorch.autograd.views import as_view
from microtorch.ops.diagonal import DiagEmbed, Diagonal, DiagonalCopy, Trace

__all__ = ["diagonal", "diag", "diag_embed", "trace"]


def _two_dims(dim1: int, dim2: int, ndim: int) -> tuple[int, int]:
    d1, d2 = normalize_dims((dim1, dim2), ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


@parsed("diagonal", "Tensor input, int offset=0, int dim1=0, int dim2=1")
@torch_keywords("input", "offset", "dim1", "dim2")
def diagonal(a: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Any:
    """The ``offset``-th diagonal of dimensions dim1 and dim2 (a view; it becomes the last
    dimension)."""
    expect_tensor(a, "diagonal")
    for value, name in ((offset, "offset"), (dim1, "dim1"), (dim2, "dim2")):
        expect_int(value, name)
    views_first(a)  # (a view PyTorch no longer lets you use: its error comes first)
    d1, d2 = _two_dims(dim1, dim2, a._data.ndim)
    return as_view(Diagonal.apply(a, int(offset), d1, d2), a)


@parsed("diag", "Tensor input, int diagonal=0")
@torch_keywords("input", "diagonal", out=True)
def diag(a: Any, diagonal: int = 0) -> Any:
    """A vector: the square matrix with it on the ``diagonal``-th diagonal. A matrix: its
    ``diagonal``-th diagonal, as a new tensor."""
    expect_tensor(a, "diag")
    expect_int(diagonal, "diagonal")
    ndim = a._data.ndim
    if ndim == 1:
        return DiagEmbed.apply(a, int(diagonal), 0, 1)
    if ndim == 2:
        return DiagonalCopy.apply(a, int(diagonal), 0, 1)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {ndim}D")


@parsed("diag_embed", "Tensor input, int offset=0, int dim1=-2, int dim2=-1")
@torch_keywords("input", "offset", "dim1", "dim2")
def diag_embed(a: Any, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Any:
    """Zeros with the last dimension of ``a`` on the ``offset``-th diagonal of dimensions
    dim1 and dim2 of the result (a batch of diagonal matrices)."""
    expect_tensor(a, "diag_embed")
    for value, name in ((offset, "offset"), (dim1, "dim1"), (dim2, "dim2")):
        expect_int(value, name)
    d1, d2 = _two_dims(dim1, dim2, a._data.ndim + 1)
    return DiagEmbed.apply(a, int(offset), d1, d2)


@torch_keywords("input")
def trace(a: Any) -> Any:
    """The sum of a matrix's main diagonal (integers sum to int64)."""
    expect_tensor(a, "trace")
    if a._data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {a._data.ndim}")
    if a._dtype.name == "bool":
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    return Trace.apply(a)
