"""Shape ops: view/reshape/flatten, squeeze/unsqueeze, expand, transpose/permute, clone, casts.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/shape.py``.

Views share memory with their input (``y = x.view(4)`` changes when ``x`` does) and its
version counter; their backward only rearranges the gradient. Indexing is in
``ops/indexing.py``, joining and splitting in ``ops/join.py``.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._broadcast import expand as expanded
from microtorch.ops._broadcast import unbroadcast
from microtorch.ops._layout import preserved_astype, preserved_copy

__all__ = [
    "View",
    "UnsafeView",
    "ReshapeAlias",
    "Squeeze",
    "SqueezeDim",
    "SqueezeDims",
    "Unsqueeze",
    "Expand",
    "Permute",
    "Transpose",
    "T",
    "Clone",
    "ToCopy",
]


class View(NumpyFunction):
    """z = a viewed with a new shape: the gradient is reshaped back."""

    node_name = "ViewBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        out = a.view()
        out.shape = shape  # raises if a copy would be needed, unlike np.reshape
        return out

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.reshape(ctx.shape)


class UnsafeView(View):
    """z = a (a fresh copy) with a new shape: the gradient is reshaped back."""

    node_name = "UnsafeViewBackward0"


class ReshapeAlias(View):
    """z = a non-contiguous a viewed with a new shape: the gradient is reshaped back."""

    node_name = "ReshapeAliasBackward0"


class Squeeze(NumpyFunction):
    """z = a without some size-1 dims: the gradient gets them back (one unsqueeze each, as
    PyTorch's formula)."""

    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, a, axes):
        # where the gradient gets its dims back: g[:, None] for axes (1,) of a 2-d input
        ctx.where = tuple(None if i in axes else slice(None) for i in range(a.ndim)) if axes else ()
        return np.squeeze(a, axis=axes)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output[ctx.where] if ctx.where else grad_output  # (nothing squeezed)


class SqueezeDim(Squeeze):
    """z = a without size-1 dim ``dim``: the gradient gets it back."""

    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    """z = a without the size-1 dims of a tuple ``dim``: the gradient gets them back."""

    node_name = "SqueezeBackward2"


class Unsqueeze(NumpyFunction):
    """z = a with a new size-1 dim: the gradient drops it again."""

    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, a, dim):
        ctx.dim = dim
        return np.expand_dims(a, dim)

    @staticmethod
    def backward(ctx, grad_output):
        return np.squeeze(grad_output, axis=ctx.dim)


class Expand(NumpyFunction):
    """z = a repeated along size-1 dims (no copy): the gradient sums over the repeats."""

    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        return expanded(a, shape)

    @staticmethod
    def backward(ctx, grad_output):
        return unbroadcast(grad_output, ctx.shape)


class Permute(NumpyFunction):
    """z = a with dims reordered: the gradient is put back in the original order."""

    node_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, a, order):
        ctx.inverse = tuple(np.argsort(order))
        return np.transpose(a, order)

    @staticmethod
    def backward(ctx, grad_output):
        return np.transpose(grad_output, ctx.inverse)


class Transpose(Permute):
    """z = a with two dims swapped: the gradient is swapped back."""

    node_name = "TransposeBackward0"

    @staticmethod
    def backward(ctx, grad_output):
        swapped = [d for d, k in enumerate(ctx.inverse) if d != k]  # (none: transpose(0, 0))
        return (
            np.swapaxes(grad_output, *swapped)
            if swapped
            else np.transpose(grad_output, ctx.inverse)
        )


class T(NumpyFunction):
    """z = a.t(): the gradient is transposed back."""

    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, a):
        return a.T  # (at most 2 dims: a matrix's two swapped, a vector or a number as it is)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.T  # (the reverse order of two dims is its own inverse)


class Clone(NumpyFunction):
    """z = a copy of a: the gradient passes through unchanged."""

    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a, row_major=False):
        # PyTorch's clone keeps a's memory order (preserve_format); contiguous() and
        # reshape's copy are row-major (contiguous_format)
        return np.array(a, copy=True, order="C") if row_major else preserved_copy(a)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class ToCopy(NumpyFunction):
    """z = a converted to another dtype: the gradient is converted back."""

    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, a, np_dtype):
        ctx.dtype = a.dtype
        return preserved_astype(a, np_dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.astype(ctx.dtype)
