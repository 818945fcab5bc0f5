"""The ``Function`` behind ``F.bilinear``: PyTorch's ``_trilinear`` for the case bilinear
uses, recorded as ``TrilinearBackward0``."""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["Trilinear"]


class Trilinear(NumpyFunction):
    """y[n, o] = sum over i, j of x1[n, i] w[o, i, j] x2[n, j], so

        dL/dx1[n, i] = sum over o, j of dL/dy[n, o] w[o, i, j] x2[n, j]
        dL/dw[o, i, j] = sum over n of dL/dy[n, o] x1[n, i] x2[n, j]
        dL/dx2[n, j] = sum over o, i of dL/dy[n, o] x1[n, i] w[o, i, j]

    each a batched matrix product over the output features o.
    """

    node_name = "TrilinearBackward0"

    @staticmethod
    def forward(ctx, x1, w, x2):
        ctx.save_for_backward(x1, w, x2)
        return np.ascontiguousarray((np.matmul(x1, w) * x2).sum(axis=-1).T)  # (O, N, J) -> (N, O)

    @staticmethod
    def backward(ctx, grad_output):
        x1, w, x2 = ctx.saved_tensors
        need_x1, need_w, need_x2 = ctx.needs_input_grad
        g = grad_output.T  # (O, N)
        gx1 = gw = gx2 = None
        if need_x1:  # (O, N, I) weighted by dL/dy, summed over o
            gx1 = (np.matmul(x2, w.swapaxes(-1, -2)) * g[:, :, None]).sum(axis=0)
        if need_w:  # (O, I, N) @ (N, J)
            gw = np.matmul((x1[None] * g[:, :, None]).swapaxes(-1, -2), x2)
        if need_x2:  # (O, N, J) weighted by dL/dy, summed over o
            gx2 = (np.matmul(x1, w) * g[:, :, None]).sum(axis=0)
        return gx1, gw, gx2
