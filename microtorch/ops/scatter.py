"""Gathering and scattering along a dimension: gather, scatter, scatter_add, scatter_reduce.

For a 2-d ``a`` and ``dim=1``, ``gather`` reads ``out[i][j] = a[i][index[i][j]]`` and
``scatter`` writes ``out[i][index[i][j]] = src[i][j]`` (the one-hot trick:
``zeros(n, k).scatter_(1, labels[:, None], 1)``). ``positions`` turns ``index`` into the full
numpy index of the places read or written, so each formula is one numpy assignment. The
public functions (argument checks, PyTorch's errors) are in ``microtorch/api/scatter.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = [
    "positions", "reduce_at", "Gather", "Scatter", "ScatterValue", "ScatterAdd", "ScatterReduce",
    "ScatterCombine",
]  # fmt: skip


def positions(index: np.ndarray, dim: int) -> tuple[np.ndarray, ...]:
    """The numpy index of the places ``index`` names: its own coordinates, with ``index``'s
    values along ``dim``."""
    grid: list[np.ndarray] = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


class Gather(NumpyFunction):
    """out = a[positions(index, dim)], so da gets each grad_output added at the place it
    was read from (twice if read twice)."""

    node_name = "GatherBackward0"

    @staticmethod
    def forward(ctx, a, index, dim):
        ctx.dim, ctx.shape = dim, a.shape
        ctx.save_for_backward(index)
        return a[positions(index, dim)]

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        np.add.at(grad, positions(index, ctx.dim), grad_output)
        return grad


class Scatter(NumpyFunction):
    """out = a with out[positions(index, dim)] = src; so da = grad_output with the written
    places zeroed, and dsrc = grad_output gathered at those places."""

    node_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, a, index, src, dim):
        ctx.dim, ctx.src_shape = dim, src.shape
        ctx.save_for_backward(index)
        out = a.copy()
        out[positions(index, dim)] = src[tuple(slice(n) for n in index.shape)]
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        where = positions(index, ctx.dim)
        grad_a = grad_output.copy()
        grad_a[where] = 0
        return grad_a, _grad_src(grad_output[where], ctx.src_shape)


class ScatterValue(NumpyFunction):
    """out = a with out[positions(index, dim)] = value; so da = grad_output with the written
    places zeroed."""

    node_name = "ScatterBackward1"

    @staticmethod
    def forward(ctx, a, index, value, dim):
        ctx.dim = dim
        ctx.save_for_backward(index)
        out = a.copy()
        out[positions(index, dim)] = value
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        grad_a = grad_output.copy()
        grad_a[positions(index, ctx.dim)] = 0
        return grad_a


class ScatterAdd(NumpyFunction):
    """out = a, plus src added at positions(index, dim) (repeated places add up); so
    da = grad_output and dsrc = grad_output gathered at those places."""

    node_name = "ScatterAddBackward0"

    @staticmethod
    def forward(ctx, a, index, src, dim):
        ctx.dim, ctx.src_shape = dim, src.shape
        ctx.save_for_backward(index)
        out = a.copy()
        np.add.at(out, positions(index, dim), src[tuple(slice(n) for n in index.shape)])
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        where = positions(index, ctx.dim)
        return grad_output, _grad_src(grad_output[where], ctx.src_shape)


class ScatterReduce(NumpyFunction):
    """out[p] = a[p] (if include_self) combined with every src value scattered to p, by sum
    or mean; so da = grad_output (divided by the count, for mean; 0 if not include_self and
    p is written) and dsrc = the gradient at the place each value went."""

    node_name = "ScatterReduceBackward0"

    @staticmethod
    def forward(ctx, a, index, src, dim, reduce, include_self):
        where = positions(index, dim)
        ctx.src_shape = src.shape
        src = src[tuple(slice(n) for n in index.shape)]
        out, count = reduce_at(a, where, src, reduce, include_self)
        ctx.reduce, ctx.include_self, ctx.dim = reduce, include_self, dim
        ctx.save_for_backward(index)
        ctx.count = count
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        where = positions(index, ctx.dim)
        grad = grad_output
        if ctx.reduce == "mean":
            grad = grad_output / np.maximum(ctx.count, 1)
        grad_a = grad.copy()
        if not ctx.include_self:
            grad_a[where] = 0
        return grad_a, _grad_src(grad[where], ctx.src_shape)


class ScatterCombine(NumpyFunction):
    """out = a with src (or a number) added into, or multiplied into, each place
    positions(index, dim) names: scatter's deprecated ``reduce="add"`` / ``"multiply"``.
    PyTorch defines no derivative for it, so backward raises its error."""

    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, a, index, src, dim, reduce, aten):
        ctx.aten = aten  # ("scatter", or "scatter_" for the in-place method)
        if isinstance(src, np.ndarray):
            src = src[tuple(slice(n) for n in index.shape)]
        out = a.copy()
        combine = np.add if reduce == "add" else np.multiply  # (on bools: or, and)
        combine.at(out, positions(index, dim), np.asarray(src).astype(a.dtype))
        return out

    @staticmethod
    def backward(ctx, grad_output):
        raise RuntimeError(
            f"derivative for aten::{ctx.aten} is not implemented (Fix: for a gradient "
            "through scattered sums, use scatter_add or scatter_reduce(..., 'sum'))"
        )


def reduce_at(
    a: np.ndarray, where: tuple[np.ndarray, ...], src: np.ndarray, reduce: str, include_self: bool
) -> tuple[np.ndarray, np.ndarray]:
    """A copy of ``a`` with each ``src`` value combined into the place ``where`` names, by
    ``reduce`` (sum, prod, mean, amax, amin), starting from ``a``'s value if ``include_self``;
    and how many values each place combined."""
    written = np.zeros(a.shape, bool)
    written[where] = True
    out = a.copy()
    if not include_self:
        out[written] = 0 if reduce in ("sum", "mean") else (1 if reduce == "prod" else 0)
    if reduce in ("sum", "mean"):
        np.add.at(out, where, src)
    elif reduce == "prod":
        np.multiply.at(out, where, src)
    else:  # amax, amin: the first value scattered to a place starts it, if not include_self
        combine = np.maximum if reduce == "amax" else np.minimum
        if not include_self:
            out[where] = src  # (some value scattered there; combine below does the rest)
        combine.at(out, where, src)
    count = np.full(a.shape, 1 if include_self else 0, np.int64)
    np.add.at(count, where, 1)
    if reduce == "mean":
        out[written] = _mean(out[written], np.maximum(count[written], 1), a.dtype)
    return out, count


def _mean(total: np.ndarray, count: np.ndarray, dtype: np.dtype) -> np.ndarray:
    # PyTorch's mean of integers rounds down, as its integer division does
    if np.issubdtype(dtype, np.integer):
        return total // count
    return total / count


def _grad_src(taken: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    # src may be larger than index: only its first index.shape values were used
    if taken.shape == shape:
        return taken
    grad = np.zeros_like(taken, shape=shape)
    grad[tuple(slice(n) for n in taken.shape)] = taken
    return grad
