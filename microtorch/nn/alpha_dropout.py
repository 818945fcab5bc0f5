"""``alpha_dropout`` and ``feature_alpha_dropout``: SELU networks' dropout, which keeps the
mean and variance of its input (issue 24).

A dropped value becomes SELU's saturation value -alpha' (alpha' = alpha * scale of SELU),
then everything is mapped by a x + b with a, b chosen so that a zero-mean, unit-variance
input stays so. As PyTorch computes it: keep ~ Bernoulli(1 - p),
a = 1 / sqrt((alpha'^2 p + 1)(1 - p)), output = x * (keep * a) + (keep - 1) alpha' a + alpha' a p,
recorded as ``MulBackward0`` then ``AddBackward0``.
"""

from __future__ import annotations

import math

import numpy as np

from microtorch.api import elementwise as ew
from microtorch.api._checks import expect_tensor
from microtorch.creation import default_generator
from microtorch.tensor import Tensor, plain_tensor

__all__ = ["alpha_dropout", "feature_alpha_dropout"]

_ALPHA = 1.7580993408473766  # SELU's alpha * scale: the value its outputs saturate at, negated


def _alpha_dropout(input: Tensor, p: float, training: bool, inplace: bool, feature: bool) -> Tensor:  # noqa: A002
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or input._data.size == 0:
        return input
    dtype = input._data.dtype
    if p == 1:
        zero = plain_tensor(np.zeros((), dtype), input._device)
        return input.mul_(zero) if inplace else ew.mul(input, zero)
    shape = input._data.shape
    if feature:
        if len(shape) < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = shape[:2] + (1,) * (len(shape) - 2)  # one draw per (sample, channel)
    keep = (default_generator._rng.random(shape) >= p).astype(dtype)  # the seeded generator
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    b = plain_tensor(((keep - 1) * (_ALPHA * a) + _ALPHA * a * p).astype(dtype), input._device)
    noise = plain_tensor((keep * a).astype(dtype), input._device)
    if inplace:
        return input.mul_(noise).add_(b)
    return ew.mul(input, noise).add_(b)


def alpha_dropout(
    input: Tensor,  # noqa: A002
    p: float = 0.5,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Alpha dropout of each element (training only; ``training`` defaults to False)."""
    expect_tensor(input, "alpha_dropout")
    return _alpha_dropout(input, p, training, inplace, feature=False)


def feature_alpha_dropout(
    input: Tensor,  # noqa: A002
    p: float = 0.5,
    training: bool = False,
    inplace: bool = False,
) -> Tensor:
    """Alpha dropout of whole channels ``input[n, c]`` (training only)."""
    expect_tensor(input, "feature_alpha_dropout")
    return _alpha_dropout(input, p, training, inplace, feature=True)
