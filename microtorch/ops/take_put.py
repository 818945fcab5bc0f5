"""Ops that read or write values at given places: rot90, take, put, block_diag,
masked_scatter, fill (out of place) and index_put with accumulate=True.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, PyTorch's errors) are in
``microtorch/api/take_put.py``. Index and mask arguments are data (numpy arrays), not inputs.
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops.indexing import IndexPutAccumulate
from microtorch.ops.inplace import Fill

__all__ = [
    "Rot90", "Take", "Put", "BlockDiag", "MaskedScatter", "FillLike", "FillLikeTensor",
    "IndexPutAccumulated",
]  # fmt: skip


class Rot90(NumpyFunction):
    """z = a turned k quarter turns in the plane ``dims`` (from the first axis towards the
    second), so the gradient is grad_output turned -k quarter turns."""

    node_name = "Rot90Backward0"
    ctx_fields = ("k", "dims")

    @staticmethod
    def forward(ctx, a, k, dims):
        ctx.k, ctx.dims = k, dims
        return np.rot90(a, k, dims).copy()

    @staticmethod
    def backward(ctx, grad_output):
        return np.rot90(grad_output, -ctx.k, ctx.dims)  # (a view of grad_output, as x.rot90)


class Take(NumpyFunction):
    """z = a.flatten()[index] (index of any shape), so the gradient of a is grad_output added
    back at those places (twice where an index repeats)."""

    node_name = "TakeBackward0"
    ctx_fields = ("index",)

    @staticmethod
    def forward(ctx, a, index):
        ctx.index = index
        return a.reshape(-1)[index]

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros_like(grad_output, shape=(math.prod(ctx.input_shape(0)),))
        np.add.at(grad, ctx.index, grad_output)
        return grad.reshape(ctx.input_shape(0))


class Put(NumpyFunction):
    """z = a with z.flatten()[index] = source (or += with accumulate), so a gets grad_output
    (outside those places unless accumulating) and source grad_output at them."""

    node_name = "PutBackward0"
    ctx_fields = ("index", "accumulate")

    @staticmethod
    def forward(ctx, a, source, index, accumulate):
        ctx.index, ctx.accumulate = index, accumulate
        out = a.copy()
        if accumulate:
            np.add.at(out.reshape(-1), index, source.reshape(-1))
        else:
            out.reshape(-1)[index] = source.reshape(-1)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        grad_a = grad_output.copy()
        if not ctx.accumulate:
            grad_a.reshape(-1)[ctx.index] = 0
        grad_source = grad_output.reshape(-1)[ctx.index].reshape(ctx.input_shape(1))
        return grad_a, grad_source


class BlockDiag(NumpyFunction):
    """Z = the matrices A1, A2, ... down the diagonal (a vector as one row, a number as a 1x1
    block), zeros elsewhere, so each Ai's gradient is its block of G."""

    node_name = "BlockDiagBackward0"

    @staticmethod
    def forward(ctx, *matrices):
        matrices = tuple(m.reshape(1, -1) if m.ndim < 2 else m for m in matrices)  # (a row)
        rows = sum(m.shape[0] for m in matrices)
        cols = sum(m.shape[1] for m in matrices)
        out = np.zeros((rows, cols), np.result_type(*matrices))
        r = c = 0
        for m in matrices:
            out[r : r + m.shape[0], c : c + m.shape[1]] = m
            r, c = r + m.shape[0], c + m.shape[1]
        return out

    @staticmethod
    def backward(ctx, grad_output):
        grads, r, c = [], 0, 0
        for i in range(len(ctx.needs_input_grad)):
            shape = ctx.input_shape(i)
            n, m = shape if len(shape) == 2 else (1, int(np.prod(shape)))
            grads.append(grad_output[r : r + n, c : c + m].reshape(shape))
            r, c = r + n, c + m
        return tuple(grads)


class MaskedScatter(NumpyFunction):
    """z = a with the places where mask is True filled, in order, from source's first values;
    so a gets grad_output where mask is False, source's first values grad_output where True."""

    node_name = "MaskedScatterBackward0"
    ctx_fields = ("mask",)

    @staticmethod
    def forward(ctx, a, source, mask):
        shape = np.broadcast_shapes(a.shape, mask.shape)
        ctx.mask = mask = np.broadcast_to(mask, shape)
        out = np.broadcast_to(a, shape).copy()
        out[mask] = source.reshape(-1)[: int(mask.sum())]
        return out

    @staticmethod
    def backward(ctx, grad_output):
        mask = ctx.mask
        grad_a = unbroadcast(np.where(mask, 0, grad_output), ctx.input_shape(0))
        grad_source = np.zeros_like(grad_output, shape=(math.prod(ctx.input_shape(1)),))
        taken = grad_output[mask]
        grad_source[: taken.size] = taken
        return grad_a, grad_source.reshape(ctx.input_shape(1))


class FillLike(Fill):
    """``torch.fill(a, value)``: ``x.fill_``'s formula (z = value everywhere, a's gradient 0)
    out of place, under PyTorch's name for that node."""

    node_name = "FillBackward0"


class FillLikeTensor(NumpyFunction):
    """z = a tensor like a with the 0-d tensor v everywhere: a's gradient is 0, v's the sum
    of grad_output."""

    node_name = "FillBackward1"

    @staticmethod
    def forward(ctx, a, v):
        return np.full_like(a, v)

    @staticmethod
    def backward(ctx, grad_output):
        return np.zeros_like(grad_output), grad_output.sum()


class IndexPutAccumulated(IndexPutAccumulate):
    """``a.index_put(indices, v, accumulate=True)``: v added at the indices (once per
    occurrence); a gets the whole gradient, v the gradient at the indices."""

    node_name = "IndexPutBackward0"
