"""Random draws that sit in a graph: normal with tensor means or standard deviations,
bernoulli of a tensor of probabilities, binomial and poisson of tensors of counts and rates.

The formulas: one ``Function`` per op, forward and backward side by side. The draws come in
from the public functions (``microtorch/api/sampling.py``), which take them from the seeded
generator. As in PyTorch, a sample's gradient with respect to its parameters is 0 (for
gradients through a sample, write it as mean + std * torch.randn(shape): the
reparameterisation trick).
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = [
    "NormalTensorTensor", "NormalTensorNumber", "NormalNumberTensor", "Bernoulli", "Refill",
    "NormalFill", "UniformFill", "ExponentialFill", "GeometricFill", "CauchyFill", "LogNormalFill",
    "BernoulliFill", "BernoulliTensorFill", "RandomFill", "RandomToFill", "RandomFromToFill",
    "Binomial", "Poisson",
]  # fmt: skip


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


class Refill(NumpyFunction):
    """z = random values written over a (``a.normal_()`` ...), so dz/da = 0: what was in
    the tensor no longer counts, and a draw is not differentiated."""

    node_name = "NormalBackward0"

    @staticmethod
    def forward(ctx, a, values):
        return values.astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad_output):
        return _zeros_for(ctx, grad_output)


class BernoulliTensorFill(Refill):
    """z = 0s and 1s drawn with the probabilities p, over a: dz/da = dz/dp = 0."""

    node_name = "BernoulliBackward1"

    @staticmethod
    def forward(ctx, a, p, values):
        return values.astype(a.dtype, copy=False)


# one node name per fill, as PyTorch names them (random_: from and to, to only, neither)
NormalFill = Refill


class UniformFill(Refill):
    node_name = "UniformBackward0"


class ExponentialFill(Refill):
    node_name = "ExponentialBackward0"


class GeometricFill(Refill):
    node_name = "GeometricBackward0"


class CauchyFill(Refill):
    node_name = "CauchyBackward0"


class LogNormalFill(Refill):
    node_name = "LogNormalBackward0"


class BernoulliFill(Refill):
    node_name = "BernoulliBackward2"


class RandomFromToFill(Refill):
    node_name = "RandomBackward0"


class RandomToFill(Refill):
    node_name = "RandomBackward1"


class RandomFill(Refill):
    node_name = "RandomBackward2"


class Binomial(NumpyFunction):
    """z = the number of successes in ``count`` trials of probability ``prob``: PyTorch
    defines no derivative (not even 0), so backward raises its error."""

    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, count, prob, draws):
        return draws.astype(count.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        raise RuntimeError(
            "derivative for aten::binomial is not implemented (Fix: a draw has no gradient; "
            "detach count and prob, or use a distribution's log_prob)"
        )


class Poisson(NumpyFunction):
    """z = a Poisson draw of rate ``rate``, so dz/drate = 0 (a draw is not differentiated)."""

    node_name = "PoissonBackward0"

    @staticmethod
    def forward(ctx, rate, draws):
        return draws.astype(rate.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        return _zeros_for(ctx, grad_output)
