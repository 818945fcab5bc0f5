"""Writing whole slices along a dimension: index_add, index_copy, index_fill; and unfold.

For ``dim=0``, ``index_add`` does ``out[index[i]] += alpha * source[i]`` (repeated indices
add up), ``index_copy`` does ``out[index[i]] = source[i]`` and ``index_fill`` does
``out[index[i]] = value``: the slice-wise cousins of ``scatter_add``/``scatter``, with one
index per slice instead of one per element. ``unfold`` is a view of sliding windows. The
public functions (argument checks, PyTorch's errors) are in ``microtorch/api/index_along.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = [
    "IndexAdd", "IndexCopy", "IndexFill", "IndexFillTensor", "Unfold", "windows", "strided_view",
]  # fmt: skip


def _along(dim: int, ndim: int, index: np.ndarray) -> tuple[object, ...]:
    # the numpy index of the slices index names along dim (of a tensor of ndim dimensions)
    return (slice(None),) * dim + (index,) + (slice(None),) * (ndim - dim - 1)


class IndexAdd(NumpyFunction):
    """out = a with alpha * source[i] added to the slice index[i] along dim; so
    da = grad_output and dsource = alpha * grad_output's slices at index."""

    node_name = "IndexAddBackward0"

    @staticmethod
    def forward(ctx, a, source, index, dim, alpha):
        ctx.dim, ctx.alpha, ctx.shape = dim, alpha, source.shape
        ctx.save_for_backward(index)
        out = a.copy()
        if a.ndim == 0:  # (a 0-d tensor is one slice)
            return out + alpha * source.reshape(())
        scaled = source if alpha == 1 else source * np.asarray(alpha, a.dtype)
        np.add.at(out, _along(dim, a.ndim, index), scaled.reshape(_slices(a, index, dim)))
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        if grad_output.ndim == 0:
            taken = grad_output
        else:
            taken = grad_output[_along(ctx.dim, grad_output.ndim, index)]
        if ctx.alpha != 1:
            taken = taken * np.asarray(ctx.alpha, taken.dtype)
        return grad_output, taken.reshape(ctx.shape)


class IndexCopy(NumpyFunction):
    """out = a with the slice index[i] along dim replaced by source[i]; so da = grad_output
    with those slices zeroed, and dsource = grad_output's slices at index."""

    node_name = "IndexCopyBackward0"

    @staticmethod
    def forward(ctx, a, source, index, dim):
        ctx.dim, ctx.shape = dim, source.shape
        ctx.save_for_backward(index)
        if a.ndim == 0:
            return source.reshape(()).copy()
        out = a.copy()
        out[_along(dim, a.ndim, index)] = source.reshape(_slices(a, index, dim))
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        if grad_output.ndim == 0:
            return np.zeros_like(grad_output), grad_output.reshape(ctx.shape)
        where = _along(ctx.dim, grad_output.ndim, index)
        grad_a = grad_output.copy()
        grad_a[where] = 0
        return grad_a, grad_output[where].reshape(ctx.shape)


class IndexFill(NumpyFunction):
    """out = a with the slices index names along dim set to a number; so da = grad_output
    with those slices zeroed."""

    node_name = "IndexFillBackward0"

    @staticmethod
    def forward(ctx, a, index, dim, value):
        ctx.dim = dim
        ctx.save_for_backward(index)
        out = a.copy()
        out[_along(dim, a.ndim, index) if a.ndim else ()] = value
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (index,) = ctx.saved_tensors
        if grad_output.ndim == 0:
            return np.zeros_like(grad_output)
        grad_a = grad_output.copy()
        grad_a[_along(ctx.dim, grad_a.ndim, index)] = 0
        return grad_a


class IndexFillTensor(NumpyFunction):
    """out = a with the slices index names along dim set to the 0-d tensor value; so
    da = grad_output with those slices zeroed, dvalue = the sum of grad_output there."""

    node_name = "IndexFillBackward1"

    @staticmethod
    def forward(ctx, a, value, index, dim):
        ctx.dim = dim
        ctx.places = np.unique(index)  # (each place once, however often index names it)
        out = a.copy()
        out[_along(dim, a.ndim, index) if a.ndim else ()] = value
        return out

    @staticmethod
    def backward(ctx, grad_output):
        if grad_output.ndim == 0:
            return np.zeros_like(grad_output), grad_output
        where = _along(ctx.dim, grad_output.ndim, ctx.places)
        grad_a = grad_output.copy()
        grad_a[where] = 0
        return grad_a, grad_output[where].sum()


def _slices(a: np.ndarray, index: np.ndarray, dim: int) -> tuple[int, ...]:
    # the shape of a's slices at index (source's shape, or its 0-d index's one-slice shape)
    shape = list(a.shape)
    shape[dim] = index.size
    return tuple(shape)


def windows(a: np.ndarray, dim: int, size: int, step: int) -> np.ndarray:
    """The view of ``a`` whose dimension ``dim`` holds the window starts (every ``step``) and
    whose new last dimension holds each window's ``size`` elements: no copy."""
    if a.ndim == 0:
        return a.reshape(1)[:size]
    count = (a.shape[dim] - size) // step + 1
    shape = a.shape[:dim] + (count,) + a.shape[dim + 1 :] + (size,)
    strides = a.strides[:dim] + (a.strides[dim] * step,) + a.strides[dim + 1 :]
    return strided_view(a, shape, strides + (a.strides[dim],))


def strided_view(a: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...]) -> np.ndarray:
    """A view of ``a``'s memory with the given shape and strides (in bytes, from ``a``'s first
    element), made over the array that owns the memory so that it counts as a view of it
    (the version counts of ``autograd/versions.py`` follow ``.base`` to the owner)."""
    owner = a
    while isinstance(owner.base, np.ndarray):
        owner = owner.base
    if owner.flags.c_contiguous and owner.base is None:
        offset = a.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
        return np.ndarray(shape, a.dtype, buffer=owner, offset=offset, strides=strides)
    return np.lib.stride_tricks.as_strided(a, shape, strides)  # (memory numpy made up)


class Unfold(NumpyFunction):
    """out[..., i, ..., k] = a[..., i * step + k, ...] (a view); so da gets each window's
    gradient added back at the places the window read (twice where windows overlap)."""

    node_name = "UnfoldBackward0"

    @staticmethod
    def forward(ctx, a, dim, size, step):
        ctx.shape, ctx.dim, ctx.size, ctx.step = a.shape, dim, size, step
        return windows(a, dim, size, step)

    @staticmethod
    def backward(ctx, grad_output):
        if not ctx.shape:
            return grad_output.reshape(())
        grad = np.zeros_like(grad_output, shape=ctx.shape)
        dim, step = ctx.dim, ctx.step
        count = grad_output.shape[dim]
        for k in range(ctx.size):  # the k-th element of every window
            where = _along(dim, grad.ndim, slice(k, k + step * (count - 1) + 1, step))
            grad[where] += grad_output[..., k]
        return grad
