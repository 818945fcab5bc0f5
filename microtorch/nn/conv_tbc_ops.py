"""conv_tbc's ``Function``: a 1-d convolution of a (time, batch, channels) input, which is
``Convolution``'s (``conv_ops.py``) on the same numbers laid out as (batch, channels, time):
PyTorch records it as one node, ``ConvTbcBackward0``."""

from __future__ import annotations

import numpy as np

from microtorch.autograd.double_backward import Formula
from microtorch.nn.conv_ops import Convolution

__all__ = ["ConvTbc"]


class ConvTbc(Convolution):
    """y[t, b, o] = bias[o] + sum over k, c of x_pad[t + k, b, c] * w[k, c, o]: Convolution's
    formula (stride 1, dilation 1, one group) with x as (B, C, T), w as (O, C, K) and y as
    (B, O, T); its gradients transposed back."""

    node_name = "ConvTbcBackward0"
    double_backward_name = None  # (PyTorch's conv_tbc_backward records the ops it runs)

    @staticmethod
    def forward(ctx, x, w, b, pad):
        xt = np.ascontiguousarray(x.transpose(1, 2, 0))  # (T, B, C) -> (B, C, T)
        wt = np.ascontiguousarray(w.transpose(2, 1, 0))  # (K, C, O) -> (O, C, K)
        y = Convolution.forward(ctx, xt, wt, b, (1,), (pad,), (1,), 1)  # (B, O, T')
        ctx.save_for_backward(x, w)  # (the inputs themselves: a second derivative sees them)
        return np.ascontiguousarray(y.transpose(2, 0, 1))  # (T', B, O)

    @staticmethod
    def backward(ctx, grad_output):
        x, w = ctx.saved_tensors
        laid_out = Formula(ctx, (np.transpose(x, (1, 2, 0)), np.transpose(w, (2, 1, 0))))
        gx, gw, gb = Convolution.backward(laid_out, np.transpose(grad_output, (1, 2, 0)))
        return (
            None if gx is None else np.transpose(gx, (2, 0, 1)),
            None if gw is None else np.transpose(gw, (2, 1, 0)),
            gb,
        )
