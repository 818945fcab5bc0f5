"""The ``Function`` behind ``conv_transpose1d/2d/3d``: a transposed convolution, which PyTorch
records as ``ConvolutionBackward0`` like any convolution.

A transposed convolution is the gradient of a convolution with respect to its input, run
forwards: each input position ``i`` adds ``x[i] * w[k]`` into the output at ``i * s + k * d``.
So its forward is ``Convolution``'s input gradient, its input gradient is a plain
convolution, and its weight gradient is ``Convolution``'s weight gradient with the roles of
input and output swapped. Every pass loops over the few kernel offsets, never over pixels.
"""

from __future__ import annotations

import numpy as np

from microtorch.nn.conv_ops import OptionalInputs, _offsets

__all__ = ["ConvolutionTranspose"]


class ConvolutionTranspose(OptionalInputs):
    """y_full[n, g Co/G + o, i s + k d] = sum over c of x[n, g C/G + c, i] w[g C/G + c, o, k],
    y = b + y_full with ``padding`` cropped from both ends (and ``output_padding`` extra
    positions kept at the end), for input channel group g, stride s and dilation d. So

        dL/dx[n, c, i] = sum over o, k of dL/dy_full[n, o, i s + k d] w[c, o, k]
        dL/dw[c, o, k] = sum over n, i of x[n, c, i] dL/dy_full[n, o, i s + k d]
        dL/db[o] = sum over n and positions of dL/dy[n, o, ...]

    where dL/dy_full is dL/dy with ``padding`` zeros put back on both ends: the input
    gradient is a convolution of dL/dy_full with w.
    """

    node_name = "ConvolutionBackward0"
    double_backward_name = "ConvolutionBackwardBackward0"
    edges = (0, 1, 2)

    ctx_fields = ("stride", "padding", "dilation", "groups", "full")

    @staticmethod
    def forward(ctx, x, w, b, stride, padding, output_padding, dilation, groups):
        ctx.save_for_backward(x, w)
        n, c, *size = x.shape
        kernel, co = w.shape[2:], w.shape[1] * groups
        full = tuple(
            (i - 1) * s + d * (k - 1) + 1 + op
            for i, s, d, k, op in zip(size, stride, dilation, kernel, output_padding)
        )
        ctx.stride, ctx.padding, ctx.dilation, ctx.groups = stride, padding, dilation, groups
        ctx.full = full
        xm = x.reshape(n, groups, c // groups, -1)  # (N, G, C/G, P)
        y = np.zeros_like(x, shape=(n, co, *full))
        every = (slice(None), slice(None))
        for k, where in _offsets(kernel, stride, dilation, tuple(size)):
            wk = w[every + k].reshape(groups, c // groups, co // groups)  # (G, C/G, Co/G)
            share = np.matmul(wk.swapaxes(-1, -2), xm)  # (N, G, Co/G, P)
            y[every + where] += share.reshape(n, co, *size)
        inside = tuple(slice(p, f - p) for p, f in zip(padding, full))
        y = y[every + inside]
        if b is not None:
            y = y + b.reshape(co, *(1,) * len(size))
        return np.ascontiguousarray(y)

    @staticmethod
    def backward(ctx, grad_output):
        x, w = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad
        stride, padding, dilation, groups = ctx.stride, ctx.padding, ctx.dilation, ctx.groups
        n, c, *size = x.shape
        co, nd, kernel = grad_output.shape[1], len(size), w.shape[2:]
        every = (slice(None), slice(None))
        # dL/dy_full: the cropped padding back as zeros
        gfull = np.zeros_like(grad_output, shape=(n, co, *ctx.full))
        inside = tuple(slice(p, f - p) for p, f in zip(padding, ctx.full))
        gfull[every + inside] = grad_output
        gx = gw = gb = None
        if need_x:
            gx = np.zeros_like(x, shape=(n, groups, c // groups, int(np.prod(size))))
        if need_w:
            gw = np.zeros_like(w)
            xm = x.reshape(n, groups, c // groups, -1)  # (N, G, C/G, P)
        for k, where in _offsets(kernel, stride, dilation, tuple(size)):
            gk = gfull[every + where].reshape(n, groups, co // groups, -1)  # (N, G, Co/G, P)
            if need_x:
                wk = w[every + k].reshape(groups, c // groups, co // groups)
                gx += np.matmul(wk, gk)  # (N, G, C/G, P)
            if need_w:
                share = np.matmul(xm, gk.swapaxes(-1, -2)).sum(axis=0)  # (G, C/G, Co/G)
                gw[every + k] += share.reshape(c, co // groups)
        if need_x:
            gx = gx.reshape(x.shape)
        if need_b:
            gb = grad_output.sum(axis=(0, *range(2, 2 + nd)))
        return gx, gw, gb
