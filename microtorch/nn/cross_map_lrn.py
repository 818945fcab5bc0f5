"""``CrossMapLRN2d``: Lua Torch's local response normalisation across channels, kept by
PyTorch as a Python ``Function`` (``CrossMapLRN2dBackward``) (issue 24).

y_c = x_c * s_c ** -beta with s_c = k + alpha / size * (sum of x_j^2 over a window of
channels j around c). PyTorch's running window never drops channel 0 (its loop removes a
channel only past ``pre_pad``), and its backward uses a centred window of its own; both are
reproduced here as matrices over the channels, so the values and gradients are PyTorch's.
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.formula_values import recorded
from microtorch.autograd.function import NumpyFunction
from microtorch.nn.module import Module
from microtorch.tensor import Tensor

__all__ = ["CrossMapLRN2d"]


def _forward_window(channels: int, size: int) -> np.ndarray:
    # M[c, j] = 1 where channel j counts towards s_c (channel 0 always does, see above)
    pre_pad = int((size - 1) / 2 + 1)
    c, j = np.arange(channels)[:, None], np.arange(channels)
    return ((j <= c + pre_pad - 1) & ((j == 0) | (j >= c - pre_pad + 1))).astype(np.float64)


def _backward_window(channels: int, size: int) -> np.ndarray:
    # B[c, m] = 1 where r_m (= g_m y_m / s_m) is summed into channel c's gradient
    inverse = int(size - (size - 1) / 2)
    c, m = np.arange(channels)[:, None], np.arange(channels)
    return ((m >= c - inverse) & (m <= c + size - 1 - inverse)).astype(np.float64)


class CrossMapLRN(NumpyFunction):
    """y = x * s ** -beta, s = k + alpha / size * M (x^2) over the channels (dim 1); PyTorch's
    backward: dL/dx = g s ** -beta - 2 alpha beta / size * x * B (g y / s)."""

    node_name = "CrossMapLRN2dBackward"
    ctx_fields = ("size", "alpha", "beta", "scale")

    @staticmethod
    def forward(ctx, x, size, alpha, beta, k):
        window = _forward_window(x.shape[1], size).astype(x.dtype)
        sums = np.einsum("cj,njhw->nchw", window, x * x)
        scale = sums * (alpha / size) + k
        out = x * scale ** (-beta)
        ctx.size, ctx.alpha, ctx.beta, ctx.scale = size, alpha, beta, scale
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        if recorded(out):  # create_graph=True: PyTorch's backward writes y * g into an out=
            # tensor, refused while y requires grad (so CrossMapLRN2d has no second derivative)
            raise RuntimeError(
                "mul(): functions with out=... arguments don't support automatic "
                "differentiation, but one of the arguments requires grad."
            )
        window = _backward_window(x.shape[1], ctx.size).astype(x.dtype)
        ratio = grad_output * out / ctx.scale
        accum = np.einsum("cm,nmhw->nchw", window, ratio)
        cache = 2 * ctx.alpha * ctx.beta / ctx.size
        return ctx.scale ** (-ctx.beta) * grad_output - cache * x * accum


class CrossMapLRN2d(Module):
    """Normalise each value of an ``(N, C, H, W)`` input by the squares of neighbouring
    channels (Lua Torch's ``SpatialCrossMapLRN``)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if input.dim() != 4:
            raise ValueError(f"CrossMapLRN2d: Expected input to be 4D, got {input.dim()}D instead.")
        return CrossMapLRN.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
