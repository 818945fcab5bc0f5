"""Indexing: ``x[0]``, ``x[1:]``, ``x[None]``, ``x[idx]``, ``x[mask]``, and ``x[i] = v``.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/indexing.py``.

Ints, slices, ``None`` and ``...`` give views, recorded one dimension at a time as PyTorch
does (``SelectBackward0``, ``SliceBackward0``); integer or boolean tensors give a copy
(``IndexBackward0``) whose backward adds up where an index repeats.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import FREED_MESSAGE, NumpyFunction
from microtorch.ops._broadcast import unbroadcast

__all__ = [
    "Select", "Slice", "Index", "Alias", "IndexPut", "AdvancedIndexPut", "IndexPutAccumulate",
    "Scatter", "Gather",
]  # fmt: skip


class Select(NumpyFunction):
    """z = a[..., i, ...] along one dim: the gradient lands at index i, zeros elsewhere."""

    node_name = "SelectBackward0"
    double_backward_name = "SelectBackwardBackward0"

    ctx_fields = ("shape", "key")

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape, ctx.key = a.shape, key
        return a[key + (...,)]  # the "..." keeps a 0-d result a view (a[i] alone gives a copy)

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros_like(grad_output, shape=ctx.shape)  # (zeros in grad_output's dtype)
        grad[ctx.key] = grad_output
        return grad


class Slice(Select):
    """z = a[start:stop:step] along one dim: the gradient lands in that slice."""

    node_name = "SliceBackward0"
    double_backward_name = "SliceBackwardBackward0"


class Index(NumpyFunction):
    """z = a[indices] with integer or boolean tensors (a copy): the gradient is scattered
    back, adding up where an index repeats."""

    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, a, key):
        ctx.shape, ctx.key = a.shape, key
        # numpy may lay a fancy-indexed result out column-first; PyTorch's is row-major, and
        # that decides whether a later reshape is a view.
        return np.ascontiguousarray(a[key])

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        np.add.at(grad, ctx.key, grad_output)
        return grad


class Alias(NumpyFunction):
    """z = a, the same memory under a new name (``x[...]``): the gradient passes through."""

    node_name = "AliasBackward0"

    @staticmethod
    def forward(ctx, a):
        return a.view()

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class IndexPut(NumpyFunction):
    """z = a with z[key] = v: a gets the gradient outside key, v the gradient inside it."""

    node_name = "torch::autograd::CopySlices"
    runs_once = True

    @staticmethod
    def forward(ctx, a, v, key):
        ctx.key, ctx.v_shape = key, v.shape
        out = a.copy()
        out[key] = v
        return out

    @staticmethod
    def backward(ctx, grad_output):
        if ctx._saved is None:  # freed by an earlier backward (see Function.runs_once)
            raise RuntimeError(FREED_MESSAGE)
        ga = grad_output.copy()
        ga[ctx.key] = 0
        return ga, unbroadcast(grad_output[ctx.key], ctx.v_shape)


class AdvancedIndexPut(IndexPut):
    """z = a with z[indices] = v for integer or boolean indices."""

    node_name = "IndexPutBackward0"


class IndexPutAccumulate(NumpyFunction):
    """z = a with v added at key, once per occurrence (``np.add.at``, PyTorch's
    ``index_put_(..., accumulate=True)``): a gets the whole gradient, v the gradient at key."""

    node_name = "IndexPutImplBackward0"
    ctx_fields = ("key", "v_shape")

    @staticmethod
    def forward(ctx, a, v, key):
        ctx.key, ctx.v_shape = key, v.shape
        out = a.copy()
        np.add.at(out, key, v)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, unbroadcast(grad_output[ctx.key], ctx.v_shape)


class Scatter(NumpyFunction):
    """z = a with v written along dim at indices (``np.put_along_axis``, PyTorch's ``scatter``):
    a gets the gradient outside those places, v the gradient at them (indices distinct)."""

    node_name = "ScatterBackward0"
    ctx_fields = ("indices", "dim", "v_shape")

    @staticmethod
    def forward(ctx, a, v, indices, dim):
        ctx.indices, ctx.dim, ctx.v_shape = indices, dim, v.shape
        out = a.copy()
        np.put_along_axis(out, indices, v, axis=dim)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        ga = gv = None
        if ctx.needs_input_grad[0]:
            ga = grad_output.copy()
            np.put_along_axis(ga, ctx.indices, 0, axis=ctx.dim)
        if ctx.needs_input_grad[-1]:
            picked = np.take_along_axis(grad_output, ctx.indices, axis=ctx.dim)
            gv = unbroadcast(picked, ctx.v_shape)
        return ga, gv


class Gather(NumpyFunction):
    """z = a's values at indices along dim (``np.take_along_axis``, PyTorch's ``gather``):
    each gradient goes back to the place it was read from (indices distinct)."""

    node_name = "GatherBackward0"
    ctx_fields = ("shape", "indices", "dim")

    @staticmethod
    def forward(ctx, a, indices, dim):
        ctx.shape, ctx.indices, ctx.dim = a.shape, indices, dim
        return np.take_along_axis(a, indices, axis=dim)

    @staticmethod
    def backward(ctx, grad_output):
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        np.put_along_axis(grad, ctx.indices, grad_output, axis=ctx.dim)
        return grad
