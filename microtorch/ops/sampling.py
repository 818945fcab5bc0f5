"""Random draws that sit in a graph: normal with tensor means or standard deviations, and
bernoulli of a tensor of probabilities.

The formulas: one ``Function`` per op, forward and backward side by side. The draws come in
from the public functions (``microtorch/api/sampling.py``), which take them from the seeded
generator. As in PyTorch, a sample's gradient with respect to its parameters is 0 (for
gradients through a sample, write it as mean + std * torch.randn(shape): the
reparameterisation trick).
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["NormalTensorTensor", "NormalTensorNumber", "NormalNumberTensor", "Bernoulli"]


def _zeros_for(ctx, grad_output):
    # one zero gradient per floating-point input that needs one
    return tuple(
        np.zeros_like(grad_output, shape=ctx.input_shape(i)) if needed else None
        for i, needed in enumerate(ctx.needs_input_grad)
    )


class NormalTensorTensor(NumpyFunction):
    """z = mean + std * noise (noise standard normal), so dz/dmean = dz/dstd = 0 as PyTorch
    defines them: a draw is not differentiated."""

    node_name = "NormalBackward3"

    @staticmethod
    def forward(ctx, mean, std, noise):
        return (mean + std * noise).astype(mean.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad_output):
        return _zeros_for(ctx, grad_output)


class NormalTensorNumber(NormalTensorTensor):
    """z = mean + std * noise for a tensor ``mean`` and a number ``std``: dz/dmean = 0."""

    node_name = "NormalBackward1"


class NormalNumberTensor(NormalTensorTensor):
    """z = mean + std * noise for a number ``mean`` and a tensor ``std``: dz/dstd = 0."""

    node_name = "NormalBackward2"

    @staticmethod
    def forward(ctx, std, mean, noise):
        return (mean + std * noise).astype(std.dtype, copy=False)


class Bernoulli(NumpyFunction):
    """z = 1 where a uniform draw u < p, else 0, so dz/dp = 0 (a draw is not differentiated)."""

    node_name = "BernoulliBackward0"

    @staticmethod
    def forward(ctx, p, uniform):
        return (uniform < p).astype(p.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return _zeros_for(ctx, grad_output)
