"""The ``Function``s behind ``F.unfold`` and ``F.fold``: ``Im2ColBackward0`` and
``Col2ImBackward0``. Each is the other's adjoint: unfold copies every sliding window of a
(padded) image into a column, fold adds every column back where its window lies."""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction
from microtorch.nn.conv_ops import _crop, _offsets, _pad, _padded, _scatter_windows

__all__ = ["Im2Col", "Col2Im", "im2col", "col2im"]


def im2col(
    x: np.ndarray, kernel: tuple[int, int], dilation: tuple[int, int],
    padding: tuple[int, int], stride: tuple[int, int], out: tuple[int, int],
) -> np.ndarray:  # fmt: skip
    """(N, C, H, W) -> (N, C kh kw, L): ``cols[n, (c, i, j), (p, q)] =
    x_pad[n, c, p s + i d, q s + j d]``, one strided slice per kernel offset."""
    n, c = x.shape[:2]
    xp = _pad(x, padding, padding)
    every = (slice(None), slice(None))
    blocks = [xp[every + where] for _, where in _offsets(kernel, stride, dilation, out)]
    return np.stack(blocks, axis=2).reshape(n, c * kernel[0] * kernel[1], out[0] * out[1])


def col2im(
    cols: np.ndarray, size: tuple[int, int], kernel: tuple[int, int],
    dilation: tuple[int, int], padding: tuple[int, int], stride: tuple[int, int],
    out: tuple[int, int],
) -> np.ndarray:  # fmt: skip
    """(N, C kh kw, L) -> (N, C, H, W): each column added back over its window (overlaps
    sum), the padding cropped off: the adjoint of ``im2col``."""
    n = cols.shape[0]
    c = cols.shape[1] // (kernel[0] * kernel[1])
    gwin = cols.reshape(n, c, *kernel, *out)
    full = _scatter_windows(gwin, _padded(size, padding, padding), stride, dilation)
    return _crop(full, padding, size)


class Im2Col(NumpyFunction):
    """cols = im2col(x): each output is one input value, so dL/dx = col2im(dL/dcols) (values
    read by several windows get the sum of their gradients)."""

    node_name = "Im2ColBackward0"
    double_backward_name = "Col2ImBackward0"

    ctx_fields = ("args", "size")

    @staticmethod
    def forward(ctx, x, kernel, dilation, padding, stride, out):
        ctx.args, ctx.size = (kernel, dilation, padding, stride, out), x.shape[-2:]
        if x.ndim == 3:  # one sample, without its batch dim
            return im2col(x[None], kernel, dilation, padding, stride, out)[0]
        return im2col(x, kernel, dilation, padding, stride, out)

    @staticmethod
    def backward(ctx, grad_output):
        kernel, dilation, padding, stride, out = ctx.args
        if grad_output.ndim == 2:
            return col2im(grad_output[None], ctx.size, *ctx.args)[0]
        return col2im(grad_output, ctx.size, kernel, dilation, padding, stride, out)


class Col2Im(NumpyFunction):
    """x = col2im(cols), a sum of column entries per pixel, so dL/dcols = im2col(dL/dx)."""

    node_name = "Col2ImBackward0"
    double_backward_name = "Im2ColBackward0"

    ctx_fields = ("args",)

    @staticmethod
    def forward(ctx, cols, size, kernel, dilation, padding, stride, out):
        ctx.args = (kernel, dilation, padding, stride, out)
        if cols.ndim == 2:  # one sample, without its batch dim
            return col2im(cols[None], size, *ctx.args)[0]
        return col2im(cols, size, kernel, dilation, padding, stride, out)

    @staticmethod
    def backward(ctx, grad_output):
        if grad_output.ndim == 3:
            return im2col(grad_output[None], *ctx.args)[0]
        return im2col(grad_output, *ctx.args)
