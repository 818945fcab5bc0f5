"""Rounding: round (half to even), floor, ceil, trunc, and sign.

The formulas: one ``Function`` per op, forward and backward side by side. The public
functions that call them (argument checks, dtypes, PyTorch's errors) are in
``microtorch/api/rounding.py``.

Each is a step function of its input, flat between the steps: its derivative is 0 wherever it
exists, so backward passes zeros (PyTorch does the same, rather than raising at the steps).
Integer inputs are already whole numbers: they come back unchanged (a copy).
"""

from __future__ import annotations

import numpy as np

from microtorch.autograd.function import NumpyFunction

__all__ = ["_Step", "Round", "RoundDecimals", "Floor", "Ceil", "Trunc", "Sign", "Frac"]


class _Step(NumpyFunction):
    """z = step(a), flat between the steps, so dz/da = 0."""

    @staticmethod
    def backward(ctx, grad_output):
        return np.zeros_like(grad_output)


class Round(_Step):
    """z = round(a), halves to even (round(2.5) = 2), so dz/da = 0."""

    node_name = "RoundBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.rint(a)


class RoundDecimals(_Step):
    """z = round(a * 10**d) / 10**d (d < 0: round(a / 10**-d) * 10**-d), so dz/da = 0."""

    node_name = "RoundBackward1"

    @staticmethod
    def forward(ctx, a, decimals):
        scale = np.asarray(10.0 ** abs(decimals), a.dtype)  # as PyTorch scales
        return np.rint(a * scale) / scale if decimals > 0 else np.rint(a / scale) * scale


class Floor(_Step):
    """z = floor(a), the largest whole number <= a, so dz/da = 0."""

    node_name = "FloorBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.floor(a)


class Ceil(_Step):
    """z = ceil(a), the smallest whole number >= a, so dz/da = 0."""

    node_name = "CeilBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.ceil(a)


class Trunc(_Step):
    """z = trunc(a), a rounded toward zero, so dz/da = 0."""

    node_name = "TruncBackward0"

    @staticmethod
    def forward(ctx, a):
        return np.trunc(a)


class Sign(_Step):
    """z = -1, 0 or 1 by the sign of a (0 for nan, as PyTorch), so dz/da = 0."""

    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, a):
        return ((a > 0).astype(a.dtype) - (a < 0)).astype(a.dtype)


class Frac(NumpyFunction):
    """z = a - trunc(a), the fractional part (its sign is a's), so dz/da = 1."""

    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx, a):
        return a - np.trunc(a)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output
