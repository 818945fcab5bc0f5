"""index_reduce: ``out = a`` with each slice ``source.select(dim, i)`` combined into the slice
``a.select(dim, index[i])`` by prod, mean, amax or amin, with PyTorch's backward formula
(``index_reduce_backward``). The combining is scatter_reduce's (``reduce_at``): index_reduce
is scatter_reduce with ``index`` repeated along every other dim of ``source``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.formula_values import recorded, run_recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.ops.scatter import reduce_at

__all__ = ["DelayedError", "IndexReduce", "index_positions"]

MANY_ZEROS = (
    "index_reduce(): Double backward is unsupported for source when >1 zeros in source are "
    "scattered to the same position in self"
)


def index_positions(index: np.ndarray, dim: int, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """The numpy index of the places of ``a`` that each value of a ``source`` of ``shape``
    goes to: its own coordinates, with ``index[i]`` for ``i`` along ``dim``."""
    grid: list[np.ndarray] = list(np.indices(shape, sparse=True))
    grid[dim] = index.reshape([-1 if d == dim else 1 for d in range(len(shape))])
    return tuple(grid)


class IndexReduce(NumpyFunction):
    """out[p] = a[p] (if include_self) combined with the source values sent to p. Gradients:
    prod: da = g * out / a, dsource = g * out / source at the place it went (by the product of
    the others where a value is 0); mean: g / count for both; amax, amin: g shared evenly among
    the values (of a and of source) equal to the result; da = 0 where written if not
    include_self. The prod formula is PyTorch's: it calls index_reduce again (recorded, with
    create_graph=True), and a source gradient where two zeros meet has no derivative."""

    node_name = "IndexReduceBackward0"

    @staticmethod
    def forward(ctx, a, dim, index, source, reduce, include_self):
        shape = a.shape
        ctx.shapes = (a.shape, source.shape)
        a, source = np.atleast_1d(a), np.atleast_1d(source)  # (0-d: one place, a 1-d of 1)
        where = index_positions(index, dim, source.shape)
        out, count = reduce_at(a, where, source, reduce, include_self)
        ctx.dim, ctx.reduce, ctx.include_self, ctx.count = dim, reduce, include_self, count
        ctx.save_for_backward(a, source, out)
        ctx.where, ctx.index = where, index
        return out.reshape(shape) if out.shape != shape else out

    @staticmethod
    def backward(ctx, grad_output):
        a, source, out = ctx.saved_tensors
        where, reduce, include_self = ctx.where, ctx.reduce, ctx.include_self
        g = grad_output.reshape(a.shape) if grad_output.shape != a.shape else grad_output
        if reduce == "prod":
            kept = np.where(a == 0, 1, a)  # the product of the others, where a value is 0
            grad_a = g * _index_reduce(ctx, kept, source) / kept
            zeros = np.zeros(a.shape, np.int64)
            np.add.at(zeros, where, source == 0)
            alone = (source == 0) & (zeros[where] == 1)  # the one 0 sent to its place
            others = _index_reduce(ctx, a, np.where(alone, 1, source))
            grad_source = np.where(
                alone, (g * others)[where], (g * out)[where] / np.where(source == 0, 1, source)
            )
            if recorded(grad_source) and (zeros > 1).any():  # (two zeros: 0, of no derivative)
                grad_source = run_recorded(DelayedError, grad_source, MANY_ZEROS)
        elif reduce == "mean":
            count = np.maximum(ctx.count, 1)
            grad_a, grad_source = g / count, g[where] / count[where]
        else:  # amax, amin
            a_is, source_is = (a == out).astype(a.dtype), (source == out[where]).astype(a.dtype)
            ties = a_is.copy()
            np.add.at(ties, where, source_is)
            shared = g / ties
            grad_a, grad_source = a_is * shared, source_is * shared[where]
        if not include_self:
            grad_a = grad_a.copy()
            grad_a[where] = 0
        a_shape, source_shape = ctx.shapes
        if a_shape != a.shape:  # (0-d a and source)
            return grad_a.reshape(a_shape), grad_source.reshape(source_shape)
        return grad_a, grad_source


def _index_reduce(ctx, a, source):
    # index_reduce(a, dim, index, source) as the op's, within its backward formula
    if recorded(a) or recorded(source):  # (create_graph=True: IndexReduceBackward0)
        return run_recorded(
            IndexReduce, a, ctx.dim, ctx.index, source, ctx.reduce, ctx.include_self
        )
    return reduce_at(a, ctx.where, source, ctx.reduce, ctx.include_self)[0]


class DelayedError(NumpyFunction):
    """z = x, a gradient a backward formula computed but cannot differentiate: differentiating
    it raises ``message`` (PyTorch's ``torch::autograd::Error`` node)."""

    node_name = "torch::autograd::Error"
    ctx_fields = ("message",)

    @staticmethod
    def forward(ctx, x, message):
        ctx.message = message
        return x.copy()

    @staticmethod
    def backward(ctx, grad_output):
        raise RuntimeError(ctx.message)
