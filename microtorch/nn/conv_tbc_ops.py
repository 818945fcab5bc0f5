"""conv_tbc's ``Function``: a 1-d convolution of a (time, batch, channels) input, which is
``Convolution``'s (``conv_ops.py``) on the same numbers laid out as (batch, channels, time):
PyTorch records it as one node, ``ConvTbcBackward0``."""

from __future__ import annotations

import numpy as np

from microtorch.nn.conv_ops import Convolution
from microtorch.ops.linalg_factor import no_double_backward

__all__ = ["ConvTbc"]


class ConvTbc(Convolution):
    """y[t, b, o] = bias[o] + sum over k, c of x_pad[t + k, b, c] * w[k, c, o]: Convolution's
    formula (stride 1, dilation 1, one group) with x as (B, C, T), w as (O, C, K) and y as
    (B, O, T); its gradients transposed back."""

    node_name = "ConvTbcBackward0"

    @staticmethod
    def forward(ctx, x, w, b, pad):
        xt = np.ascontiguousarray(x.transpose(1, 2, 0))  # (T, B, C) -> (B, C, T)
        wt = np.ascontiguousarray(w.transpose(2, 1, 0))  # (K, C, O) -> (O, C, K)
        y = Convolution.forward(ctx, xt, wt, b, (1,), (pad,), (1,), 1)  # (B, O, T')
        return np.ascontiguousarray(y.transpose(2, 0, 1))  # (T', B, O)

    @staticmethod
    def backward(ctx, grad_output):
        # (recorded, Convolution's formula on the transposed views gives a wrong second
        # derivative: refused until it is checked against PyTorch's)
        no_double_backward("conv_tbc", "conv_tbc")
        gx, gw, gb = Convolution.backward(ctx, grad_output.transpose(1, 2, 0))
        return (
            None if gx is None else gx.transpose(2, 0, 1),
            None if gw is None else gw.transpose(2, 1, 0),
            gb,
        )
