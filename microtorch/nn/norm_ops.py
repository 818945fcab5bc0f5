"""The ``Function``s behind batch and layer normalization: ``NativeBatchNormBackward0`` and
``NativeLayerNormBackward0``, as PyTorch records them on the CPU.

Both normalize ``x`` to ``x_hat = (x - mean) / sqrt(var + eps)`` (``var`` the biased
variance) and then scale and shift it, ``y = x_hat * weight + bias``. They differ in which
elements share a mean: batch norm averages each channel over the batch and the spatial
positions, layer norm each sample over its last dims. The arguments come checked from
``norm_functions.py``.

With ``create_graph=True`` the saved ``mean`` and ``invstd`` would be constants to the
recorded formula, though they depend on ``x``: the formula then computes them again from
``x`` (``_statistics``), so that their part of the second derivative is recorded too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from microtorch.nn.conv_ops import OptionalInputs
from microtorch.ops._layout import row_major

__all__ = ["NativeBatchNorm", "NativeLayerNorm"]


def _statistics(x: Any, axes: tuple[int, ...], eps: float) -> tuple[Any, Any]:
    """mean and 1 / sqrt(var + eps) of ``x`` over ``axes`` (kept), var the biased variance."""
    mean = x.mean(axis=axes, keepdims=True)
    var = np.square(x - mean).mean(axis=axes, keepdims=True)
    return mean, 1 / np.sqrt(var + eps)


class NativeBatchNorm(OptionalInputs):
    """y[n, c, ...] = (x[n, c, ...] - mean_c) / sqrt(var_c + eps) * w[c] + b[c].

    Training: mean_c and var_c are the batch's (over n and the spatial positions, m values),
    and the running statistics are updated in place:
    ``running = (1 - momentum) running + momentum stat``, with the unbiased variance
    var_c m / (m - 1). Then, with g = dL/dy and x_hat the normalized input,

        dL/dx = w / sqrt(var + eps) * (g - mean(g) - x_hat mean(g x_hat))   (means over m)

    In evaluation the running statistics are constants: dL/dx = g w / sqrt(running_var + eps).
    Either way dL/dw[c] = sum g x_hat and dL/db[c] = sum g.
    """

    node_name = "NativeBatchNormBackward0"
    double_backward_name = "NativeBatchNormBackwardBackward0"
    edges = (0, 1, 2)

    ctx_fields = ("training", "eps")

    @staticmethod
    def forward(ctx, x, w, b, running_mean, running_var, training, momentum, eps):
        axes = (0, *range(2, x.ndim))
        shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
        if training:
            mean = x.mean(axis=axes)
            centered = x - mean.reshape(shape)
            var = np.square(centered).mean(axis=axes)
            if running_mean is not None:
                m = x.size // x.shape[1]
                running_mean *= 1 - momentum
                running_mean += momentum * mean
                running_var *= 1 - momentum
                running_var += momentum * var * (m / (m - 1) if m > 1 else np.inf)
        else:
            mean, var = running_mean, running_var
            centered = x - mean.reshape(shape)
        invstd = (1 / np.sqrt(var + np.asarray(eps, var.dtype))).astype(x.dtype)
        x_hat = centered * invstd.reshape(shape)
        ctx.save_for_backward(x, w, mean, invstd)  # (the input itself, as PyTorch saves it)
        ctx.training, ctx.eps = training, eps
        y = x_hat if w is None else x_hat * w.reshape(shape)
        y = y + b.reshape(shape) if b is not None else y.copy() if y is x_hat else y
        return row_major(y)  # (PyTorch's layout, whatever x's)

    @staticmethod
    def backward(ctx, grad_output):
        x, w, mean, invstd = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        g = grad_output
        axes = (0, *range(2, g.ndim))
        shape = (1, g.shape[1]) + (1,) * (g.ndim - 2)
        if ctx.training and not isinstance(x, np.ndarray):  # create_graph=True: in the graph
            mean, invstd = (s.reshape(-1) for s in _statistics(x, axes, ctx.eps))
        x_hat = (x - mean.reshape(shape)) * invstd.reshape(shape)
        scale = invstd if w is None else invstd * w
        gx = gw = gb = None
        sum_g = g.sum(axis=axes)
        sum_gx = (g * x_hat).sum(axis=axes)
        if need_x:
            if ctx.training:
                m = g.size // g.shape[1]
                mean_g = (sum_g / m).reshape(shape)
                mean_gx = (sum_gx / m).reshape(shape)
                gx = scale.reshape(shape) * (g - mean_g - x_hat * mean_gx)
            else:
                gx = g * scale.reshape(shape)
        if need_w:
            gw = sum_gx
        if need_b:
            gb = sum_g
        return gx, gw, gb


class NativeLayerNorm(OptionalInputs):
    """y = (x - mean) / sqrt(var + eps) * w + b, mean and (biased) var over the last dims
    (``normalized_shape``, M values) of each sample. With g = dL/dy and x_hat as above,

        dL/dx = 1 / sqrt(var + eps) * (g w - mean(g w) - x_hat mean(g w x_hat))   (means over M)
        dL/dw = sum over samples of g x_hat,  dL/db = sum over samples of g
    """

    node_name = "NativeLayerNormBackward0"
    double_backward_name = "NativeLayerNormBackwardBackward0"
    edges = (0, 2, 3)

    ctx_fields = ("dims", "eps")

    @staticmethod
    def forward(ctx, x, dims, w, b, eps):
        axes = tuple(range(x.ndim - dims, x.ndim))
        mean = x.mean(axis=axes, keepdims=True)
        centered = x - mean
        var = np.square(centered).mean(axis=axes, keepdims=True)
        invstd = (1 / np.sqrt(var + np.asarray(eps, var.dtype))).astype(x.dtype)
        x_hat = centered * invstd
        ctx.save_for_backward(x, mean, invstd, w, b)  # (the input itself, as PyTorch saves it)
        ctx.dims, ctx.eps = dims, eps
        y = x_hat if w is None else x_hat * w
        y = y + b if b is not None else y.copy() if y is x_hat else y
        return row_major(y)  # (PyTorch's layout, whatever x's)

    @staticmethod
    def backward(ctx, grad_output):
        x, mean, invstd, w, _ = ctx.saved_tensors  # (b: PyTorch's node takes it too)
        need_x, need_w, need_b = ctx.needs_input_grad
        g = grad_output
        axes = tuple(range(g.ndim - ctx.dims, g.ndim))
        if not isinstance(x, np.ndarray):  # create_graph=True: mean and invstd in the graph
            mean, invstd = _statistics(x, axes, ctx.eps)
        x_hat = (x - mean) * invstd
        lead = tuple(range(g.ndim - ctx.dims))
        gx = gw = gb = None
        if need_x:
            gw_ = g if w is None else g * w
            mean_g = gw_.mean(axis=axes, keepdims=True)
            mean_gx = (gw_ * x_hat).mean(axis=axes, keepdims=True)
            gx = invstd * (gw_ - mean_g - x_hat * mean_gx)
        if need_w:
            gw = (g * x_hat).sum(axis=lead)
        if need_b:
            gb = g.sum(axis=lead)
        return gx, gw, gb
