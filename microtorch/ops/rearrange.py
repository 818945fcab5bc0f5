"""Ops that move, repeat, pick or mask values without arithmetic: tril, triu, flip, roll,
repeat, index_select, masked_select; and two more one-input functions, rsqrt and expm1.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, PyTorch's errors) are in
``microtorch/api/rearrange.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._precise import correctly_rounded

__all__ = [
    "Rsqrt", "Expm1", "Tril", "Triu", "Flip", "Roll", "Repeat", "IndexSelect", "MaskedSelect",
]  # fmt: skip


class Rsqrt(NumpyFunction):
    """z = 1 / sqrt(a), so dz/da = -1 / (2 a sqrt(a)) = -z**3 / 2 (the output is saved)."""

    node_name = "RsqrtBackward0"

    @staticmethod
    def forward(ctx, a):
        out = correctly_rounded(lambda x: 1 / np.sqrt(x), a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * -0.5 * out**3


class Expm1(NumpyFunction):
    """z = exp(a) - 1, accurate for small a, so dz/da = exp(a) = z + 1."""

    node_name = "Expm1Backward0"

    @staticmethod
    def forward(ctx, a):
        out = correctly_rounded(np.expm1, a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return grad_output * (out + 1)


class Tril(NumpyFunction):
    """z = a with the entries above the ``diagonal``-th diagonal set to 0 (of the last two
    dimensions), so the gradient is grad_output with those entries 0 too."""

    node_name = "TrilBackward0"

    @staticmethod
    def forward(ctx, a, diagonal):
        ctx.diagonal = diagonal
        return np.tril(a, diagonal)

    @staticmethod
    def backward(ctx, grad_output):
        return np.tril(grad_output, ctx.diagonal)


class Triu(NumpyFunction):
    """z = a with the entries below the ``diagonal``-th diagonal set to 0, so the gradient
    is grad_output with those entries 0 too."""

    node_name = "TriuBackward0"

    @staticmethod
    def forward(ctx, a, diagonal):
        ctx.diagonal = diagonal
        return np.triu(a, diagonal)

    @staticmethod
    def backward(ctx, grad_output):
        return np.triu(grad_output, ctx.diagonal)


class Flip(NumpyFunction):
    """z = a reversed along ``dims``, so the gradient is grad_output reversed back."""

    node_name = "FlipBackward0"

    @staticmethod
    def forward(ctx, a, dims):
        ctx.dims = dims
        return np.flip(a, dims).copy()  # (PyTorch's flip copies)

    @staticmethod
    def backward(ctx, grad_output):
        return np.flip(grad_output, ctx.dims).copy()


class Roll(NumpyFunction):
    """z = a shifted by ``shifts`` along ``dims`` (what falls off one end comes back at the
    other), so the gradient is grad_output shifted back."""

    node_name = "RollBackward0"

    @staticmethod
    def forward(ctx, a, shifts, dims):
        ctx.shifts, ctx.dims = shifts, dims
        return np.roll(a, shifts, dims)

    @staticmethod
    def backward(ctx, grad_output):
        return np.roll(grad_output, tuple(-s for s in ctx.shifts), ctx.dims)


class Repeat(NumpyFunction):
    """z = a tiled ``repeats`` times along each dimension (new leading ones first), so each
    value's gradient is the sum of the gradients of its copies."""

    node_name = "RepeatBackward0"

    @staticmethod
    def forward(ctx, a, repeats):
        ctx.shape = a.shape
        return np.tile(a.reshape((1,) * (len(repeats) - a.ndim) + a.shape), repeats)

    @staticmethod
    def backward(ctx, grad_output):
        n = len(ctx.shape)
        lead = grad_output.ndim - n
        # (copies of one value sit k * size apart: a reshape puts them on their own axes)
        split = grad_output.shape[:lead]
        for size, total in zip(ctx.shape, grad_output.shape[lead:]):
            split += (total // max(size, 1), size)
        axes = tuple(range(lead)) + tuple(lead + 2 * i for i in range(n))
        return grad_output.reshape(split).sum(axis=axes).reshape(ctx.shape)


class IndexSelect(NumpyFunction):
    """z = a's slices at ``index`` along ``dim``, so each slice's gradient adds up over the
    places it was picked for (a 0-d a, index [0]: z is a, 0-d)."""

    node_name = "IndexSelectBackward0"

    @staticmethod
    def forward(ctx, a, index, dim):
        ctx.shape, ctx.dim = a.shape, dim
        ctx.save_for_backward(index)
        return np.take(a, index, axis=dim) if a.ndim else a.copy()

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        if not ctx.shape:  # (a 0-d a)
            return grad_output.copy()
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        np.add.at(grad, (slice(None),) * ctx.dim + (index,), grad_output)  # summed: repeats
        return grad


class MaskedSelect(NumpyFunction):
    """z = the values of a (broadcast with the mask) where the mask is True, in a 1-d
    tensor, so the gradient is grad_output put back at those places (0 elsewhere), summed
    back over what was broadcast."""

    node_name = "MaskedSelectBackward0"

    @staticmethod
    def forward(ctx, a, mask):
        shape = np.broadcast_shapes(a.shape, mask.shape)
        ctx.shape = a.shape
        ctx.save_for_backward(np.broadcast_to(mask, shape))
        return np.broadcast_to(a, shape)[np.broadcast_to(mask, shape)]

    @staticmethod
    def backward(ctx, grad_output):
        (mask,) = ctx.saved_tensors
        grad = np.zeros_like(grad_output, shape=mask.shape)
        grad[mask] = grad_output
        return unbroadcast(grad, ctx.shape)
