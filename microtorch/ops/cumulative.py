"""Products and running totals: prod (all or along a dim), cumsum and cumprod (dim required).

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/cumulative.py``.

Integer and bool inputs give int64 results (as sums do), unless ``dtype=`` says otherwise.
Gradients handle zeros as PyTorch does: the product of the *other* elements, built from
running products from the left and from the right, so nothing is divided by zero.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import row_major

__all__ = ["Prod", "ProdDim", "Cumsum", "Cumprod"]


def _others_product(a: np.ndarray, axis: int) -> np.ndarray:
    """Each element's product of all the others along ``axis`` (no division: zeros are fine)."""
    ones = np.ones_like(np.take(a, [0], axis=axis))
    n = a.shape[axis]
    left = np.cumprod(np.concatenate([ones, np.take(a, range(n - 1), axis=axis)], axis), axis)
    rev = np.flip(np.take(a, range(1, n), axis=axis), axis)
    right = np.flip(np.cumprod(np.concatenate([ones, rev], axis), axis), axis)
    return left * right


class Prod(NumpyFunction):
    """z = prod(a), so dz/da_i = the product of the other elements (z / a_i without zeros)."""

    node_name = "ProdBackward0"

    @staticmethod
    def forward(ctx, a, dtype):
        out = np.asarray(a.prod(dtype=dtype))
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        if a.ndim == 0:
            return grad_output
        zeros = np.count_nonzero(a == 0)
        if zeros == 0:
            return grad_output * (out / a)
        if zeros > 1:  # every product of the others holds a zero
            return np.zeros_like(a)
        return (grad_output * _others_product(a.ravel(), 0)).reshape(a.shape)


class ProdDim(NumpyFunction):
    """z = prod(a, dim), so dz/da_i = the product of the other elements along dim."""

    node_name = "ProdBackward1"
    ctx_fields = ("axis", "keepdim")

    @staticmethod
    def forward(ctx, a, axis, keepdim, dtype):
        out = row_major(np.asarray(a.prod(axis=axis, keepdims=keepdim, dtype=dtype)))
        ctx.save_for_backward(a, out)
        ctx.axis, ctx.keepdim = axis, keepdim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        if a.ndim == 0:
            return grad_output
        if not ctx.keepdim:
            grad_output, out = (np.expand_dims(v, ctx.axis) for v in (grad_output, out))
        if not (a == 0).any():
            return grad_output * (out / a)
        return grad_output * _others_product(a, ctx.axis)


class Cumsum(NumpyFunction):
    """z_k = a_0 + ... + a_k, so dL/da_i = g_i + ... + g_last (a sum from the right)."""

    node_name = "CumsumBackward0"
    ctx_fields = ("axis",)

    @staticmethod
    def forward(ctx, a, axis, dtype):
        ctx.axis = axis
        return row_major(np.cumsum(np.atleast_1d(a), axis=axis, dtype=dtype).reshape(a.shape))

    @staticmethod
    def backward(ctx, grad_output):
        g, axis = np.atleast_1d(grad_output), ctx.axis
        if g.shape[axis] == 1:  # sums of one value: the gradient itself, as PyTorch gives it
            return grad_output
        return np.flip(np.cumsum(np.flip(g, axis), axis), axis).reshape(grad_output.shape)


class Cumprod(NumpyFunction):
    """z_k = a_0 * ... * a_k, so dL/da_i = sum over k >= i of g_k * z_k / a_i (zeros apart)."""

    node_name = "CumprodBackward0"
    ctx_fields = ("axis",)

    @staticmethod
    def forward(ctx, a, axis, dtype):
        out = row_major(np.cumprod(np.atleast_1d(a), axis=axis, dtype=dtype).reshape(a.shape))
        ctx.save_for_backward(a, out)
        ctx.axis = axis
        return out

    @staticmethod
    def backward(ctx, grad_output):
        a, out = ctx.saved_tensors
        if a.ndim == 0 or a.shape[ctx.axis] == 1:  # products of one value: the gradient
            return grad_output  # itself, as PyTorch gives it
        a, g, z = (np.moveaxis(v, ctx.axis, -1) for v in (a, grad_output, out))
        with np.errstate(divide="ignore", invalid="ignore"):  # rows with a zero: below
            grad = np.flip(np.cumsum(np.flip(g * z, -1), -1), -1) / a
        for row in np.ndindex(a.shape[:-1]):  # (one row for a 1-d a: the index ())
            if (a[row] == 0).any():
                grad[row] = _cumprod_row_grad(a[row], g[row])
        return np.moveaxis(grad, -1, ctx.axis)


def _cumprod_row_grad(a: np.ndarray, g: np.ndarray) -> np.ndarray:
    # One row with a zero, the first at z: before it the usual formula holds (later outputs
    # are 0); at z, the products of everything but a_z; after z, nothing reaches back.
    z = int(np.argmax(a == 0))
    grad = np.zeros_like(a)
    before = np.cumprod(a[:z])
    with np.errstate(divide="ignore", invalid="ignore"):
        grad[:z] = np.flip(np.cumsum(np.flip(g[:z] * before))) / a[:z]
    prefix = before[-1] if z else a.dtype.type(1)
    grad[z] = np.sum(g[z:] * prefix * np.cumprod(np.concatenate([[1], a[z + 1 :]]).astype(a.dtype)))
    return grad
