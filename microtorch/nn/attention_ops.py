"""The ``Function`` behind attention that the core ops do not cover: ``_safe_softmax``.

PyTorch's ``scaled_dot_product_attention`` (its math path, the one the CPU runs for a graph)
normalises the scores with ``_safe_softmax``: a softmax whose rows that are ``-inf`` all
along (a query that may attend to nothing) give 0s instead of NaNs.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.ops._layout import row_major

__all__ = ["SafeSoftmax"]


class SafeSoftmax(NumpyFunction):
    """y = exp(a) / sum(exp(a)) along dim, 0 on rows where every a is -inf; so, as for
    softmax, the gradient is y * (g - sum(g * y)) (0 on those rows, where y is 0)."""

    node_name = "SafeSoftmaxBackward0"
    double_backward_name = "SoftmaxBackwardDataBackward0"
    ctx_fields = ("dim",)

    @staticmethod
    def forward(ctx, a, dim):
        top = a.max(axis=dim, keepdims=True, initial=-np.inf)
        shifted = a - np.where(np.isneginf(top), 0, top)  # a row of -inf: exp gives 0s
        e = np.exp(shifted)
        total = e.sum(axis=dim, keepdims=True)
        masked_rows = np.isneginf(a).all(axis=dim, keepdims=True)
        out = row_major(np.where(masked_rows, 0, e / np.where(masked_rows, 1, total)))
        out = out.astype(a.dtype, copy=False)
        ctx.save_for_backward(out)
        ctx.dim = dim
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        return out * (grad_output - (grad_output * out).sum(axis=ctx.dim, keepdims=True))
