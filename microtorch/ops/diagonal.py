"""Diagonals: read one out of a tensor (diagonal, trace) or build a tensor around one
(diag_embed).

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, PyTorch's errors, ``torch.diag``) are in
``microtorch/api/diagonal.py``. The ``offset``-th diagonal of dimensions ``dim1`` and ``dim2``
holds the entries ``[i, i + offset]`` (offset > 0: above the main diagonal).
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["Diagonal", "DiagonalCopy", "DiagEmbed", "Trace", "diagonal_places"]


def diagonal_places(rows: int, cols: int, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """The row and column numbers of the ``offset``-th diagonal of a rows x cols matrix."""
    start_row, start_col = max(-offset, 0), max(offset, 0)
    n = max(min(rows - start_row, cols - start_col), 0)
    return np.arange(start_row, start_row + n), np.arange(start_col, start_col + n)


def _last_two(a, dim1, dim2):
    # a view of ``a`` with dim1 and dim2 moved to the end (numpy's moveaxis is a view)
    return np.moveaxis(a, (dim1, dim2), (-2, -1))


class Diagonal(NumpyFunction):
    """z = the ``offset``-th diagonal of dimensions dim1, dim2 of a (a view, the diagonal as
    the last dimension), so the gradient is grad_output on that diagonal and 0 elsewhere."""

    node_name = "DiagonalBackward0"

    @staticmethod
    def forward(ctx, a, offset, dim1, dim2):
        ctx.shape, ctx.offset, ctx.dims = a.shape, offset, (dim1, dim2)
        out = np.diagonal(a, offset, dim1, dim2)  # (numpy's view is read-only: PyTorch's
        out.flags.writeable = a.flags.writeable  # writes through to a)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros_like(grad_output, shape=ctx.shape)  # (zeros in grad_output's dtype)
        moved = _last_two(grad, *ctx.dims)
        rows, cols = diagonal_places(*moved.shape[-2:], ctx.offset)
        moved[..., rows, cols] = grad_output
        return grad


class DiagonalCopy(Diagonal):
    """``torch.diag`` of a matrix: its diagonal as a new tensor (not a view)."""

    node_name = "DiagonalBackward0_copy"

    @staticmethod
    def forward(ctx, a, offset, dim1, dim2):
        return Diagonal.forward(ctx, a, offset, dim1, dim2).copy()


class DiagEmbed(NumpyFunction):
    """z = zeros with a's last dimension written on the ``offset``-th diagonal of dimensions
    dim1, dim2 of the result, so the gradient is grad_output's diagonal there."""

    node_name = "DiagEmbedBackward0"

    @staticmethod
    def forward(ctx, a, offset, dim1, dim2):
        ctx.offset, ctx.dims = offset, (dim1, dim2)
        n = a.shape[-1] + abs(offset) if a.ndim else abs(offset) + 1
        out = np.zeros(a.shape[:-1] + (n, n), a.dtype)
        out = np.moveaxis(out, (-2, -1), (dim1, dim2))
        moved = _last_two(out, dim1, dim2)
        rows, cols = diagonal_places(n, n, offset)
        moved[..., rows, cols] = a
        return np.ascontiguousarray(out)

    @staticmethod
    def backward(ctx, grad_output):
        moved = _last_two(grad_output, *ctx.dims)
        rows, cols = diagonal_places(*moved.shape[-2:], ctx.offset)
        return moved[..., rows, cols]


class Trace(NumpyFunction):
    """z = the sum of a matrix's main diagonal, so dz/da is 1 on that diagonal, 0 elsewhere."""

    node_name = "TraceBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.shape
        rows, cols = diagonal_places(*a.shape, 0)
        dtype = a.dtype if a.dtype.kind == "f" else np.int64  # (integers sum in int64)
        return np.asarray(a[rows, cols].sum(dtype=dtype))

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        rows, cols = diagonal_places(*ctx.shape, 0)
        grad[rows, cols] = grad_output
        return grad
